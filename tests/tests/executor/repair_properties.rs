//! Repair against the schemas of real derived types, judged by a real JSON
//! Schema validator (the `jsonschema` crate, draft 2020-12) and by parse.
//!
//! The types: [`Everything`] (every field type and attribute) and, each as
//! the root so that every field of it is often the one repaired,
//! [`EnumFields`], [`StringRules`], [`Collections`] and [`Layout`].
//!
//! Values: [`valid`] walks a schema and produces values for it; each is
//! parsed and written back (`to_json`), so a case starts from a value parse
//! accepts. [`Breaker`] then makes the mistakes repair is for, at random
//! nodes, guided by the schema: a number or boolean written as text, an
//! object or array written as JSON text, a one-item array sent as its item,
//! an allowed string in another case or with spaces around it. A mistake
//! is not made where it would leave the value valid another way (an
//! alternative of an `anyOf` that accepts the mistaken value, a string that
//! looks like JSON text sent for a one-item list of strings).
//!
//! The properties:
//! - (none) a value with nothing to fix is not repaired: `repair_arguments`
//!   returns `None`;
//! - (a) a value with fixable mistakes that parse refuses is repaired, and
//!   the repaired arguments validate and parse to the value before the
//!   mistakes;
//! - (b) on arbitrary values (fixable mistakes, wrong values, random JSON):
//!   when parse refuses a value and repair returns `Some(v)`, the list of
//!   repairs is not empty, each repair's `used` is what `v` holds at its
//!   path, and when `v` parses, what it parses to (written back: parse drops
//!   undeclared keys) validates.

use crate::support::validator_for;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use tests::everything::{Collections, EnumFields, Everything, Layout, StringRules};
use tool_core::{ToolParams, repair::Repair, repair::RepairPolicy, repair::repair_arguments};

use crate::support::generators::{
    Gen, branches, constrained_string, float_bound, float_json, int_json, integer_bounds,
    json_string_of, length_bound, tuple_items,
};

/// Cases per type and property.
const CASES: u32 = 300;

// ---------------------------------------------------------------------------
// Valid values.

/// Keys of maps: plain ones, and ones a path writes quoted.
const MAP_KEYS: &[&str] = &["a", "key", "é", "", "a b", "x.y", "[0]"];

/// Values for `schema` (a part of `root`), mostly valid: what parse makes
/// of them, written back, is where a case starts.
fn valid(schema: &Value, root: &Value, depth: usize) -> Gen {
    let schema = resolve(schema, root);
    if let Some(branches) = branches(schema) {
        let options: Vec<Gen> = branches.iter().map(|b| valid(b, root, depth)).collect();
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
            .map(|p| valid(p, root, depth + 1))
            .collect();
        return items.prop_map(Value::Array).boxed();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("null") => Just(Value::Null).boxed(),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("string") => {
            let min = length_bound(schema, "minLength").unwrap_or(0);
            let max = length_bound(schema, "maxLength").unwrap_or(min + 6);
            json_string_of(min..=max)
        }
        Some("integer") => {
            let (min, max) = integer_bounds(schema);
            prop_oneof![
                prop::sample::select(vec![min, max, min.max(0).min(max)]).prop_map(int_json),
                (min..=max).prop_map(int_json),
            ]
            .boxed()
        }
        Some("number") => {
            let lo = float_bound(schema, "minimum").unwrap_or(-1e6);
            let hi = float_bound(schema, "maximum").unwrap_or(1e6);
            prop_oneof![
                prop::sample::select(vec![lo, hi, 0.5f64.clamp(lo, hi)]).prop_map(float_json),
                (lo..=hi).prop_map(float_json),
            ]
            .boxed()
        }
        Some("array") => array(schema, root, depth),
        Some("object") if schema.get("properties").is_some() => object(schema, root, depth),
        Some("object") => match schema.get("additionalProperties") {
            Some(values @ Value::Object(_)) => map(valid(values, root, depth + 1)),
            _ => Just(json!({})).boxed(),
        },
        _ => small_json(),
    }
}

fn array(schema: &Value, root: &Value, depth: usize) -> Gen {
    let items = schema.get("items").cloned().unwrap_or(json!({}));
    let min = length_bound(schema, "minItems").unwrap_or(0);
    let max = length_bound(schema, "maxItems").unwrap_or(min + 3);
    let max = if depth > 6 { min } else { max };
    let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
    vec(valid(&items, root, depth + 1), min..=max)
        .prop_map(move |mut items| {
            if unique {
                let mut seen = std::collections::HashSet::new();
                items.retain(|item| seen.insert(item.to_string()));
            }
            Value::Array(items)
        })
        .boxed()
}

