//! `one_of` takes a list, not a single value.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = "low")]
    level: String,
}

fn main() {}
