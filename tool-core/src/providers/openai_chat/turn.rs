//! A whole Chat Completions response: every call of its message, and the
//! messages the next request adds (the assistant message as it came, then
//! the results).

use super::{read_call, write_results};
use crate::model::{ToolCall, ToolResultMessage};
use crate::providers::diagnostic::AdapterError;
use crate::providers::turns::{PathStep, array, part};
use serde_json::Value;

/// The assistant message: `choices[0].message` of a response, or the
/// message itself.
fn message(response: &Value) -> Result<&Value, AdapterError> {
    use PathStep::{First, Key};
    part(
        response,
        &[&[Key("choices"), First, Key("message")]],
        |value| value.get("role").is_some() || value.get("tool_calls").is_some(),
        "`choices[0].message`",
    )
}

/// Every call of a response's assistant message (`tool_calls`), in order;
/// none when the model answered in words.
///
/// ```
/// use tool_core::providers::openai_chat;
/// use serde_json::json;
///
/// let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
///     "role": "assistant", "content": null, "tool_calls": [
///         {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
///         {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}},
///     ]}}]});
/// let calls = openai_chat::read_calls(&response)?;
/// assert_eq!(calls.len(), 2);
/// assert_eq!(calls[1].arguments, json!({"city": "Rome"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_calls(response: &Value) -> Result<Vec<ToolCall>, AdapterError> {
    let message = message(response)?;
    array(message, "tool_calls", "the assistant message")?
        .iter()
        .map(read_call)
        .collect()
}

/// The messages the next request appends after the conversation so far:
/// the response's assistant message, unchanged (its `tool_calls` are what
/// the `tool` messages answer), then the results
/// ([`write_results`](super::write_results)).
///
/// ```
/// use tool_core::providers::openai_chat;
/// use tool_core::{Content, ToolResultMessage};
/// use serde_json::json;
///
/// let response = json!({"choices": [{"message": {"role": "assistant", "content": null,
///     "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{}"}}]}}]});
/// let calls = openai_chat::read_calls(&response)?;
/// let results = [ToolResultMessage::new(&calls[0], vec![Content::text("Pi")])];
/// let next = openai_chat::next_messages(&response, &results)?;
/// assert_eq!(next[0], response["choices"][0]["message"]);
/// assert_eq!(next[1], json!({"role": "tool", "tool_call_id": "call_1", "content": "Pi"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn next_messages(
    response: &Value,
    results: &[ToolResultMessage],
) -> Result<Vec<Value>, AdapterError> {
    let mut messages = vec![message(response)?.clone()];
    messages.extend(write_results(results));
    Ok(messages)
}
