//! A Chat Completions tool call read into ours.

use crate::model::ToolCall;
use crate::providers::common::string_field;
use crate::providers::diagnostic::{AdapterError, AdapterErrorKind};
use crate::providers::openai::decode_arguments;
use serde_json::Value;

/// One entry of an assistant message's `tool_calls`:
/// `{"id","type":"function","function":{"name","arguments":"<JSON text>"}}`.
///
/// `arguments` is JSON written as a string. An empty string means `{}`; text
/// that is not valid JSON is kept as a string, and the executor answers the
/// call with a paired error naming the JSON problem (line and column).
///
/// ```
/// use tool_core::providers::openai_chat;
/// use serde_json::json;
///
/// let call = openai_chat::read_call(&json!({
///     "id": "call_abc123",
///     "type": "function",
///     "function": {"name": "search", "arguments": "{\"query\": \"rust\"}"},
/// }))?;
/// assert_eq!((call.id.as_str(), call.name.as_str()), ("call_abc123", "search"));
/// assert_eq!(call.arguments, json!({"query": "rust"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_call(entry: &Value) -> Result<ToolCall, AdapterError> {
    let id = string_field(entry, "id", "a tool_calls entry")?;
    let function = entry.get("function").ok_or_else(|| {
        AdapterError::new(
            AdapterErrorKind::Missing,
            "a tool_calls entry: `function` is missing",
        )
    })?;
    let name = string_field(function, "name", "a tool_calls entry's function")?;
    let arguments = decode_arguments(function.get("arguments"));
    Ok(ToolCall::new(id, name, arguments))
}