/// A struct's object: every required member, each optional one or not.
fn object(schema: &Value, root: &Value, depth: usize) -> Gen {
    let properties = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = properties
        .iter()
        .map(|(key, property)| {
            let is_required = required.contains(&key.as_str());
            let key = key.clone();
            let present = valid(property, root, depth + 1)
                .prop_map(move |value| Some((key.clone(), value)))
                .boxed();
            if is_required {
                present
            } else {
                prop_oneof![present, Just(None)].boxed()
            }
        })
        .collect();
    members
        .prop_map(|members| Value::Object(members.into_iter().flatten().collect()))
        .boxed()
}

fn map(values: Gen) -> Gen {
    vec((prop::sample::select(MAP_KEYS), values), 0..=3)
        .prop_map(|entries| {
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.to_string(), value))
                    .collect(),
            )
        })
        .boxed()
}

/// Small JSON of any shape, including text that looks like numbers,
/// booleans and JSON.
fn small_json() -> Gen {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        (-1e3..1e3f64).prop_map(float_json),
        prop::sample::select(vec![
            "1",
            "2.5",
            "true",
            "[1]",
            "{\"a\":1}",
            " x ",
            "FAST-PATH"
        ])
        .prop_map(Value::from),
        json_string_of(0..=4),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=3).prop_map(Value::Array),
            map(inner.boxed()),
        ]
    })
    .boxed()
}

