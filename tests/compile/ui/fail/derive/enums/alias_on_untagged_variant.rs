//! An untagged variant is never named, so an alias does nothing.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(untagged)]
enum Lookup {
    #[param(alias = "by_id")]
    ById { id: u64 },
    ByName { name: String },
}

fn main() {}
