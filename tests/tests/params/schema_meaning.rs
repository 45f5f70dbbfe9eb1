//! Parse reads a value as the schema a provider sent means it: the calls
//! of issue 21's report, each as a regression test.
//!
//! - A root enum that denies unknown fields, written by a strict provider
//!   as one object, gets `null` for every field of the variants the model
//!   did not choose; parse reads those as absent.
//! - An untagged enum takes the variant whose closed schema admits the
//!   value as sent, before one that would drop keys to parse it.
//! - An adjacently tagged unit variant refuses content, as its schema does.

use crate::support::errors;
use serde_json::json;
use tool_core::ToolParams;
use tool_core::providers::{ProviderFormat, Strict};
use tool_core::{ToolDefinition, params::ParamValue};

/// The computer-use tool of the report.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Computer {
    Click { x: i32, y: i32 },
    Type { text: String },
    Scroll { dx: i32, dy: i32 },
    Key { keys: Vec<String> },
    Screenshot,
}

#[test]
fn a_strict_models_nulls_for_other_variants_fields_are_absent() {
    let definitions = [ToolDefinition::new(
        "computer",
        "Use the computer",
        Computer::json_schema(),
    )];
    let strict = ProviderFormat::OpenAiChat(Strict::On).definitions(&definitions);
    let parameters = &strict.value[0]["function"]["parameters"];
    // What the strict schema makes a model send.
    assert_eq!(
        parameters["required"],
        json!(["action", "x", "y", "text", "dx", "dy", "keys"])
    );
    let click = json!({"action": "click", "x": 1, "y": 2, "text": null, "dx": null, "dy": null, "keys": null});
    assert_eq!(
        Computer::parse(&click).unwrap(),
        Computer::Click { x: 1, y: 2 }
    );
    let shot = json!({"action": "screenshot", "x": null, "y": null, "text": null, "dx": null, "dy": null, "keys": null});
    assert_eq!(Computer::parse(&shot).unwrap(), Computer::Screenshot);
    // A value for another variant's field is still refused, and so is a
    // `null` for a name no variant has.
    assert_eq!(
        errors::<Computer>(json!({"action": "click", "x": 1, "y": 2, "text": "hi"})),
        "text: unknown field (expected one of: action, x, y)"
    );
    assert_eq!(
        errors::<Computer>(json!({"action": "type", "text": "hi", "txt": null})),
        "txt: unknown field (did you mean \"text\"?)"
    );
    // The variant's own required field as `null` is missing, not absent.
    assert_eq!(
        errors::<Computer>(json!({"action": "click", "x": null, "y": 2})),
        "x: expected integer, got null"
    );
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged, deny_unknown_fields)]
enum Lookup {
    ByName { name: String },
    ById { id: u64 },
}

#[test]
fn an_untagged_root_that_denies_unknown_fields_takes_nulls_of_other_variants() {
    assert_eq!(
        Lookup::parse(&json!({"name": null, "id": 7})).unwrap(),
        Lookup::ById { id: 7 }
    );
    assert_eq!(
        Lookup::parse(&json!({"name": "x", "id": null})).unwrap(),
        Lookup::ByName { name: "x".into() }
    );
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
enum Greedy {
    List { filter: Option<String> },
    Get { id: u64 },
}

#[test]
fn an_untagged_enum_prefers_the_variant_that_takes_the_value_as_sent() {
    assert_eq!(
        Greedy::parse(&json!({"id": 5})).unwrap(),
        Greedy::Get { id: 5 }
    );
    assert_eq!(
        Greedy::parse(&json!({})).unwrap(),
        Greedy::List { filter: None }
    );
    assert_eq!(
        Greedy::parse(&json!({"filter": "a"})).unwrap(),
        Greedy::List {
            filter: Some("a".into())
        }
    );
    // No variant takes it as sent: the first that parses with undeclared
    // keys dropped, as before.
    assert_eq!(
        Greedy::parse(&json!({"filter": "a", "extra": 1})).unwrap(),
        Greedy::List {
            filter: Some("a".into())
        }
    );
    assert_eq!(
        Greedy::parse(&json!({"id": 5, "extra": 1})).unwrap(),
        Greedy::List { filter: None }
    );
}

/// Nested: the preference holds for the objects inside a variant too.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
enum Wrapped {
    Loose { inner: Loose },
    Exact { inner: Exact },
}

#[derive(ToolParams, Debug, PartialEq)]
struct Loose {
    a: Option<u8>,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Exact {
    a: Option<u8>,
    b: u8,
}

#[test]
fn the_preference_reaches_nested_objects() {
    assert_eq!(
        Wrapped::parse(&json!({"inner": {"a": 1, "b": 2}})).unwrap(),
        Wrapped::Exact {
            inner: Exact { a: Some(1), b: 2 }
        }
    );
    assert_eq!(
        Wrapped::parse(&json!({"inner": {"a": 1}})).unwrap(),
        Wrapped::Loose {
            inner: Loose { a: Some(1) }
        }
    );
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind", content = "data", rename_all = "lowercase")]
enum Mark {
    Dot,
    Line(u8),
}

#[test]
fn an_adjacent_unit_variant_refuses_content() {
    assert_eq!(
        errors::<Mark>(json!({"kind": "dot", "data": 5})),
        "data: unexpected number: \"dot\" carries no data, so leave \"data\" out"
    );
    assert_eq!(Mark::parse(&json!({"kind": "dot"})).unwrap(), Mark::Dot);
    // `null` is absence, as a provider that merged the variants sends it.
    assert_eq!(
        Mark::parse(&json!({"kind": "dot", "data": null})).unwrap(),
        Mark::Dot
    );
    assert_eq!(
        Mark::parse(&json!({"kind": "line", "data": 3})).unwrap(),
        Mark::Line(3)
    );
    // The schema says the same: the unit variant's object has the tag alone.
    let schema = <Mark as ParamValue>::schema();
    assert_eq!(
        schema["oneOf"][0]["properties"],
        json!({"kind": {"type": "string", "const": "dot"}})
    );
    assert_eq!(schema["oneOf"][0]["additionalProperties"], json!(false));
}
