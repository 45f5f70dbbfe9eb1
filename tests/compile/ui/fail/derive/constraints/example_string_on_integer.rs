//! A string example for an integer field.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(example = "x")]
    count: u32,
}

fn main() {}
