use serde_json::json;
use tool_core::ToolParams;

#[derive(ToolParams, Debug, PartialEq)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Item {
    name: String,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        Page::<bool>::json_schema(),
        json!({
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"type": "boolean"}}},
            "required": ["items"],
            "additionalProperties": false,
        })
    );
    assert_eq!(
        Page::<Item>::json_schema()["properties"]["items"]["items"]["properties"],
        json!({"name": {"type": "string"}})
    );

    let page = Page::<Item>::parse(&json!({"items": [{"name": "a"}]})).unwrap();
    assert_eq!(
        page,
        Page {
            items: vec![Item { name: "a".into() }]
        }
    );

    let error =
        Page::<Item>::parse(&json!({"items": [{"name": "a"}, {}, {"name": 1}]})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "items[1].name: missing required field\nitems[2].name: expected string, got number 1"
    );
}
