//! The walk on hand-written schemas: each rule, what it refuses, branch
//! choice, references, paths, policies, and hostile schemas and values.

use super::repair_arguments;
use crate::model::{Repair, RepairRule};
use crate::repair::RepairPolicy;
use serde_json::{Value, json};

fn repaired(schema: &Value, arguments: Value) -> Option<(Value, Vec<Repair>)> {
    repair_arguments(schema, &arguments, &RepairPolicy::all())
}

/// The repaired arguments, with each repair's rule and path.
fn fixed(schema: &Value, arguments: Value) -> (Value, Vec<(RepairRule, String)>) {
    let (value, repairs) = repaired(schema, arguments.clone())
        .unwrap_or_else(|| panic!("nothing repaired in {arguments}"));
    let made = repairs.into_iter().map(|r| (r.rule, r.path)).collect();
    (value, made)
}

fn unchanged(schema: &Value, arguments: Value) {
    if let Some((value, repairs)) = repaired(schema, arguments.clone()) {
        panic!("{arguments} repaired as {value}: {repairs:?}");
    }
}

fn object(properties: Value) -> Value {
    json!({"type": "object", "properties": properties, "additionalProperties": false})
}

fn integer() -> Value {
    json!({"type": "integer"})
}

#[test]
fn string_to_scalar_reads_numbers_and_booleans() {
    let schema = object(json!({
        "limit": integer(),
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "maybe": {"type": ["boolean", "null"]},
    }));
    let (value, repairs) = fixed(
        &schema,
        json!({"limit": "2", "ratio": "-1.5e2", "flag": "true", "maybe": "false"}),
    );
    assert_eq!(
        value,
        json!({"limit": 2, "ratio": -150.0, "flag": true, "maybe": false})
    );
    let rule = RepairRule::StringToScalar;
    let paths: Vec<_> = ["limit", "ratio", "flag", "maybe"]
        .map(|path| (rule, path.to_string()))
        .into();
    assert_eq!(repairs, paths);
    // An integral number written as a float is an integer, kept as written.
    assert_eq!(
        fixed(&schema, json!({"limit": "2.0"})).0,
        json!({"limit": 2.0})
    );
    let (_, repairs) = repaired(&schema, json!({"limit": "7"})).unwrap();
    assert_eq!(
        repairs,
        [Repair::new("limit", &json!("7"), &json!(7), rule)]
    );
}

#[test]
fn string_to_scalar_takes_only_exact_finite_numbers_and_booleans() {
    let schema = object(json!({
        "limit": integer(),
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "either": {"type": ["integer", "string"]},
        "stars": {"type": "integer", "enum": [1, 3, 5]},
    }));
    for text in [
        " 2", "2 ", "2.5", "NaN", "1e999", "-", "0x10", "+1", "01", "", "2,0", "[2]", "\"2\"",
        "Infinity",
    ] {
        unchanged(&schema, json!({"limit": text}));
    }
    for text in ["True", "FALSE", " true", "1", "yes", "null"] {
        unchanged(&schema, json!({"flag": text}));
    }
    unchanged(&schema, json!({"ratio": "1e400"}));
    // Where a string is allowed, or the number is not in the list.
    unchanged(&schema, json!({"either": "2"}));
    unchanged(&schema, json!({"stars": "2"}));
    assert_eq!(fixed(&schema, json!({"stars": "3"})).0, json!({"stars": 3}));
    assert_eq!(
        fixed(&schema, json!({"ratio": "18446744073709551615"})).0,
        json!({"ratio": 18446744073709551615u64})
    );
}

#[test]
fn json_text_decodes_objects_and_arrays_and_repairs_inside() {
    let schema = object(json!({
        "filter": object(json!({"limit": integer(), "tag": {"type": "string"}})),
        "ids": {"type": "array", "items": integer()},
    }));
    let (value, repairs) = fixed(
        &schema,
        json!({"filter": "{\"limit\": \"2\", \"tag\": \"x\"}", "ids": " [1, \"2\"] "}),
    );
    assert_eq!(
        value,
        json!({"filter": {"limit": 2, "tag": "x"}, "ids": [1, 2]})
    );
    assert_eq!(
        repairs,
        [
            (RepairRule::JsonText, "filter".into()),
            (RepairRule::StringToScalar, "filter.limit".into()),
            (RepairRule::JsonText, "ids".into()),
            (RepairRule::StringToScalar, "ids[1]".into()),
        ]
    );
    let (_, repairs) = repaired(&schema, json!({"filter": "{\"limit\":\"2\"}"})).unwrap();
    assert_eq!(repairs[0].sent, json!("{\"limit\":\"2\"}"));
    assert_eq!(repairs[0].used, json!({"limit": 2}));
    // The root too (arguments sent as JSON text twice over).
    let (value, repairs) = fixed(&schema, json!("{\"ids\": [3]}"));
    assert_eq!(value, json!({"ids": [3]}));
    assert_eq!(repairs, [(RepairRule::JsonText, String::new())]);
}

