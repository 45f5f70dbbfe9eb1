use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(min = 1)]
struct Request {
    limit: u32,
}

fn main() {}
