//! An escape ECMA-262 does not have (`\z`), named with its byte.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^[a-z]+\\z")]
    name: String,
}

fn main() {}
