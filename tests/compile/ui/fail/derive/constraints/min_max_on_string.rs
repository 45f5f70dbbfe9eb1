use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min = 1, max = 10)]
    query: String,
}

fn main() {}
