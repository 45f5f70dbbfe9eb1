//! `items(...)` on a field that is not a list.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(items(max_length = 10))]
    query: String,
}

fn main() {}
