//! `flatten` with `rename`: a flattened field has no name of its own.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Paging {
    page: u32,
}

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(flatten, rename = "paging")]
    paging: Paging,
}

fn main() {}
