//! `tag` belongs on the enum, not on one of its variants.
use tool_core::ToolParams;

#[derive(ToolParams)]
enum Action {
    #[param(tag = "kind")]
    Click { x: u32, y: u32 },
    Stop,
}

fn main() {}
