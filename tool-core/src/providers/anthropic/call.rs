//! An Anthropic `tool_use` block read into our call.

use crate::model::ToolCall;
use crate::providers::common::{check_type, string_field};
use crate::providers::diagnostic::AdapterError;
use serde_json::{Value, json};

/// A `tool_use` content block: `{"type":"tool_use","id","name","input"}`.
/// `input` is the arguments object itself; a block without one is a call
/// with `{}`. A call made by code Claude runs (its `caller` names the code
/// execution tool) keeps that [`origin`](ToolCall::origin), and its result
/// is written as the code receives it ([`write_result`](super::write_result)).
///
/// ```
/// use tool_core::providers::anthropic;
/// use serde_json::json;
///
/// let call = anthropic::read_call(&json!({
///     "type": "tool_use",
///     "id": "toolu_01A09q90qw90lq917835lq9",
///     "name": "get_weather",
///     "input": {"location": "San Francisco, CA"},
/// }))?;
/// assert_eq!(call.name, "get_weather");
/// assert_eq!(call.arguments, json!({"location": "San Francisco, CA"}));
/// assert!(anthropic::read_call(&json!({"type": "text", "text": "Hi"})).is_err());
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_call(block: &Value) -> Result<ToolCall, AdapterError> {
    check_type(block, "tool_use", "block")?;
    let id = string_field(block, "id", "a tool_use block")?;
    let name = string_field(block, "name", "a tool_use block")?;
    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
    let mut call = ToolCall::new(id, name, input);
    call.origin = super::programmatic::origin(block);
    Ok(call)
}
