//! `flatten` on a field that is not a struct deriving `ToolParams`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(flatten)]
    extra: String,
}

fn main() {}