/// `schema` with local `$ref`s followed.
fn resolve<'a>(mut schema: &'a Value, root: &'a Value) -> &'a Value {
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => match reference.strip_prefix('#').and_then(|p| root.pointer(p)) {
                Some(target) => schema = target,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

// ---------------------------------------------------------------------------
// Mistakes.

/// Validators of the parts of one root schema (with its `$defs`), compiled
/// once each.
struct Judge {
    defs: Option<Value>,
    validators: RefCell<HashMap<String, Rc<jsonschema::Validator>>>,
}

impl Judge {
    fn new(root: &Value) -> Self {
        Judge {
            defs: root.get("$defs").cloned(),
            validators: RefCell::new(HashMap::new()),
        }
    }

    fn accepts(&self, schema: &Value, value: &Value) -> bool {
        let validator = self
            .validators
            .borrow_mut()
            .entry(schema.to_string())
            .or_insert_with(|| {
                let mut document = schema.clone();
                if let (Some(defs), Some(object)) = (&self.defs, document.as_object_mut()) {
                    object.insert("$defs".into(), defs.clone());
                }
                Rc::new(validator_for(&document))
            })
            .clone();
        validator.is_valid(value)
    }
}

/// Makes mistakes at random nodes of a valid value, walking its schema.
struct Breaker<'a> {
    root: &'a Value,
    judge: &'a Judge,
    random: u64,
    /// Out of 256: how often a node gets a mistake.
    rate: u64,
    /// Whether to make mistakes repair cannot fix too (wrong values).
    wrong_too: bool,
}

impl Breaker<'_> {
    /// splitmix64: the case's seed drives every choice.
    fn next(&mut self) -> u64 {
        self.random = self.random.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn pick(&mut self, choices: usize) -> usize {
        (self.next() % choices as u64) as usize
    }

    fn strikes(&mut self) -> bool {
        self.next() % 256 < self.rate
    }

    /// `value` (valid for `schema`) with mistakes, its parts first.
    fn broken(&mut self, schema: &Value, value: &Value) -> Value {
        let schema = resolve(schema, self.root);
        if let Some(branches) = branches(schema) {
            return self.broken_branch(branches, value);
        }
        let inner = match value {
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, member)| {
                        let part = member_schema(schema, key)
                            .map_or_else(|| member.clone(), |s| self.broken(s, member));
                        (key.clone(), part)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| match item_schema(schema, index) {
                        Some(s) => self.broken(s, item),
                        None => item.clone(),
                    })
                    .collect(),
            ),
            _ => value.clone(),
        };
        if !self.strikes() {
            return inner;
        }
        let mistake = if self.wrong_too && self.pick(3) == 0 {
            Some(self.wrong(&inner))
        } else {
            // Only a real mistake: `{}` accepts `"[]"` as it accepts `[]`.
            self.mistake(schema, &inner)
                .filter(|mistaken| !self.judge.accepts(schema, mistaken))
        };
        mistake.unwrap_or(inner)
    }

    /// Mistakes inside the alternative `value` is valid for, kept only
    /// where no other alternative accepts the result.
    fn broken_branch(&mut self, branches: &[Value], value: &Value) -> Value {
        let Some(at) = branches.iter().position(|b| self.judge.accepts(b, value)) else {
            return value.clone();
        };
        let broken = self.broken(&branches[at], value);
        let elsewhere = branches
            .iter()
            .enumerate()
            .any(|(other, branch)| other != at && self.judge.accepts(branch, &broken));
        if elsewhere { value.clone() } else { broken }
    }

    /// One fixable mistake for `value` at a node of `schema`, if one fits.
    fn mistake(&mut self, schema: &Value, value: &Value) -> Option<Value> {
        let types = type_names(schema);
        if types.contains(&"string") && !value.is_string() {
            return None;
        }
        match value {
            Value::Number(number) => Some(Value::String(number.to_string())),
            Value::Bool(flag) => Some(Value::String(flag.to_string())),
            Value::String(text) => self.enum_mistake(schema, text),
            Value::Object(_) => Some(self.json_text(value)),
            Value::Array(items) => {
                let item = items.first().filter(|_| items.len() == 1);
                match item {
                    Some(item) if self.pick(2) == 0 && unwraps(schema, item) => Some(item.clone()),
                    _ => Some(self.json_text(value)),
                }
            }
            Value::Null => None,
        }
    }

    fn json_text(&mut self, value: &Value) -> Value {
        let text = if self.pick(2) == 0 {
            value.to_string()
        } else {
            serde_json::to_string_pretty(value).expect("JSON")
        };
        Value::String(text)
    }

    /// An allowed string in another case, or with spaces around it, where
    /// it matches no other allowed string that way.
    fn enum_mistake(&mut self, schema: &Value, text: &str) -> Option<Value> {
        let allowed: Vec<&str> = match (schema.get("enum"), schema.get("const")) {
            (Some(Value::Array(names)), _) => names.iter().filter_map(Value::as_str).collect(),
            (_, Some(Value::String(name))) => vec![name.as_str()],
            _ => return None,
        };
        let mistaken = match self.pick(3) {
            0 => text.to_uppercase(),
            1 => format!("  {text}\n"),
            _ => {
                let mut chars = text.chars();
                let first = chars.next()?;
                first.to_uppercase().chain(chars).collect()
            }
        };
        let loosely = |name: &str| name.trim().to_lowercase() == mistaken.trim().to_lowercase();
        let matches = allowed.iter().filter(|name| loosely(name)).count();
        (matches == 1 && mistaken != text).then(|| Value::String(mistaken))
    }

    /// A wrong value repair cannot fix (most likely).
    fn wrong(&mut self, value: &Value) -> Value {
        let choices = [
            json!(null),
            json!("text"),
            json!("1.5"),
            json!(" 2"),
            json!("[1, 2"),
            json!(-1),
            json!(1e300),
            json!([]),
            json!([[1]]),
            json!({}),
            json!({"a": "1"}),
            json!("{\"a\": \"1\"}"),
        ];
        let pick = choices[self.pick(choices.len())].clone();
        if pick == *value { json!("wrong") } else { pick }
    }
}

fn type_names(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether a one-item array of `item` may be sent as `item`: repair wraps
/// anything but `null`, another array, or text that looks like JSON.
fn unwraps(schema: &Value, item: &Value) -> bool {
    let one_allowed = schema
        .get("minItems")
        .and_then(Value::as_u64)
        .is_none_or(|min| min <= 1);
    let looks_like_json = item
        .as_str()
        .is_some_and(|text| matches!(text.trim_start().bytes().next(), Some(b'[' | b'{')));
    one_allowed && !item.is_null() && !item.is_array() && !looks_like_json
}

fn member_schema<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema
        .get("properties")
        .and_then(|properties| properties.get(key))
        .or_else(|| schema.get("additionalProperties").filter(|s| s.is_object()))
}

fn item_schema(schema: &Value, index: usize) -> Option<&Value> {
    match tuple_items(schema).and_then(|positions| positions.get(index)) {
        Some(position) => Some(position),
        None => schema.get("items").filter(|items| items.is_object()),
    }
}

// ---------------------------------------------------------------------------
// Paths.

