//! A key `items(...)` does not take.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(items(rename = "tag"))]
    tags: Vec<String>,
}

fn main() {}
