//! Anthropic Messages: tool definitions, `tool_use` blocks and `tool_result`
//! blocks. The full schema is kept, but for an enum as the whole
//! parameters, written as one object: "input_schema does not support
//! oneOf, allOf, or anyOf at the top level" (see `merge_root`).

use super::common::{check_type, convert_each, string_field};
use super::diagnostic::{AdapterError, Converted};
use super::merge_root::{ANTHROPIC, flatten_root};
use super::names::NameRule;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use serde_json::{Value, json};

/// `[{"name","description","input_schema"}]`.
pub fn anthropic_tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::ANTHROPIC, |definition, report| {
        json!({
            "name": definition.name,
            "description": definition.description,
            "input_schema": flatten_root(&definition.parameters, &ANTHROPIC, report),
        })
    })
}

/// A `tool_use` content block: `{"type":"tool_use","id","name","input"}`.
pub fn anthropic_tool_use(block: &Value) -> Result<ToolCall, AdapterError> {
    check_type(block, "tool_use", "block")?;
    let id = string_field(block, "id", "a tool_use block")?;
    let name = string_field(block, "name", "a tool_use block")?;
    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
    Ok(ToolCall::new(id, name, input))
}

/// The `tool_result` block answering a call:
/// `{"type":"tool_result","tool_use_id","content":[{"type":"text","text"}],"is_error"}`.
pub fn anthropic_tool_result(result: &ToolResultMessage) -> Value {
    json!({
        "type": "tool_result",
        "tool_use_id": result.tool_call_id,
        "content": result.content,
        "is_error": result.is_error,
    })
}
