//! MCP: `tools/list` entries, `tools/call` params and `CallToolResult`.

use super::common::{convert_each, string_field};
use super::diagnostic::{AdapterError, Converted, Report};
use super::names::NameRule;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use serde_json::{Map, Value, json};

/// `[{"name","title"?,"description","inputSchema","outputSchema"?,"annotations"?}]`,
/// the full schema kept.
///
/// An enum as the whole parameters stays a choice: MCP wants `"type":
/// "object"` at the root, and "any JSON Schema 2020-12 keyword may appear
/// alongside type — including composition keywords (oneOf, anyOf...)"
/// (<https://modelcontextprotocol.io/specification/2026-07-28/server/tools>),
/// which is how the derive writes it.
///
/// `outputSchema` (the definition's
/// [`output_schema`](crate::ToolDefinition::output_schema)) and
/// `annotations` (its hints, when it has any) are MCP `Tool` fields
/// (<https://modelcontextprotocol.io/specification/2025-11-25/schema#tool>),
/// left out when the definition has none. The output schema describes
/// `structuredContent`, which [`mcp_call_tool_result`] makes the details,
/// or `{"value": <details>}` when they are not an object: MCP restricts
/// `outputSchema` to `"type": "object"` at the root, so a schema of another
/// type is sent as `{"type":"object","properties":{"value":<schema>},"required":["value"]}`,
/// the same wrapping, and said so in a diagnostic.
pub fn mcp_tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::MCP, |definition, report| {
        if definition.parameters.get("type").and_then(Value::as_str) != Some("object") {
            report.push(
                "/type",
                "MCP wants an inputSchema of type \"object\"; sent as it is",
            );
        }
        let mut tool = Map::new();
        tool.insert("name".into(), Value::String(definition.name.clone()));
        // MCP's display name for people is the Tool's own `title`
        // (BaseMetadata); `annotations.title` is the older place, which
        // clients read when `title` is absent: both carry it.
        if let Some(title) = &definition.annotations.title {
            tool.insert("title".into(), Value::String(title.clone()));
        }
        tool.insert(
            "description".into(),
            Value::String(definition.description.clone()),
        );
        tool.insert("inputSchema".into(), definition.parameters.clone());
        if let Some(schema) = &definition.output_schema {
            tool.insert("outputSchema".into(), output_schema(schema, report));
        }
        if !definition.annotations.is_empty() {
            tool.insert("annotations".into(), json!(definition.annotations));
        }
        Value::Object(tool)
    })
}

/// The `outputSchema` of a tool whose details have this schema: as it is
/// when it is an object's, wrapped as `{"value": ..}` when it is of another
/// type (as `mcp_call_tool_result` wraps such details).
fn output_schema(schema: &Value, report: &mut Report<'_>) -> Value {
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "object" => schema.clone(),
        Some(_) => {
            report.push(
                "",
                "MCP wants an outputSchema of type \"object\"; sent as {\"type\":\"object\",\"properties\":{\"value\":<schema>},\"required\":[\"value\"]}, the shape of the structuredContent such details become",
            );
            json!({
                "type": "object",
                "properties": {"value": schema},
                "required": ["value"],
            })
        }
        None => {
            report.push(
                "",
                "MCP wants an outputSchema of type \"object\"; this one has no type and is sent as it is",
            );
            schema.clone()
        }
    }
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
/// The content items are MCP's own content blocks (`text`, `image`,
/// `audio`, `resource_link`:
/// <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result>),
/// sent as they are.
///
/// Details become `structuredContent`, which MCP wants to be an object: an
/// object is sent as it is, anything else as `{"value": <details>}`.
pub fn mcp_call_tool_result(result: &ToolResultMessage) -> Value {
    let mut out = Map::new();
    out.insert("content".into(), json!(result.content));
    if let Some(details) = &result.details {
        out.insert(
            "structuredContent".into(),
            mcp_structured_content(details.clone()),
        );
    }
    out.insert("isError".into(), Value::Bool(result.is_error));
    Value::Object(out)
}

/// A result's details as MCP's `structuredContent`: an object as it is,
/// anything else as `{"value": <details>}` (MCP wants an object; the
/// `outputSchema` of [`mcp_tools`] is wrapped the same way).
///
/// ```
/// use serde_json::json;
/// use tool_core::providers::mcp_structured_content;
///
/// assert_eq!(mcp_structured_content(json!({"n": 1})), json!({"n": 1}));
/// assert_eq!(mcp_structured_content(json!([1, 2])), json!({"value": [1, 2]}));
/// ```
pub fn mcp_structured_content(details: Value) -> Value {
    match details {
        Value::Object(_) => details,
        other => json!({"value": other}),
    }
}
