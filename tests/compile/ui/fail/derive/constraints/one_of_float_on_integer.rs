//! A number with a fraction in the `one_of` of an integer field.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [1, 2.5])]
    level: u8,
}

fn main() {}
