//! Parse and schema agree: a property test of `#[derive(ToolParams)]` against
//! a real JSON Schema validator (the `jsonschema` crate, draft 2020-12).
//!
//! [`Everything`] (in `tests::everything`, with its nested [`Integers`],
//! [`NonZeros`], [`Inner`] and the unit-only enum [`Mode`]) uses every field
//! type of SPEC's table:
//! `String`, `bool`, `i8`..`i64`, `isize`, `u8`..`u64`, `usize`,
//! `NonZeroU8`..`NonZeroU64`, `NonZeroUsize`, `f32`, `f64`, `Option<T>` (of a
//! scalar, of a struct, of an enum), `Vec<T>` (of strings, of structs, and
//! `Vec<Option<u8>>`, whose items may be null), `BTreeMap<String, T>` and
//! `HashMap<String, T>` (of integers, of structs, of nullable values),
//! `serde_json::Value`, `Box<T>` (of a struct and of an `Option`), a nested
//! struct and a unit-only enum with `rename_all`; and the field attributes
//! `min`/`max` (integer and float bounds, on integer and float fields),
//! `min_length`/`max_length` (on a string and an array), `default`
//! (`default` and `default = expr`), `rename`, `description` (doc comments),
//! and container `rename_all`/`description`.
//!
//! The generator ([`arguments`]) walks the schema and produces, for
//! [`CASES`] (2000) cases per run, values mostly *near* valid: valid values
//! with their boundaries (a type's min and max, lengths at the bounds, `2.0`
//! for `2`, `-0.0`); values with exactly one fault at any depth; values with
//! faults at a per-case rate. A fault is a value just out of range, too
//! short or too long, of the wrong JSON type, `null`, a missing required
//! key, a wrong enum name, or a number at some type's edge (`1e20`, `-1e20`,
//! `u64::MAX`, `i64::MIN`, `2^63`, `2^64`, `f32::MAX` and past it). Objects
//! get undeclared keys at every level and `null` or missing optional fields.
//! Some cases are wholly random JSON (null, arrays, strings, ... at the
//! root). About 40% of the values parse, about 15% are valid as they are.
//!
//! The property, for every generated value `v`:
//! (a) if the validator accepts `v`, `Everything::parse(&v)` is `Ok`;
//! (b) `parse(&v).is_ok() == validator.is_valid(&normalize(&v, &schema))`;
//! (c) when `parse(&v)` is `Ok(x)`, `x.to_json()` is valid as it is: what a
//!     `Json<T>` structured result sends validates against the output
//!     schema it advertises (`T::json_schema()`).
//!
//! [`normalize`] removes exactly SPEC's two documented leniencies of parse,
//! walking the schema (not the struct):
//! 1. undeclared keys of an object whose schema has `properties` and
//!    `additionalProperties: false`, unless its type says
//!    `deny_unknown_fields`: parse drops them, the schema rejects them. A
//!    type that denies them refuses them as the schema does, so there they
//!    are kept, and judged. The schema is closed either way and cannot say
//!    which objects deny: each test lists them beside its type, as JSON
//!    Pointers into the schema ([`Judge::denying`]; none for the types
//!    above, [`DENY_FIELDS_DENIED`] for [`DenyFields`]). A wrong list fails
//!    the property (undeclared keys are generated in every object), and
//!    [`the_deny_list_decides_how_undeclared_keys_are_judged`] shows it;
//! 2. `null` for a key of such an object that is not in its `required`: parse
//!    reads it as `None`, the schema (the field's `T`) rejects it.
//!
//! `deny_unknown_fields` is tested on [`DenyFields`] (a struct that does
//! not deny, holding structs and enums of each representation that do) and
//! on each of its enums as the root, with values of one variant carrying a
//! key only another variant declares mixed in; an adjacently tagged unit
//! variant that denies runs in an ignored test of its own until parse
//! refuses its content (issue 21).
//!
//! The disagreements the property found (null for a defaulted field, `f32`
//! bounds checked after rounding, integers against float bounds in `f64`)
//! were fixed in tool-core; each keeps a minimal regression test below.
//!
//! A last test checks that the derived schemas are themselves valid JSON
//! Schema 2020-12 documents (against the meta-schema).

use crate::support::validator_for;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::num::NonZeroU32;
use tests::everything::{
    Action, Closed, ClosedAdjacent, ClosedAdjacentUnit, ClosedCommand, ClosedExternal,
    ClosedInternal, ClosedLookup, Collections, DenyFields, EnumFields, Event, Everything, Inner,
    Integers, Layout, Mode, NonZeros, OpenInternal, Query, Shape, StringRules,
};
use tool_core::{ToolParams, params::ParamValue};

use crate::support::generators::{
    Gen, branches, constrained_string, edge_numbers, float_bound, float_json, int_json,
    integer_bounds, json_string_of, length_bound, property_names, tuple_items, whole_branches,
};
/// Generated values per run of [`parse_agrees_with_the_schema`].
const CASES: u32 = 2000;

// The echo request and an empty struct: more schemas for the meta-schema check.

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Request {
    /// The text to echo
    value: String,
    label: Option<String>,
    limit: Option<NonZeroU32>,
}

#[derive(ToolParams, Debug)]
struct Empty {}

// ---------------------------------------------------------------------------
// normalize: the two documented leniencies, removed by walking the schema.

/// Validators of the subschemas `normalize` picks alternatives with,
/// compiled once each (with the root's `$defs`, so references resolve),
/// and the schema locations whose type denies unknown fields.
pub(crate) struct Judge {
    defs: Option<Value>,
    validators: RefCell<HashMap<String, std::rc::Rc<jsonschema::Validator>>>,
    /// JSON Pointers into the root schema of the objects whose type says
    /// `deny_unknown_fields` (see [`normalize`]).
    denied: BTreeSet<String>,
}

impl Judge {
    /// A judge for `root`, a schema in which no type denies unknown fields.
    pub(crate) fn new(root: &Value) -> Self {
        Judge::denying(root, &[])
    }

    /// A judge for `root` in which the objects at `denied` (JSON Pointers
    /// into `root`, such as `/properties/leaf` or `/oneOf/2`) refuse
    /// undeclared keys. Panics when a pointer names no closed object of
    /// `root`: a mistyped pointer would silently deny nothing.
    pub(crate) fn denying(root: &Value, denied: &[&str]) -> Self {
        for pointer in denied {
            let closed = root.pointer(pointer).is_some_and(|object| {
                object.get("properties").is_some()
                    && object.get("additionalProperties") == Some(&Value::Bool(false))
            });
            assert!(
                closed,
                "{pointer} is not a closed object of the schema {root}"
            );
        }
        Judge {
            defs: root.get("$defs").cloned(),
            validators: RefCell::new(HashMap::new()),
            denied: denied.iter().map(|pointer| pointer.to_string()).collect(),
        }
    }

