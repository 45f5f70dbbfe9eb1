//! The JSON-RPC error for a request rmcp could not read as the method it
//! names. rmcp hands such a request to the handler as a custom request, and
//! its default answer is "method not found" (-32601), which tells a client
//! that `tools/call` does not exist when only its params were wrong.

use rmcp::ErrorData;
use serde_json::Value;
use tool_core::params::Received;

/// The methods a server of tools answers (MCP's, for any revision rmcp
/// speaks): params that do not fit one of them are invalid params.
const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// -32602 naming what is wrong for a known method (for `tools/call`, the
/// field and what it held, after its JSON type), else -32601.
pub(super) fn answer(method: &str, params: Option<&Value>) -> ErrorData {
    if method == "tools/call" {
        return ErrorData::invalid_params(tools_call_problem(params), None);
    }
    if KNOWN_METHODS.contains(&method) {
        return ErrorData::invalid_params(
            format!("{method}: the params do not have the shape MCP gives this method"),
            None,
        );
    }
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
        None,
    )
}

fn tools_call_problem(params: Option<&Value>) -> String {
    let Some(Value::Object(params)) = params else {
        return format!(
            "tools/call: params must be an object, got {}",
            Received(params.unwrap_or(&Value::Null))
        );
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        Some(other) => {
            return format!(
                "tools/call: params.name must be a string, got {}",
                Received(other)
            );
        }
        None => return "tools/call: params.name is missing".to_owned(),
    }
    match params.get("arguments") {
        Some(Value::Object(_) | Value::Null) | None => {
            "tools/call: the params do not have the shape MCP gives this method".to_owned()
        }
        Some(other) => format!(
            "tools/call: params.arguments must be an object, got {}",
            Received(other)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ErrorCode;
    use serde_json::json;

    #[test]
    fn arguments_that_are_not_an_object_are_invalid_params_naming_their_type() {
        let error = answer(
            "tools/call",
            Some(&json!({"name": "echo", "arguments": [1]})),
        );
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "tools/call: params.arguments must be an object, got array [1]"
        );
        let error = answer("tools/call", Some(&json!({"name": 7})));
        assert_eq!(
            error.message,
            "tools/call: params.name must be a string, got number 7"
        );
        let error = answer("tools/call", Some(&json!("echo")));
        assert_eq!(
            error.message,
            "tools/call: params must be an object, got string \"echo\""
        );
        let error = answer("tools/call", None);
        assert_eq!(
            error.message,
            "tools/call: params must be an object, got null"
        );
    }

    #[test]
    fn other_known_methods_are_invalid_params_and_unknown_ones_not_found() {
        assert_eq!(
            answer("tools/list", Some(&json!([]))).code,
            ErrorCode::INVALID_PARAMS
        );
        let unknown = answer("tools/frobnicate", None);
        assert_eq!(unknown.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(unknown.message, "Method not found: tools/frobnicate");
    }
}
