//! A newtype variant of an internally tagged enum must wrap a struct: a
//! number cannot sit beside the tag.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "action")]
enum Action {
    Click { x: u32, y: u32 },
    Wait(u32),
}

fn main() {}