    /// Whether `schema` (a part of the root schema) accepts `value`.
    pub(crate) fn accepts(&self, schema: &Value, value: &Value) -> bool {
        let key = schema.to_string();
        let validator = self
            .validators
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                let mut document = schema.clone();
                if let (Some(defs), Some(object)) = (&self.defs, document.as_object_mut()) {
                    object.insert("$defs".into(), defs.clone());
                }
                std::rc::Rc::new(validator_for(&document))
            })
            .clone();
        validator.is_valid(value)
    }
}

/// `value` with the two leniencies of parse removed, as `schema` and the
/// type state them: undeclared keys of a closed object (`properties` and
/// `additionalProperties: false`) whose type does not deny unknown fields
/// (the judge's list says which do: the schema is closed either way), and
/// `null` for a key that the object does not require. Recurses through
/// `properties`, `items`, `prefixItems`, a schema-valued
/// `additionalProperties`, `anyOf` and `oneOf`.
///
/// For an alternative (`anyOf`: an option or an untagged enum; `oneOf`: a
/// tagged enum) the value is normalized against the first alternative that
/// accepts it once normalized, as parse takes the first variant that
/// parses; failing that, against the first of its JSON kind.
fn normalize(value: &Value, schema: &Value, judge: &Judge) -> Value {
    normalize_at(value, schema, "", judge)
}

/// [`normalize`] of the part of the root schema at `pointer`.
fn normalize_at(value: &Value, schema: &Value, pointer: &str, judge: &Judge) -> Value {
    if let Some(branches) = branches(schema) {
        let keyword = if schema.get("anyOf").is_some() {
            "anyOf"
        } else {
            "oneOf"
        };
        let at = |i: usize| format!("{pointer}/{keyword}/{i}");
        for (i, branch) in branches.iter().enumerate() {
            let normalized = normalize_at(value, branch, &at(i), judge);
            if judge.accepts(branch, &normalized) {
                return normalized;
            }
        }
        return match branches
            .iter()
            .position(|branch| admits_kind(branch, value))
        {
            Some(i) => normalize_at(value, &branches[i], &at(i), judge),
            None => value.clone(),
        };
    }
    match value {
        Value::Object(entries) => {
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                // Parse drops undeclared keys unless the type denies them.
                let drops_undeclared = schema.get("additionalProperties")
                    == Some(&Value::Bool(false))
                    && !judge.denied.contains(pointer);
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|names| names.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut kept = Map::new();
                for (key, item) in entries {
                    match properties.get(key) {
                        None if drops_undeclared => {}
                        None => {
                            kept.insert(key.clone(), item.clone());
                        }
                        Some(_) if item.is_null() && !required.contains(&key.as_str()) => {}
                        Some(property) => {
                            let at = format!("{pointer}/properties/{}", escape(key));
                            kept.insert(key.clone(), normalize_at(item, property, &at, judge));
                        }
                    }
                }
                Value::Object(kept)
            } else if let Some(values) =
                schema.get("additionalProperties").filter(|s| s.is_object())
            {
                let at = format!("{pointer}/additionalProperties");
                Value::Object(
                    entries
                        .iter()
                        .map(|(key, item)| (key.clone(), normalize_at(item, values, &at, judge)))
                        .collect(),
                )
            } else {
                value.clone()
            }
        }
        Value::Array(items) => {
            if let Some(positions) = tuple_items(schema) {
                return Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| match positions.get(i) {
                            Some(position) => {
                                let at = format!("{pointer}/prefixItems/{i}");
                                normalize_at(item, position, &at, judge)
                            }
                            None => item.clone(),
                        })
                        .collect(),
                );
            }
            match schema.get("items").filter(|s| s.is_object()) {
                Some(item_schema) => {
                    let at = format!("{pointer}/items");
                    Value::Array(
                        items
                            .iter()
                            .map(|item| normalize_at(item, item_schema, &at, judge))
                            .collect(),
                    )
                }
                None => value.clone(),
            }
        }
        _ => value.clone(),
    }
}

/// A property name as a JSON Pointer segment.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Whether `schema`'s `type` (if any) is the JSON kind of `value`.
fn admits_kind(schema: &Value, value: &Value) -> bool {
    let Some(kind) = schema.get("type").and_then(Value::as_str) else {
        return true;
    };
    matches!(
        (kind, value),
        ("null", Value::Null)
            | ("boolean", Value::Bool(_))
            | ("integer" | "number", Value::Number(_))
            | ("string", Value::String(_))
            | ("array", Value::Array(_))
            | ("object", Value::Object(_))
    )
}

// ---------------------------------------------------------------------------
// The generator: walks the schema, producing mostly near-valid values.

/// How a case is generated: `rate` out of 256 is the chance that a node is
/// perturbed; `lenient` allows the two leniencies (undeclared keys, `null`
/// for optional fields).
#[derive(Clone, Copy)]
struct Mood {
    rate: u32,
    lenient: bool,
}

const LENIENT: Mood = Mood {
    rate: 0,
    lenient: true,
};

/// The root strategy: near-valid arguments for `schema` in several moods,
/// and wholly random JSON.
fn arguments(schema: &Value) -> Gen {
    let strict = Mood {
        rate: 0,
        lenient: false,
    };
    let lenient = |rate| Mood { rate, ..LENIENT };
    let moods = [
        (2, strict),
        (3, lenient(0)),
        (1, lenient(4)),
        (1, lenient(16)),
        (1, lenient(64)),
    ];
    let mut options: Vec<(u32, Gen)> = moods
        .into_iter()
        .map(|(weight, mood)| (weight, near(schema, mood)))
        .collect();
    options.push((2, single_fault(schema, strict)));
    options.push((4, single_fault(schema, lenient(0))));
    options.push((1, random_json()));
    Union::new_weighted(options).boxed()
}

/// A valid value for `schema`, or (at `mood.rate`) a perturbed one.
fn near(schema: &Value, mood: Mood) -> Gen {
    let valid = valid(schema, mood);
    if mood.rate == 0 {
        return valid;
    }
    Union::new_weighted(vec![
        (256 - mood.rate, valid),
        (mood.rate, perturbed(schema)),
    ])
    .boxed()
}

