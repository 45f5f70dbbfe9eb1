//! The properties of the `parse` fuzz target (fuzz/fuzz_targets/parse.rs),
//! as short property tests that run in `cargo test`.
//!
//! For every input that is JSON, `Everything::parse` (a struct of every field
//! type) must:
//! - not panic;
//! - on `Ok(v)`: give a value within its declared bounds, whose `to_json()`
//!   parses back to an equal struct with the same `to_json()` (floats compare
//!   through their JSON);
//! - on `Err(e)`: report at least one and at most `MAX_PROBLEMS` problems,
//!   each with a non-empty path and message, and display as one line per
//!   problem kept (plus `... and N more problems` when some were counted only).
//!
//! Inputs: values walked from `Everything`'s own schema, mostly near valid
//! (edge numbers, strings at their length bounds, wrong names, missing,
//! `null` and undeclared keys); wholly random JSON; and random bytes or
//! byte-mutated JSON text through `serde_json::from_slice`.
//!
//! The struct and the properties are shared with the fuzz target and the
//! agreement test: `tests::everything`.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::{Map, Value, json};
use tests::everything::{Everything, WiderTypes, check_parse, check_parse_wider};
use tool_core::{ToolParams, params::MAX_JSON_DEPTH};

use crate::support::generators::{
    Gen, config, constrained_string, edge_numbers, float_bound, float_json, int_json,
    integer_bounds, json_string_of, length_bound, property_names, samples, string_of, tuple_items,
    whole_branches,
};

/// What parse returned for `arguments`: `Ok(true)` when it parsed.
fn check(arguments: &Value) -> Result<bool, TestCaseError> {
    check_parse(arguments).map_err(TestCaseError::fail)
}

// ---------------------------------------------------------------------------
// Generators.

fn any_number() -> Gen {
    Union::new_weighted(vec![
        (4, prop::sample::select(edge_numbers()).boxed()),
        (1, any::<i64>().prop_map(Value::from).boxed()),
        (1, any::<u64>().prop_map(Value::from).boxed()),
        (
            1,
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(float_json)
                .boxed(),
        ),
        (1, (-20.0..120.0f64).prop_map(float_json).boxed()),
    ])
    .boxed()
}

/// Random JSON of any shape, a few levels deep.
fn nested_json() -> Gen {
    let leaf = Union::new_weighted(vec![
        (1, Just(Value::Null).boxed()),
        (1, any::<bool>().prop_map(Value::Bool).boxed()),
        (3, any_number()),
        (2, json_string_of(0..=6)),
    ]);
    leaf.prop_recursive(3, 24, 4, |inner| {
        Union::new(vec![
            vec(inner.clone(), 0..4).prop_map(Value::Array).boxed(),
            vec((string_of(0..=3), inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect()))
                .boxed(),
        ])
    })
    .boxed()
}

/// [`nested_json`], and sometimes a value nested around `MAX_JSON_DEPTH`.
fn random_json() -> Gen {
    Union::new_weighted(vec![(30, nested_json()), (1, deep())]).boxed()
}

/// Arrays and objects nested just under to just over `MAX_JSON_DEPTH`.
fn deep() -> Gen {
    (MAX_JSON_DEPTH - 3..=MAX_JSON_DEPTH + 3, any::<bool>())
        .prop_map(|(depth, objects)| {
            let mut value = json!(1);
            for _ in 0..depth {
                value = if objects {
                    json!({ "k": value })
                } else {
                    json!([value])
                };
            }
            value
        })
        .boxed()
}

/// A string's or an array's length bounds: `0` and `min + 3` when absent.
fn length_bounds(schema: &Value) -> (usize, usize) {
    let bound = |string: &str, array: &str| {
        length_bound(schema, string).or_else(|| length_bound(schema, array))
    };
    let min = bound("minLength", "minItems").unwrap_or(0);
    let max = bound("maxLength", "maxItems").unwrap_or(min + 3);
    (min, max)
}

/// A value for `schema` (Everything's own): each node is, out of 100, valid
/// with `100 - rate` (its children generated the same way) and a fault with
/// `rate`. At rate 0 the value is valid.
fn shaped(schema: &Value, rate: u32) -> Gen {
    if rate == 0 {
        return valid(schema, 0);
    }
    Union::new_weighted(vec![
        (100 - rate, valid(schema, rate)),
        (rate, fault(schema)),
    ])
    .boxed()
}

