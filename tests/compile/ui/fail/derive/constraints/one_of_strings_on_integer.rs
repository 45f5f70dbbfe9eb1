//! A list of strings on an integer field.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = ["low", "high"])]
    level: u8,
}

fn main() {}