fn valid(schema: &Value, mood: Mood) -> Gen {
    if let Some(branches) = whole_branches(schema) {
        let options: Vec<Gen> = branches.iter().map(|branch| near(branch, mood)).collect();
        return Union::new(options).boxed();
    }
    if let Some(constant) = schema.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(names) = schema.get("enum").and_then(Value::as_array) {
        return prop::sample::select(names.clone()).boxed();
    }
    if let Some(strings) = constrained_string(schema, true) {
        return strings;
    }
    if let Some(positions) = tuple_items(schema) {
        let items: Vec<Gen> = positions
            .iter()
            .map(|position| near(position, mood))
            .collect();
        return items.prop_map(Value::Array).boxed();
    }
    match schema.get("type").and_then(Value::as_str) {
        None => random_json(),
        Some("null") => Just(Value::Null).boxed(),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("string") => {
            let min = length_bound(schema, "minLength").unwrap_or(0);
            let max = length_bound(schema, "maxLength").unwrap_or(min + 6);
            json_string_of(min..=max)
        }
        Some("integer") => {
            let (min, max) = integer_bounds(schema);
            let mut picks = vec![min, max, min.saturating_add(1).min(max), max - 1];
            picks.retain(|pick| (min..=max).contains(pick));
            picks.extend(
                [0, 1, 2, 100]
                    .into_iter()
                    .filter(|n| (min..=max).contains(n)),
            );
            Union::new_weighted(vec![
                (
                    3,
                    prop::sample::select(picks.clone())
                        .prop_map(int_json)
                        .boxed(),
                ),
                (3, (min..=max).prop_map(int_json).boxed()),
                // The same values written as floats (`2.0`), where exact.
                (
                    1,
                    prop::sample::select(picks)
                        .prop_map(|int| {
                            if int.unsigned_abs() <= 1 << 53 {
                                float_json(int as f64)
                            } else {
                                int_json(int)
                            }
                        })
                        .boxed(),
                ),
            ])
            .boxed()
        }
        Some("number") => {
            let min = float_bound(schema, "minimum");
            let max = float_bound(schema, "maximum");
            let lo = min.unwrap_or(-1e300);
            let hi = max.unwrap_or(1e300);
            let mut picks: Vec<Value> = [lo, hi, 0.0, -0.0, 0.5, 1.0, 2.0, 1e20, -1e20, 5e-324]
                .into_iter()
                .filter(|x| (lo..=hi).contains(x))
                .map(float_json)
                .collect();
            picks.extend(
                [0i64, 1, -3, 7, 100, i64::MIN]
                    .into_iter()
                    .filter(|&n| (lo..=hi).contains(&(n as f64)))
                    .map(Value::from),
            );
            picks.extend(
                [u64::MAX]
                    .into_iter()
                    .filter(|&n| (lo..=hi).contains(&(n as f64)))
                    .map(Value::from),
            );
            Union::new_weighted(vec![
                (2, prop::sample::select(picks).boxed()),
                (2, (lo..=hi).prop_map(float_json).boxed()),
                // Small numbers, where the bounds of most fields lie.
                (
                    1,
                    (lo.max(-1000.0)..=hi.min(1000.0))
                        .prop_map(float_json)
                        .boxed(),
                ),
            ])
            .boxed()
        }
        Some("array") => {
            let item = near(schema.get("items").unwrap_or(&json!({})), mood);
            let min = length_bound(schema, "minItems").unwrap_or(0);
            let max = length_bound(schema, "maxItems").unwrap_or(min + 3);
            let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
            vec(item, min..=max)
                .prop_map(move |mut items| {
                    if unique {
                        let mut seen = std::collections::HashSet::new();
                        items.retain(|item| seen.insert(item.to_string()));
                    }
                    Value::Array(items)
                })
                .boxed()
        }
        Some("object") if schema.get("properties").is_some() => object(schema, mood),
        Some("object") => map(schema, mood),
        Some(other) => panic!("the generator does not know type {other:?}"),
    }
}

/// A struct's object: each required key present (missing at `mood.rate`),
/// each optional key present, missing or (lenient) `null`, and (lenient)
/// undeclared keys.
fn object(schema: &Value, mood: Mood) -> Gen {
    let keys: Vec<String> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect();
    let fields: Vec<BoxedStrategy<Option<Value>>> =
        keys.iter().map(|key| field(schema, key, mood)).collect();
    (fields, undeclared_entries(schema, mood))
        .prop_map(move |(values, extras)| assemble(&keys, values, extras))
        .boxed()
}

/// A struct's object with exactly one fault: one field (chosen at random)
/// is [`single_fault`] or, if required, missing; every other part is valid.
fn object_with_one_fault(schema: &Value, mood: Mood) -> Gen {
    let properties = schema["properties"].as_object().expect("properties");
    let keys: Vec<String> = properties.keys().cloned().collect();
    if keys.is_empty() {
        return perturbed(schema);
    }
    let fields: Vec<BoxedStrategy<Option<Value>>> =
        keys.iter().map(|key| field(schema, key, mood)).collect();
    // One variant per field, sharing the (reference-counted) strategies, so
    // that only the chosen fault is generated.
    let variants: Vec<BoxedStrategy<Vec<Option<Value>>>> = keys
        .iter()
        .enumerate()
        .map(|(at, key)| {
            let fault = single_fault(&properties[key], mood).prop_map(Some).boxed();
            let mut fields = fields.clone();
            fields[at] = if is_required(schema, key) {
                Union::new_weighted(vec![(5, fault), (1, Just(None).boxed())]).boxed()
            } else {
                fault
            };
            fields.boxed()
        })
        .collect();
    (Union::new(variants), undeclared_entries(schema, mood))
        .prop_map(move |(values, extras)| assemble(&keys, values, extras))
        .boxed()
}

/// A value for `schema` that is valid but for exactly one fault, at any
/// depth: a field of an object, an entry of a map, an item of an array, or
/// the value itself.
fn single_fault(schema: &Value, mood: Mood) -> Gen {
    let valid_mood = Mood { rate: 0, ..mood };
    if let Some(positions) = tuple_items(schema) {
        // One position wrong, the others valid.
        let valid_items: Vec<Gen> = positions.iter().map(|p| valid(p, valid_mood)).collect();
        let variants: Vec<Gen> = (0..positions.len())
            .map(|at| {
                let mut items = valid_items.clone();
                items[at] = single_fault(&positions[at], mood);
                items.prop_map(Value::Array).boxed()
            })
            .collect();
        return Union::new_weighted(vec![
            (4, Union::new(variants).boxed()),
            (1, perturbed(schema)),
        ])
        .boxed();
    }
    if let Some(branches) = whole_branches(schema) {
        let options: Vec<Gen> = branches
            .iter()
            .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"))
            .map(|branch| single_fault(branch, mood))
            .collect();
        if !options.is_empty() {
            return Union::new(options).boxed();
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") if schema.get("properties").is_some() => Union::new_weighted(vec![
            (4, object_with_one_fault(schema, mood)),
            (1, perturbed(schema)),
        ])
        .boxed(),
        Some("object") => match schema.get("additionalProperties") {
            Some(values @ Value::Object(_)) => {
                let (keys, bad_keys) = map_keys(schema);
                let mut options = vec![
                    (
                        4,
                        (
                            map_with_keys(&keys, valid(values, valid_mood), 0..=2),
                            prop::sample::select(keys.clone()),
                            single_fault(values, mood),
                        )
                            .prop_map(|(mut entries, key, fault)| {
                                entries
                                    .as_object_mut()
                                    .expect("an object")
                                    .insert(key, fault);
                                entries
                            })
                            .boxed(),
                    ),
                    (1, perturbed(schema)),
                ];
                if !bad_keys.is_empty() {
                    // A valid value under the one key `propertyNames` refuses.
                    options.push((
                        3,
                        with_one_bad_key(
                            map_with_keys(&keys, valid(values, valid_mood), 0..=2),
                            bad_keys,
                            valid(values, valid_mood),
                        ),
                    ));
                }
                Union::new_weighted(options).boxed()
            }
            _ => perturbed(schema),
        },
        Some("array") => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            let min = length_bound(schema, "minItems").unwrap_or(0);
            let max = length_bound(schema, "maxItems").unwrap_or(min + 2);
            // A valid array with one wrong item, so one shorter than allowed.
            let shorter = min.saturating_sub(1)..=max.saturating_sub(1).max(min.saturating_sub(1));
            Union::new_weighted(vec![
                (
                    4,
                    (
                        vec(valid(&items, valid_mood), shorter),
                        single_fault(&items, mood),
                        any::<prop::sample::Index>(),
                    )
                        .prop_map(|(mut items, fault, at)| {
                            items.insert(at.index(items.len() + 1), fault);
                            Value::Array(items)
                        })
                        .boxed(),
                ),
                (1, perturbed(schema)),
            ])
            .boxed()
        }
        _ => perturbed(schema),
    }
}

