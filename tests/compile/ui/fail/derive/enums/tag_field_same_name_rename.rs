//! A struct variant's field renamed to the internal tag's name.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "kind")]
enum Event {
    Click { x: u32, y: u32 },
    Key {
        #[param(rename = "kind")]
        key: String,
    },
}

fn main() {}
