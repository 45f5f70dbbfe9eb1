//! A whole `generateContent` response: every `functionCall` part of its
//! first candidate, and the two contents the next request adds (the
//! model's content as it came, then a user content of the results).

use super::{read_call, write_result};
use crate::model::{ToolCall, ToolResultMessage};
use crate::providers::diagnostic::AdapterError;
use crate::providers::turns::{PathStep, array, part};
use serde_json::{Value, json};

/// The model's content: `candidates[0].content`, or the content itself.
fn content(response: &Value) -> Result<&Value, AdapterError> {
    use PathStep::{First, Key};
    part(
        response,
        &[&[Key("candidates"), First, Key("content")]],
        |value| value.get("parts").is_some(),
        "`candidates[0].content`",
    )
}

/// Every call of a response (its `functionCall` parts), in order, each
/// with its id or `gemini-call-<n>` ([`read_call`](super::read_call)).
///
/// ```
/// use tool_core::providers::gemini;
/// use serde_json::json;
///
/// let response = json!({"candidates": [{"content": {"role": "model", "parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
///     {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
/// ]}}]});
/// let calls = gemini::read_calls(&response)?;
/// assert_eq!(calls[1].id, "gemini-call-1");
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_calls(response: &Value) -> Result<Vec<ToolCall>, AdapterError> {
    let parts = array(content(response)?, "parts", "the model's content")?;
    parts
        .iter()
        .filter(|part| part.get("functionCall").is_some())
        .enumerate()
        .map(|(index, part)| read_call(part, index))
        .collect()
}

/// The contents the next request appends: the model's content, unchanged
/// (its thought signatures included, which Gemini wants back), then one
/// `user` content of the results' `functionResponse` parts, in order (none
/// without results).
///
/// ```
/// use tool_core::providers::gemini;
/// use tool_core::{Content, ToolResultMessage};
/// use serde_json::json;
///
/// let response = json!({"candidates": [{"content": {"role": "model", "parts": [
///     {"functionCall": {"name": "echo", "args": {}}}]}}]});
/// let calls = gemini::read_calls(&response)?;
/// let next = gemini::next_contents(&response, &[ToolResultMessage::new(&calls[0], vec![Content::text("Pi")])])?;
/// assert_eq!(next[0], response["candidates"][0]["content"]);
/// assert_eq!(next[1]["parts"][0]["functionResponse"]["response"], json!({"output": "Pi"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn next_contents(
    response: &Value,
    results: &[ToolResultMessage],
) -> Result<Vec<Value>, AdapterError> {
    let model = content(response)?.clone();
    if results.is_empty() {
        return Ok(vec![model]);
    }
    let parts: Vec<Value> = results.iter().map(write_result).collect();
    Ok(vec![model, json!({"role": "user", "parts": parts})])
}