fn is_required(schema: &Value, key: &str) -> bool {
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|name| name == key))
}

/// One field of a struct's object: `None` leaves the key out.
fn field(schema: &Value, key: &str, mood: Mood) -> BoxedStrategy<Option<Value>> {
    let present = near(&schema["properties"][key], mood)
        .prop_map(Some)
        .boxed();
    if is_required(schema, key) {
        if mood.rate == 0 {
            present
        } else {
            Union::new_weighted(vec![
                (256 - mood.rate, present),
                (mood.rate, Just(None).boxed()),
            ])
            .boxed()
        }
    } else {
        let mut options = vec![(6, present), (2, Just(None).boxed())];
        if mood.lenient {
            options.push((2, Just(Some(Value::Null)).boxed()));
        }
        Union::new_weighted(options).boxed()
    }
}

/// Undeclared keys for a struct's object (none unless `mood.lenient`):
/// generic ones and near misses of the declared ones.
fn undeclared_entries(schema: &Value, mood: Mood) -> BoxedStrategy<Vec<(String, Value)>> {
    let properties = schema["properties"].as_object().expect("properties");
    // Undeclared keys are parse's leniency for closed objects (structs);
    // elsewhere (an external enum's one-key object) they are faults.
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    if !mood.lenient || !closed {
        return Just(Vec::new()).boxed();
    }
    let mut undeclared: Vec<String> = ["extra", "", "ignored", "a b", "__proto__"]
        .into_iter()
        .map(String::from)
        .collect();
    for key in properties.keys() {
        undeclared.push(key.to_uppercase());
        undeclared.push(format!("{key}_"));
    }
    undeclared.retain(|name| !properties.contains_key(name));
    Union::new_weighted(vec![
        (3, Just(Vec::new()).boxed()),
        (
            1,
            vec((prop::sample::select(undeclared), random_json()), 1..=2).boxed(),
        ),
    ])
    .boxed()
}

fn assemble(keys: &[String], values: Vec<Option<Value>>, extras: Vec<(String, Value)>) -> Value {
    let mut entries = Map::new();
    for (key, value) in keys.iter().zip(values) {
        if let Some(value) = value {
            entries.insert(key.clone(), value);
        }
    }
    for (key, value) in extras {
        entries.insert(key, value);
    }
    Value::Object(entries)
}

const MAP_KEYS: &[&str] = &["", "a", "b", "key", "é", "with space", "a.b", "[0]"];

/// The keys of a map schema: those `propertyNames` accepts and those it
/// refuses, out of the shared pool (numerals near every integer type's
/// bounds and their non-canonical spellings, `bool` names, characters,
/// UUIDs, IP addresses, ...); [`MAP_KEYS`] and none refused for a map of
/// string keys.
fn map_keys(schema: &Value) -> (Vec<String>, Vec<String>) {
    property_names(schema).unwrap_or_else(|| {
        (
            MAP_KEYS.iter().map(|key| key.to_string()).collect(),
            Vec::new(),
        )
    })
}

/// A map's object: a few entries, each key one of `keys`, each value from
/// `item`.
fn map_with_keys(keys: &[String], item: Gen, entries: std::ops::RangeInclusive<usize>) -> Gen {
    vec((prop::sample::select(keys.to_vec()), item), entries)
        .prop_map(|entries| Value::Object(entries.into_iter().collect()))
        .boxed()
}

/// `map` with one more entry, under one of `bad_keys`, its value from
/// `item`.
fn with_one_bad_key(map: Gen, bad_keys: Vec<String>, item: Gen) -> Gen {
    (map, prop::sample::select(bad_keys), item)
        .prop_map(|(mut map, key, item)| {
            if let Some(entries) = map.as_object_mut() {
                entries.insert(key, item);
            }
            map
        })
        .boxed()
}

/// A map's object: a few entries, each value from `item`.
fn map_of(item: Gen, entries: std::ops::RangeInclusive<usize>) -> Gen {
    vec(
        (prop::sample::select(MAP_KEYS).prop_map(String::from), item),
        entries,
    )
    .prop_map(|entries| Value::Object(entries.into_iter().collect()))
    .boxed()
}

fn map(schema: &Value, mood: Mood) -> Gen {
    let item = match schema.get("additionalProperties") {
        Some(values @ Value::Object(_)) => near(values, mood),
        _ => random_json(),
    };
    let (keys, bad_keys) = map_keys(schema);
    let map = map_with_keys(&keys, item.clone(), 0..=3);
    if mood.rate == 0 || bad_keys.is_empty() {
        return map;
    }
    // At the mood's rate, a key `propertyNames` refuses.
    Union::new_weighted(vec![
        (256 - mood.rate, map.clone()),
        (mood.rate, with_one_bad_key(map, bad_keys, item)),
    ])
    .boxed()
}

