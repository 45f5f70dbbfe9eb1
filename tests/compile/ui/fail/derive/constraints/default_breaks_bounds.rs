//! A literal `default` below `min`, and one above `max`: each reported at
//! the default, in one build.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(min = 1, max = 100, default = 0)]
    limit: u32,
    #[param(max = 0.5, default = 0.75)]
    ratio: f64,
}

fn main() {}
