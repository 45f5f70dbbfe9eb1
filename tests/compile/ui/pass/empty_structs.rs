use serde_json::json;
use tool_core::ToolParams;

#[derive(ToolParams, Debug, PartialEq)]
struct NoArguments {}

#[derive(ToolParams, Debug, PartialEq)]
struct Ping;

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let empty = json!({"type": "object", "properties": {}, "additionalProperties": false});
    assert_eq!(NoArguments::json_schema(), empty);
    assert_eq!(Ping::json_schema(), empty);

    assert_eq!(NoArguments::parse(&json!({})).unwrap(), NoArguments {});
    assert_eq!(Ping::parse(&json!({"ignored": 1})).unwrap(), Ping);

    let error = Ping::parse(&json!(null)).unwrap_err();
    assert_eq!(error.to_string(), "arguments: expected object, got null");
}