/// A value that is (most likely) wrong for `schema`: out of range, of the
/// wrong length, of the wrong JSON type, or with a wrong part inside.
fn perturbed(schema: &Value) -> Gen {
    let mut options: Vec<(u32, Gen)> = vec![
        (2, wrong_type()),
        (1, Just(Value::Null).boxed()),
        (1, prop::sample::select(edge_numbers()).boxed()),
    ];
    if let Some(branches) = whole_branches(schema) {
        for branch in &branches {
            options.push((2, perturbed(branch)));
        }
    }
    let listed: Option<Vec<Value>> = match (schema.get("enum"), schema.get("const")) {
        (Some(Value::Array(names)), _) => Some(names.clone()),
        (_, Some(constant)) => Some(vec![constant.clone()]),
        _ => None,
    };
    if let Some(names) = listed {
        let mut wrong: Vec<Value> = vec![json!(""), json!("none")];
        for name in names.iter().filter_map(Value::as_str) {
            wrong.push(json!(name.to_uppercase()));
            wrong.push(json!(name.replace('-', "_")));
            wrong.push(json!(format!("{name} ")));
            wrong.push(json!(&name[..name.len().saturating_sub(1)]));
        }
        for number in names.iter().filter_map(Value::as_f64) {
            wrong.push(float_json(number + 1.0));
            wrong.push(float_json(number - 0.5));
            wrong.push(float_json(number));
        }
        wrong.retain(|candidate| !names.contains(candidate));
        options.push((4, prop::sample::select(wrong).boxed()));
    }
    if let Some(strings) = constrained_string(schema, false) {
        options.push((6, strings));
    }
    if let Some(positions) = tuple_items(schema) {
        let items: Vec<Gen> = positions.iter().map(|p| valid(p, LENIENT)).collect();
        // One item too few, or one too many.
        options.push((
            3,
            (items, any::<bool>(), random_json())
                .prop_map(|(mut items, shorter, extra)| {
                    if shorter {
                        items.pop();
                    } else {
                        items.push(extra);
                    }
                    Value::Array(items)
                })
                .boxed(),
        ));
    }
    if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
        let item = valid(schema.get("items").unwrap_or(&json!({})), LENIENT);
        // A repeated item, somewhere.
        options.push((
            3,
            (vec(item, 1..=3), any::<prop::sample::Index>())
                .prop_map(|(mut items, at)| {
                    let repeated = items[at.index(items.len())].clone();
                    items.push(repeated);
                    Value::Array(items)
                })
                .boxed(),
        ));
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("integer") => {
            let (min, max) = integer_bounds(schema);
            let mut outside = vec![
                int_json(min - 1),
                int_json(max + 1),
                float_json(min as f64 - 0.5),
                float_json(max as f64 + 0.5),
                json!(2.5),
                json!("1"),
            ];
            if max - min < 1 << 40 {
                outside.push(float_json(((min + max) / 2) as f64 + 0.25));
            }
            options.push((6, prop::sample::select(outside).boxed()));
        }
        Some("number") => {
            let mut outside = vec![json!("1.5"), json!(1e39), json!(-1e39)];
            if let Some(min) = float_bound(schema, "minimum") {
                outside.push(float_json(min.next_down()));
                outside.push(float_json(min - min.abs() * 1e-8 - 1e-300));
                outside.push(float_json(min - 1.0));
                outside.push(float_json(min * 2.0 - 1.0));
            }
            if let Some(max) = float_bound(schema, "maximum") {
                outside.push(float_json(max.next_up()));
                outside.push(float_json(max + max.abs() * 1e-8 + 1e-300));
                outside.push(float_json(max + 1.0));
                outside.push(float_json(max * 2.0 + 1.0));
            }
            options.push((6, prop::sample::select(outside).boxed()));
        }
        Some("string") if schema.get("enum").is_none() => {
            let min = length_bound(schema, "minLength");
            let max = length_bound(schema, "maxLength");
            if let Some(min) = min.filter(|&min| min > 0) {
                options.push((3, json_string_of(0..=min - 1)));
            }
            if let Some(max) = max {
                options.push((3, json_string_of(max + 1..=max + 2)));
            }
        }
        Some("array") => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            let item = valid(&items, LENIENT);
            if let Some(min) = length_bound(schema, "minItems").filter(|&min| min > 0) {
                options.push((
                    3,
                    vec(item.clone(), 0..=min - 1)
                        .prop_map(Value::Array)
                        .boxed(),
                ));
            }
            if let Some(max) = length_bound(schema, "maxItems") {
                options.push((
                    3,
                    vec(item.clone(), max + 1..=max + 2)
                        .prop_map(Value::Array)
                        .boxed(),
                ));
            }
            // A valid array with one wrong item somewhere.
            options.push((
                3,
                (
                    vec(item, 0..=2),
                    perturbed(&items),
                    any::<prop::sample::Index>(),
                )
                    .prop_map(|(mut items, wrong, at)| {
                        items.insert(at.index(items.len() + 1), wrong);
                        Value::Array(items)
                    })
                    .boxed(),
            ));
        }
        Some("object") if schema.get("maxProperties").is_some() => {
            // One key too many (an external enum's object names one variant).
            let keys: Vec<String> = MAP_KEYS
                .iter()
                .map(|key| key.to_string())
                .chain(["extra".to_string(), "tick".to_string(), "key".to_string()])
                .collect();
            options.push((
                6,
                (
                    valid(schema, LENIENT),
                    prop::sample::select(keys),
                    random_json(),
                )
                    .prop_map(|(mut object, key, extra)| {
                        if let Some(entries) = object.as_object_mut() {
                            entries.insert(key, extra);
                        }
                        object
                    })
                    .boxed(),
            ));
        }
        Some("object") if schema.get("properties").is_some() => {
            // Wrong inside: a high rate of perturbed fields and missing keys.
            options.push((
                6,
                object(
                    schema,
                    Mood {
                        rate: 96,
                        ..LENIENT
                    },
                ),
            ));
        }
        Some("object") => {
            if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                let (keys, bad_keys) = map_keys(schema);
                options.push((4, map_with_keys(&keys, perturbed(values), 1..=2)));
                if !bad_keys.is_empty() {
                    // Valid values, and keys `propertyNames` refuses.
                    options.push((4, map_with_keys(&bad_keys, valid(values, LENIENT), 1..=2)));
                }
            }
        }
        _ => {}
    }
    Union::new_weighted(options).boxed()
}

/// A value of each JSON type.
fn wrong_type() -> Gen {
    prop::sample::select(vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("text"),
        json!("2"),
        json!([]),
        json!([1]),
        json!({}),
        json!({"a": 1}),
    ])
    .boxed()
}

/// Small random JSON of any shape.
fn random_json() -> Gen {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(float_json),
        prop::sample::select(edge_numbers()),
        json_string_of(0..=4),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=4).prop_map(Value::Array),
            map_of(inner.boxed(), 0..=4),
        ]
    })
    .boxed()
}

// ---------------------------------------------------------------------------

/// Valid values of `schema`, without either leniency: what a model that
/// follows the schema sends (`provider_agreement`'s P1 starts from them).
pub(crate) fn strictly_valid(schema: &Value) -> Gen {
    valid(
        schema,
        Mood {
            rate: 0,
            lenient: false,
        },
    )
}

/// This test's own mix of values near `schema`'s boundary, valid or not
/// (`provider_agreement`'s P2 draws from it for a format's schema).
pub(crate) fn near_boundary(schema: &Value) -> Gen {
    arguments(schema)
}

