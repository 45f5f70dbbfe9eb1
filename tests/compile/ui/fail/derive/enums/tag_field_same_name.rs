//! A struct variant's field with the JSON name of the internal tag.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "kind")]
enum Event {
    Click { x: u32, y: u32 },
    Key { kind: String },
}

fn main() {}
