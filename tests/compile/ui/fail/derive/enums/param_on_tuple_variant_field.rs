//! `#[param]` on an unnamed field of a tuple variant.
use tool_core::ToolParams;

#[derive(ToolParams)]
enum Move {
    To(#[param(min = 0)] i32, i32),
    Stop,
}

fn main() {}