/// The arguments mix for a root enum, plus values of one variant carrying
/// a key that only another variant declares, with a valid value for it
/// (`{"t":"dot","c":1.5}`, `{"op":"stop","dx":1}`): undeclared for the
/// variant, so a type that denies unknown fields must refuse them. Never
/// `null` there: whether `null` for another variant's field reads as
/// absent is the parse's business, not this property's.
fn with_other_variants_keys(schema: &Value) -> Gen {
    let mut options = vec![(4, arguments(schema))];
    let choices: Vec<&Value> = branches(schema).into_iter().flatten().collect();
    for (i, choice) in choices.iter().enumerate() {
        let own = choice.get("properties").and_then(Value::as_object);
        let Some(own) = own else { continue };
        let others: Vec<(String, Value)> = choices
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .filter_map(|(_, other)| other.get("properties").and_then(Value::as_object))
            .flat_map(|properties| properties.iter())
            .filter(|(key, _)| !own.contains_key(*key))
            .map(|(key, schema)| (key.clone(), schema.clone()))
            .collect();
        if others.is_empty() {
            continue;
        }
        let foreign: Vec<Gen> = others
            .iter()
            .map(|(key, schema)| {
                let key = key.clone();
                strictly_valid(schema)
                    .prop_map(move |value| json!({ key.clone(): value }))
                    .boxed()
            })
            .collect();
        let strategy = (strictly_valid(choice), Union::new(foreign))
            .prop_map(|(mut value, foreign)| {
                if let (Some(entries), Some(foreign)) = (value.as_object_mut(), foreign.as_object())
                {
                    entries.extend(foreign.clone());
                }
                value
            })
            .boxed();
        options.push((1, strategy));
    }
    Union::new_weighted(options).boxed()
}

/// The property for one value, given what parse made of it: `Err`
/// describes a disagreement, `Ok` says whether parse accepted it.
fn check(
    value: &Value,
    parsed: Result<(), &tool_core::ParamError>,
    schema: &Value,
    validator: &jsonschema::Validator,
    judge: &Judge,
) -> Result<bool, String> {
    let normalized = normalize(value, schema, judge);
    let normalized_valid = validator.is_valid(&normalized);
    if validator.is_valid(value) && parsed.is_err() {
        return Err(format!(
            "(a) the schema accepts {value}, parse rejects it: {}",
            parsed
                .err()
                .map(|error| error.to_string())
                .unwrap_or_default()
        ));
    }
    if parsed.is_ok() != normalized_valid {
        let parse = match &parsed {
            Ok(_) => "Ok".to_string(),
            Err(error) => format!("Err({error})"),
        };
        return Err(format!(
            "(b) value {value}\n  normalized {normalized}\n  parse: {parse}\n  \
             validator on the normalized value: {normalized_valid}"
        ));
    }
    Ok(parsed.is_ok())
}

/// Runs the property on `cases` values generated from `T`'s schema, parsed
/// as `T` (at the root, as a tool's arguments, when `parse` is
/// `ToolParams::parse`), and checks that both outcomes are frequent and
/// some values are valid without either leniency.
fn agreement_run<T: ParamValue>(
    name: &str,
    schema: Value,
    parse: fn(&Value) -> Result<T, tool_core::ParamError>,
    cases: u32,
) {
    let strategy = arguments(&schema);
    agreement_run_on(name, schema, &[], strategy, parse, cases);
}

/// [`agreement_run`] for a type in which the objects at `denied` (JSON
/// Pointers into `schema`) refuse undeclared keys, on values of `strategy`.
fn agreement_run_on<T: ParamValue>(
    name: &str,
    schema: Value,
    denied: &[&str],
    strategy: Gen,
    parse: fn(&Value) -> Result<T, tool_core::ParamError>,
    cases: u32,
) {
    let validator = validator_for(&schema);
    let judge = Judge::denying(&schema, denied);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    // How the cases fell, to check that the generator covers both outcomes.
    let (accepted, rejected, valid_as_is) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&strategy, |value| {
        let parsed = parse(&value);
        let ok = check(
            &value,
            parsed.as_ref().map(|_| ()),
            &schema,
            &validator,
            &judge,
        )
        .map_err(TestCaseError::fail)?;
        // What parse accepts, written back (a `Json<T>` structured result,
        // the arguments a hook sees), is valid as it is: the output schema
        // advertised for `Json<T>` is this same schema.
        if let Ok(parsed) = &parsed {
            let written = parsed.to_json();
            if !validator.is_valid(&written) {
                let problems: Vec<String> = validator
                    .iter_errors(&written)
                    .map(|error| format!("{}: {error}", error.instance_path()))
                    .collect();
                return Err(TestCaseError::fail(format!(
                    "to_json of a parsed value is invalid against the schema: {written}\n{problems:#?}"
                )));
            }
        }
        let counter = if ok { &accepted } else { &rejected };
        counter.set(counter.get() + 1);
        if validator.is_valid(&value) {
            valid_as_is.set(valid_as_is.get() + 1);
        }
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("{name}: {error}");
    }
    // The generator stays near the boundary: both outcomes are frequent, and
    // some values are valid without either leniency.
    let (accepted, rejected, valid_as_is) = (accepted.get(), rejected.get(), valid_as_is.get());
    eprintln!("{name}: {accepted} accepted, {rejected} rejected, {valid_as_is} valid as they are");
    assert!(
        accepted >= cases / 10,
        "{name}: only {accepted} of {cases} accepted"
    );
    assert!(
        rejected >= cases / 10,
        "{name}: only {rejected} of {cases} rejected"
    );
    assert!(
        valid_as_is >= cases / 20,
        "{name}: only {valid_as_is} of {cases} valid as they are"
    );
}

/// `T`'s value parse at the root (not as a tool's arguments).
fn parse_value<T: ParamValue>(value: &Value) -> Result<T, tool_core::ParamError> {
    let mut errors = tool_core::params::ParseContext::new();
    match T::parse_value(value, &tool_core::params::ParamPath::root(), &mut errors) {
        Some(parsed) if errors.is_empty() => Ok(parsed),
        _ => Err(errors.into_error()),
    }
}

#[test]
fn parse_agrees_with_the_schema() {
    agreement_run(
        "Everything",
        Everything::json_schema(),
        Everything::parse,
        CASES,
    );
}

/// Issue 9's constructs, each group as the root so that every field of it
/// is often the one fault of a value.
#[test]
fn parse_agrees_with_the_schema_on_enums_strings_collections_layout() {
    agreement_run(
        "EnumFields",
        EnumFields::json_schema(),
        EnumFields::parse,
        CASES / 2,
    );
    agreement_run(
        "StringRules",
        StringRules::json_schema(),
        StringRules::parse,
        CASES / 2,
    );
    agreement_run(
        "Collections",
        Collections::json_schema(),
        Collections::parse,
        CASES / 2,
    );
    agreement_run("Layout", Layout::json_schema(), Layout::parse, CASES / 2);
}

