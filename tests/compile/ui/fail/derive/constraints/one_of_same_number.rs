//! `1` and `1.0` in one list: the same JSON number twice.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [0.5, 1, 1.0])]
    ratio: f64,
}

fn main() {}
