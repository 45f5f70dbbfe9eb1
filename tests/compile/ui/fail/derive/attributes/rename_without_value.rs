use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(rename)]
    query: String,
}

fn main() {}
