use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min_length = 1)]
    limit: u32,
}

fn main() {}
