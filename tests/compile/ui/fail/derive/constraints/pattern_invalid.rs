//! A `pattern` that is not a valid ECMA-262 regular expression.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^[a-z+$")]
    name: String,
}

fn main() {}
