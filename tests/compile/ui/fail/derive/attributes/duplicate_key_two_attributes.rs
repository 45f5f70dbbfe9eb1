use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(rename = "q")]
    #[param(rename = "query")]
    query: String,
}

fn main() {}
