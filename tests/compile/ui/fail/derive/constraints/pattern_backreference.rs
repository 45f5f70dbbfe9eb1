//! A `pattern` with a backreference, which parse cannot run in linear time.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^(a+)\\1$")]
    name: String,
}

fn main() {}
