use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min = "x")]
    limit: u32,
}

fn main() {}