/// What `value` holds at `path`, written as parse errors write paths
/// (`items[2].name`, `tags["a b"]`, `arguments[0]`; the root is empty).
fn at_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    let mut rest = path;
    if let Some(after) = rest
        .strip_prefix("arguments")
        .filter(|r| r.starts_with('['))
    {
        rest = after;
    }
    let mut here = value;
    while !rest.is_empty() {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        if let Some(inside) = rest.strip_prefix("[\"") {
            // A quoted key: a JSON string, then `]`.
            let quoted = &rest[1..];
            let mut strings = serde_json::Deserializer::from_str(quoted).into_iter::<String>();
            let key = strings.next()?.ok()?;
            let used = strings.byte_offset();
            debug_assert!(inside.len() + 1 == quoted.len());
            here = here.get(key.as_str())?;
            rest = quoted[used..].strip_prefix(']')?;
        } else if let Some(inside) = rest.strip_prefix('[') {
            let end = inside.find(']')?;
            here = here.get(inside[..end].parse::<usize>().ok()?)?;
            rest = &inside[end + 1..];
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            here = here.get(&rest[..end])?;
            rest = &rest[end..];
        }
    }
    Some(here)
}

#[test]
fn paths_are_found_as_written() {
    let value = json!({"items": [{"name": 1}], "tags": {"a b": 2, "x.y": [3]}, "é": 4});
    assert_eq!(at_path(&value, ""), Some(&value));
    assert_eq!(at_path(&value, "items[0].name"), Some(&json!(1)));
    assert_eq!(at_path(&value, "tags[\"a b\"]"), Some(&json!(2)));
    assert_eq!(at_path(&value, "tags[\"x.y\"][0]"), Some(&json!(3)));
    assert_eq!(at_path(&value, "é"), Some(&json!(4)));
    assert_eq!(at_path(&json!([5]), "arguments[0]"), Some(&json!(5)));
    assert_eq!(at_path(&value, "items[1]"), None);
}

// ---------------------------------------------------------------------------
// The properties.

