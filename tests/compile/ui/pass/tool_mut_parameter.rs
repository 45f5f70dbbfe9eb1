use serde_json::json;
use tool_core::{Content, RunOptions, ToolCall, ToolParams, ToolRegistry, execute_tool_call, tool};

/// Reverse a text
#[tool]
async fn reverse(mut text: String) -> String {
    text = text.chars().rev().collect();
    text.push('!');
    text
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // `mut` is a binding mode of the function, not part of the JSON name.
    assert_eq!(
        ReverseParams::json_schema()["properties"],
        json!({"text": {"type": "string"}})
    );

    let mut tools = ToolRegistry::new();
    tools.register(ReverseTool).unwrap();
    let call = ToolCall::new("call-1", "reverse", json!({"text": "abc"}));
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(execute_tool_call(&call, &tools, RunOptions::default()));
    assert_eq!(result.content, vec![Content::text("cba!")]);
    assert!(!result.is_error);
}
