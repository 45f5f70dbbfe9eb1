//! `rename` on an unnamed field of a tuple variant, which has no key.
use tool_core::ToolParams;

#[derive(ToolParams)]
enum Move {
    To(#[param(min = 0, rename = "x")] i32, i32),
    Stop,
}

fn main() {}
