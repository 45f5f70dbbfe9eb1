use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min_length = 1.5)]
    query: String,
}

fn main() {}
