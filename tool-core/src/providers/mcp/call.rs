//! MCP `tools/call` params read into our call.

use crate::model::ToolCall;
use crate::providers::common::string_field;
use crate::providers::diagnostic::AdapterError;
use serde_json::{Value, json};

/// `tools/call` params (`{"name","arguments"}`) as a call. MCP params carry
/// no call id, so the JSON-RPC request's id is passed in.
///
/// ```
/// use tool_core::providers::mcp;
/// use serde_json::json;
///
/// let request = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
///     "params": {"name": "get_weather", "arguments": {"location": "New York"}}});
/// let call = mcp::read_call(request["id"].to_string(), &request["params"])?;
/// assert_eq!((call.id.as_str(), call.name.as_str()), ("2", "get_weather"));
/// assert_eq!(call.arguments, json!({"location": "New York"}));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
pub fn read_call(id: impl Into<String>, params: &Value) -> Result<ToolCall, AdapterError> {
    let name = string_field(params, "name", "tools/call params")?;
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(arguments) => arguments.clone(),
    };
    Ok(ToolCall::new(id, name, arguments))
}
