//! Enums with data in serde's four representations: what parse accepts,
//! the schema, the errors a model reads, and the JSON back.

use crate::support::errors;
use serde_json::{Value, json};
use tool_core::ToolParams;
use tool_core::params::{ParamPath, ParamValue, ParseContext};

fn value_errors<T: ParamValue + std::fmt::Debug>(value: Value) -> String {
    let mut errors = ParseContext::new();
    let parsed = T::parse_value(&value, &ParamPath::root(), &mut errors);
    assert!(parsed.is_none(), "parsed: {parsed:?}");
    errors.into_error().to_string()
}

fn value_parse<T: ParamValue>(value: Value) -> T {
    let mut errors = ParseContext::new();
    let parsed = T::parse_value(&value, &ParamPath::root(), &mut errors);
    assert!(errors.is_empty(), "{}", errors.into_error());
    parsed.unwrap()
}

/// One step of a UI script.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "action", rename_all = "snake_case")]
enum Action {
    /// Click at a point
    Click { x: u32, y: u32 },
    /// Type some text
    Type { text: String },
    /// Wait a while
    Wait(Wait),
    /// Stop
    Stop,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Wait {
    #[param(max = 60)]
    seconds: u8,
}

#[test]
fn internally_tagged_enums_read_the_tag_then_the_variants_fields() {
    assert_eq!(
        Action::parse(&json!({"action": "click", "x": 3, "y": 4})).unwrap(),
        Action::Click { x: 3, y: 4 }
    );
    assert_eq!(
        Action::parse(&json!({"action": "wait", "seconds": 3})).unwrap(),
        Action::Wait(Wait { seconds: 3 })
    );
    assert_eq!(
        Action::parse(&json!({"action": "stop", "extra": 1})).unwrap(),
        Action::Stop
    );
    assert_eq!(
        errors::<Action>(json!({"x": 1})),
        "action: missing required field"
    );
    assert_eq!(
        errors::<Action>(json!({"Action": "click"})),
        "action: missing required field (got \"Action\": did you mean \"action\"?)"
    );
    assert_eq!(
        errors::<Action>(json!({"action": "clik"})),
        "action: expected one of \"click\", \"type\", \"wait\", \"stop\", got \"clik\": did you mean \"click\"?"
    );
    assert_eq!(
        errors::<Action>(json!({"action": "click", "x": "a"})),
        "x: expected integer, got string \"a\"\ny: missing required field"
    );
    assert_eq!(
        errors::<Action>(json!({"action": "wait", "seconds": 90})),
        "seconds: expected integer <= 60, got 90"
    );
    assert_eq!(
        errors::<Action>(json!("click")),
        "arguments: expected object, got string \"click\""
    );
}

#[test]
fn internally_tagged_schema_is_a_one_of_of_closed_objects_with_a_const_tag() {
    let schema = Action::json_schema();
    assert_eq!(
        schema["type"], "object",
        "a tool's whole arguments say object at the root"
    );
    let branches = schema["oneOf"].as_array().unwrap();
    assert_eq!(branches.len(), 4);
    assert_eq!(
        branches[0],
        json!({
            "description": "Click at a point",
            "type": "object",
            "properties": {
                "action": {"type": "string", "const": "click"},
                "x": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                "y": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
            },
            "required": ["action", "x", "y"],
            "additionalProperties": false,
        })
    );
    // A newtype variant's struct: its fields beside the tag.
    assert_eq!(
        branches[2]["properties"],
        json!({"action": {"type": "string", "const": "wait"}, "seconds": {"type": "integer", "minimum": 0, "maximum": 60}})
    );
    assert_eq!(branches[3]["required"], json!(["action"]));
    // As a field, no `type` beside the `oneOf`.
    assert!(<Action as ParamValue>::schema().get("type").is_none());
}

#[test]
fn every_representation_round_trips_through_to_json() {
    for action in [
        Action::Click { x: 1, y: 2 },
        Action::Type { text: "hi".into() },
        Action::Wait(Wait { seconds: 5 }),
        Action::Stop,
    ] {
        assert_eq!(Action::parse(&action.to_json()).unwrap(), action);
    }
    assert_eq!(
        Action::Click { x: 1, y: 2 }.to_json(),
        json!({"action": "click", "x": 1, "y": 2})
    );
    assert_eq!(
        Action::Wait(Wait { seconds: 5 }).to_json(),
        json!({"action": "wait", "seconds": 5})
    );
    for shape in [
        Shape::Dot,
        Shape::Circle(1.5),
        Shape::Line(1, 2),
        Shape::Rect { w: 1, h: 2 },
    ] {
        let json = shape.to_json();
        assert_eq!(value_parse::<Shape>(json), shape);
    }
    for event in [
        Event::Tick,
        Event::Key('a'),
        Event::Move(1, -2),
        Event::Resize { new_width: 3 },
    ] {
        let json = event.to_json();
        assert_eq!(value_parse::<Event>(json), event);
    }
    for query in [
        Query::ById { id: 7 },
        Query::ByName { name: "x".into() },
        Query::Text("t".into()),
        Query::Nothing,
    ] {
        let json = query.to_json();
        assert_eq!(value_parse::<Query>(json), query);
    }
}

/// A shape: adjacently tagged.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind", content = "data", deny_unknown_fields)]
enum Shape {
    Dot,
    Circle(f64),
    Line(i8, i8),
    Rect { w: u8, h: u8 },
}

#[test]
fn adjacently_tagged_enums_put_the_data_under_the_content_key() {
    assert_eq!(value_parse::<Shape>(json!({"kind": "Dot"})), Shape::Dot);
    assert_eq!(
        value_parse::<Shape>(json!({"kind": "Circle", "data": 2.5})),
        Shape::Circle(2.5)
    );
    assert_eq!(
        value_parse::<Shape>(json!({"kind": "Line", "data": [1, 2]})),
        Shape::Line(1, 2)
    );
    assert_eq!(
        value_parse::<Shape>(json!({"kind": "Rect", "data": {"w": 1, "h": 2}})),
        Shape::Rect { w: 1, h: 2 }
    );
    assert_eq!(
        value_errors::<Shape>(json!({"kind": "Circle"})),
        "data: missing required field"
    );
    assert_eq!(
        value_errors::<Shape>(json!({"kind": "Line", "data": [1]})),
        "data: expected array of exactly 2 items, got 1"
    );
    assert_eq!(
        value_errors::<Shape>(json!({"kind": "Rect", "data": {"w": 1, "h": "x", "d": 3}})),
        "data.h: expected integer, got string \"x\"\ndata.d: unknown field (expected one of: w, h)"
    );
    // `deny_unknown_fields`: the outer object holds the tag and the data only.
    assert_eq!(
        value_errors::<Shape>(json!({"kind": "Dot", "colour": "red"})),
        "colour: unknown field (expected one of: kind, data)"
    );
    let schema = <Shape as ParamValue>::schema();
    assert_eq!(
        schema["oneOf"][2],
        json!({
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "Line"},
                "data": {"type": "array", "prefixItems": [
                    {"type": "integer", "minimum": -128, "maximum": 127},
                    {"type": "integer", "minimum": -128, "maximum": 127},
                ], "items": false, "minItems": 2},
            },
            "required": ["kind", "data"],
            "additionalProperties": false,
        })
    );
}

