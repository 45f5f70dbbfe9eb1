//! `untagged` together with `tag`: an untagged enum has no tag.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "type", untagged)]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {}
