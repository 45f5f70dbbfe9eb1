//! OpenAI's strict mode: a subset of JSON Schema in which every object is
//! closed and lists every property as required. An optional field becomes
//! `{"anyOf":[<schema>,{"type":"null"}]}` (parse already reads `null` as
//! absent), keywords outside the subset are dropped, and what cannot be
//! strict at all (a map, a value of any type) makes the tool non-strict.

use super::common::{convert_branches, required_names};
use super::diagnostic::Report;
use serde_json::{Map, Value, json};

/// Keywords strict mode accepts as they are.
const KEPT: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "$ref",
];

/// The strict form of `schema`, or `None` when it cannot be strict (the
/// reasons are reported).
pub(crate) fn strict_schema(schema: &Value, report: &mut Report<'_>) -> Option<Value> {
    let mut strict = true;
    let converted = convert(schema, "", report, &mut strict);
    strict.then_some(converted)
}

fn convert(schema: &Value, path: &str, report: &mut Report<'_>, strict: &mut bool) -> Value {
    let Value::Object(map) = schema else {
        report.push(path, "a boolean schema cannot be strict");
        *strict = false;
        return schema.clone();
    };
    if map.is_empty() {
        report.push(
            path,
            "a value of any type cannot be strict: strict mode needs a type for every value",
        );
        *strict = false;
        return schema.clone();
    }
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        match key.as_str() {
            key if KEPT.contains(&key) => {
                out.insert(key.to_owned(), value.clone());
            }
            "properties" | "required" => {}
            "additionalProperties" => match value {
                Value::Bool(false) => {}
                _ => {
                    report.push(
                        &at,
                        "a map (an object with any keys) cannot be strict: strict mode needs every key listed",
                    );
                    *strict = false;
                }
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
                    super::what_parse_keeps(other)
                ),
            ),
        }
    }
    let is_object = map.get("type").and_then(Value::as_str) == Some("object");
    match map.get("properties").and_then(Value::as_object) {
        Some(properties) => close_object(map, properties, path, &mut out, report, strict),
        None if is_object && !map.contains_key("additionalProperties") => {
            report.push(
                path,
                "an object with no listed properties cannot be strict: strict mode needs every key listed",
            );
            *strict = false;
        }
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
    strict: &mut bool,
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

/// A property name as a JSON Pointer segment.
pub(crate) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