#[test]
fn json_text_is_left_when_it_would_not_fit() {
    let schema = object(json!({
        "filter": object(json!({"limit": integer()})),
        "words": {"type": "array", "items": {"type": "string"}},
        "either": {"type": ["object", "string"]},
    }));
    unchanged(&schema, json!({"filter": "{\"limit\": \"many\"}"}));
    unchanged(&schema, json!({"filter": "[1]"}));
    unchanged(&schema, json!({"filter": "{not json}"}));
    unchanged(&schema, json!({"either": "{\"a\": 1}"}));
    // JSON text of an array that does not fit is not wrapped instead.
    unchanged(&schema, json!({"words": "[1, 2]"}));
    unchanged(&schema, json!({"words": "{\"a\": 1}"}));
}

#[test]
fn wrap_in_array_wraps_one_value_and_repairs_it() {
    let schema = object(json!({
        "tags": {"type": "array", "items": {"type": "string"}},
        "ids": {"type": "array", "items": integer(), "maxItems": 3},
        "filters": {"type": "array", "items": object(json!({"limit": integer()}))},
        "single": {"type": "array", "prefixItems": [{"type": "boolean"}], "items": false},
    }));
    let (value, repairs) = fixed(
        &schema,
        json!({"tags": "x", "ids": "3", "filters": {"limit": "1"}, "single": "true"}),
    );
    assert_eq!(
        value,
        json!({"tags": ["x"], "ids": [3], "filters": [{"limit": 1}], "single": [true]})
    );
    assert_eq!(
        repairs,
        [
            (RepairRule::WrapInArray, "tags".into()),
            (RepairRule::WrapInArray, "ids".into()),
            (RepairRule::StringToScalar, "ids[0]".into()),
            (RepairRule::WrapInArray, "filters".into()),
            (RepairRule::StringToScalar, "filters[0].limit".into()),
            (RepairRule::WrapInArray, "single".into()),
            (RepairRule::StringToScalar, "single[0]".into()),
        ]
    );
    let (_, repairs) = repaired(&schema, json!({"ids": "3"})).unwrap();
    assert_eq!(
        (&repairs[0].sent, &repairs[0].used),
        (&json!("3"), &json!([3]))
    );
}

#[test]
fn wrap_in_array_refuses_null_misfits_and_fixed_lengths() {
    let schema = object(json!({
        "tags": {"type": "array", "items": {"type": "string"}},
        "maybe": {"type": "array", "items": {"anyOf": [integer(), {"type": "null"}]}},
        "rgb": {"type": "array", "items": integer(), "minItems": 3, "maxItems": 3},
        "pair": {"type": "array", "prefixItems": [integer(), integer()], "minItems": 2},
        "none": {"type": "array", "maxItems": 0},
        "either": {"type": ["array", "integer"]},
    }));
    unchanged(&schema, json!({"tags": null}));
    unchanged(&schema, json!({"maybe": null}));
    unchanged(&schema, json!({"tags": 5}));
    unchanged(&schema, json!({"rgb": 5}));
    unchanged(&schema, json!({"pair": 5}));
    unchanged(&schema, json!({"none": 5}));
    unchanged(&schema, json!({"either": 5}));
    assert_eq!(fixed(&schema, json!({"maybe": 5})).0, json!({"maybe": [5]}));
}

#[test]
fn enum_case_matches_one_allowed_value_ignoring_case_and_spaces() {
    let schema = object(json!({
        "mode": {"type": "string", "enum": ["fast", "thorough"]},
        "kind": {"type": "string", "const": "click"},
        "Ä": {"enum": ["Ärger", "b"]},
        "twins": {"type": "string", "enum": ["a", "A"]},
        "mixed": {"enum": [1, "one"]},
    }));
    let (value, repairs) = fixed(
        &schema,
        json!({"mode": " Fast\n", "kind": "CLICK", "Ä": "äRGER", "mixed": "ONE"}),
    );
    assert_eq!(
        value,
        json!({"mode": "fast", "kind": "click", "Ä": "Ärger", "mixed": "one"})
    );
    assert_eq!(repairs.len(), 4);
    assert!(
        repairs
            .iter()
            .all(|(rule, _)| *rule == RepairRule::EnumCase)
    );
    unchanged(&schema, json!({"mode": "fast"}));
    unchanged(&schema, json!({"mode": "fastest"}));
    unchanged(&schema, json!({"mode": "f ast"}));
    unchanged(&schema, json!({"twins": " a"}));
    unchanged(&schema, json!({"twins": "A"}));
}

