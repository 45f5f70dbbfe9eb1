//! A look-behind in the pattern of each item, named with its byte.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(items(pattern = "(?<!-)[a-z]+"))]
    tags: Vec<String>,
}

fn main() {}
