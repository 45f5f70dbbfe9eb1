//! A Responses function call read into ours.

use crate::model::ToolCall;
use crate::providers::common::{check_type, string_field};
use crate::providers::diagnostic::AdapterError;
use crate::providers::openai::decode_arguments;
use serde_json::Value;

/// A `function_call` output item:
/// `{"type":"function_call","call_id","name","arguments":"<JSON text>"}`.
///
/// The call's id is the item's `call_id` (which the
/// `function_call_output` answers), not its `id`. `arguments` is read as
/// for Chat Completions ([`openai_chat::read_call`](crate::providers::openai_chat::read_call)).
///
/// ```
/// use tool_core::providers::openai_responses;
/// use serde_json::json;
///
/// let call = openai_responses::read_call(&json!({
///     "type": "function_call",
///     "id": "fc_12345xyz",
///     "call_id": "call_12345xyz",
///     "name": "get_weather",
///     "arguments": "{\"location\":\"Paris, France\"}",
/// }))?;
/// assert_eq!(call.id, "call_12345xyz");
/// assert_eq!(call.arguments, json!({"location": "Paris, France"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_call(item: &Value) -> Result<ToolCall, AdapterError> {
    check_type(item, "function_call", "item")?;
    let id = string_field(item, "call_id", "a function_call item")?;
    let name = string_field(item, "name", "a function_call item")?;
    let arguments = decode_arguments(item.get("arguments"));
    let mut call = ToolCall::new(id, name, arguments);
    call.origin = super::programmatic::origin(item);
    Ok(call)
}
