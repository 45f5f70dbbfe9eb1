//! Parse agrees with what each provider format sends: the agreement
//! property of [`agreement`](crate::agreement), judged against the schema
//! a model actually sees in each format of [`ProviderFormat::ALL`], not
//! the neutral one.
//!
//! For a type `T` and a format, the tool `ToolDefinition::new(TOOL, ..,
//! T::json_schema())` is converted with `format.definitions`, and the
//! parameters schema is taken out of the written JSON where the format
//! puts it ([`parameters_of`]). Gemini's legacy `parameters` are OpenAPI
//! 3.0, translated to JSON Schema for judging ([`openapi_to_json_schema`]:
//! `"nullable": true` as "or null", upper-case type names lowered). The
//! property, "a value valid under the format's schema, as a model
//! following that schema would send it, parses, and to the same variant
//! the schema branch means", in two halves:
//!
//! - **P1**, from the neutral side. A value `n` valid under the neutral
//!   schema (the agreement test's generator, without its leniencies) is
//!   written as a model following the format's schema sends it
//!   ([`as_the_model_sends`]): every property the format requires and `n`
//!   lacks is sent as `null` where the format's schema takes `null` there
//!   (a strict format's optional fields, and the other variants' fields of
//!   a root enum merged into one object), and left absent otherwise. Then:
//!   (i) the format's schema accepts the written value; (ii) `T::parse`
//!   accepts it; (iii) what it parses to writes back (`to_json`) as the
//!   parse of `n` does; (iv) the parse of `n` is the variant `n` was
//!   written as: at every choice (`oneOf`, `anyOf`) of the neutral schema,
//!   some alternative accepts both `n` and the parse's `to_json`
//!   ([`same_branches`]; an untagged enum that drops a key to take an
//!   earlier variant fails it).
//! - **P2**, from the format's side. Values valid under the format's own
//!   schema (generated from it, so past every check it dropped: a string
//!   longer than a dropped `maxLength`), and values near the neutral
//!   boundary (the agreement test's mix: valid, or one check wrong) as the
//!   model sends them, some with an undeclared key added to one object;
//!   kept when the format's schema accepts them (a fault it still refuses
//!   is no loss). Each either parses (and its `to_json` is valid under the
//!   neutral schema), or every problem parse reports is explained by a
//!   loss the format's diagnostics for the tool name ([`Losses`]).
//!
//! **Which diagnostic explains which problem.** A diagnostic's path (a JSON
//! Pointer into the schema the format converted) is read as the place in
//! the arguments it is about ([`Place`]): `properties/<name>` is a field,
//! `items` any item, `prefixItems/<i>` item `i`, a schema-valued
//! `additionalProperties` any map value, `anyOf/<i>` and `oneOf/<i>` the
//! same place, `$defs/<name>` anywhere (a recursive type's definition);
//! the last segment, when it is none of these, is the keyword concerned. A
//! parse problem's path (`items[1].name`, `arguments` for the root) is read
//! the same way. A loss explains a problem:
//!
//! - a dropped value keyword (`maxLength`, `pattern`, `format`, bounds,
//!   `enum`, `const`, `minItems`/`maxItems`, `maxProperties`, `type`): at
//!   its place exactly;
//! - `uniqueItems`, `required`: at its place or one of its children (a
//!   repeat is reported at the repeating item);
//! - anything else dropped or changed with "parse still enforces" or
//!   "parse still checks" (`prefixItems`, a map's values, `$ref`, a choice
//!   left empty): at its place or anywhere below it;
//! - a root enum merged into one object ("parse still enforces each
//!   choice's own fields"): a problem at the root (an untagged enum's
//!   "matches none of the variants"), at a field only some choices have or
//!   require (missing, or undeclared for the chosen one), and anywhere
//!   below a field the choices describe differently. This is as precise as
//!   the merge allows: which choice the model meant is not in the value.
//!
//! An untagged enum's "matches none of the variants" at a place is
//! explained by any loss at or below that place, and covers the problems
//! of the closest variant listed after it (they describe a variant the
//! value may not have meant). Two diagnostics never explain: a dropped
//! `default`, `examples`, `deprecated` (hints, not checks), and a claim
//! that parse is lenient where it was not ("parse drops undeclared keys
//! anyway", said for a type that denies them). And `null` refused as an
//! unknown field where the format said "null means absent" is never
//! explained: the format told the model to send `null` for a field it
//! leaves out (`null` refused for a field the chosen variant requires is
//! the merge's loss, as its absence would be).
//!
//! Types: the agreement test's groups of `Everything` and every root enum
//! (all four representations, untagged included, with and without
//! `deny_unknown_fields`), each as a tool's whole arguments. Recursive
//! types are left out: the generator does not follow `$ref`. Each (type,
//! format) pair runs [`P1_CASES`] and [`P2_CASES`] cases (fewer for
//! `Everything`); a failure names the format, the type, the value and the
//! half of the property it broke. The calls of issue 21's report (a strict
//! model's `null` for another variant's field, an untagged enum dropping
//! keys, an adjacent unit variant with content) run as regression tests
//! of their own.

use crate::agreement::{Judge, RootExternal, RootUntagged, near_boundary, strictly_valid};
use crate::support::generators::{Gen, branches, tuple_items};
use crate::support::validator_for;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Map, Value, json};
use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;
use tests::everything::{
    Action, Closed, ClosedAdjacent, ClosedAdjacentUnit, ClosedCommand, ClosedInternal, ClosedLeaf,
    ClosedLookup, Collections, Computer, DenyFields, EnumFields, Everything, Greedy, Layout,
    OpenInternal, Shape, StringRules,
};
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{Diagnostic, ProviderFormat, Strict};
use tool_core::{ParamError, ToolDefinition, ToolParams};

/// P1 cases per type and format.
const P1_CASES: u32 = 24;
/// P2 cases per type and format (generated; those the format's schema
/// refuses are skipped, about half).
const P2_CASES: u32 = 48;
/// The tool's name in every format: one every provider's name rule takes.
const TOOL: &str = "tool";

