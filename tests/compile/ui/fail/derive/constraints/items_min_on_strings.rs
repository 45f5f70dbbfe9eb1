//! `items(min = 1)` on a list of strings: the items are not numbers.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(items(min = 1))]
    tags: Vec<String>,
}

fn main() {}
