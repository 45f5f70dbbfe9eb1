//! A value listed twice in `one_of`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = ["low", "high", "low"])]
    level: String,
}

fn main() {}