#[test]
fn empty_arguments_become_an_empty_object_at_the_root_only() {
    let schema = object(json!({"inner": {"type": "object"}}));
    for sent in [json!(null), json!(""), json!(" \n\t")] {
        let (value, repairs) = repaired(&schema, sent.clone()).unwrap();
        assert_eq!(value, json!({}));
        assert_eq!(
            repairs,
            [Repair::new(
                "",
                &sent,
                &json!({}),
                RepairRule::EmptyArguments
            )]
        );
    }
    unchanged(&schema, json!("x"));
    unchanged(&schema, json!({}));
    unchanged(&schema, json!({"inner": null}));
    unchanged(&schema, json!({"inner": ""}));
    unchanged(&json!({"type": "array"}), json!(null));
    assert_eq!(fixed(&json!(true), json!(null)).0, json!({}));
}

#[test]
fn policies_turn_each_rule_off() {
    let schema = object(json!({
        "limit": integer(),
        "filter": object(json!({"a": integer()})),
        "tags": {"type": "array", "items": {"type": "string"}},
        "mode": {"enum": ["fast"]},
    }));
    let cases = [
        (RepairRule::StringToScalar, json!({"limit": "1"})),
        (RepairRule::JsonText, json!({"filter": "{}"})),
        (RepairRule::WrapInArray, json!({"tags": "x"})),
        (RepairRule::EnumCase, json!({"mode": "FAST"})),
        (RepairRule::EmptyArguments, json!(null)),
    ];
    for (rule, arguments) in cases {
        let (_, repairs) = repaired(&schema, arguments.clone()).unwrap();
        assert_eq!(repairs[0].rule, rule);
        let without = RepairPolicy::all().without(rule);
        assert!(repair_arguments(&schema, &arguments, &without).is_none());
        let only = RepairPolicy::none().with(rule);
        assert!(repair_arguments(&schema, &arguments, &only).is_some());
        assert!(repair_arguments(&schema, &arguments, &RepairPolicy::none()).is_none());
    }
    // A wrap whose item needs another rule needs both.
    let both = json!({"tags": 5});
    let schema = object(json!({"tags": {"type": "array", "items": integer()}}));
    assert!(repaired(&schema, json!({"tags": "5"})).is_some());
    let policy = RepairPolicy::none().with(RepairRule::WrapInArray);
    assert!(repair_arguments(&schema, &json!({"tags": "5"}), &policy).is_none());
    assert_eq!(repaired(&schema, both).unwrap().0, json!({"tags": [5]}));
}

#[test]
fn values_that_fit_are_left_alone() {
    let schema = object(json!({
        "limit": integer(),
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "counts": {"type": "object", "additionalProperties": integer()},
        "raw": {},
        "anything": true,
    }));
    unchanged(
        &schema,
        json!({"limit": 2.0, "name": "2", "tags": ["[1]"], "counts": {"a": 1}, "raw": "3", "anything": "{}"}),
    );
    // Wrong but beyond repair: unchanged, and undeclared keys are kept.
    unchanged(&schema, json!({"limit": 2.5, "tags": [1], "extra": "1"}));
    let (value, _) = fixed(&schema, json!({"extra": "1", "limit": "1", "more": null}));
    assert_eq!(value, json!({"extra": "1", "limit": 1, "more": null}));
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["extra", "limit", "more"]);
    unchanged(&json!({}), json!({"limit": "1"}));
    unchanged(&json!(true), json!("1"));
    unchanged(&json!(false), json!("1"));
}

