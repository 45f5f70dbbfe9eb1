use tool_core::ToolParams;

#[derive(ToolParams)]
struct Point(i64, i64);

fn main() {}
