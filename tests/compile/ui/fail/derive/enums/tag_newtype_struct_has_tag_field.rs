//! A newtype variant of an internally tagged enum wraps a struct with a
//! field named like the tag (found when the constant is evaluated).
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Key {
    kind: String,
}

#[derive(ToolParams)]
#[param(tag = "kind")]
enum Event {
    Click { x: u32, y: u32 },
    Key(Key),
}

fn main() {}