#[test]
fn options_and_nullable_items_pick_the_branch_that_fits() {
    let schema = object(json!({
        "bytes": {"type": "array", "items": {"anyOf": [integer(), {"type": "null"}]}},
        "ip": {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
    }));
    let (value, repairs) = fixed(&schema, json!({"bytes": [null, "2", 3]}));
    assert_eq!(value, json!({"bytes": [null, 2, 3]}));
    assert_eq!(repairs, [(RepairRule::StringToScalar, "bytes[1]".into())]);
    unchanged(&schema, json!({"ip": "1"}));
    unchanged(&schema, json!({"bytes": [null, "x"]}));
}

fn tagged() -> Value {
    json!({"type": "object", "oneOf": [
        {"type": "object", "properties": {"action": {"type": "string", "const": "click"},
            "x": integer(), "y": integer()}, "required": ["action", "x", "y"],
            "additionalProperties": false},
        {"type": "object", "properties": {"action": {"type": "string", "const": "wait"},
            "seconds": integer()}, "required": ["action", "seconds"],
            "additionalProperties": false},
        {"type": "object", "properties": {"action": {"type": "string", "const": "screenshot"}},
            "required": ["action"], "additionalProperties": false},
    ]})
}

#[test]
fn tagged_alternatives_are_chosen_by_their_tag() {
    let schema = tagged();
    let (value, repairs) = fixed(&schema, json!({"action": "click", "x": "1", "y": 2}));
    assert_eq!(value, json!({"action": "click", "x": 1, "y": 2}));
    assert_eq!(repairs, [(RepairRule::StringToScalar, "x".into())]);
    // The tag in another case, then the fields.
    let (value, repairs) = fixed(&schema, json!({"action": " Wait", "seconds": "5"}));
    assert_eq!(value, json!({"action": "wait", "seconds": 5}));
    assert_eq!(
        repairs,
        [
            (RepairRule::EnumCase, "action".into()),
            (RepairRule::StringToScalar, "seconds".into())
        ]
    );
    // Already fitting, an unknown tag, a field beyond repair: unchanged.
    unchanged(&schema, json!({"action": "screenshot"}));
    unchanged(&schema, json!({"action": "scroll", "x": "1"}));
    unchanged(&schema, json!({"action": "click", "x": "left", "y": "2"}));
    // The whole call as JSON text.
    let (value, _) = fixed(&schema, json!("{\"action\":\"wait\",\"seconds\":\"5\"}"));
    assert_eq!(value, json!({"action": "wait", "seconds": 5}));
}

#[test]
fn untagged_alternatives_take_the_one_repair_that_fits() {
    let schema = json!({"anyOf": [
        {"type": "object", "properties": {"id": integer()}, "required": ["id"]},
        {"type": "object", "properties": {"name": {"type": "string"}, "exact": {"type": "boolean"}},
            "required": ["name", "exact"]},
        {"type": "string"},
        {"type": "array", "prefixItems": [integer(), integer()], "items": false, "minItems": 2},
        {"type": "string", "const": "tick"},
    ]});
    assert_eq!(fixed(&schema, json!({"id": "3"})).0, json!({"id": 3}));
    assert_eq!(
        fixed(&schema, json!({"name": "a", "exact": "false"})).0,
        json!({"name": "a", "exact": false})
    );
    assert_eq!(fixed(&schema, json!(["1", "2"])).0, json!([1, 2]));
    // A string fits the string alternative as it is.
    unchanged(&schema, json!("{\"id\": 3}"));
    unchanged(&schema, json!("TICK"));
    // Two alternatives repaired two ways: ambiguous, unchanged.
    let two = json!({"anyOf": [
        {"type": "object", "properties": {"n": integer()}},
        {"type": "object", "properties": {"n": {"type": "array", "items": integer()}}},
    ]});
    unchanged(&two, json!({"n": "1"}));
    let without_wrap = RepairPolicy::all().without(RepairRule::WrapInArray);
    let (value, _) = repair_arguments(&two, &json!({"n": "1"}), &without_wrap).unwrap();
    assert_eq!(value, json!({"n": 1}));
    // Two alternatives repaired the same way: taken.
    let same = json!({"oneOf": [
        {"type": "integer", "minimum": 0},
        {"type": "integer", "maximum": 0},
    ]});
    assert_eq!(fixed(&same, json!("4")).0, json!(4));
}

#[test]
fn references_are_followed_into_definitions() {
    let schema = json!({
        "type": "object",
        "properties": {
            "size": integer(),
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
        "$defs": {"Node": {"$ref": "#"}},
    });
    let (value, repairs) = fixed(
        &schema,
        json!({"children": [{"size": "1", "children": {"size": "2"}}]}),
    );
    assert_eq!(
        value,
        json!({"children": [{"size": 1, "children": [{"size": 2}]}]})
    );
    let paths: Vec<&str> = repairs.iter().map(|(_, path)| path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "children[0].size",
            "children[0].children",
            "children[0].children[0].size"
        ]
    );
    // A reference that leads nowhere, or only to itself, admits anything.
    unchanged(&json!({"$ref": "#/$defs/Missing"}), json!({"a": "1"}));
    unchanged(&json!({"$ref": "other.json#/x"}), json!({"a": "1"}));
    let looping = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        "$ref": "#/$defs/A"});
    unchanged(&looping, json!("1"));
}

