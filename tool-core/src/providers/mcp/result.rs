//! MCP's result: a `CallToolResult`, details as its `structuredContent`.

use crate::model::ToolResultMessage;
use serde_json::{Map, Value, json};

/// A result as MCP's `CallToolResult`: `{"content","isError","structuredContent"?}`.
/// The content items are MCP's own content blocks (`text`, `image`,
/// `audio`, `resource_link`:
/// <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result>),
/// sent as they are.
///
/// Details become `structuredContent`, which MCP wants to be an object: an
/// object is sent as it is, anything else as `{"value": <details>}`.
pub fn write_result(result: &ToolResultMessage) -> Value {
    let mut out = Map::new();
    out.insert("content".into(), json!(result.content));
    if let Some(details) = &result.details {
        out.insert(
            "structuredContent".into(),
            structured_content(details.clone()),
        );
    }
    out.insert("isError".into(), Value::Bool(result.is_error));
    Value::Object(out)
}

/// A result's details as MCP's `structuredContent`: an object as it is,
/// anything else as `{"value": <details>}` (MCP wants an object; the
/// `outputSchema` of [`tools`](super::tools) is wrapped the same way).
///
/// ```
/// use serde_json::json;
/// use tool_core::providers::mcp;
///
/// assert_eq!(mcp::structured_content(json!({"n": 1})), json!({"n": 1}));
/// assert_eq!(mcp::structured_content(json!([1, 2])), json!({"value": [1, 2]}));
/// ```
pub fn structured_content(details: Value) -> Value {
    match details {
        Value::Object(_) => details,
        other => json!({"value": other}),
    }
}
