//! What `parse` accepts and how it words what it refuses: one line per
//! problem, path first, every problem at once, nothing echoed at length.

use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::num::{NonZeroU8, NonZeroU64};
use tool_core::{ToolParams, params::MAX_PROBLEMS, params::ParamValue};

fn problems<T: ToolParams + std::fmt::Debug>(arguments: Value) -> String {
    T::parse(&arguments).unwrap_err().to_string()
}

#[derive(ToolParams, Debug, PartialEq)]
struct Numbers {
    small: Option<u8>,
    signed: Option<i64>,
    wide: Option<u64>,
    ratio: Option<f32>,
    precise: Option<f64>,
    count: Option<NonZeroU8>,
    big: Option<NonZeroU64>,
}

#[test]
fn integral_floats_are_integers_and_fractions_are_not() {
    let parsed = Numbers::parse(&json!({"small": 2.0, "signed": -3.0, "count": 1.0})).unwrap();
    assert_eq!(parsed.small, Some(2));
    assert_eq!(parsed.signed, Some(-3));
    assert_eq!(parsed.count, NonZeroU8::new(1));
    assert_eq!(
        problems::<Numbers>(json!({"small": 2.5})),
        "small: expected integer, got number 2.5"
    );
}

#[test]
fn out_of_range_integers_name_the_bound_they_break() {
    assert_eq!(
        problems::<Numbers>(json!({"small": 300})),
        "small: expected integer <= 255, got 300"
    );
    assert_eq!(
        problems::<Numbers>(json!({"small": -1})),
        "small: expected integer >= 0, got -1"
    );
    assert_eq!(
        problems::<Numbers>(json!({"count": 0})),
        "count: expected integer >= 1, got 0"
    );
    // Beyond i64 and u64: serde_json holds these as floats.
    assert_eq!(
        problems::<Numbers>(json!({"signed": 1e19, "wide": 1e20})),
        "signed: expected integer <= 9223372036854775807, got 1e+19\n\
         wide: expected integer <= 18446744073709551615, got 1e+20"
    );
    assert_eq!(
        problems::<Numbers>(json!({"wide": -1e300})),
        "wide: expected integer >= 0, got -1e+300"
    );
    let edges = Numbers::parse(&json!({
        "signed": i64::MIN, "wide": u64::MAX, "big": u64::MAX,
    }))
    .unwrap();
    assert_eq!(edges.signed, Some(i64::MIN));
    assert_eq!(edges.wide, Some(u64::MAX));
    assert_eq!(edges.big, NonZeroU64::new(u64::MAX));
}

