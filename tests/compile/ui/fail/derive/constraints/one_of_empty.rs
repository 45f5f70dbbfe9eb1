//! An empty `one_of`: no value could be given.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [])]
    level: u8,
}

fn main() {}
