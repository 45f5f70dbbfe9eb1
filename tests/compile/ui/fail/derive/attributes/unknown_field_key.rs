use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(nickname = "q")]
    query: String,
}

fn main() {}