// ---------------------------------------------------------------------------
// What a format sends.

/// One tool's parameters as a format writes them.
struct Sent {
    /// The parameters schema, as JSON Schema (Gemini's legacy OpenAPI
    /// translated).
    schema: Value,
    /// The format's diagnostics for the tool.
    diagnostics: Vec<Diagnostic>,
}

/// `neutral` (a derived schema) as `format` sends it.
fn sent(format: ProviderFormat, neutral: &Value) -> Sent {
    let definition = ToolDefinition::new(TOOL, "The property's tool", neutral.clone());
    let converted = format.definitions(&[definition]);
    let (parameters, openapi) = parameters_of(&converted.value)
        .unwrap_or_else(|| panic!("{format}: no parameters in {}", converted.value));
    Sent {
        schema: if openapi {
            openapi_to_json_schema(parameters)
        } else {
            parameters.clone()
        },
        diagnostics: converted
            .diagnostics
            .into_iter()
            .filter(|diagnostic| diagnostic.tool == TOOL)
            .collect(),
    }
}

/// The one tool's parameters schema in a format's written JSON, and
/// whether it is Gemini's legacy OpenAPI dialect. Found by the field each
/// API names it with, so a new format of an existing API needs nothing:
///
/// - OpenAI Chat Completions: `{"type":"function","function":{..,"parameters"}}`;
///   Responses: `{"type":"function","name",..,"parameters"}`
///   (<https://developers.openai.com/api/docs/guides/function-calling>);
/// - Anthropic: `{"name","description","input_schema"}`
///   (<https://platform.claude.com/docs/en/api/messages>);
/// - Gemini: `{"functionDeclarations":[{..,"parametersJsonSchema"}]}` (JSON
///   Schema) or `parameters` (OpenAPI 3.0's Schema object)
///   (<https://ai.google.dev/api/caching#FunctionDeclaration>);
/// - MCP: `{"name",..,"inputSchema"}`
///   (<https://modelcontextprotocol.io/specification/2025-06-18/server/tools>);
/// - ours (`neutral`): `{"name","description","parameters"}`.
fn parameters_of(written: &Value) -> Option<(&Value, bool)> {
    let declarations = written.get("functionDeclarations");
    let entry = declarations.unwrap_or(written).get(0)?;
    if let Some(schema) = entry.get("function").and_then(|f| f.get("parameters")) {
        return Some((schema, false));
    }
    for key in ["input_schema", "parametersJsonSchema", "inputSchema"] {
        if let Some(schema) = entry.get(key) {
            return Some((schema, false));
        }
    }
    entry
        .get("parameters")
        .map(|schema| (schema, declarations.is_some()))
}

/// Gemini's legacy schema (a subset of OpenAPI 3.0's Schema object,
/// <https://ai.google.dev/api/caching#Schema>) as JSON Schema, for the
/// validator: `"nullable": true` is "or null" (`anyOf` with `{"type":"null"}`),
/// and a type name is lower-case (the API's `Type` enum spells them
/// `STRING`, `OBJECT`, ..). The other keywords of the subset mean what
/// JSON Schema means by them; `example` is an annotation either way.
fn openapi_to_json_schema(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        let converted = match key.as_str() {
            "nullable" => continue,
            "type" => match value {
                Value::String(kind) => Value::String(kind.to_lowercase()),
                other => other.clone(),
            },
            "properties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, schema)| (name.clone(), openapi_to_json_schema(schema)))
                    .collect(),
            ),
            "items" => openapi_to_json_schema(value),
            "anyOf" => Value::Array(
                value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(openapi_to_json_schema)
                    .collect(),
            ),
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }
    if map.get("nullable") == Some(&Value::Bool(true)) {
        json!({"anyOf": [Value::Object(out), {"type": "null"}]})
    } else {
        Value::Object(out)
    }
}

// ---------------------------------------------------------------------------
// P1: a neutral value, as a model following the format's schema sends it.

/// `value` as a model following `schema` (a format's, with `root` its
/// whole) sends it: each property `schema` requires and `value` lacks is
/// `null` where `schema` takes `null` there. OpenAI's strict mode asks
/// exactly this: "all fields must be required", an optional one written
/// as a union with `null`
/// (<https://developers.openai.com/api/docs/guides/structured-outputs#all-fields-must-be-required>).
/// At a choice, the first alternative that accepts the value so written.
fn as_the_model_sends(schema: &Value, value: &Value, judge: &Judge, root: &Value) -> Value {
    let schema = resolve(schema, root);
    if let Some(branches) = branches(schema) {
        for branch in branches {
            let written = as_the_model_sends(branch, value, judge, root);
            if judge.accepts(branch, &written) {
                return written;
            }
        }
        return value.clone();
    }
    match value {
        Value::Object(entries) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                let Some(values) = schema.get("additionalProperties").filter(|s| s.is_object())
                else {
                    return value.clone();
                };
                return Value::Object(
                    entries
                        .iter()
                        .map(|(key, item)| {
                            (key.clone(), as_the_model_sends(values, item, judge, root))
                        })
                        .collect(),
                );
            };
            let mut written: Map<String, Value> = entries
                .iter()
                .map(|(key, item)| {
                    let item = match properties.get(key) {
                        Some(property) => as_the_model_sends(property, item, judge, root),
                        None => item.clone(),
                    };
                    (key.clone(), item)
                })
                .collect();
            for name in required(schema) {
                if !written.contains_key(name)
                    && let Some(property) = properties.get(name)
                    && judge.accepts(property, &Value::Null)
                {
                    written.insert(name.to_owned(), Value::Null);
                }
            }
            Value::Object(written)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| match item_schema(schema, i) {
                    Some(item_schema) => as_the_model_sends(item_schema, item, judge, root),
                    None => item.clone(),
                })
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// `schema`, or the definition its `$ref` names in `root`.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
        .unwrap_or(schema)
}

/// The schema of item `i` of an array schema: its position's, or `items`.
fn item_schema(schema: &Value, i: usize) -> Option<&Value> {
    match tuple_items(schema) {
        Some(positions) => positions.get(i),
        None => schema.get("items").filter(|items| items.is_object()),
    }
}