/// Enums as a tool's whole arguments (`ToolParams`, whose schema says
/// `"type":"object"` at the root), and as values at the root.
#[test]
fn parse_agrees_with_the_schema_on_enums_at_the_root() {
    agreement_run("Action", Action::json_schema(), Action::parse, CASES / 4);
    agreement_run("Shape", Shape::json_schema(), Shape::parse, CASES / 4);
    agreement_run(
        "RootExternal",
        RootExternal::json_schema(),
        RootExternal::parse,
        CASES / 4,
    );
    agreement_run(
        "RootUntagged",
        RootUntagged::json_schema(),
        RootUntagged::parse,
        CASES / 4,
    );
    agreement_run(
        "Event",
        <Event as ParamValue>::schema(),
        parse_value::<Event>,
        CASES / 4,
    );
    agreement_run(
        "Query",
        <Query as ParamValue>::schema(),
        parse_value::<Query>,
        CASES / 4,
    );
}

/// The schema locations of [`DenyFields`] whose types deny unknown fields:
/// every object of the `Closed*` types, and `OpenInternal::Hold`, whose
/// struct denies. A typo here fails [`Judge::denying`]; a missing or extra
/// location fails the property (undeclared keys are generated everywhere).
const DENY_FIELDS_DENIED: &[&str] = &[
    "/properties/closed",
    "/properties/closed/properties/leaf",
    "/properties/leaves/items",
    "/properties/by_key/additionalProperties",
    "/properties/maybe_leaf",
    "/properties/nullable_leaves/items/anyOf/0",
    "/properties/internal/oneOf/0",
    "/properties/internal/oneOf/1",
    "/properties/internal/oneOf/2",
    "/properties/open_internal/oneOf/1",
    "/properties/adjacent/oneOf/0",
    "/properties/adjacent/oneOf/1",
    "/properties/adjacent/oneOf/2",
    "/properties/adjacent/oneOf/2/properties/c",
    "/properties/external/oneOf/1/properties/search",
    "/properties/untagged/anyOf/0",
    "/properties/untagged/anyOf/1",
];

/// [`agreement_run_on`] for a root that denies at `denied`, with the
/// values of [`with_other_variants_keys`] mixed in.
fn deny_run<T: ParamValue>(
    name: &str,
    schema: Value,
    denied: &[&str],
    parse: fn(&Value) -> Result<T, tool_core::ParamError>,
    cases: u32,
) {
    let strategy = with_other_variants_keys(&schema);
    agreement_run_on(name, schema, denied, strategy, parse, cases);
}

/// `deny_unknown_fields`, judged as parse documents it: undeclared keys of
/// an object whose type denies them are a fault (kept by [`normalize`], so
/// the schema's `additionalProperties: false` refuses them), elsewhere a
/// leniency. Structs and each enum representation, at the root (enums as a
/// tool's whole arguments) and nested in a struct that does not deny.
#[test]
fn parse_agrees_with_the_schema_on_deny_unknown_fields() {
    deny_run(
        "DenyFields",
        DenyFields::json_schema(),
        DENY_FIELDS_DENIED,
        DenyFields::parse,
        CASES / 2,
    );
    let cases = CASES / 8;
    let (closed, internal, adjacent) = (
        ["", "/properties/leaf"],
        ["/oneOf/0", "/oneOf/1", "/oneOf/2"],
        ["/oneOf/0", "/oneOf/1", "/oneOf/2", "/oneOf/2/properties/c"],
    );
    deny_run(
        "Closed",
        Closed::json_schema(),
        &closed,
        Closed::parse,
        cases,
    );
    let schema = ClosedInternal::json_schema();
    deny_run(
        "ClosedInternal",
        schema,
        &internal,
        ClosedInternal::parse,
        cases,
    );
    let schema = OpenInternal::json_schema();
    deny_run(
        "OpenInternal",
        schema,
        &["/oneOf/1"],
        OpenInternal::parse,
        cases,
    );
    let schema = ClosedAdjacent::json_schema();
    deny_run(
        "ClosedAdjacent",
        schema,
        &adjacent,
        ClosedAdjacent::parse,
        cases,
    );
    let (schema, search) = (ClosedCommand::json_schema(), ["/oneOf/0/properties/search"]);
    deny_run(
        "ClosedCommand",
        schema,
        &search,
        ClosedCommand::parse,
        cases,
    );
    let (schema, both) = (ClosedLookup::json_schema(), ["/anyOf/0", "/anyOf/1"]);
    deny_run("ClosedLookup", schema, &both, ClosedLookup::parse, cases);
    deny_run(
        "ClosedExternal",
        <ClosedExternal as ParamValue>::schema(),
        &["/oneOf/1/properties/search"],
        parse_value::<ClosedExternal>,
        cases,
    );
}

/// The same for an adjacently tagged unit variant: `{"t":"dot","c":1.5}`
/// names no content for `dot`, and the enum denies unknown fields, so parse
/// must refuse what the schema refuses.
#[test]
fn parse_agrees_with_the_schema_on_an_adjacent_unit_variant_that_denies() {
    deny_run(
        "ClosedAdjacentUnit",
        ClosedAdjacentUnit::json_schema(),
        &["/oneOf/0", "/oneOf/1"],
        ClosedAdjacentUnit::parse,
        CASES / 4,
    );
}

/// The deny list is what decides: the same value, with an undeclared key
/// in an object whose type denies it, agrees with it and disagrees
/// without it (so a forgotten location cannot pass unnoticed).
#[test]
fn the_deny_list_decides_how_undeclared_keys_are_judged() {
    let schema = Closed::json_schema();
    let value = json!({"displayName": "a", "inner": {"displayName": "b", "extra": 1},
                       "page_items": [], "extra": true});
    let parsed = Closed::parse(&value);
    assert!(parsed.is_err(), "Closed refuses `extra`");
    let validator = validator_for(&schema);
    let outcome = parsed.as_ref().map(drop);
    let denying = Judge::denying(&schema, &["", "/properties/leaf"]);
    assert_eq!(
        check(&value, outcome, &schema, &validator, &denying),
        Ok(false)
    );
    let lenient = Judge::new(&schema);
    let disagreement = check(&value, outcome, &schema, &validator, &lenient).unwrap_err();
    assert!(disagreement.starts_with("(b)"), "{disagreement}");
    // The nested `Inner` does not deny: its `extra` is dropped either way.
    let without_outer = json!({"displayName": "a", "inner": {"displayName": "b", "extra": 1},
                               "page_items": []});
    assert!(Closed::parse(&without_outer).is_ok());
    assert_eq!(
        check(&without_outer, Ok(()), &schema, &validator, &denying),
        Ok(true)
    );
}

/// An externally tagged enum without unit variants: every value an object.
#[derive(ToolParams, Debug)]
#[param(rename_all = "snake_case")]
#[allow(dead_code)]
pub(crate) enum RootExternal {
    Search { query: String, limit: Option<u8> },
    Fetch(Inner),
}

/// An untagged enum of objects.
#[derive(ToolParams, Debug)]
#[param(untagged)]
#[allow(dead_code)]
pub(crate) enum RootUntagged {
    ByPath {
        #[param(min_length = 1)]
        path: String,
    },
    ByRange {
        from: u32,
        #[param(max = 10)]
        to: u32,
    },
}

