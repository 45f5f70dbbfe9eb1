//! `content` and `tag` name the same key.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "type", content = "type")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {}
