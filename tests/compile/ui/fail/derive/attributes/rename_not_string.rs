use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(rename = 5)]
    query: String,
}

fn main() {}
