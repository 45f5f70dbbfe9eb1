//! One tool's parameters: parsed (every problem at its path) and their
//! JSON Schema, from one definition.

use tool_core::ToolParams;

/// Search the docs
#[derive(ToolParams, Debug)]
#[allow(dead_code)] // read only by Debug
struct Search {
    /// What to look for
    #[param(min_length = 1, max_length = 100)]
    query: String,
    /// How many results
    #[param(min = 1, max = 20)]
    limit: Option<u32>,
}

fn main() {
    let arguments = serde_json::json!({"query": "tool calling", "limit": 5});
    println!("{}", Search::json_schema());
    println!("{:?}", Search::parse(&arguments));
}
