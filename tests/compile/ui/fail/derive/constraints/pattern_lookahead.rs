//! A `pattern` with look-ahead, which parse cannot run in linear time.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^(?=.*[0-9])[a-z0-9]+$")]
    password: String,
}

fn main() {}
