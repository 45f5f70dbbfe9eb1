//! `pattern` on an integer field.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^[0-9]+$")]
    count: u32,
}

fn main() {}
