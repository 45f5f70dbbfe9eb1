use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(rename = "q", rename = "query")]
    query: String,
}

fn main() {}