/// An event: externally tagged.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase", rename_all_fields = "camelCase")]
enum Event {
    /// Time passes
    Tick,
    Key(char),
    Move(i16, i16),
    Resize {
        new_width: u16,
    },
}

#[test]
fn externally_tagged_enums_are_a_name_or_an_object_of_one_name() {
    assert_eq!(value_parse::<Event>(json!("tick")), Event::Tick);
    assert_eq!(value_parse::<Event>(json!({"key": "x"})), Event::Key('x'));
    assert_eq!(
        value_parse::<Event>(json!({"move": [1, -1]})),
        Event::Move(1, -1)
    );
    assert_eq!(
        value_parse::<Event>(json!({"resize": {"newWidth": 9}})),
        Event::Resize { new_width: 9 }
    );
    assert_eq!(
        value_errors::<Event>(json!({"resize": {"new_width": 9}})),
        "resize.newWidth: missing required field (got \"new_width\": did you mean \"newWidth\"?)"
    );
    assert_eq!(
        value_errors::<Event>(json!("tikc")),
        "arguments: expected one of \"tick\", \"key\", \"move\", \"resize\", got \"tikc\": did you mean \"tick\"?"
    );
    assert_eq!(
        value_errors::<Event>(json!({"key": "x", "tick": null})),
        "arguments: expected an object with exactly one key, the variant's name (one of \"tick\", \"key\", \"move\", \"resize\"), got 2 keys"
    );
    let schema = <Event as ParamValue>::schema();
    assert_eq!(
        schema["oneOf"][0],
        json!({"description": "Time passes", "type": "string", "const": "tick"})
    );
    assert_eq!(
        schema["oneOf"][1],
        json!({"type": "object", "properties": {"key": {"type": "string", "minLength": 1, "maxLength": 1}}, "required": ["key"], "maxProperties": 1})
    );
}

// A unit-only enum is a plain string enum, exactly.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase")]
enum Mode {
    /// Fast
    Fast,
    Thorough,
}

#[test]
fn unit_only_enums_stay_string_enums() {
    assert_eq!(
        <Mode as ParamValue>::schema(),
        json!({"type": "string", "enum": ["fast", "thorough"]})
    );
    assert_eq!(
        value_errors::<Mode>(json!("Fast")),
        "arguments: expected one of \"fast\", \"thorough\", got \"Fast\": did you mean \"fast\"?"
    );
}

/// A lookup: untagged.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
enum Query {
    ById {
        #[param(min = 1)]
        id: u32,
    },
    ByName {
        name: String,
    },
    Text(String),
    Nothing,
}

