//! Anthropic Messages: tool definitions, `tool_use` blocks and `tool_result`
//! blocks. The full schema is kept: Anthropic takes JSON Schema as it is.

use super::diagnostic::{AdapterError, Converted, Report};
use super::names::NameRule;
use super::openai::string_field;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use serde_json::{Value, json};

/// `[{"name","description","input_schema"}]`.
pub fn anthropic_tools(definitions: &[ToolDefinition]) -> Converted {
    let mut diagnostics = Vec::new();
    let value = definitions
        .iter()
        .map(|definition| {
            let mut report = Report {
                tool: &definition.name,
                diagnostics: &mut diagnostics,
            };
            NameRule::ANTHROPIC.report(&definition.name, &mut report);
            json!({
                "name": definition.name,
                "description": definition.description,
                "input_schema": definition.parameters,
            })
        })
        .collect();
    Converted {
        value: Value::Array(value),
        diagnostics,
    }
}

/// A `tool_use` content block: `{"type":"tool_use","id","name","input"}`.
pub fn anthropic_tool_use(block: &Value) -> Result<ToolCall, AdapterError> {
    if let Some(kind) = block.get("type").and_then(Value::as_str)
        && kind != "tool_use"
    {
        return Err(AdapterError::new(format!(
            "expected a `tool_use` block, got a `{kind}` block"
        )));
    }
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