#[test]
fn floats_are_range_checked_for_f32() {
    let parsed = Numbers::parse(&json!({"ratio": 0.5, "precise": 1e300})).unwrap();
    assert_eq!(parsed.ratio, Some(0.5));
    assert_eq!(parsed.precise, Some(1e300));
    assert_eq!(
        problems::<Numbers>(json!({"ratio": 1e39})),
        "ratio: expected number <= 3.4028234663852886e+38, got 1e+39"
    );
    assert_eq!(
        problems::<Numbers>(json!({"precise": "1"})),
        "precise: expected number, got string \"1\""
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Item {
    name: String,
    #[param(min = 1)]
    quantity: u32,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Order {
    items: Vec<Item>,
    notes: BTreeMap<String, String>,
    flags: HashMap<String, bool>,
    shipping: Option<Box<Item>>,
    extra: Value,
}

#[test]
fn nested_problems_carry_their_whole_path() {
    let error = problems::<Order>(json!({
        "items": [
            {"name": "a", "quantity": 1},
            {"name": 7, "quantity": 0},
            "not an item",
        ],
        "notes": {"gift": 1, "a b": false},
        "flags": {"fast": "yes"},
        "shipping": {"quantity": 2},
        "extra": null,
    }));
    assert_eq!(
        error,
        "items[1].name: expected string, got number 7\n\
         items[1].quantity: expected integer >= 1, got 0\n\
         items[2]: expected object, got string \"not an item\"\n\
         notes.gift: expected string, got number 1\n\
         notes[\"a b\"]: expected string, got boolean false\n\
         flags.fast: expected boolean, got string \"yes\"\n\
         shipping.name: missing required field"
    );
}

#[test]
fn containers_parse_in_full() {
    let order = Order::parse(&json!({
        "items": [{"name": "a", "quantity": 2.0}],
        "notes": {"gift": "yes"},
        "flags": {},
        "shipping": null,
        "extra": {"anything": [1, "two", null]},
    }))
    .unwrap();
    assert_eq!(
        order.items,
        vec![Item {
            name: "a".into(),
            quantity: 2
        }]
    );
    assert_eq!(order.notes["gift"], "yes");
    assert!(order.flags.is_empty());
    assert_eq!(order.shipping, None);
    assert_eq!(order.extra, json!({"anything": [1, "two", null]}));
}

#[test]
fn a_missing_field_with_a_near_miss_key_says_which_was_meant() {
    #[derive(ToolParams, Debug)]
    struct Echo {
        value: String,
    }
    assert_eq!(
        problems::<Echo>(json!({"valeu": "Pi"})),
        "value: missing required field (got \"valeu\": did you mean \"value\"?)"
    );
    assert_eq!(
        problems::<Echo>(json!({"other": "Pi"})),
        "value: missing required field"
    );

    #[derive(ToolParams, Debug)]
    #[param(rename_all = "camelCase")]
    struct Search {
        max_results: u32,
    }
    assert_eq!(
        problems::<Search>(json!({"max_results": 3})),
        "maxResults: missing required field (got \"max_results\": did you mean \"maxResults\"?)"
    );
}

#[test]
fn received_values_are_echoed_at_most_eighty_characters() {
    #[derive(ToolParams, Debug)]
    struct Mode {
        #[param(max = 1)]
        level: f64,
        speed: Speed,
    }
    #[derive(ToolParams, Debug)]
    enum Speed {
        Fast,
        Slow,
    }
    let long = "x".repeat(50_000);
    let error = problems::<Mode>(json!({"level": 2.5, "speed": long}));
    let lines: Vec<&str> = error.lines().collect();
    assert_eq!(lines[0], "level: expected number <= 1, got 2.5");
    assert!(lines[1].starts_with("speed: expected one of \"Fast\", \"Slow\", got \"xxx"));
    assert!(lines[1].ends_with("x…"));
    assert!(lines[1].len() < 160, "{}", lines[1].len());
    // Exactly: the first 80 characters of the value as JSON (its quote and
    // 79 x), then `…`.
    assert_eq!(
        lines[1],
        format!(
            "speed: expected one of \"Fast\", \"Slow\", got \"{}…",
            "x".repeat(79)
        )
    );
}

#[test]
fn every_problem_is_reported_at_once_up_to_the_cap() {
    #[derive(ToolParams, Debug)]
    struct Many {
        values: Vec<String>,
    }
    let arguments = json!({"values": vec![1; 1_000_000]});
    let error = Many::parse(&arguments).unwrap_err();
    assert_eq!(error.count(), 1_000_000);
    assert_eq!(error.problems().len(), MAX_PROBLEMS);
    assert_eq!(error.problems()[3].path(), "values[3]");
    assert!(error.to_string().ends_with("... and 999980 more problems"));
}

#[test]
fn huge_valid_arrays_parse() {
    #[derive(ToolParams, Debug)]
    struct Many {
        values: Vec<u8>,
    }
    let parsed = Many::parse(&json!({"values": vec![7; 1_000_000]})).unwrap();
    assert_eq!(parsed.values.len(), 1_000_000);
    assert!(parsed.values.iter().all(|&value| value == 7));
}

// A recursive parameter type, fed a value nested far deeper than any stack
// could follow: refused with a path, not a crash. (A plain comment: a doc
// comment would become the schema's description.)
#[derive(ToolParams, Debug)]
struct Node {
    children: Vec<Node>,
}

/// Built by hand: `json!` with an interpolated value copies it recursively.
fn nested(depth: usize) -> Value {
    let node = |children: Vec<Value>| {
        Value::Object(serde_json::Map::from_iter([(
            "children".to_owned(),
            Value::Array(children),
        )]))
    };
    let mut value = node(Vec::new());
    for _ in 0..depth {
        value = node(vec![value]);
    }
    value
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = nested(100_000);
    let error = Node::parse(&deep).unwrap_err().to_string();
    assert!(
        error.ends_with("arguments nest deeper than 128 levels"),
        "{error}"
    );
    assert!(Node::parse(&nested(50)).is_ok());
    // Dropping a value this deep recurses too; leak it rather than let the
    // test's own cleanup overflow the stack.
    std::mem::forget(deep);

    #[derive(ToolParams, Debug)]
    struct Raw {
        data: Value,
    }
    let mut raw = json!(1);
    for _ in 0..100_000 {
        raw = Value::Array(vec![raw]);
    }
    let arguments = Value::Object(serde_json::Map::from_iter([("data".to_owned(), raw)]));
    assert_eq!(
        Raw::parse(&arguments).unwrap_err().to_string(),
        "data: value nests deeper than 128 levels"
    );
    std::mem::forget(arguments);
}

#[test]
fn unknown_fields_are_dropped_or_denied() {
    #[derive(ToolParams, Debug)]
    #[param(deny_unknown_fields)]
    struct Strict {
        value: String,
        label: Option<String>,
    }
    assert_eq!(
        problems::<Strict>(json!({"value": "Pi", "lable": "x", "zzz": 1})),
        "lable: unknown field (did you mean \"label\"?)\n\
         zzz: unknown field (expected one of: value, label)"
    );

    #[derive(ToolParams, Debug)]
    #[param(deny_unknown_fields)]
    struct Nothing {}
    assert_eq!(
        problems::<Nothing>(json!({"a": 1})),
        "a: unknown field (this tool takes no arguments)"
    );
    assert!(Nothing::parse(&json!({})).is_ok());
}

#[test]
fn defaults_fill_missing_and_null_fields() {
    #[derive(ToolParams, Debug)]
    struct Paging {
        #[param(default = 20)]
        limit: u32,
        #[param(default)]
        offset: u64,
        #[param(default = "en")]
        language: String,
    }
    let paging = Paging::parse(&json!({})).unwrap();
    assert_eq!(
        (paging.limit, paging.offset, paging.language.as_str()),
        (20, 0, "en")
    );
    // null is absence for a field with a default, as for an Option: OpenAI's
    // strict mode sends it for every field the model leaves out.
    let nulls = Paging::parse(&json!({"limit": null, "language": null})).unwrap();
    assert_eq!((nulls.limit, nulls.language.as_str()), (20, "en"));
    assert_eq!(
        problems::<Paging>(json!({"limit": "20"})),
        "limit: expected integer, got string \"20\""
    );
    let schema = Paging::json_schema();
    assert_eq!(schema["properties"]["limit"]["default"], json!(20));
    assert_eq!(schema["properties"]["language"]["default"], json!("en"));
    assert_eq!(schema.get("required"), None);
}

#[test]
fn lengths_bound_strings_by_characters_and_arrays_by_items() {
    #[derive(ToolParams, Debug)]
    struct Post {
        #[param(min_length = 2, max_length = 4)]
        title: String,
        #[param(max_length = 2)]
        tags: Option<Vec<String>>,
    }
    assert!(Post::parse(&json!({"title": "éé"})).is_ok());
    assert_eq!(
        problems::<Post>(json!({"title": "é", "tags": ["a", "b", "c"]})),
        "title: expected string of at least 2 characters, got 1\n\
         tags: expected array of at most 2 items, got 3"
    );
    let schema = Post::json_schema();
    assert_eq!(
        schema["properties"],
        json!({
            "title": {"type": "string", "minLength": 2, "maxLength": 4},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        })
    );
}

#[test]
fn parsed_values_turn_back_into_the_json_they_came_from() {
    let arguments = json!({
        "items": [{"name": "a", "quantity": 2}],
        "notes": {"gift": "yes"},
        "flags": {"fast": true},
        "extra": [1, 2],
    });
    let order = Order::parse(&arguments).unwrap();
    assert_eq!(order.to_json(), arguments);
}

#[test]
fn recursive_types_refer_to_themselves_in_their_schema() {
    let schema = Node::json_schema();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/params.parse.Node"}}},
            "required": ["children"],
            "additionalProperties": false,
            "$defs": {
                "params.parse.Node": {
                    "type": "object",
                    "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/params.parse.Node"}}
                    },
                    "required": ["children"],
                    "additionalProperties": false,
                },
            },
        })
    );
    // A validator follows the references, and agrees with parse.
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for (value, valid) in [
        (nested(5), true),
        (
            json!({"children": [{"children": []}, {"children": [{}]}]}),
            false,
        ),
    ] {
        assert_eq!(validator.is_valid(&value), valid, "{value}");
        assert_eq!(Node::parse(&value).is_ok(), valid, "{value}");
    }
}

