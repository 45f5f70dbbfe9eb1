//! A literal `default` the field's own `pattern` does not match.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^[a-z]+$", default = "Main")]
    branch: String,
}

fn main() {}