#[test]
fn untagged_enums_take_the_first_variant_that_parses() {
    assert_eq!(
        value_parse::<Query>(json!({"id": 3})),
        Query::ById { id: 3 }
    );
    assert_eq!(
        value_parse::<Query>(json!({"name": "n"})),
        Query::ByName { name: "n".into() }
    );
    assert_eq!(value_parse::<Query>(json!("t")), Query::Text("t".into()));
    assert_eq!(value_parse::<Query>(Value::Null), Query::Nothing);
    // No variant fits: the variants tried, and the closest one's problems.
    assert_eq!(
        value_errors::<Query>(json!({"id": 0})),
        "arguments: matches none of the variants \"ById\", \"ByName\", \"Text\", \"Nothing\" (tried in order); the closest, \"ById\", has these problems:\n\
         id: expected integer >= 1, got 0"
    );
    assert_eq!(
        value_errors::<Query>(json!({"name": 5})),
        "arguments: matches none of the variants \"ById\", \"ByName\", \"Text\", \"Nothing\" (tried in order); the closest, \"ByName\", has these problems:\n\
         name: expected string, got number 5"
    );
    assert_eq!(
        <Query as ParamValue>::schema()["anyOf"][3],
        json!({"type": "null"})
    );
}

/// Enums nest: in options, lists, maps, and each other.
#[derive(ToolParams, Debug, PartialEq)]
struct Script {
    steps: Vec<Action>,
    first: Option<Shape>,
    named: std::collections::BTreeMap<String, Event>,
}

#[test]
fn enums_nest_anywhere_and_report_problems_at_their_paths() {
    let script = Script::parse(&json!({
        "steps": [{"action": "stop"}, {"action": "type", "text": "hi"}],
        "named": {"a": "tick"},
    }))
    .unwrap();
    assert_eq!(script.steps[1], Action::Type { text: "hi".into() });
    assert_eq!(
        errors::<Script>(json!({
            "steps": [{"action": "stop"}, {"action": "click", "x": 1, "y": -1}],
            "first": {"kind": "Circle", "data": "big"},
            "named": {"a": {"move": [1]}},
        })),
        "steps[1].y: expected integer >= 0, got -1\n\
         first.data: expected number, got string \"big\"\n\
         named.a.move: expected array of exactly 2 items, got 1"
    );
}

/// An internally tagged enum with `deny_unknown_fields`.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "op", deny_unknown_fields)]
enum Strict {
    Add { a: i32, b: i32 },
    Wait(Wait),
    Nop,
}

#[test]
fn deny_unknown_fields_on_an_enum_refuses_keys_no_variant_declares() {
    assert_eq!(
        errors::<Strict>(json!({"op": "Add", "a": 1, "b": 2, "c": 3})),
        "c: unknown field (expected one of: op, a, b)"
    );
    assert_eq!(
        errors::<Strict>(json!({"op": "Nop", "x": 1})),
        "x: unknown field (expected one of: op)"
    );
    assert_eq!(
        errors::<Strict>(json!({"op": "Wait", "seconds": 1, "secnods": 2})),
        "secnods: unknown field (did you mean \"seconds\"?)"
    );
    assert_eq!(
        Strict::parse(&json!({"op": "Add", "a": 1, "b": 2})).unwrap(),
        Strict::Add { a: 1, b: 2 }
    );
}

/// Generic enums get their bounds.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "type")]
enum Either<L, R> {
    Left { value: L },
    Right { value: R },
}

#[test]
fn generic_enums_work_with_the_bounds_added() {
    let parsed = Either::<u8, String>::parse(&json!({"type": "Right", "value": "x"})).unwrap();
    assert_eq!(parsed, Either::Right { value: "x".into() });
    assert_eq!(
        Either::<u8, String>::json_schema()["oneOf"][0]["properties"]["value"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
}

/// A generic internally tagged enum whose newtype variant lends a generic
/// struct's fields.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind")]
enum Envelope<T> {
    Key(T),
    Stop,
}

#[derive(ToolParams, Debug, PartialEq)]
struct KeyPress {
    key: char,
}

#[test]
fn a_generic_internally_tagged_newtype_takes_a_struct() {
    assert_eq!(
        Envelope::<KeyPress>::parse(&json!({"kind": "Key", "key": "k"})).unwrap(),
        Envelope::Key(KeyPress { key: 'k' })
    );
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Sorted {
    #[param(one_of = ["fast"], example = "fast")]
    mode: Mode,
}

#[test]
fn string_enums_take_string_attributes() {
    let schema = Sorted::json_schema();
    assert_eq!(
        schema["properties"]["mode"],
        json!({"type": "string", "enum": ["fast"], "examples": ["fast"]})
    );
    assert_eq!(
        errors::<Sorted>(json!({"mode": "thorough"})),
        "mode: expected one of \"fast\", got \"thorough\""
    );
}