/// The names an object schema lists under `required`.
fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether `parsed` (a parse's `to_json`) is the variant `sent` was
/// written as, at every choice of `schema` (the neutral one, `root` its
/// whole): some alternative that accepts `sent` accepts `parsed` too.
/// `Err` names where they part.
fn same_branches(
    schema: &Value,
    sent: &Value,
    parsed: &Value,
    at: &str,
    judge: &Judge,
    root: &Value,
) -> Result<(), String> {
    let schema = resolve(schema, root);
    if let Some(branches) = branches(schema) {
        let accepting = |value: &Value| -> Vec<usize> {
            (0..branches.len())
                .filter(|&i| judge.accepts(&branches[i], value))
                .collect()
        };
        let (as_sent, as_parsed) = (accepting(sent), accepting(parsed));
        let Some(&common) = as_sent.iter().find(|i| as_parsed.contains(i)) else {
            return Err(format!(
                "at {at}: sent as alternative {as_sent:?} of the choice, parsed as alternative {as_parsed:?}"
            ));
        };
        return same_branches(&branches[common], sent, parsed, at, judge, root);
    }
    match (sent, parsed) {
        (Value::Object(sent), Value::Object(parsed)) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let values = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, item) in sent {
                let (Some(other), Some(item_schema)) = (
                    parsed.get(key),
                    properties.and_then(|p| p.get(key)).or(values),
                ) else {
                    continue;
                };
                same_branches(
                    item_schema,
                    item,
                    other,
                    &format!("{at}/{key}"),
                    judge,
                    root,
                )?;
            }
            Ok(())
        }
        (Value::Array(sent), Value::Array(parsed)) => {
            for (i, (item, other)) in sent.iter().zip(parsed).enumerate() {
                if let Some(item_schema) = item_schema(schema, i) {
                    same_branches(item_schema, item, other, &format!("{at}/{i}"), judge, root)?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// P2: which loss explains which refusal.

/// One step of a place in the arguments.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    /// A field or a map key.
    Key(String),
    /// An array item.
    Index(usize),
    /// Any map key (a map's values).
    AnyKey,
    /// Any array item (`items`).
    AnyIndex,
    /// Any number of steps (a `$defs` entry, used wherever it is referred to).
    Anywhere,
}

/// A place in the arguments: where a diagnostic's schema path points, or
/// where a parse problem is.
type Place = Vec<Step>;

/// Whether the place pattern `pattern` (with wildcards) is `steps`.
fn matches(pattern: &[Step], steps: &[Step]) -> bool {
    match (pattern.split_first(), steps.split_first()) {
        (None, None) => true,
        (Some((Step::Anywhere, rest)), _) => {
            (0..=steps.len()).any(|skip| matches(rest, &steps[skip..]))
        }
        (Some((expected, rest)), Some((step, steps))) => {
            let one = match (expected, step) {
                (Step::AnyKey, Step::Key(_)) | (Step::AnyIndex, Step::Index(_)) => true,
                (expected, step) => expected == step,
            };
            one && matches(rest, steps)
        }
        _ => false,
    }
}

/// Whether some place at or below `steps` is one `pattern` describes.
fn reaches_below(pattern: &[Step], steps: &[Step]) -> bool {
    match (pattern.split_first(), steps.split_first()) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some((Step::Anywhere, _)), _) => true,
        (Some((expected, rest)), Some((step, steps))) => {
            let one = match (expected, step) {
                (Step::AnyKey, Step::Key(_)) | (Step::AnyIndex, Step::Index(_)) => true,
                (expected, step) => expected == step,
            };
            one && reaches_below(rest, steps)
        }
    }
}

/// A diagnostic's schema path as the place it is about and the keyword
/// concerned (none for a whole property, `/properties/limit`).
fn diagnostic_place(path: &str) -> (Place, Option<String>) {
    let segments: Vec<String> = path
        .split('/')
        .skip(1)
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut place = Vec::new();
    let mut i = 0;
    while i < segments.len() {
        let has_next = i + 1 < segments.len();
        match segments[i].as_str() {
            "properties" if has_next => {
                place.push(Step::Key(segments[i + 1].clone()));
                i += 2;
            }
            "prefixItems" if has_next => {
                let index = segments[i + 1].parse().unwrap_or(usize::MAX);
                place.push(Step::Index(index));
                i += 2;
            }
            "anyOf" | "oneOf" | "allOf" if has_next => i += 2,
            "$defs" if has_next => {
                place = vec![Step::Anywhere];
                i += 2;
            }
            "items" if has_next => {
                place.push(Step::AnyIndex);
                i += 1;
            }
            "additionalProperties" if has_next => {
                place.push(Step::AnyKey);
                i += 1;
            }
            keyword => {
                debug_assert!(!has_next, "{path}: `{keyword}` inside a path");
                return (place, Some(keyword.to_owned()));
            }
        }
    }
    (place, None)
}

/// A parse problem's path (`items[1].name`, `tags["a b"]`, `arguments`
/// for the root) as a place.
fn problem_place(path: &str) -> Place {
    let rest = if path == "arguments" {
        ""
    } else {
        path.strip_prefix("arguments")
            .filter(|rest| rest.starts_with('['))
            .unwrap_or(path)
    };
    let mut steps = Vec::new();
    let mut chars = rest.char_indices().peekable();
    let mut name = String::new();
    while let Some((at, c)) = chars.next() {
        match c {
            '.' => {
                if !name.is_empty() {
                    steps.push(Step::Key(std::mem::take(&mut name)));
                }
            }
            '[' => {
                if !name.is_empty() {
                    steps.push(Step::Key(std::mem::take(&mut name)));
                }
                let inside = &rest[at + 1..];
                let close = if inside.starts_with('"') {
                    // A JSON string, then `]`.
                    let mut stream =
                        serde_json::Deserializer::from_str(inside).into_iter::<String>();
                    let key = stream.next().and_then(Result::ok).unwrap_or_default();
                    let end = stream.byte_offset();
                    steps.push(Step::Key(key));
                    end
                } else {
                    let end = inside.find(']').unwrap_or(inside.len());
                    steps.push(Step::Index(inside[..end].parse().unwrap_or(usize::MAX)));
                    end
                };
                // Skip to just past the `]`.
                while chars
                    .peek()
                    .is_some_and(|(next, _)| *next <= at + 1 + close)
                {
                    chars.next();
                }
            }
            c => name.push(c),
        }
    }
    if !name.is_empty() {
        steps.push(Step::Key(name));
    }
    steps
}

/// The value at `place` of `value`, if there is one.
fn value_at<'v>(value: &'v Value, place: &[Step]) -> Option<&'v Value> {
    place.iter().try_fold(value, |value, step| match step {
        Step::Key(key) => value.get(key.as_str()),
        Step::Index(index) => value.get(*index),
        _ => None,
    })
}

