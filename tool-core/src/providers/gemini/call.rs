//! A Gemini `functionCall` read into our call.

use super::GENERATED_ID_PREFIX;
use crate::model::ToolCall;
use crate::providers::common::string_field;
use crate::providers::diagnostic::AdapterError;
use serde_json::{Value, json};

/// A `functionCall` (`{"name","args","id"?}`, or a part that holds one) as
/// a call. Gemini gives an id only sometimes; without one, the call gets
/// `gemini-call-<index>`, stable for the same position in the response
/// (`index`: the call's place among the response's function calls), and
/// [`write_result`](super::write_result) leaves it out of the answer.
///
/// ```
/// use tool_core::providers::gemini;
/// use serde_json::json;
///
/// let part = json!({"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}});
/// let call = gemini::read_call(&part, 1)?;
/// assert_eq!(call.id, "gemini-call-1");
/// assert_eq!(call.arguments, json!({"city": "Paris"}));
///
/// let with_id = json!({"functionCall": {"id": "fc-7", "name": "get_weather", "args": {}}});
/// assert_eq!(gemini::read_call(&with_id, 0)?.id, "fc-7");
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_call(part: &Value, index: usize) -> Result<ToolCall, AdapterError> {
    let call = part.get("functionCall").unwrap_or(part);
    let name = string_field(call, "name", "a functionCall")?;
    let id = match call.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => format!("{GENERATED_ID_PREFIX}{index}"),
    };
    let arguments = call.get("args").cloned().unwrap_or_else(|| json!({}));
    Ok(ToolCall::new(id, name, arguments))
}
