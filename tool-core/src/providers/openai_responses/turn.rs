//! A whole Responses response: every `function_call` item of its output,
//! and the input items the next request adds (the output as it came, then
//! the results), for a conversation that sends its items back rather than
//! `previous_response_id`.

use super::{read_call, write_result};
use crate::model::{ToolCall, ToolResultMessage};
use crate::providers::diagnostic::AdapterError;
use crate::providers::turns::{array, part};
use serde_json::Value;

fn output(response: &Value) -> Result<&[Value], AdapterError> {
    let holder = part(
        response,
        &[],
        |value| value.get("output").is_some(),
        "`output`",
    )?;
    array(holder, "output", "the response")
}

/// Every call of a response (its `function_call` items), in order.
///
/// ```
/// use tool_core::providers::openai_responses;
/// use serde_json::json;
///
/// let response = json!({"object": "response", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": []},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
///      "arguments": "{\"city\":\"Paris\"}"},
/// ]});
/// let calls = openai_responses::read_calls(&response)?;
/// assert_eq!(calls[0].id, "call_1");
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_calls(response: &Value) -> Result<Vec<ToolCall>, AdapterError> {
    output(response)?
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
        .map(read_call)
        .collect()
}

/// The input items the next request appends: every output item,
/// unchanged and in order (reasoning, `program` with its `fingerprint`,
/// tool search items and the calls themselves), then a
/// `function_call_output` per result.
///
/// ```
/// use tool_core::providers::openai_responses;
/// use tool_core::{Content, ToolResultMessage};
/// use serde_json::json;
///
/// let response = json!({"output": [{"type": "function_call", "call_id": "call_1", "name": "echo", "arguments": "{}"}]});
/// let calls = openai_responses::read_calls(&response)?;
/// let next = openai_responses::next_input(&response, &[ToolResultMessage::new(&calls[0], vec![Content::text("Pi")])])?;
/// assert_eq!(next[0], response["output"][0]);
/// assert_eq!(next[1], json!({"type": "function_call_output", "call_id": "call_1", "output": "Pi"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn next_input(
    response: &Value,
    results: &[ToolResultMessage],
) -> Result<Vec<Value>, AdapterError> {
    let mut items = output(response)?.to_vec();
    items.extend(results.iter().map(write_result));
    Ok(items)
}
