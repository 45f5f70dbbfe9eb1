//! An alias that is another field's name, and one that is the field's own.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Search {
    #[param(alias = "limit")]
    query: String,
    #[param(alias = "limit")]
    limit: u32,
}

fn main() {}
