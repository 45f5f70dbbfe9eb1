//! Two flattened structs with a JSON name in common.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Paging {
    page: u32,
    limit: u32,
}

#[derive(ToolParams)]
#[param(rename_all = "camelCase")]
struct Filter {
    tag: String,
    limit: u32,
}

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(flatten)]
    paging: Paging,
    #[param(flatten)]
    filter: Filter,
}

fn main() {}
