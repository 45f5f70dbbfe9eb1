//! Generic parameter structs: the derive adds the bounds each field's
//! attributes need (`Vec<T>: ParamValue`, `T: Default` for a skipped `T`,
//! `T: ParamObject` for a flattened one), beside the user's own bounds.
use serde_json::json;
use std::fmt::Debug;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Page<T> {
    #[param(max_length = 2)]
    items: Vec<T>,
    #[param(skip)]
    cursor: Option<T>,
    next: Option<Box<T>>,
}

#[derive(ToolParams, Debug, PartialEq, Default, Clone)]
struct Item {
    name: String,
}

/// A request with some common fields and a tool's own.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
struct Envelope<P: Debug, M = u8>
where
    M: Copy,
{
    request_id: String,
    #[param(flatten)]
    params: P,
    #[param(default)]
    max_tries: M,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Echo {
    text: String,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // Two element types.
    assert_eq!(
        Page::<String>::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "next": {"type": "string"},
            },
            "required": ["items"],
            "additionalProperties": false,
        })
    );
    let page = Page::<String>::parse(&json!({"items": ["a"], "cursor": "ignored"})).unwrap();
    assert_eq!(
        page,
        Page {
            items: vec!["a".into()],
            cursor: None,
            next: None
        }
    );
    assert_eq!(page.to_json(), json!({"items": ["a"]}));

    let page =
        Page::<Item>::parse(&json!({"items": [{"name": "a"}], "next": {"name": "b"}})).unwrap();
    assert_eq!(page.items, vec![Item { name: "a".into() }]);
    assert_eq!(page.next, Some(Box::new(Item { name: "b".into() })));
    assert_eq!(page.cursor, None);
    assert_eq!(
        Page::<Item>::parse(&json!({"items": [{}, {}, {"name": 1}]}))
            .unwrap_err()
            .to_string(),
        "items[0].name: missing required field\n\
         items[1].name: missing required field\n\
         items[2].name: expected string, got number 1"
    );

    // A generic flattened struct, with a defaulted type parameter.
    let schema = Envelope::<Echo>::json_schema();
    assert_eq!(
        schema,
        json!({
            "description": "A request with some common fields and a tool's own.",
            "type": "object",
            "properties": {
                "requestId": {"type": "string"},
                "text": {"type": "string"},
                "maxTries": {"type": "integer", "minimum": 0, "maximum": 255, "default": 0},
            },
            "required": ["requestId", "text"],
            "additionalProperties": false,
        })
    );
    let envelope =
        Envelope::<Echo, u16>::parse(&json!({"requestId": "r1", "text": "hi", "maxTries": 300}))
            .unwrap();
    assert_eq!(
        envelope,
        Envelope {
            request_id: "r1".into(),
            params: Echo { text: "hi".into() },
            max_tries: 300
        }
    );
    assert_eq!(
        envelope.to_json(),
        json!({"requestId": "r1", "text": "hi", "maxTries": 300})
    );
    let with_page =
        Envelope::<Page<Item>>::parse(&json!({"requestId": "r2", "items": []})).unwrap();
    assert_eq!(with_page.params.items, vec![]);
    assert_eq!(with_page.max_tries, 0);
}
