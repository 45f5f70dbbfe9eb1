//! The wire shapes the integration tests compare against: a result message
//! as JSON (its timestamp checked, then left out), and exact comparison of
//! JSON, key order included.

use serde_json::{Value, json};
use tool_core::ToolResultMessage;

/// Exact JSON: equal as values and as text (key order included).
#[track_caller]
pub fn assert_json(actual: &Value, expected: &Value) {
    assert_eq!(actual, expected);
    assert_eq!(
        serde_json::to_string(actual).unwrap(),
        serde_json::to_string(expected).unwrap(),
        "same values, different key order"
    );
}

/// `result` as JSON without its timestamp, which must be a time in
/// milliseconds after 2023.
#[track_caller]
pub fn without_timestamp(result: &ToolResultMessage) -> Value {
    let mut wire = serde_json::to_value(result).unwrap();
    let timestamp = wire.as_object_mut().unwrap().remove("timestamp");
    assert!(timestamp.unwrap().as_u64().unwrap() > 1_700_000_000_000);
    wire
}

/// A result message of one text item, as JSON without its timestamp.
pub fn result_json(id: &str, name: &str, text: &str, details: Value, is_error: bool) -> Value {
    json!({
        "role": "toolResult",
        "toolCallId": id,
        "toolName": name,
        "content": [{"type": "text", "text": text}],
        "details": details,
        "isError": is_error,
    })
}

/// A tool definition from its three parts.
pub fn definition(name: &str, description: &str, parameters: Value) -> tool_core::ToolDefinition {
    tool_core::ToolDefinition::new(name, description, parameters)
}

/// A conversion's diagnostics as (tool, path, message), for comparing.
pub fn diagnostics(converted: &tool_core::providers::Converted) -> Vec<(&str, &str, &str)> {
    converted
        .diagnostics
        .iter()
        .map(|d| (d.tool.as_str(), d.path.as_str(), d.message.as_str()))
        .collect()
}
