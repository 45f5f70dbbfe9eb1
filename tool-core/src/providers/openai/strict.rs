//! OpenAI's strict mode: a subset of JSON Schema in which every object is
//! closed and lists every property as required. An optional field becomes
//! `{"anyOf":[<schema>,{"type":"null"}]}` (parse already reads `null` as
//! absent), keywords outside the subset are dropped or rewritten, and what
//! cannot be strict at all (a map, a value of any type) makes the tool
//! non-strict.
//!
//! The subset, from <https://developers.openai.com/api/docs/guides/structured-outputs>
//! ("Supported schemas"): types, `enum`, `anyOf`, `pattern`, the formats of
//! [`FORMATS`], number bounds and `multipleOf`, `minItems`/`maxItems`,
//! `$ref`/`$defs` (recursion included). Beyond it: `oneOf` is refused
//! ("'oneOf' is not permitted", openai/openai-node#2602), so is a format
//! outside the list ("'uri' is not a valid format", can1357/oh-my-pi#206)
//! and a schema without a type ("schema must have a 'type' key",
//! can1357/oh-my-pi#211); `uniqueItems` and `prefixItems` are refused by
//! the SDK's strict helper, and `const`, not on the list, is written as a
//! one-value `enum`.

use crate::providers::common::{convert_branches, escape, required_names, what_parse_keeps};
use crate::providers::diagnostic::Report;
use crate::providers::rewrite::{one_of_message, tuple_as_array, type_into_choices};
use serde_json::{Map, Value, json};

/// The string formats strict mode accepts; any other is dropped.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict mode accepts as they are.
const KEPT: &[&str] = &[
    "type",
    "description",
    "enum",
    "pattern",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "$ref",
];

/// Why strict mode refuses `oneOf`, for the diagnostic.
const NO_ONE_OF: &str = "strict mode does not accept `oneOf`";

/// The strict form of `schema`, or `None` when it cannot be strict. Then
/// only the reasons are left reported: what the strict form would have
/// dropped or changed is not what is sent.
pub(crate) fn strict_schema(schema: &Value, report: &mut Report<'_>) -> Option<Value> {
    let reported_before = report.diagnostics.len();
    let mut strict = Strictness::default();
    let converted = convert(schema, "", report, &mut strict);
    if strict.reasons.is_empty() {
        return Some(converted);
    }
    let mut index = 0;
    report.diagnostics.retain(|_| {
        index += 1;
        index <= reported_before || strict.reasons.contains(&(index - 1))
    });
    None
}

/// The reasons a schema cannot be strict, as indices of their diagnostics.
#[derive(Default)]
struct Strictness {
    reasons: Vec<usize>,
}

impl Strictness {
    /// Reports why the schema cannot be strict.
    fn refuse(&mut self, report: &mut Report<'_>, path: &str, why: &str) {
        self.reasons.push(report.diagnostics.len());
        report.push(path, why);
    }
}