/// How far from its place a loss explains a problem.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reach {
    /// At the place itself.
    Here,
    /// At the place or one of its children.
    Children,
    /// At the place or anywhere below.
    Below,
    /// An undeclared key refused at one of the place's children (an object
    /// the format left open, which a type that denies unknown fields
    /// closes): nothing else there.
    UndeclaredKeys,
}

/// What a format lost, read from its diagnostics for the tool.
struct Losses {
    /// Where each check parse still makes was lost, and how far it reaches.
    dropped: Vec<(Place, Reach, String)>,
    /// Where the format said "null means absent" (an optional field).
    null_means_absent: Vec<Place>,
    /// The root enum merged into one object, if it was: its fields.
    merged: Option<Vec<MergedField>>,
}

/// One field of a root enum merged into one object.
struct MergedField {
    name: String,
    /// Whether every choice has it and requires it.
    everywhere: bool,
    /// Whether the choices describe it differently.
    differs: bool,
}

impl Losses {
    fn of(sent: &Sent, neutral: &Value) -> Losses {
        let mut losses = Losses {
            dropped: Vec::new(),
            null_means_absent: Vec::new(),
            merged: None,
        };
        for diagnostic in &sent.diagnostics {
            let message = diagnostic.message.as_str();
            let (place, keyword) = diagnostic_place(&diagnostic.path);
            if message.contains("parse still enforces each choice's own fields") {
                losses.merged = Some(merged_fields(neutral));
            } else if message.contains("null means absent") {
                losses.null_means_absent.push(place);
            } else if let Some(reach) = explaining(message, keyword.as_deref()) {
                losses.dropped.push((place, reach, diagnostic.to_string()));
            }
        }
        losses
    }

    /// Why parse's refusal of `value` is no disagreement, or the first
    /// problem no loss explains.
    fn explain(&self, error: &ParamError, value: &Value) -> Result<(), String> {
        let mut covered: Option<Place> = None;
        for problem in error.problems() {
            let place = problem_place(problem.path());
            // `null` where the format said "null means absent" is what a
            // model sends for a field it leaves out: refused as undeclared,
            // even by an untagged enum's closest variant, it is a field the
            // model was told to send.
            let is_null = value_at(value, &place).is_some_and(Value::is_null);
            if is_null
                && problem.message().starts_with("unknown field")
                && self.null_means_absent.iter().any(|p| matches(p, &place))
            {
                return Err(format!(
                    "{problem}: refuses as undeclared the null the format asks for an absent field"
                ));
            }
            if let Some(header) = &covered {
                if place.starts_with(header) {
                    continue;
                }
                covered = None;
            }
            let untagged = problem
                .message()
                .starts_with("matches none of the variants");
            let explained = self.dropped.iter().any(|(pattern, reach, _)| {
                let here = match reach {
                    Reach::Here => matches(pattern, &place),
                    Reach::Children => {
                        matches(pattern, &place)
                            || place
                                .split_last()
                                .is_some_and(|(_, parent)| matches(pattern, parent))
                    }
                    Reach::Below => (0..=place.len()).any(|n| matches(pattern, &place[..n])),
                    Reach::UndeclaredKeys => {
                        problem.message().starts_with("unknown field")
                            && place
                                .split_last()
                                .is_some_and(|(_, parent)| matches(pattern, parent))
                    }
                };
                here || (untagged && reaches_below(pattern, &place))
            }) || self.merged_explains(&place);
            if !explained {
                return Err(format!(
                    "{problem}: no diagnostic of the format explains it"
                ));
            }
            if untagged {
                covered = Some(place);
            }
        }
        Ok(())
    }

    /// Whether the merge of a root enum explains a problem at `place`.
    fn merged_explains(&self, place: &[Step]) -> bool {
        let Some(fields) = &self.merged else {
            return false;
        };
        let Some(Step::Key(name)) = place.first() else {
            return place.is_empty();
        };
        fields.iter().any(|field| {
            &field.name == name && (field.differs || (!field.everywhere && place.len() == 1))
        })
    }
}

/// Whether a diagnostic (its message, and the keyword its path ends with)
/// names a check the format dropped and parse still makes, and how far
/// from its place the problems it explains may lie.
fn explaining(message: &str, keyword: Option<&str>) -> Option<Reach> {
    let names_a_loss = message.starts_with("dropped:")
        || (message.starts_with("changed:")
            && (message.contains("parse still enforces")
                || message.contains("parse still checks")));
    if !names_a_loss {
        return None;
    }
    match keyword {
        Some("default" | "examples" | "example" | "deprecated" | "description" | "title") => None,
        Some(
            "minLength" | "maxLength" | "pattern" | "format" | "minimum" | "maximum"
            | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "const" | "enum"
            | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "type",
        ) => Some(Reach::Here),
        // An object left open explains an undeclared key refused by a type
        // that denies unknown fields, and nothing else. (A map's dropped
        // value schema explains anything inside the values.)
        Some("additionalProperties") if message.contains("cannot close an object") => {
            Some(Reach::UndeclaredKeys)
        }
        Some("uniqueItems" | "required") => Some(Reach::Children),
        _ => Some(Reach::Below),
    }
}

