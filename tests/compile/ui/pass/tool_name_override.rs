use serde_json::json;
use tool_core::{Content, RunOptions, Tool, ToolCall, ToolRegistry, execute_tool_call, tool};

/// Counts the characters of a text
#[tool(name = "count_chars", description = "Counts characters, not bytes")]
async fn count(text: String) -> String {
    text.chars().count().to_string()
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // The generated types follow the function; the tool's name follows the
    // attribute, and the attribute's description wins over the doc comment.
    assert_eq!(CountTool.name(), "count_chars");
    assert_eq!(CountTool.description(), "Counts characters, not bytes");

    let mut tools = ToolRegistry::new();
    tools.register(CountTool).unwrap();
    assert!(tools.get("count").is_none());
    assert!(tools.get("count_chars").is_some());

    let call = ToolCall::new("call-1", "count_chars", json!({"text": "héllo"}));
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(execute_tool_call(&call, &tools, RunOptions::default()));
    assert_eq!(result.tool_name, "count_chars");
    assert_eq!(result.content, vec![Content::text("5")]);
}
