//! An adjacently tagged enum, `#[param(tag = "...", content = "...")]`:
//! `{"t": "variant", "c": data}`. Unit, newtype, tuple and struct variants,
//! as a field and as a tool's whole parameters.
use serde_json::{Value, json};
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
#[param(
    tag = "op",
    content = "args",
    rename_all = "lowercase",
    deny_unknown_fields
)]
enum Edit {
    Undo,
    Insert(String),
    Replace(u32, String),
    Delete { from: u32, to: u32 },
}

#[derive(ToolParams, Debug, PartialEq)]
struct Batch {
    edits: Vec<Edit>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let tag = |name: &str| json!({"type": "string", "const": name});
    let u32_schema = json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32});
    let schema = json!({
        "oneOf": [
            {
                "type": "object",
                "properties": {"op": tag("undo")},
                "required": ["op"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {"op": tag("insert"), "args": {"type": "string"}},
                "required": ["op", "args"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {"op": tag("replace"), "args": {
                    "type": "array",
                    "prefixItems": [u32_schema, {"type": "string"}],
                    "items": false,
                    "minItems": 2,
                }},
                "required": ["op", "args"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {"op": tag("delete"), "args": {
                    "type": "object",
                    "properties": {"from": u32_schema, "to": u32_schema},
                    "required": ["from", "to"],
                    "additionalProperties": false,
                }},
                "required": ["op", "args"],
                "additionalProperties": false,
            },
        ],
    });
    assert_eq!(Batch::json_schema()["properties"]["edits"]["items"], schema);
    let mut root = schema.clone();
    root.as_object_mut()
        .unwrap()
        .shift_insert(0, "type".into(), "object".into());
    assert_eq!(Edit::json_schema(), root);

    let cases = [
        (json!({"op": "undo"}), Edit::Undo),
        (
            json!({"op": "insert", "args": "text"}),
            Edit::Insert("text".into()),
        ),
        (
            json!({"op": "replace", "args": [3, "x"]}),
            Edit::Replace(3, "x".into()),
        ),
        (
            json!({"op": "delete", "args": {"from": 1, "to": 4}}),
            Edit::Delete { from: 1, to: 4 },
        ),
    ];
    for (value, expected) in &cases {
        let parsed = Edit::parse(value).unwrap();
        assert_eq!(&parsed, expected);
        assert_eq!(&parsed.to_json(), value);
    }
    let batch = Batch::parse(&json!({"edits": [cases[0].0, cases[3].0]})).unwrap();
    assert_eq!(
        batch.edits,
        vec![Edit::Undo, Edit::Delete { from: 1, to: 4 }]
    );

    let errors = |value: Value| Edit::parse(&value).unwrap_err().to_string();
    assert_eq!(
        errors(json!({"op": "insert"})),
        "args: missing required field"
    );
    assert_eq!(
        errors(json!({"op": "replace", "args": [3]})),
        "args: expected array of exactly 2 items, got 1"
    );
    assert_eq!(
        errors(json!({"op": "delete", "args": {"from": 1, "to": 2, "step": 1}})),
        "args.step: unknown field (expected one of: from, to)"
    );
    assert_eq!(
        errors(json!({"op": "undo", "arg": 1})),
        "arg: unknown field (did you mean \"args\"?)"
    );
    assert_eq!(
        Batch::parse(&json!({"edits": [{"op": "insert", "args": 5}]}))
            .unwrap_err()
            .to_string(),
        "edits[0].args: expected string, got number 5"
    );
}
