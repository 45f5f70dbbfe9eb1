use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all = "camelCase")]
struct Request {
    max_results: u32,
    maxResults: u32,
}

fn main() {}
