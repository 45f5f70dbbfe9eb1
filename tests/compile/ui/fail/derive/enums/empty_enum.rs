use tool_core::ToolParams;

#[derive(ToolParams)]
enum Never {}

fn main() {}
