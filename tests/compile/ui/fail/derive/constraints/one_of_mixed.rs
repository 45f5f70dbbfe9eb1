//! Numbers and strings in one `one_of` list.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [1, "two"])]
    level: u8,
}

fn main() {}
