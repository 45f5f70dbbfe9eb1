//! `content` without `tag`: an adjacently tagged enum needs both.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(content = "data")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {}
