//! One schema node at a time into a strict mode's subset, as [`Rules`]
//! say: kept, rewritten (a tuple as an array, `oneOf` as `anyOf`, `const`
//! as `enum` where it is not taken, `type` into each choice, `$ref` alone),
//! dropped, or refused (the tool cannot be strict).

use super::{Rules, Strictness};
use crate::providers::common::{convert_branches, escape, required_names, what_parse_keeps};
use crate::providers::diagnostic::Report;
use crate::providers::rewrite::{one_of_message, tuple_as_array, type_into_choices};
use serde_json::{Map, Value, json};

/// Why strict mode refuses `oneOf`, for the diagnostic.
const NO_ONE_OF: &str = "strict mode does not accept `oneOf`";

pub(super) fn convert(
    schema: &Value,
    path: &str,
    rules: &Rules,
    report: &mut Report<'_>,
    strict: &mut Strictness,
) -> Value {
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
        return convert(&Value::Object(tuple.schema), path, rules, report, strict);
    }
    if let Some(why) = rules.ref_alone
        && let Some(wrapped) = ref_wrapped(map)
    {
        report.push(
            path,
            format!(
                "changed: the keywords beside `$ref` written around an `anyOf` of the `$ref` alone ({why}); the same values pass"
            ),
        );
        return convert(&Value::Object(wrapped), path, rules, report, strict);
    }
    if let Some(typed) = type_into_choices(map) {
        report.push(
            path,
            format!(
                "changed: `type` written into each choice ({}); the same values pass",
                rules.typed
            ),
        );
        return convert(&Value::Object(typed), path, rules, report, strict);
    }
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        let taken = rules.kept.contains(&key.as_str());
        match key.as_str() {
            "pattern" if taken => {
                let refused = value.as_str().map(rules.pattern).unwrap_or_default();
                if refused.is_empty() {
                    out.insert(key.to_owned(), value.clone());
                } else {
                    report.push(
                        &at,
                        format!(
                            "dropped: strict mode does not accept a pattern with {}{}",
                            refused.join(" or "),
                            what_parse_keeps(key)
                        ),
                    );
                }
            }
            "minItems"
                if taken
                    && let Some(most) = rules.min_items_at_most
                    && value.as_u64().is_some_and(|least| least > most) =>
            {
                out.insert(key.to_owned(), json!(most));
                report.push(
                    &at,
                    format!(
                        "changed: `minItems` {value} written as {most} (strict mode accepts {most} at most; parse still enforces {value})"
                    ),
                );
            }
            key if taken => {
                out.insert(key.to_owned(), value.clone());
            }
            "format" if value.as_str().is_some_and(|format| rules.formats.contains(&format)) => {
                out.insert(key.to_owned(), value.clone());
            }
            "format" => report.push(
                &at,
                format!(
                    "dropped: strict mode does not accept the format {value} (only {}){}",
                    rules.formats.join(", "),
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
                let branches = convert_branches(value, &at, |branch, at| {
                    convert(branch, at, rules, report, strict)
                });
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
                out.insert(key.to_owned(), convert(value, &at, rules, report, strict));
            }
            "anyOf" => {
                let branches = convert_branches(value, &at, |branch, at| {
                    convert(branch, at, rules, report, strict)
                });
                out.insert(key.to_owned(), branches);
            }
            "$defs" => {
                let defs = value.as_object().map_or_else(Map::new, |defs| {
                    defs.iter()
                        .map(|(name, def)| {
                            let at = format!("{at}/{}", escape(name));
                            (name.clone(), convert(def, &at, rules, report, strict))
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
    // What the model must know of what was dropped, where the mode keeps
    // descriptions.
    if rules.kept.contains(&"description") {
        crate::providers::dropped_words::say_what_was_dropped(
            map,
            &mut out,
            path,
            "strict mode",
            report,
        );
    }
    let is_object = map.get("type").and_then(Value::as_str) == Some("object");
    match map.get("properties").and_then(Value::as_object) {
        Some(properties) => close_object(map, properties, path, rules, &mut out, report, strict),
        None if is_object && !map.contains_key("additionalProperties") => strict.refuse(
            report,
            path,
            "an object with no listed properties cannot be strict: strict mode needs every key listed",
        ),
        None => {}
    }
    Value::Object(out)
}

/// Converts each property and closes the object; where every property
/// must be required, lists them all, making the optional ones nullable.
fn close_object(
    map: &Map<String, Value>,
    properties: &Map<String, Value>,
    path: &str,
    rules: &Rules,
    out: &mut Map<String, Value>,
    report: &mut Report<'_>,
    strict: &mut Strictness,
) {
    let required = required_names(map);
    let mut converted = Map::new();
    for (name, property) in properties {
        let at = format!("{path}/properties/{}", escape(name));
        let mut property = convert(property, &at, rules, report, strict);
        if rules.every_property_required && !required.contains(&name.as_str()) {
            report.push(
                &at,
                "changed: optional, so made nullable and required (strict mode requires every property; null means absent)",
            );
            property = json!({"anyOf": [property, {"type": "null"}]});
        }
        converted.insert(name.clone(), property);
    }
    out.insert("properties".into(), Value::Object(converted));
    if rules.every_property_required {
        out.insert(
            "required".into(),
            Value::Array(properties.keys().cloned().map(Value::String).collect()),
        );
    } else if let Some(required) = map.get("required") {
        out.insert("required".into(), required.clone());
    }
    out.insert("additionalProperties".into(), Value::Bool(false));
}

/// `{"description":"..","$ref":"#/$defs/T"}` as
/// `{"description":"..","anyOf":[{"$ref":"#/$defs/T"}]}`. `None` for a
/// `$ref` alone, or one beside a choice already (left to be refused).
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
