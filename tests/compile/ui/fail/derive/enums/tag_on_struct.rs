//! `tag` names an enum's variant: on a struct it means nothing.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "kind")]
struct Request {
    query: String,
}

fn main() {}
