//! MCP `tools/list` entries.

use crate::model::ToolDefinition;
use crate::providers::common::{Api, convert_each};
use crate::providers::diagnostic::{Converted, Report};
use crate::providers::names::NameRule;
use serde_json::{Map, Value, json};

/// The `tools` of a `tools/list` result:
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
/// `structuredContent`, which [`write_result`](super::write_result) makes
/// the details, or `{"value": <details>}` when they are not an object: MCP
/// restricts `outputSchema` to `"type": "object"` at the root, so a schema
/// of another type is sent as `{"type":"object","properties":{"value":<schema>},"required":["value"]}`,
/// the same wrapping, and said so in a diagnostic.
pub fn tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(
        definitions,
        &Api::plain(NameRule::MCP),
        |definition, report| {
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
        },
    )
}

/// The `outputSchema` of a tool whose details have this schema: as it is
/// when it is an object's, wrapped as `{"value": ..}` when it is of another
/// type (as [`structured_content`](super::structured_content) wraps such details).
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
