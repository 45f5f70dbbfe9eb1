//! An internally tagged enum, `#[param(tag = "...")]`: the tag sits beside
//! the variant's fields. Unit, newtype (of a struct) and struct variants,
//! as a field and as a tool's whole parameters; `rename_all`,
//! `rename_all_fields`, a variant's `rename`, `rename_all` and
//! `description`, and `deny_unknown_fields`.
use serde_json::{Value, json};
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Wait {
    #[param(max = 60)]
    seconds: u8,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
struct Scroll {
    delta_y: i32,
}

/// One browser action.
#[derive(ToolParams, Debug, PartialEq)]
#[param(
    tag = "action",
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
enum Action {
    /// Click somewhere
    Click {
        pos_x: u32,
        pos_y: u32,
    },
    #[param(
        rename = "type",
        rename_all = "SCREAMING_SNAKE_CASE",
        description = "Type text"
    )]
    TypeText {
        text_to_type: String,
    },
    Wait(Wait),
    ScrollBy(Scroll),
    GoBack,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Plan {
    first: Action,
    then: Vec<Action>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let schema = Action::json_schema();
    assert_eq!(
        schema,
        json!({
            "description": "One browser action.",
            "type": "object",
            "oneOf": [
                {
                    "description": "Click somewhere",
                    "type": "object",
                    "properties": {
                        "action": {"type": "string", "const": "click"},
                        "posX": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                        "posY": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                    },
                    "required": ["action", "posX", "posY"],
                    "additionalProperties": false,
                },
                {
                    "description": "Type text",
                    "type": "object",
                    "properties": {
                        "action": {"type": "string", "const": "type"},
                        "TEXT_TO_TYPE": {"type": "string"},
                    },
                    "required": ["action", "TEXT_TO_TYPE"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {
                        "action": {"type": "string", "const": "wait"},
                        "seconds": {"type": "integer", "minimum": 0, "maximum": 60},
                    },
                    "required": ["action", "seconds"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {
                        "action": {"type": "string", "const": "scroll_by"},
                        "deltaY": {"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647},
                    },
                    "required": ["action", "deltaY"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {"action": {"type": "string", "const": "go_back"}},
                    "required": ["action"],
                    "additionalProperties": false,
                },
            ],
        })
    );

    // As a field (and an array item) the schema is the same, without the
    // root's "type".
    let plan = Plan::json_schema();
    let mut as_field = schema.clone();
    as_field.as_object_mut().unwrap().remove("type");
    assert_eq!(plan["properties"]["first"], as_field);
    assert_eq!(
        plan["properties"]["then"],
        json!({"type": "array", "items": as_field})
    );

    let cases = [
        (
            json!({"action": "click", "posX": 3, "posY": 4}),
            Action::Click { pos_x: 3, pos_y: 4 },
        ),
        (
            json!({"action": "type", "TEXT_TO_TYPE": "hi"}),
            Action::TypeText {
                text_to_type: "hi".into(),
            },
        ),
        (
            json!({"action": "wait", "seconds": 5}),
            Action::Wait(Wait { seconds: 5 }),
        ),
        (
            json!({"action": "scroll_by", "deltaY": -10}),
            Action::ScrollBy(Scroll { delta_y: -10 }),
        ),
        (json!({"action": "go_back"}), Action::GoBack),
    ];
    for (value, expected) in &cases {
        let parsed = Action::parse(value).unwrap();
        assert_eq!(&parsed, expected);
        assert_eq!(&parsed.to_json(), value);
    }
    let plan = Plan::parse(&json!({
        "first": cases[0].0,
        "then": [cases[2].0, cases[4].0],
    }))
    .unwrap();
    assert_eq!(
        plan,
        Plan {
            first: Action::Click { pos_x: 3, pos_y: 4 },
            then: vec![Action::Wait(Wait { seconds: 5 }), Action::GoBack],
        }
    );

    let errors = |value: Value| Action::parse(&value).unwrap_err().to_string();
    assert_eq!(errors(json!({"posX": 1})), "action: missing required field");
    assert_eq!(
        errors(json!({"action": "clik"})),
        "action: expected one of \"click\", \"type\", \"wait\", \"scroll_by\", \"go_back\", got \"clik\": did you mean \"click\"?"
    );
    assert_eq!(
        errors(json!({"action": "wait", "seconds": 61})),
        "seconds: expected integer <= 60, got 61"
    );
    // deny_unknown_fields: the tag is known, the Rust name is not.
    assert_eq!(
        errors(json!({"action": "click", "posX": 1, "posY": 2, "pos_x": 1})),
        "pos_x: unknown field (did you mean \"posX\"?)"
    );
    assert_eq!(
        errors(json!({"action": "go_back", "x": 1})),
        "x: unknown field (expected one of: action)"
    );
    assert_eq!(
        errors(json!({"action": "wait", "seconds": 1, "minutes": 2})),
        "minutes: unknown field (expected one of: action, seconds)"
    );
    let in_plan = Plan::parse(&json!({"first": {"action": "type"}, "then": [{"action": 1}]}))
        .unwrap_err()
        .to_string();
    assert_eq!(
        in_plan,
        "first.TEXT_TO_TYPE: missing required field\n\
         then[0].action: expected one of \"click\", \"type\", \"wait\", \"scroll_by\", \"go_back\", got number 1"
    );
}
