use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(rename = "query")]
    search: String,
}

fn main() {}