/// A value that `schema` accepts at its own level; its children are
/// [`shaped`] at `rate`. Optional keys are present or not, and (when
/// `rate > 0`) sometimes `null`, and undeclared keys are added.
fn valid(schema: &Value, rate: u32) -> Gen {
    if let Some(branches) = whole_branches(schema) {
        let options: Vec<Gen> = branches.iter().map(|branch| valid(branch, rate)).collect();
        return Union::new(options).boxed();
    }
    if let Some(constant) = schema.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(names) = schema.get("enum").and_then(Value::as_array) {
        return prop::sample::select(names.clone()).boxed();
    }
    if let Some(strings) = constrained_string(schema, rate == 0) {
        return strings;
    }
    if let Some(positions) = tuple_items(schema) {
        let items: Vec<Gen> = positions.iter().map(|p| shaped(p, rate)).collect();
        return items.prop_map(Value::Array).boxed();
    }
    let (min_length, max_length) = length_bounds(schema);
    match schema.get("type").and_then(Value::as_str) {
        None => nested_json(),
        Some("null") => Just(Value::Null).boxed(),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("string") => json_string_of(min_length..=max_length),
        Some("integer") => {
            let (lo, hi) = integer_bounds(schema);
            let picks: Vec<i128> = [lo, hi, 0, 1, lo + 1, hi - 1]
                .into_iter()
                .filter(|pick| (lo..=hi).contains(pick))
                .collect();
            Union::new(vec![
                prop::sample::select(picks).prop_map(int_json).boxed(),
                (lo..=hi).prop_map(int_json).boxed(),
            ])
            .boxed()
        }
        Some("number") => {
            let lo = float_bound(schema, "minimum").unwrap_or(-1e300);
            let hi = float_bound(schema, "maximum").unwrap_or(1e300);
            let picks: Vec<f64> = [lo, hi, 0.0, -0.0, 1.0, 2.5, 1e-300]
                .into_iter()
                .filter(|pick| (lo..=hi).contains(pick))
                .collect();
            Union::new(vec![
                prop::sample::select(picks).prop_map(float_json).boxed(),
                (lo..=hi).prop_map(float_json).boxed(),
                (lo.max(-100.0)..=hi.min(100.0))
                    .prop_map(float_json)
                    .boxed(),
            ])
            .boxed()
        }
        Some("array") => {
            let item = shaped(schema.get("items").unwrap_or(&json!({})), rate);
            vec(item, min_length..=max_length)
                .prop_map(Value::Array)
                .boxed()
        }
        Some("object") => match schema.get("properties").and_then(Value::as_object) {
            Some(properties) => object(schema, properties, rate),
            None => {
                let item = shaped(
                    schema.get("additionalProperties").unwrap_or(&json!({})),
                    rate,
                );
                // Keys `propertyNames` accepts, and at the rate, any key.
                let keys = match property_names(schema) {
                    Some((valid, _)) if rate == 0 => prop::sample::select(valid).boxed(),
                    Some((valid, _)) => Union::new_weighted(vec![
                        (100 - rate, prop::sample::select(valid).boxed()),
                        (rate, string_of(0..=3)),
                    ])
                    .boxed(),
                    None => string_of(0..=3),
                };
                vec((keys, item), 0..3)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect()))
                    .boxed()
            }
        },
        Some(other) => panic!("the generator does not know type {other:?}"),
    }
}

fn object(schema: &Value, properties: &Map<String, Value>, rate: u32) -> Gen {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let keys: Vec<String> = properties.keys().cloned().collect();
    let fields: Vec<BoxedStrategy<Option<Value>>> = properties
        .iter()
        .map(|(key, property)| {
            let value = shaped(property, rate).prop_map(Some).boxed();
            if required.contains(&key.as_str()) {
                return value;
            }
            let mut options = vec![(6, value), (2, Just(None).boxed())];
            if rate > 0 {
                options.push((1, Just(Some(Value::Null)).boxed()));
            }
            Union::new_weighted(options).boxed()
        })
        .collect();
    let extras = if rate > 0 {
        vec((string_of(0..=4), nested_json()), 0..2).boxed()
    } else {
        Just(Vec::new()).boxed()
    };
    (fields, extras)
        .prop_map(move |(values, extras)| {
            let mut object = Map::new();
            for (key, value) in extras {
                object.insert(key, value);
            }
            for (key, value) in keys.iter().zip(values) {
                if let Some(value) = value {
                    object.insert(key.clone(), value);
                }
            }
            Value::Object(object)
        })
        .boxed()
}

