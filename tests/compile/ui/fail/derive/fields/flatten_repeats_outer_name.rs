//! A flattened struct with a field of the same JSON name as an outer one.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Paging {
    page: u32,
    query: String,
}

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(flatten)]
    paging: Paging,
}

fn main() {}