/// Each repair's `used` is what `repaired` holds at its path (or, when it
/// is an excerpt, the head of that value's JSON text, with its size).
fn check_repairs(repaired: &Value, repairs: &[Repair]) -> Result<(), TestCaseError> {
    if repairs.is_empty() {
        return Err(TestCaseError::fail("Some with no repairs"));
    }
    for repair in repairs {
        let found = at_path(repaired, &repair.path);
        let matches = match (repair.used_bytes, found) {
            (None, found) => found == Some(&repair.used),
            (Some(bytes), Some(found)) => {
                let text = found.to_string();
                text.len() as u64 == bytes
                    && repair
                        .used
                        .as_str()
                        .is_some_and(|head| text.starts_with(head))
            }
            (Some(_), None) => false,
        };
        if !matches {
            return Err(TestCaseError::fail(format!(
                "{repair:?}: the repaired arguments hold {found:?} there\n{repaired}"
            )));
        }
    }
    Ok(())
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Properties (none) and (a) for `T`: counts of cases where the mistakes
/// made parse fail, which must be most of them.
fn fixable_mistakes_are_repaired<T: ToolParams + PartialEq + std::fmt::Debug>(name: &str) {
    let schema = T::json_schema();
    let validator = validator_for(&schema);
    let judge = Judge::new(&schema);
    let strategy = (valid(&schema, &schema, 0), any::<u64>(), 16u64..=128);
    let (repaired_cases, skipped) = (Cell::new(0u32), Cell::new(0u32));
    let outcome = runner(CASES).run(&strategy, |(generated, seed, rate)| {
        let Ok(start) = T::parse(&generated) else {
            skipped.set(skipped.get() + 1);
            return Ok(());
        };
        let sound = start.to_json();
        if let Some((value, repairs)) = repair_arguments(&schema, &sound, &RepairPolicy::all()) {
            return Err(TestCaseError::fail(format!(
                "a valid value was repaired: {sound}\nas {value}\n{repairs:?}"
            )));
        }
        let mut breaker = Breaker {
            root: &schema,
            judge: &judge,
            random: seed,
            rate,
            wrong_too: false,
        };
        let broken = breaker.broken(&schema, &sound);
        if T::parse(&broken).is_ok() {
            return Ok(());
        }
        let Some((value, repairs)) = repair_arguments(&schema, &broken, &RepairPolicy::all())
        else {
            return Err(TestCaseError::fail(format!(
                "not repaired: {broken}\nfrom {sound}"
            )));
        };
        check_repairs(&value, &repairs)?;
        if !validator.is_valid(&value) {
            let problems: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| format!("{}: {e}", e.instance_path()))
                .collect();
            return Err(TestCaseError::fail(format!(
                "repaired but invalid: {value}\n{problems:#?}\nfrom {broken}"
            )));
        }
        let parsed = T::parse(&value)
            .map_err(|e| TestCaseError::fail(format!("repaired but refused: {e}\n{value}")))?;
        if parsed != start || value != sound {
            return Err(TestCaseError::fail(format!(
                "repaired to another value: {value}\nwas {sound}\nbroken {broken}"
            )));
        }
        repaired_cases.set(repaired_cases.get() + 1);
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("{name}: {error}");
    }
    let (repaired_cases, skipped) = (repaired_cases.get(), skipped.get());
    eprintln!("{name}: {repaired_cases} repaired, {skipped} generated values refused");
    assert!(
        skipped <= CASES / 2,
        "{name}: {skipped} generated values refused"
    );
    assert!(
        repaired_cases >= CASES / 4,
        "{name}: only {repaired_cases} of {CASES} cases repaired"
    );
}

/// Property (b) for `T`, on values with fixable and unfixable mistakes
/// and on random JSON.
fn repairs_are_sound<T: ToolParams>(name: &str) {
    let schema = T::json_schema();
    let validator = validator_for(&schema);
    let judge = Judge::new(&schema);
    let values = prop_oneof![
        4 => (valid(&schema, &schema, 0), any::<u64>(), 2u64..=64),
        1 => (small_json(), any::<u64>(), Just(0u64)),
    ];
    let (repaired_cases, parsed_cases) = (Cell::new(0u32), Cell::new(0u32));
    let outcome = runner(CASES).run(&values, |(generated, seed, rate)| {
        let mut breaker = Breaker {
            root: &schema,
            judge: &judge,
            random: seed,
            rate,
            wrong_too: true,
        };
        let sent = breaker.broken(&schema, &generated);
        if T::parse(&sent).is_ok() {
            return Ok(());
        }
        let Some((value, repairs)) = repair_arguments(&schema, &sent, &RepairPolicy::all()) else {
            return Ok(());
        };
        repaired_cases.set(repaired_cases.get() + 1);
        check_repairs(&value, &repairs)?;
        if let Ok(parsed) = T::parse(&value) {
            parsed_cases.set(parsed_cases.get() + 1);
            let written = parsed.to_json();
            if !validator.is_valid(&written) {
                return Err(TestCaseError::fail(format!(
                    "repaired, parsed, and invalid: {written}\nrepaired {value}\nsent {sent}"
                )));
            }
        }
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("{name}: {error}");
    }
    eprintln!(
        "{name}: {} repaired, {} of them parsed",
        repaired_cases.get(),
        parsed_cases.get()
    );
    assert!(
        repaired_cases.get() >= CASES / 10,
        "{name}: too few repairs"
    );
}

#[test]
fn fixable_mistakes_in_everything_are_repaired() {
    fixable_mistakes_are_repaired::<Everything>("Everything");
}

#[test]
fn fixable_mistakes_in_enums_strings_collections_layout_are_repaired() {
    fixable_mistakes_are_repaired::<EnumFields>("EnumFields");
    fixable_mistakes_are_repaired::<StringRules>("StringRules");
    fixable_mistakes_are_repaired::<Collections>("Collections");
    fixable_mistakes_are_repaired::<Layout>("Layout");
}

#[test]
fn repairs_of_arbitrary_values_are_sound() {
    repairs_are_sound::<Everything>("Everything");
    repairs_are_sound::<EnumFields>("EnumFields");
    repairs_are_sound::<StringRules>("StringRules");
    repairs_are_sound::<Collections>("Collections");
    repairs_are_sound::<Layout>("Layout");
}

/// Arguments with nothing to fix: `None`, for every rule set, and repair
/// does not change what parse accepts.
#[test]
fn nothing_to_fix_is_not_repaired() {
    let schema = EnumFields::json_schema();
    let strategy = valid(&schema, &schema, 0);
    let policies = [
        RepairPolicy::all(),
        RepairPolicy::none(),
        RepairPolicy::all().silent(),
    ];
    let outcome = runner(CASES).run(&strategy, |generated| {
        if EnumFields::parse(&generated).is_err() {
            return Ok(());
        }
        for policy in &policies {
            if let Some((value, repairs)) = repair_arguments(&schema, &generated, policy) {
                return Err(TestCaseError::fail(format!(
                    "{generated} parses, and was repaired as {value}: {repairs:?}"
                )));
            }
        }
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("{error}");
    }
}
