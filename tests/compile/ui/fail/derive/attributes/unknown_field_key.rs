use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(alias = "q")]
    query: String,
}

fn main() {}