/// A value `schema` refuses, or may: random JSON, a number at some type's
/// edge, `null`, a string or array of a wrong length, a wrong enum name, an
/// object missing a key.
fn fault(schema: &Value) -> Gen {
    let mut options: Vec<(u32, Gen)> = vec![
        (2, random_json()),
        (3, prop::sample::select(edge_numbers()).boxed()),
        (1, Just(Value::Null).boxed()),
    ];
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        options.push((
            3,
            prop::sample::select(vec![json!("FastPath"), json!(""), json!("off "), json!(2)])
                .boxed(),
        ));
    }
    if let Some(branches) = whole_branches(schema) {
        for branch in &branches {
            options.push((2, fault(branch)));
        }
    }
    if let Some(strings) = constrained_string(schema, false) {
        options.push((3, strings));
    }
    let (min_length, max_length) = length_bounds(schema);
    let wrong_lengths = vec![min_length.saturating_sub(1), max_length + 1];
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => options.push((
            3,
            prop::sample::select(wrong_lengths)
                .prop_flat_map(|length| string_of(length..=length))
                .prop_map(Value::String)
                .boxed(),
        )),
        Some("array") => {
            let item = valid(schema.get("items").unwrap_or(&json!({})), 0);
            options.push((
                3,
                prop::sample::select(wrong_lengths)
                    .prop_flat_map(move |length| vec(item.clone(), length..=length))
                    .prop_map(Value::Array)
                    .boxed(),
            ));
        }
        Some("object") if schema.get("properties").is_some() => options.push((
            3,
            (valid(schema, 0), any::<prop::sample::Index>())
                .prop_map(|(mut object, at)| {
                    if let Some(entries) = object.as_object_mut().filter(|e| !e.is_empty()) {
                        let key = entries.keys().nth(at.index(entries.len())).cloned();
                        entries.remove(key.as_deref().unwrap_or_default());
                    }
                    object
                })
                .boxed(),
        )),
        _ => {}
    }
    Union::new_weighted(options).boxed()
}

/// Everything-shaped arguments: valid ones and ones with faults at several
/// rates (1, 3 and 10 nodes in 100), and some wholly random JSON.
fn everything() -> Gen {
    let schema = Everything::json_schema();
    Union::new_weighted(vec![
        (3, shaped(&schema, 0)),
        (3, shaped(&schema, 1)),
        (2, shaped(&schema, 3)),
        (1, shaped(&schema, 10)),
        (1, random_json()),
    ])
    .boxed()
}

/// Bytes for `serde_json::from_slice`: random, or JSON text (of a near-valid
/// value) with a few byte edits.
fn bytes() -> BoxedStrategy<Vec<u8>> {
    let noise = vec(
        prop::sample::select(b"{}[]:,\"\\ 01-.eE9nultrfas\xc3\xa9\xff".to_vec()),
        0..48,
    );
    let edit = (0..4u8, any::<prop::sample::Index>(), any::<u8>());
    let mutated = (everything(), vec(edit, 0..4)).prop_map(|(value, edits)| {
        let mut text = value.to_string().into_bytes();
        for (kind, at, byte) in edits {
            if text.is_empty() {
                break;
            }
            let at = at.index(text.len());
            match kind {
                0 => text.truncate(at),
                1 => {
                    text.remove(at);
                }
                2 => text.insert(at, byte),
                _ => text[at] = byte,
            }
        }
        text
    });
    Union::new_weighted(vec![
        (1, vec(any::<u8>(), 0..32).boxed()),
        (2, noise.boxed()),
        (4, mutated.boxed()),
    ])
    .boxed()
}

// ---------------------------------------------------------------------------
// The tests.

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn parse_properties_hold_on_everything_shaped_values(
        value in everything()
    ) {
        check(&value)?;
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn parse_properties_hold_on_random_json(value in random_json()) {
        check(&value)?;
    }

    #[test]
    fn parse_properties_hold_on_random_and_mutated_bytes(bytes in bytes()) {
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            check(&value)?;
        }
    }
}