/// The fields of the choices of `neutral`'s root (a root enum), as the
/// merge writes them into one object.
fn merged_fields(neutral: &Value) -> Vec<MergedField> {
    let choices: Vec<&Value> = branches(neutral).into_iter().flatten().collect();
    let mut fields: Vec<MergedField> = Vec::new();
    for choice in &choices {
        for name in choice
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, _)| name)
        {
            if fields.iter().any(|field| &field.name == name) {
                continue;
            }
            let schemas: Vec<Option<&Value>> = choices
                .iter()
                .map(|choice| choice.get("properties").and_then(|p| p.get(name)))
                .collect();
            let everywhere = choices
                .iter()
                .all(|choice| required(choice).contains(&name.as_str()));
            let present: Vec<&Value> = schemas.iter().flatten().copied().collect();
            // A tag differs between choices only in its `const`, which the
            // merge writes as an `enum` of them all.
            let is_tag = present
                .iter()
                .all(|schema| schema.get("const").is_some_and(Value::is_string));
            let differs = !is_tag && present.windows(2).any(|pair| pair[0] != pair[1]);
            fields.push(MergedField {
                name: name.clone(),
                everywhere,
                differs,
            });
        }
    }
    fields
}

/// Adds an undeclared key (`"extra"`) to the `at`-th object of `value`,
/// counting depth first: a format whose schema leaves that object open
/// takes it; where the schema is closed the value is skipped.
fn with_an_undeclared_key(value: &mut Value, at: &mut usize) {
    match value {
        Value::Object(entries) => {
            if *at == 0 {
                entries.entry("extra").or_insert(json!(1));
                *at = usize::MAX;
                return;
            }
            *at -= 1;
            for item in entries.values_mut() {
                with_an_undeclared_key(item, at);
            }
        }
        Value::Array(items) => {
            for item in items {
                with_an_undeclared_key(item, at);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Running the property.

/// How one (type, format) pair went, for the run's summary.
#[derive(Default)]
struct Counts {
    /// P1 values checked.
    p1: u32,
    /// P2 values the format's schema accepted, of which parse accepted `p2_parsed`.
    p2_valid: u32,
    p2_parsed: u32,
}

/// A schema's validator and judge, compiled once for every format that
/// sends the same schema (most send a struct's as it is).
struct Compiled {
    validator: jsonschema::Validator,
    judge: Judge,
}

/// What one type's runs share: its neutral schema's generators (building
/// the near-boundary one costs seconds for `Everything`), and each schema's
/// compiled form, by its text.
struct Shared {
    /// Valid neutral values, for P1 and P2.
    valid: Gen,
    /// The agreement test's mix near the neutral boundary, for P2.
    near: Gen,
    compiled: HashMap<String, Rc<Compiled>>,
}

impl Shared {
    fn new(neutral: &Value) -> Shared {
        Shared {
            valid: strictly_valid(neutral),
            near: near_boundary(neutral),
            compiled: HashMap::new(),
        }
    }

    fn of(&mut self, schema: &Value) -> Rc<Compiled> {
        self.compiled
            .entry(schema.to_string())
            .or_insert_with(|| {
                Rc::new(Compiled {
                    validator: validator_for(schema),
                    judge: Judge::new(schema),
                })
            })
            .clone()
    }
}

/// P1 and P2 for `T` in `format`: `Err` names the format, the type, the
/// half that broke and the (shrunk) value.
fn provider_run<T: ToolParams>(
    name: &str,
    format: ProviderFormat,
    cases: (u32, u32),
    shared: &mut Shared,
) -> Result<Counts, String> {
    let (p1_cases, p2_cases) = cases;
    let neutral = T::json_schema();
    let sent = sent(format, &neutral);
    let (neutral_compiled, format_compiled) = (shared.of(&neutral), shared.of(&sent.schema));
    let (neutral_validator, neutral_judge) = (&neutral_compiled.validator, &neutral_compiled.judge);
    let (format_validator, format_judge) = (&format_compiled.validator, &format_compiled.judge);
    let losses = Losses::of(&sent, &neutral);
    let counts = (Cell::new(0), Cell::new(0), Cell::new(0));
    let config = |cases| Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    // A fixed seed: with a few dozen values per (type, format) pair, a
    // random one sometimes draws too few the format admits for the
    // coverage check below (0 of 12 for `Everything` under `openai`, once
    // in a handful of runs); the neutral agreement test keeps exploring.
    let runner_for = |cases| {
        TestRunner::new_with_rng(
            config(cases),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        )
    };
    let context = |half: &str, error: String| {
        format!(
            "{format} / {name} / {half}: {error}\n  the format's schema: {}",
            sent.schema
        )
    };

    let mut runner = runner_for(p1_cases);
    runner
        .run(&shared.valid, |n| {
            if !neutral_validator.is_valid(&n) {
                return Ok(());
            }
            let expected = T::parse(&n).map_err(|error| {
                TestCaseError::fail(format!("the neutral schema accepts {n}, parse refuses it: {error}"))
            })?;
            let written = as_the_model_sends(&sent.schema, &n, format_judge, &sent.schema);
            if !format_validator.is_valid(&written) {
                let problems: Vec<String> = format_validator
                    .iter_errors(&written)
                    .map(|error| format!("{}: {error}", error.instance_path()))
                    .collect();
                return Err(TestCaseError::fail(format!(
                    "(i) the format's schema refuses {written} (written from {n}): {problems:?}"
                )));
            }
            let parsed = T::parse(&written).map_err(|error| {
                TestCaseError::fail(format!(
                    "(ii) the format's schema accepts {written} (written from {n}), parse refuses it: {error}"
                ))
            })?;
            let (got, wanted) = (parsed.to_json(), expected.to_json());
            if got != wanted {
                return Err(TestCaseError::fail(format!(
                    "(iii) {written} (written from {n}) parses to {got}, {n} to {wanted}"
                )));
            }
            same_branches(&neutral, &n, &wanted, "", neutral_judge, &neutral).map_err(|error| {
                TestCaseError::fail(format!("(iv) {n} parses to {wanted}, another variant {error}"))
            })?;
            counts.0.set(counts.0.get() + 1);
            Ok(())
        })
        .map_err(|error| context("P1", error.to_string()))?;

    // Values of the format's own schema (where it dropped a check, they
    // go past it: a string longer than a dropped `maxLength`); and values
    // near the neutral boundary, valid or one check wrong, as the model
    // sends them (those the format's schema takes are the ones it lost the
    // check of; a fault the format's schema still refuses is skipped).
    let values = Union::new_weighted(vec![
        (
            2,
            strictly_valid(&sent.schema)
                .prop_map(|v| (false, v))
                .boxed(),
        ),
        (3, shared.near.clone().prop_map(|v| (true, v)).boxed()),
        (1, shared.valid.clone().prop_map(|v| (true, v)).boxed()),
    ]);
    let strategy = (values, prop::bool::weighted(0.3), 0usize..8);
    let mut runner = runner_for(p2_cases);
    runner
        .run(&strategy, |((neutral_value, value), add, mut at)| {
            let mut value = if neutral_value {
                as_the_model_sends(&sent.schema, &value, format_judge, &sent.schema)
            } else {
                value
            };
            if add {
                with_an_undeclared_key(&mut value, &mut at);
            }
            if !format_validator.is_valid(&value) {
                return Ok(());
            }
            counts.1.set(counts.1.get() + 1);
            match T::parse(&value) {
                Ok(parsed) => {
                    counts.2.set(counts.2.get() + 1);
                    let json = parsed.to_json();
                    if !neutral_validator.is_valid(&json) {
                        return Err(TestCaseError::fail(format!(
                            "{value} parses to {json}, which the neutral schema refuses"
                        )));
                    }
                    Ok(())
                }
                Err(error) => losses.explain(&error, &value).map_err(|why| {
                    TestCaseError::fail(format!(
                        "the format's schema accepts {value}, parse refuses it: {why}\n  the format's diagnostics: {:#?}",
                        sent.diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>()
                    ))
                }),
            }
        })
        .map_err(|error| context("P2", error.to_string()))?;
    Ok(Counts {
        p1: counts.0.get(),
        p2_valid: counts.1.get(),
        p2_parsed: counts.2.get(),
    })
}

/// [`provider_run`] for `T` in each of `formats`, with `1 / scale` of the
/// cases, listing each failure; a run that checked too few values (P1
/// meets valid ones, P2 ones the format accepts) is a failure too.
fn formats<T: ToolParams>(name: &str, formats: &[ProviderFormat], scale: u32) -> Vec<String> {
    let mut failures = Vec::new();
    let mut shared = Shared::new(&T::json_schema());
    for &format in formats {
        let (p1_cases, p2_cases) = (P1_CASES / scale, P2_CASES / scale);
        let started = std::time::Instant::now();
        match provider_run::<T>(name, format, (p1_cases, p2_cases), &mut shared) {
            Ok(counts) => {
                eprintln!(
                    "{format} / {name}: P1 {} values; P2 {} valid for the format, {} parsed ({:?})",
                    counts.p1,
                    counts.p2_valid,
                    counts.p2_parsed,
                    started.elapsed()
                );
                if counts.p1 < p1_cases / 2 || counts.p2_valid < p2_cases / 8 {
                    failures.push(format!(
                        "{format} / {name}: too few values checked (P1 {} of {p1_cases}, P2 {} of {p2_cases})",
                        counts.p1, counts.p2_valid
                    ));
                }
            }
            Err(failure) => failures.push(failure),
        }
    }
    failures
}

/// Every format but those in `except`.
fn all_but(except: &[ProviderFormat]) -> Vec<ProviderFormat> {
    ProviderFormat::ALL
        .into_iter()
        .filter(|format| !except.contains(format))
        .collect()
}

/// The formats whose schema for a root enum requires every variant's
/// fields, `null` when unused (OpenAI's strict modes): where a variant that
/// denies unknown fields must read another variant's `null` as absent
/// (issue 21). Found from
/// what each format writes, so a format added later lands on its side.
fn sending_every_variants_fields() -> Vec<ProviderFormat> {
    let schema = Computer::json_schema();
    let found: Vec<ProviderFormat> = ProviderFormat::ALL
        .into_iter()
        .filter(|&format| required(&sent(format, &schema).schema).contains(&"text"))
        .collect();
    assert!(found.contains(&STRICT[0]), "{found:?}");
    found
}

/// The formats whose schema cannot close an object (Gemini's legacy
/// dialect), found the same way.
fn leaving_objects_open() -> Vec<ProviderFormat> {
    let schema = ClosedLeaf::json_schema();
    let closed = Some(&Value::Bool(false));
    let found: Vec<ProviderFormat> = ProviderFormat::ALL
        .into_iter()
        .filter(|&format| sent(format, &schema).schema.get("additionalProperties") != closed)
        .collect();
    assert!(found.contains(&LEGACY), "{found:?}");
    found
}

/// Panics listing `failures`, if any.
#[track_caller]
fn assert_none(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failures:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// OpenAI's strict formats, for the regression tests' premises.
const STRICT: [ProviderFormat; 2] = [
    ProviderFormat::OpenAiChat(Strict::On),
    ProviderFormat::OpenAiResponses(Strict::On),
];
const LEGACY: ProviderFormat = ProviderFormat::Gemini(Dialect::OpenApi);

/// The groups of `Everything`, each a tool's whole arguments, and
/// `Everything` itself with a quarter of the cases.
#[test]
fn every_format_agrees_with_parse_on_every_field_type() {
    let all = ProviderFormat::ALL;
    let mut failures = formats::<EnumFields>("EnumFields", &all, 1);
    failures.extend(formats::<StringRules>("StringRules", &all, 1));
    failures.extend(formats::<Collections>("Collections", &all, 1));
    failures.extend(formats::<Layout>("Layout", &all, 1));
    failures.extend(formats::<tests::everything::SerdeWords>(
        "SerdeWords",
        &all,
        1,
    ));
    failures.extend(formats::<Everything>("Everything", &all, 4));
    assert_none(failures);
}

/// Enums as a tool's whole arguments, in each representation, without
/// `deny_unknown_fields` (`OpenInternal`'s newtype variant wraps a struct
/// that denies).
#[test]
fn every_format_agrees_with_parse_on_root_enums() {
    let all = ProviderFormat::ALL;
    let mut failures = formats::<Action>("Action", &all, 1);
    failures.extend(formats::<Shape>("Shape", &all, 1));
    failures.extend(formats::<RootExternal>("RootExternal", &all, 1));
    failures.extend(formats::<RootUntagged>("RootUntagged", &all, 1));
    failures.extend(formats::<OpenInternal>("OpenInternal", &all, 1));
    assert_none(failures);
}

/// `deny_unknown_fields` on structs and each enum representation, nested
/// and at the root, in every format that can close an object (the others
/// run in [`open_objects_on_deny_unknown_fields`]).
#[test]
fn every_format_agrees_with_parse_on_deny_unknown_fields() {
    let open = leaving_objects_open();
    let closed = all_but(&open);
    let mut failures = formats::<Closed>("Closed", &closed, 1);
    failures.extend(formats::<DenyFields>("DenyFields", &closed, 2));
    failures.extend(formats::<ClosedAdjacent>("ClosedAdjacent", &closed, 1));
    let unit = "ClosedAdjacentUnit";
    failures.extend(formats::<ClosedAdjacentUnit>(unit, &closed, 1));
    failures.extend(formats::<ClosedCommand>("ClosedCommand", &closed, 1));
    failures.extend(formats::<ClosedInternal>("ClosedInternal", &closed, 1));
    failures.extend(formats::<ClosedLookup>("ClosedLookup", &closed, 1));
    failures.extend(formats::<Computer>("Computer", &closed, 1));
    assert_none(failures);
}

/// The pairs that failed on the parse bugs issue 21 names, under the
/// formats that make the model send every variant's fields: a strict
/// model's `null` for another variant's field refused by a variant that
/// denies unknown fields (`Computer`, `ClosedInternal`, `ClosedLookup`,
/// and `OpenInternal`, whose variant denies through its struct); an
/// untagged enum taking a variant by dropping keys (`Greedy`, P1 (iv), in
/// every format).
#[test]
fn strict_nulls_and_untagged_preference() {
    let strict = sending_every_variants_fields();
    let mut failures = formats::<Computer>("Computer", &strict, 1);
    failures.extend(formats::<ClosedInternal>("ClosedInternal", &strict, 1));
    failures.extend(formats::<ClosedLookup>("ClosedLookup", &strict, 1));
    failures.extend(formats::<OpenInternal>("OpenInternal", &strict, 1));
    failures.extend(formats::<Greedy>("Greedy", &ProviderFormat::ALL, 1));
    assert_none(failures);
}

/// Gemini's legacy dialect cannot close an object; its diagnostic says
/// parse drops undeclared keys or, where the type denies them, refuses
/// them: so a value the format's schema accepts and parse refuses for an
/// undeclared key is explained.
#[test]
fn open_objects_on_deny_unknown_fields() {
    let open = leaving_objects_open();
    let mut failures = formats::<Closed>("Closed", &open, 1);
    failures.extend(formats::<DenyFields>("DenyFields", &open, 2));
    failures.extend(formats::<ClosedAdjacent>("ClosedAdjacent", &open, 1));
    failures.extend(formats::<ClosedAdjacentUnit>(
        "ClosedAdjacentUnit",
        &open,
        1,
    ));
    failures.extend(formats::<ClosedCommand>("ClosedCommand", &open, 1));
    failures.extend(formats::<ClosedInternal>("ClosedInternal", &open, 1));
    failures.extend(formats::<ClosedLookup>("ClosedLookup", &open, 1));
    failures.extend(formats::<Computer>("Computer", &open, 1));
    failures.extend(formats::<OpenInternal>("OpenInternal", &open, 1));
    assert_none(failures);
}

// ---------------------------------------------------------------------------
// The calls of issue 21's report, each on its smallest value (regression
// tests).

/// The parse of `value` as `T`, which must succeed, written back.
#[track_caller]
fn parses_to<T: ToolParams>(value: Value) -> Value {
    match T::parse(&value) {
        Ok(parsed) => parsed.to_json(),
        Err(error) => panic!("{value} is refused: {error}"),
    }
}

/// Whether `format`'s schema for `T` accepts `value`: the premise of a
/// regression test (a model following that schema may send it).
#[track_caller]
fn the_format_accepts<T: ToolParams>(format: ProviderFormat, value: &Value) {
    let sent = sent(format, &T::json_schema());
    assert!(
        validator_for(&sent.schema).is_valid(value),
        "{format}'s schema refuses {value}: {}",
        sent.schema
    );
}

/// A strict model's call of a computer-use tool: every field of the merged
/// object, `null` for the other variants'.
#[test]
fn a_strict_models_null_for_another_variants_field_parses() {
    let call = json!({"action": "click", "x": 1, "y": 2,
                      "text": null, "dx": null, "dy": null, "keys": null});
    the_format_accepts::<Computer>(STRICT[0], &call);
    assert_eq!(
        parses_to::<Computer>(call),
        json!({"action": "click", "x": 1, "y": 2})
    );
}

/// The same when the variant denies through its newtype's struct
/// (`OpenInternal::Hold(ClosedLeaf)`), not through the enum.
#[test]
fn a_strict_models_null_for_another_variants_field_parses_in_a_newtype_variant() {
    let call = json!({"op": "hold", "n": 1, "note": null, "speed": null});
    the_format_accepts::<OpenInternal>(STRICT[0], &call);
    assert_eq!(
        parses_to::<OpenInternal>(call),
        json!({"op": "hold", "n": 1})
    );
}

/// An untagged root enum that denies unknown fields, as a strict model
/// calls it.
#[test]
fn a_strict_models_null_for_another_untagged_variants_field_parses() {
    let call = json!({"name": null, "id": 7});
    the_format_accepts::<ClosedLookup>(STRICT[0], &call);
    assert_eq!(parses_to::<ClosedLookup>(call), json!({"id": 7}));
}

/// `{"id":5}` is what `Greedy::Get`'s closed schema admits as sent;
/// `List` takes it only by dropping `id`.
#[test]
fn an_untagged_enum_takes_the_variant_that_admits_the_value_as_sent() {
    assert_eq!(parses_to::<Greedy>(json!({"id": 5})), json!({"id": 5}));
    // Still the first variant when the value fits it as sent.
    assert_eq!(
        parses_to::<Greedy>(json!({"filter": "a"})),
        json!({"filter": "a"})
    );
}

/// An adjacently tagged unit variant has no content: a `content` key is
/// refused, whether or not the enum denies unknown fields.
#[test]
fn an_adjacently_tagged_unit_variant_refuses_content() {
    assert!(Shape::parse(&json!({"kind": "Dot", "data": 5})).is_err());
    assert!(ClosedAdjacentUnit::parse(&json!({"t": "dot", "c": 5})).is_err());
    assert_eq!(
        parses_to::<Shape>(json!({"kind": "Dot"})),
        json!({"kind": "Dot"})
    );
}

/// Gemini's legacy schema for a struct that denies unknown fields accepts
/// an undeclared key; parse refuses it, and a diagnostic must say why.
#[test]
fn gemini_legacy_names_why_an_undeclared_key_is_refused() {
    let value = json!({"n": 1, "extra": 1});
    the_format_accepts::<ClosedLeaf>(LEGACY, &value);
    let error = ClosedLeaf::parse(&value).unwrap_err();
    let neutral = ClosedLeaf::json_schema();
    let losses = Losses::of(&sent(LEGACY, &neutral), &neutral);
    if let Err(unexplained) = losses.explain(&error, &value) {
        panic!("{unexplained}");
    }
}

// ---------------------------------------------------------------------------
// The property's own parts.

#[test]
fn problem_and_diagnostic_paths_read_as_places() {
    use Step::{AnyIndex, AnyKey, Anywhere, Index, Key};
    let key = |name: &str| Key(name.to_owned());
    assert_eq!(problem_place("arguments"), vec![]);
    assert_eq!(
        problem_place("items[1].name"),
        vec![key("items"), Index(1), key("name")]
    );
    assert_eq!(problem_place("arguments[3]"), vec![Index(3)]);
    assert_eq!(
        problem_place(r#"arguments["a b"].c["x.y"][0]"#),
        vec![key("a b"), key("c"), key("x.y"), Index(0)]
    );
    assert_eq!(
        diagnostic_place("/properties/tags/items/maxLength"),
        (vec![key("tags"), AnyIndex], Some("maxLength".into()))
    );
    assert_eq!(
        diagnostic_place("/properties/limit"),
        (vec![key("limit")], None)
    );
    assert_eq!(diagnostic_place("/oneOf"), (vec![], Some("oneOf".into())));
    assert_eq!(
        diagnostic_place("/properties/m/additionalProperties/anyOf/1/properties/a~1b/format"),
        (vec![key("m"), AnyKey, key("a/b")], Some("format".into()))
    );
    assert_eq!(
        diagnostic_place("/properties/pair/prefixItems/1/maximum"),
        (vec![key("pair"), Index(1)], Some("maximum".into()))
    );
    assert_eq!(
        diagnostic_place("/$defs/Node/properties/name/maxLength"),
        (vec![Anywhere, key("name")], Some("maxLength".into()))
    );
    assert!(matches(
        &[Anywhere, key("name")],
        &[key("a"), Index(2), key("name")]
    ));
    assert!(!matches(&[key("tags"), AnyIndex], &[key("tags"), key("x")]));
}

/// Two checks strict mode drops, as one struct's fields.
#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Note {
    #[param(max_length = 3)]
    title: String,
    #[param(format = "uri")]
    link: String,
    count: u8,
}

/// A refusal is explained by the diagnostic of the check the format
/// dropped at that place, and by nothing else: the same refusal in a format
/// that dropped nothing is a disagreement.
#[test]
fn a_dropped_check_explains_the_refusal_at_its_place_only() {
    let neutral = Note::json_schema();
    let strict = sent(STRICT[0], &neutral);
    let losses = Losses::of(&strict, &neutral);
    let value = json!({"title": "abcd", "link": "not a uri", "count": 1});
    assert!(validator_for(&strict.schema).is_valid(&value));
    let error = Note::parse(&value).unwrap_err();
    assert_eq!(error.problems().len(), 2, "{error}");
    assert_eq!(losses.explain(&error, &value), Ok(()));
    let unchanged = sent(ProviderFormat::Neutral, &neutral);
    let no_losses = Losses::of(&unchanged, &neutral);
    let unexplained = no_losses.explain(&error, &value).unwrap_err();
    assert!(unexplained.starts_with("title: expected"), "{unexplained}");
    // A loss at one field does not explain a refusal at another.
    let wrong_place = json!({"title": "abcd", "link": "https://a.example", "count": 300});
    let error = Note::parse(&wrong_place).unwrap_err();
    let unexplained = losses.explain(&error, &wrong_place).unwrap_err();
    assert!(unexplained.starts_with("count: expected"), "{unexplained}");
}

/// P1's writer sends `null` for what a strict format requires and the
/// value lacks, and nothing for what the format leaves optional.
#[test]
fn the_model_sends_null_for_what_a_strict_format_requires() {
    let neutral = Computer::json_schema();
    let call = json!({"action": "type", "text": "hi"});
    let strict = sent(STRICT[0], &neutral);
    let judge = Judge::new(&strict.schema);
    assert_eq!(
        as_the_model_sends(&strict.schema, &call, &judge, &strict.schema),
        json!({"action": "type", "text": "hi", "x": null, "y": null, "dx": null, "dy": null, "keys": null})
    );
    let plain = sent(ProviderFormat::OpenAiChat(Strict::Off), &neutral);
    let judge = Judge::new(&plain.schema);
    assert_eq!(
        as_the_model_sends(&plain.schema, &call, &judge, &plain.schema),
        call
    );
}
