//! A variant an earlier one always wins over, in an untagged enum.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(untagged)]
enum Query {
    List { filter: Option<String>, limit: Option<u32> },
    Filtered { filter: Option<String> },
    Text(String),
    Word(String),
    Anything(serde_json::Value),
    Get { id: u64 },
}

fn main() {}
