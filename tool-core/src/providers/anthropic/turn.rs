//! A whole Messages response: every `tool_use` block of its content, and
//! the two messages the next request adds (the assistant's content as it
//! came, then a user message of the results).

use super::{read_call, write_result};
use crate::model::{ToolCall, ToolResultMessage};
use crate::providers::diagnostic::AdapterError;
use crate::providers::turns::{array, part};
use serde_json::{Value, json};

/// The response's `content` blocks (a response, or an assistant message).
fn content(response: &Value) -> Result<&[Value], AdapterError> {
    let holder = part(
        response,
        &[],
        |value| value.get("content").is_some(),
        "`content`",
    )?;
    array(holder, "content", "the response")
}

/// Every call of a response (its `tool_use` blocks), in order; text,
/// thinking and server tool blocks are left to the conversation.
///
/// ```
/// use tool_core::providers::anthropic;
/// use serde_json::json;
///
/// let response = json!({"role": "assistant", "stop_reason": "tool_use", "content": [
///     {"type": "text", "text": "Let me check."},
///     {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
/// ]});
/// let calls = anthropic::read_calls(&response)?;
/// assert_eq!(calls.len(), 1);
/// assert_eq!(calls[0].id, "toolu_01");
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_calls(response: &Value) -> Result<Vec<ToolCall>, AdapterError> {
    content(response)?
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
        .map(read_call)
        .collect()
}

/// The messages the next request appends: the assistant's content,
/// unchanged (server tool blocks, thinking and the calls' `caller`
/// included, as programmatic calling and tool search require), then one
/// user message holding only the results' `tool_result` blocks, in the
/// calls' order (none without results).
///
/// ```
/// use tool_core::providers::anthropic;
/// use tool_core::{Content, ToolResultMessage};
/// use serde_json::json;
///
/// let response = json!({"role": "assistant", "content": [
///     {"type": "tool_use", "id": "toolu_01", "name": "echo", "input": {}}]});
/// let calls = anthropic::read_calls(&response)?;
/// let result = ToolResultMessage::new(&calls[0], vec![Content::text("Pi")]);
/// let next = anthropic::next_messages(&response, &[result])?;
/// assert_eq!(next[0], json!({"role": "assistant", "content": response["content"]}));
/// assert_eq!(next[1]["role"], "user");
/// assert_eq!(next[1]["content"][0]["tool_use_id"], "toolu_01");
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn next_messages(
    response: &Value,
    results: &[ToolResultMessage],
) -> Result<Vec<Value>, AdapterError> {
    let assistant = json!({"role": "assistant", "content": content(response)?});
    if results.is_empty() {
        // No calls, or none answered yet: an empty user message is refused.
        return Ok(vec![assistant]);
    }
    let answers: Vec<Value> = results.iter().map(write_result).collect();
    Ok(vec![assistant, json!({"role": "user", "content": answers})])
}
