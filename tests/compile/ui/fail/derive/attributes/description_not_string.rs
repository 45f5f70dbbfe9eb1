use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(description = 1)]
    query: String,
}

fn main() {}
