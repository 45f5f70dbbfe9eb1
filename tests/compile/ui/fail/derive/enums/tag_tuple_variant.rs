//! A tuple variant with two fields in an internally tagged enum.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "action")]
enum Action {
    Click(u32, u32),
    Stop,
}

fn main() {}
