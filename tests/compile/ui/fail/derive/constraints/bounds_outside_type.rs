//! Bounds no value of the type meets: `min` above the largest `u8`, `max`
//! below the smallest `u32`, and no integer between `min` and `max`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min = 300)]
    level: u8,
    #[param(max = -1)]
    count: Option<u32>,
    #[param(min = 2.25, max = 2.75)]
    steps: i32,
}

fn main() {}
