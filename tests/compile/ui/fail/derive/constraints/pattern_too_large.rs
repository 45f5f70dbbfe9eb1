//! A pattern the regex crate refuses to compile: larger than its size
//! limit once the repetitions are written out.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(pattern = "^(\\w{1000}){1000}$")]
    text: String,
}

fn main() {}