fn convert(schema: &Value, path: &str, report: &mut Report<'_>, strict: &mut Strictness) -> Value {
    let Value::Object(map) = schema else {
        strict.refuse(report, path, "a boolean schema cannot be strict");
        return schema.clone();
    };
    if map.is_empty() {
        strict.refuse(
            report,
            path,
            "a value of any type cannot be strict: strict mode needs a type for every value",
        );
        return schema.clone();
    }
    if let Some(tuple) = tuple_as_array(map) {
        report.push(
            &format!("{path}/prefixItems"),
            tuple.message("strict mode does not accept `prefixItems`"),
        );
        return convert(&Value::Object(tuple.schema), path, report, strict);
    }
    if let Some(wrapped) = ref_wrapped(map) {
        report.push(
            path,
            "changed: the keywords beside `$ref` written around an `anyOf` of the `$ref` alone (strict mode refuses them: \"$ref cannot have keywords\"); the same values pass",
        );
        return convert(&Value::Object(wrapped), path, report, strict);
    }
    if let Some(typed) = type_into_choices(map) {
        report.push(
            path,
            "changed: `type` written into each choice (strict mode wants a type in every schema: \"schema must have a 'type' key\"); the same values pass",
        );
        return convert(&Value::Object(typed), path, report, strict);
    }
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        match key.as_str() {
            key if KEPT.contains(&key) => {
                out.insert(key.to_owned(), value.clone());
            }
            "format" if value.as_str().is_some_and(|format| FORMATS.contains(&format)) => {
                out.insert(key.to_owned(), value.clone());
            }
            "format" => report.push(
                &at,
                format!(
                    "dropped: strict mode does not accept the format {value} (only {}){}",
                    FORMATS.join(", "),
                    what_parse_keeps(key)
                ),
            ),
            "const" if !map.contains_key("enum") => {
                if !map.contains_key("type")
                    && let Some(kind) = type_of(value)
                {
                    out.insert("type".into(), json!(kind));
                }
                out.insert("enum".into(), json!([value]));
                report.push(&at, "changed: `const` written as a one-value `enum`");
            }
            "oneOf" if !map.contains_key("anyOf") => {
                report.push(&at, one_of_message(NO_ONE_OF));
                let branches =
                    convert_branches(value, &at, |branch, at| convert(branch, at, report, strict));
                out.insert("anyOf".into(), branches);
            }
            "properties" | "required" => {}
            "additionalProperties" => match value {
                Value::Bool(false) => {}
                _ => strict.refuse(
                    report,
                    &at,
                    "a map (an object with any keys) cannot be strict: strict mode needs every key listed",
                ),
            },
            "items" => {
                out.insert(key.to_owned(), convert(value, &at, report, strict));
            }
            "anyOf" => {
                let branches =
                    convert_branches(value, &at, |branch, at| convert(branch, at, report, strict));
                out.insert(key.to_owned(), branches);
            }
            "$defs" => {
                let defs = value.as_object().map_or_else(Map::new, |defs| {
                    defs.iter()
                        .map(|(name, def)| {
                            (
                                name.clone(),
                                convert(def, &format!("{at}/{name}"), report, strict),
                            )
                        })
                        .collect()
                });
                out.insert(key.to_owned(), Value::Object(defs));
            }
            other => report.push(
                &at,
                format!(
                    "dropped: strict mode does not accept `{other}`{}",
                    what_parse_keeps(other)
                ),
            ),
        }
    }
    let is_object = map.get("type").and_then(Value::as_str) == Some("object");
    match map.get("properties").and_then(Value::as_object) {
        Some(properties) => close_object(map, properties, path, &mut out, report, strict),
        None if is_object && !map.contains_key("additionalProperties") => strict.refuse(
            report,
            path,
            "an object with no listed properties cannot be strict: strict mode needs every key listed",
        ),
        None => {}
    }
    Value::Object(out)
}

/// Lists every property as required, making the optional ones nullable,
/// and closes the object.
fn close_object(
    map: &Map<String, Value>,
    properties: &Map<String, Value>,
    path: &str,
    out: &mut Map<String, Value>,
    report: &mut Report<'_>,
    strict: &mut Strictness,
) {
    let required = required_names(map);
    let mut converted = Map::new();
    for (name, property) in properties {
        let at = format!("{path}/properties/{}", escape(name));
        let mut property = convert(property, &at, report, strict);
        if !required.contains(&name.as_str()) {
            report.push(
                &at,
                "changed: optional, so made nullable and required (strict mode requires every property; null means absent)",
            );
            property = json!({"anyOf": [property, {"type": "null"}]});
        }
        converted.insert(name.clone(), property);
    }
    out.insert("properties".into(), Value::Object(converted));
    out.insert(
        "required".into(),
        Value::Array(properties.keys().cloned().map(Value::String).collect()),
    );
    out.insert("additionalProperties".into(), Value::Bool(false));
}

/// `{"description":"..","$ref":"#/$defs/T"}` as
/// `{"description":"..","anyOf":[{"$ref":"#/$defs/T"}]}`: strict mode
/// wants `$ref` alone ("$ref cannot have keywords {'description'}",
/// vectorize-io/hindsight#3944). `None` for a `$ref` alone, or one beside
/// a choice already (left to be refused).
fn ref_wrapped(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    let reference = map.get("$ref")?;
    if map.len() == 1 || map.contains_key("anyOf") || map.contains_key("oneOf") {
        return None;
    }
    let mut wrapped: Map<String, Value> = map
        .iter()
        .filter(|(key, _)| *key != "$ref")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    wrapped.insert("anyOf".into(), json!([{ "$ref": reference }]));
    Some(wrapped)
}

/// The JSON Schema type of a `const` value, for a schema that has none.
fn type_of(value: &Value) -> Option<&'static str> {
    match value {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(number) if number.is_f64() => Some("number"),
        Value::Number(_) => Some("integer"),
        Value::Null => Some("null"),
        _ => None,
    }
}