#[test]
fn paths_are_written_as_parse_errors_write_them() {
    let schema = object(json!({
        "a b": integer(),
        "": integer(),
        "tags": {"type": "object", "additionalProperties": integer()},
        "é": integer(),
    }));
    let (_, repairs) = fixed(
        &schema,
        json!({"a b": "1", "": "2", "tags": {"color": "3", "x.y": "4"}, "é": "5"}),
    );
    let paths: Vec<&str> = repairs.iter().map(|(_, path)| path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "arguments[\"a b\"]",
            "arguments[\"\"]",
            "tags.color",
            "tags[\"x.y\"]",
            "é"
        ]
    );
    let list = json!({"type": "array", "items": integer()});
    assert_eq!(
        fixed(&list, json!([1, "2"])).1,
        [(RepairRule::StringToScalar, "arguments[1]".to_string())]
    );
}

#[test]
fn hostile_schemas_and_values_neither_panic_nor_hang() {
    let odd_schemas = [
        json!({"type": 5, "properties": [], "items": "x", "enum": {}, "anyOf": 3}),
        json!({"type": ["integer", 7]}),
        json!({"type": "object", "properties": {"a": 5}, "required": [1, "b"]}),
        json!({"prefixItems": {"a": 1}, "minItems": "x", "type": "array"}),
        json!({"$ref": 5}),
        json!({"anyOf": [{"$ref": "#"}]}),
        json!({"oneOf": []}),
        json!([1, 2]),
        json!("schema"),
        json!(null),
    ];
    let values = [
        json!(null),
        json!("1"),
        json!({"a": "1"}),
        json!(["1"]),
        json!("{\"a\": [1]}"),
    ];
    for schema in &odd_schemas {
        for value in &values {
            let _ = repaired(schema, value.clone());
        }
    }
    // Nested past the limit: given up, not a stack overflow. (Built level
    // by level and forgotten: dropping it would recurse once per level.)
    let recursive = json!({"type": "array", "items": {"$ref": "#"}, "$defs": {}});
    let mut deep = json!("1");
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    assert!(repair_arguments(&recursive, &deep, &RepairPolicy::all()).is_none());
    std::mem::forget(deep);
    // Within the limit, repaired at any depth; past it, not.
    let chain = json!({"anyOf": [
        {"type": "object", "properties": {"n": {"$ref": "#"}, "v": integer()}},
        {"type": "null"},
    ]});
    let nested = |depth| (0..depth).fold(json!({"v": "1"}), |inner, _| json!({"n": inner}));
    let (value, repairs) = repaired(&chain, nested(127)).unwrap();
    assert_eq!(
        value,
        (0..127).fold(json!({"v": 1}), |inner, _| json!({"n": inner}))
    );
    assert_eq!(repairs[0].path, format!("{}v", "n.".repeat(127)));
    assert!(repaired(&chain, nested(128)).is_none());
    // Alternatives and references nested in the schema past the bound,
    // with no value below them: given up, not a stack overflow. (Built by
    // hand, as `json!` would copy the inner value recursively, and
    // forgotten, as dropping recurses.)
    let wrapped = |depth: usize, keyword: &str| {
        (0..depth).fold(integer(), |inner, _| {
            let mut node = serde_json::Map::new();
            if keyword == "anyOf" {
                node.insert(
                    "anyOf".into(),
                    Value::Array(vec![inner, json!({"type": "null"})]),
                );
            } else {
                let mut defs = serde_json::Map::new();
                defs.insert("x".into(), inner);
                node.insert("$defs".into(), Value::Object(defs));
                node.insert("$ref".into(), json!("#/$defs/x"));
            }
            Value::Object(node)
        })
    };
    for keyword in ["anyOf", "$ref"] {
        for depth in [100, 600, 5_000] {
            let schema = wrapped(depth, keyword);
            for value in [json!("1"), json!(["1"]), json!({"a": "1"})] {
                let _ = repair_arguments(&schema, &value, &RepairPolicy::all());
            }
            std::mem::forget(schema);
        }
    }
    assert!(repaired(&wrapped(100, "anyOf"), json!("1")).is_some());
    // Alternatives tried inside alternatives, 2^60 ways: the walk gives up.
    let twins = json!({"anyOf": [
        {"type": "object", "properties": {"n": {"$ref": "#"}, "a": integer()}},
        {"type": "object", "properties": {"n": {"$ref": "#"}, "b": integer()}},
    ]});
    let mut chain = json!({"n": {"a": "x"}});
    for _ in 0..60 {
        chain = json!({"n": chain});
    }
    let started = std::time::Instant::now();
    let _ = repaired(&twins, chain);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