/// The generator reaches both outcomes: values that parse and that do not.
#[test]
fn shaped_values_both_parse_and_fail() {
    let (mut parsed, mut failed) = (0, 0);
    for value in samples(everything(), 300) {
        match check(&value) {
            Ok(true) => parsed += 1,
            Ok(false) => failed += 1,
            Err(error) => panic!("{error}"),
        }
    }
    eprintln!("parsed {parsed}, failed {failed}");
    assert!(parsed > 0 && failed > 0, "parsed {parsed}, failed {failed}");
}

/// The smallest valid value parses, and round-trips.
#[test]
fn the_minimal_value_parses() {
    let more = json!({
        "enums": {"action": {"action": "screenshot"}, "actions": [], "shapes": {},
                  "event": "tick", "query": null, "queries": []},
        "strings": {"stars": 1, "scale": 1, "level": "low", "branch": "a", "has_digit": "0",
                    "when": "2026-11-30T00:00:00Z", "day": "2026-11-30", "at": "00:00:00Z",
                    "span": "P1D", "email": "a@b.c", "host": "b.c", "ip4_text": "0.0.0.0",
                    "ip6_text": "::", "id": "00000000-0000-0000-0000-000000000000",
                    "link": "a:", "ip": "::", "ip4": "0.0.0.0", "ip6": "::"},
        "collections": {"tags": [], "small_set": [], "rgb": [0, 0, 0], "pair": ["", 0],
                        "triple": [false, null, "off"], "digits": [], "words": [], "axes": []},
        "letter": "x", "shared": "", "path": "", "page_items": [], "with_examples": 0
    });
    let minimal = json!({
        "text": "", "flag": false,
        "ints": {"i8": 0, "i16": 0, "i32": 0, "i64": 0, "isize": 0,
                 "u8": 0, "u16": 0, "u32": 0, "u64": 0, "usize": 0},
        "non_zero": {"u8": 1, "u16": 1, "u32": 1, "u64": 1, "usize": 1},
        "f32": 0, "f64": 0, "small": 0, "ratio": 1, "percent": 0, "big": 0,
        "code": "xy", "tags": ["a"], "bytes": [], "inners": [], "counts": {},
        "lookup": {}, "sparse": {}, "raw": null, "inner": {"displayName": "n"},
        "type": "off", "more": more
    });
    assert!(matches!(check(&minimal), Ok(true)));
}

/// The byte generator reaches parse: a fair share of its inputs are JSON,
/// and some of those parse.
#[test]
fn bytes_reach_parse() {
    let (mut json, mut parsed) = (0, 0);
    for bytes in samples(bytes(), 300) {
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            json += 1;
            parsed += usize::from(check(&value).unwrap_or_else(|error| panic!("{error}")));
        }
    }
    eprintln!("of 300 byte strings: {json} JSON, {parsed} parsed");
    assert!(json >= 30 && parsed > 0, "{json} JSON, {parsed} parsed");
}

/// `WiderTypes`-shaped arguments (issue 21's field types), as
/// [`everything`] for `Everything`.
fn wider() -> Gen {
    let schema = WiderTypes::json_schema();
    Union::new_weighted(vec![
        (3, shaped(&schema, 0)),
        (3, shaped(&schema, 1)),
        (2, shaped(&schema, 3)),
        (1, shaped(&schema, 10)),
    ])
    .boxed()
}

proptest! {
    #![proptest_config(config(500))]

    /// The `parse` fuzz target's properties on `WiderTypes`, which it
    /// parses too.
    #[test]
    fn parse_properties_hold_on_wider_types(value in wider()) {
        check_parse_wider(&value).map_err(TestCaseError::fail)?;
    }
}

/// The `WiderTypes` generator reaches both outcomes.
#[test]
fn wider_values_both_parse_and_fail() {
    let (mut parsed, mut failed) = (0, 0);
    for value in samples(wider(), 300) {
        match check_parse_wider(&value) {
            Ok(true) => parsed += 1,
            Ok(false) => failed += 1,
            Err(error) => panic!("{error}"),
        }
    }
    eprintln!("parsed {parsed}, failed {failed}");
    assert!(
        parsed >= 30 && failed >= 30,
        "parsed {parsed}, failed {failed}"
    );
}