/// The property on one value of `T`, for the minimal reproductions.
fn agrees<T: ToolParams>(value: Value) {
    let schema = T::json_schema();
    let validator = validator_for(&schema);
    let parsed = T::parse(&value);
    let outcome = parsed.as_ref().map(|_| ());
    if let Err(disagreement) = check(&value, outcome, &schema, &validator, &Judge::new(&schema)) {
        panic!("{disagreement}\n  schema {schema}");
    }
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct WithDefault {
    #[param(default)]
    verbose: bool,
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct BoundedF32 {
    #[param(max = 100)]
    percent: f32,
    #[param(max = 0.1)]
    tenth: Option<f32>,
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct FloatBoundOnInteger {
    #[param(max = 1e18)]
    big: i64,
}

/// Found by the property test: the schema does not require `verbose` (it has
/// a default), so by the leniency `null` reads as absent, giving the default.
#[test]
fn null_for_a_field_with_a_default() {
    agrees::<WithDefault>(json!({"verbose": null}));
}

/// Found by the property test: bounds are checked on the JSON number, not on
/// the rounded `f32`, so `100.000001` breaks `max = 100` as the schema says.
#[test]
fn f32_bound_checked_after_rounding_accepts() {
    agrees::<BoundedF32>(json!({"percent": 100.000001}));
}

/// The other way: `0.1` meets `max = 0.1` although its `f32` rounds up.
#[test]
fn f32_bound_checked_after_rounding_rejects() {
    agrees::<BoundedF32>(json!({"percent": 1, "tenth": 0.1}));
}

/// Found by the property test: an integer is compared with a float bound
/// exactly, so `1000000000000000001` breaks `max = 1e18`.
#[test]
fn integer_compared_with_a_float_bound_in_f64() {
    agrees::<FloatBoundOnInteger>(json!({"big": 1_000_000_000_000_000_001_i64}));
}

#[test]
fn derived_schemas_are_valid_2020_12_schemas() {
    let schemas = [
        ("Everything", Everything::json_schema()),
        ("Request", Request::json_schema()),
        ("Empty", Empty::json_schema()),
        ("Inner", Inner::json_schema()),
        ("Integers", Integers::json_schema()),
        ("NonZeros", NonZeros::json_schema()),
        ("Mode", <Mode as ParamValue>::schema()),
        ("Vec<Option<u8>>", <Vec<Option<u8>> as ParamValue>::schema()),
        (
            "HashMap<String, Option<bool>>",
            <HashMap<String, Option<bool>>>::schema(),
        ),
        ("Action", Action::json_schema()),
        ("Shape", Shape::json_schema()),
        ("Event", <Event as ParamValue>::schema()),
        ("Query", <Query as ParamValue>::schema()),
        ("RootExternal", RootExternal::json_schema()),
        ("RootUntagged", RootUntagged::json_schema()),
        ("Collections", Collections::json_schema()),
        ("StringRules", StringRules::json_schema()),
        ("Layout", Layout::json_schema()),
        (
            "(char, [u8; 2], Option<(bool,)>)",
            <(char, [u8; 2], Option<(bool,)>)>::schema(),
        ),
    ];
    for (name, schema) in schemas {
        if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{name}'s schema is not a valid 2020-12 schema: {error}\n{schema}");
        }
        assert!(
            jsonschema::draft202012::new(&schema).is_ok(),
            "{name}'s schema does not compile"
        );
    }
}

/// Issue 21's field types, in `tests::everything::WiderTypes`: signed
/// non-zero integers (`anyOf` of two ranges), `Duration` (format and
/// pattern), the other owners of a string or a list, and maps whose keys
/// are integers, non-zero integers, `bool`, `char`, UUIDs, IP addresses or
/// a user's key type, whose `propertyNames` the generator fills from the
/// key pool (valid keys near every bound, and near misses: out of range,
/// `+1`, `01`, `-0`, non-numeric).
#[test]
fn parse_agrees_with_the_schema_on_wider_types() {
    use tests::everything::WiderTypes;
    agreement_run(
        "WiderTypes",
        WiderTypes::json_schema(),
        WiderTypes::parse,
        CASES,
    );
}

/// Issue 21's serde words (a flattened tagged enum at the root, `alias`,
/// newtypes, `transparent`, an adjacent unit variant, attributes on tuple
/// variants' fields).
#[test]
fn parse_agrees_with_the_schema_on_serde_words() {
    use tests::everything::SerdeWords;
    agreement_run(
        "SerdeWords",
        SerdeWords::json_schema(),
        SerdeWords::parse,
        CASES / 2,
    );
}

/// The schemas of issue 21's field types are valid JSON Schema 2020-12
/// documents, and compile.
#[test]
fn wider_schemas_are_valid_2020_12_schemas() {
    use std::collections::BTreeMap;
    use std::net::{IpAddr, Ipv6Addr};
    use std::num::{NonZeroI8, NonZeroI64, NonZeroU64};
    use std::time::Duration;
    use tests::everything::{Cell, WiderTypes};
    let schemas = [
        ("WiderTypes", WiderTypes::json_schema()),
        ("NonZeroI8", NonZeroI8::schema()),
        ("NonZeroI64", NonZeroI64::schema()),
        ("Duration", Duration::schema()),
        ("Option<Duration>", <Option<Duration>>::schema()),
        ("Box<str>", <Box<str>>::schema()),
        ("BTreeMap<u64, u8>", <BTreeMap<u64, u8>>::schema()),
        ("BTreeMap<i64, u8>", <BTreeMap<i64, u8>>::schema()),
        (
            "BTreeMap<NonZeroU64, u8>",
            <BTreeMap<NonZeroU64, u8>>::schema(),
        ),
        ("HashMap<NonZeroI8, u8>", <HashMap<NonZeroI8, u8>>::schema()),
        ("BTreeMap<bool, u8>", <BTreeMap<bool, u8>>::schema()),
        ("BTreeMap<char, u8>", <BTreeMap<char, u8>>::schema()),
        (
            "BTreeMap<uuid::Uuid, u8>",
            <BTreeMap<uuid::Uuid, u8>>::schema(),
        ),
        ("BTreeMap<IpAddr, u8>", <BTreeMap<IpAddr, u8>>::schema()),
        ("BTreeMap<Ipv6Addr, u8>", <BTreeMap<Ipv6Addr, u8>>::schema()),
        ("BTreeMap<Cell, u8>", <BTreeMap<Cell, u8>>::schema()),
        ("SerdeWords", tests::everything::SerdeWords::json_schema()),
    ];
    for (name, schema) in schemas {
        if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{name}'s schema is not a valid 2020-12 schema: {error}\n{schema}");
        }
        assert!(
            jsonschema::draft202012::new(&schema).is_ok(),
            "{name}'s schema does not compile"
        );
    }
}
