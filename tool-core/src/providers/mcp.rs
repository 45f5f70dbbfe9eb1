//! MCP: `tools/list` entries, `tools/call` params and `CallToolResult`.

use super::common::{convert_each, string_field};
use super::diagnostic::{AdapterError, Converted};
use super::names::NameRule;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use serde_json::{Map, Value, json};

/// `[{"name","description","inputSchema"}]`, the full schema kept.
///
/// An enum as the whole parameters stays a choice: MCP wants `"type":
/// "object"` at the root, and "any JSON Schema 2020-12 keyword may appear
/// alongside type — including composition keywords (oneOf, anyOf...)"
/// (<https://modelcontextprotocol.io/specification/2026-07-28/server/tools>),
/// which is how the derive writes it.
pub fn mcp_tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::MCP, |definition, report| {
        if definition.parameters.get("type").and_then(Value::as_str) != Some("object") {
            report.push(
                "/type",
                "MCP wants an inputSchema of type \"object\"; sent as it is",
            );
        }
        json!({
            "name": definition.name,
            "description": definition.description,
            "inputSchema": definition.parameters,
        })
    })
}

/// `tools/call` params (`{"name","arguments"}`) as a call. MCP params carry
/// no call id, so the JSON-RPC request's id is passed in.
pub fn mcp_tool_call(id: impl Into<String>, params: &Value) -> Result<ToolCall, AdapterError> {
    let name = string_field(params, "name", "tools/call params")?;
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(arguments) => arguments.clone(),
    };
    Ok(ToolCall::new(id, name, arguments))
}

/// A result as MCP's `CallToolResult`: `{"content","isError","structuredContent"?}`.
/// Details become `structuredContent`, which MCP wants to be an object: an
/// object is sent as it is, anything else as `{"value": <details>}`.
pub fn mcp_call_tool_result(result: &ToolResultMessage) -> Value {
    let mut out = Map::new();
    out.insert("content".into(), json!(result.content));
    if let Some(details) = &result.details {
        let structured = match details {
            Value::Object(_) => details.clone(),
            other => json!({"value": other}),
        };
        out.insert("structuredContent".into(), structured);
    }
    out.insert("isError".into(), Value::Bool(result.is_error));
    Value::Object(out)
}
