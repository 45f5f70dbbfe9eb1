use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min = 10, max = 1)]
    limit: u32,
}

fn main() {}
