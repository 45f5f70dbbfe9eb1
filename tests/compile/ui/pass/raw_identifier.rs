use serde_json::json;
use tool_core::ToolParams;

#[derive(ToolParams, Debug)]
struct Node {
    r#type: String,
    #[param(default)]
    r#async: bool,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        Node::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "async": {"type": "boolean", "default": false},
            },
            "required": ["type"],
            "additionalProperties": false,
        })
    );
    let node = Node::parse(&json!({"type": "file", "async": true})).unwrap();
    assert_eq!((node.r#type.as_str(), node.r#async), ("file", true));

    let error = Node::parse(&json!({"r#type": "file"})).unwrap_err();
    assert_eq!(error.to_string(), "type: missing required field");
}