/// Wrong types, one per field kind.
#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Typed {
    count: u32,
    ratio: f64,
    name: String,
    flag: bool,
    tags: Vec<String>,
    inner: Inner,
    mode: Mode,
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Inner {
    id: i64,
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
enum Mode {
    Fast,
    Slow,
}

#[test]
fn a_wrong_type_is_named_and_quoted_in_the_words_the_schema_check_says() {
    let check = tool_core::params::SchemaCheck::new(&Typed::json_schema()).unwrap();
    let long = format!("count: expected integer, got string \"{}…", "z".repeat(79));
    let cases = [
        (
            json!({"count": "5"}),
            "count: expected integer, got string \"5\"",
        ),
        (
            json!({"count": 2.5}),
            "count: expected integer, got number 2.5",
        ),
        (json!({"count": "z".repeat(1000)}), long.as_str()),
        (
            json!({"ratio": "1.5"}),
            "ratio: expected number, got string \"1.5\"",
        ),
        (json!({"name": 7}), "name: expected string, got number 7"),
        (json!({"name": null}), "name: expected string, got null"),
        (
            json!({"flag": "yes"}),
            "flag: expected boolean, got string \"yes\"",
        ),
        (
            json!({"tags": {"a": 1}}),
            "tags: expected array, got object {\"a\":1}",
        ),
        (
            json!({"tags": [true]}),
            "tags[0]: expected string, got boolean true",
        ),
        (
            json!({"inner": [1, 2]}),
            "inner: expected object, got array [1,2]",
        ),
        (
            json!({"inner": {"id": "x"}}),
            "inner.id: expected integer, got string \"x\"",
        ),
        (
            json!({"mode": 3}),
            "mode: expected one of \"Fast\", \"Slow\", got number 3",
        ),
        (
            json!({"mode": "Medium"}),
            "mode: expected one of \"Fast\", \"Slow\", got \"Medium\"",
        ),
    ];
    let valid = json!({
        "count": 1, "ratio": 1.0, "name": "a", "flag": true, "tags": [],
        "inner": {"id": 1}, "mode": "Fast",
    });
    for (wrong, expected) in cases {
        let mut arguments = valid.clone();
        for (key, value) in wrong.as_object().unwrap() {
            arguments[key] = value.clone();
        }
        assert_eq!(
            problems::<Typed>(arguments.clone()),
            expected,
            "parse of {wrong}"
        );
        let checked = check.check(&arguments).unwrap_err().to_string();
        if wrong["mode"].is_number() {
            // The validator also reports the enum's `type`, in the same words.
            assert_eq!(
                checked,
                format!("mode: expected string, got number 3\n{expected}")
            );
        } else {
            assert_eq!(checked, expected, "the schema check of {wrong}");
        }
    }
}
