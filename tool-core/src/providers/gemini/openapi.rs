//! Gemini's legacy `parameters`: a subset of OpenAPI 3.0's Schema object
//! (<https://ai.google.dev/api/caching#Schema>). It has no
//! `additionalProperties`, `$schema`, `$ref`, `const`, `oneOf`,
//! `prefixItems`, `uniqueItems`, `examples` (only one `example`),
//! `deprecated`, exclusive bounds or type arrays, only the formats of
//! [`FORMATS`], and says `"nullable": true` where JSON Schema says "or null".

use crate::providers::common::{convert_branches, escape, required_names, what_parse_keeps};
use crate::providers::diagnostic::Report;
use crate::providers::rewrite::{one_of_message, tuple_as_array, type_into_choices};
use serde_json::{Map, Value};

/// The formats the subset has, for each type ("for STRING type: enum,
/// date-time; NUMBER: float, double; INTEGER: int32, int64").
const FORMATS: &[(&str, &[&str])] = &[
    ("string", &["enum", "date-time"]),
    ("number", &["float", "double"]),
    ("integer", &["int32", "int64"]),
];

/// Keywords the subset accepts as they are.
const KEPT: &[&str] = &[
    "type",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "default",
    "minimum",
    "maximum",
    "propertyOrdering",
];

/// A tool's parameters in the subset, or `None` when the declaration
/// should leave `parameters` out: Gemini refuses an object schema without
/// properties, and a tool that takes none is declared without them.
pub(super) fn openapi_parameters(schema: &Value, report: &mut Report<'_>) -> Option<Value> {
    let reported_before = report.diagnostics.len();
    let converted = convert(schema, "", report);
    let has_properties = converted
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    if has_properties {
        return Some(converted);
    }
    // Nothing of the schema is sent, so what its conversion would have
    // dropped or changed is not worth a word.
    report.diagnostics.truncate(reported_before);
    if schema.get("properties").is_none() {
        report.push(
            "",
            "arguments of any shape cannot be described in Gemini's legacy form (an object needs properties); declared without parameters",
        );
    }
    None
}

fn convert(schema: &Value, path: &str, report: &mut Report<'_>) -> Value {
    let Value::Object(map) = schema else {
        report.push(path, "a boolean schema has no OpenAPI form; left as it is");
        return schema.clone();
    };
    if map.is_empty() {
        report.push(
            path,
            "a value of any type has no OpenAPI form (Gemini wants a type); left without one",
        );
        return schema.clone();
    }
    // `anyOf: [T, {"type":"null"}]` is T, nullable.
    if let Some(inner) = nullable_branch(map) {
        report.push(
            &format!("{path}/anyOf"),
            "changed: \"or null\" written as `\"nullable\": true`",
        );
        let mut converted = convert(inner, path, report);
        if let Value::Object(converted) = &mut converted {
            if let Some(description) = map.get("description") {
                converted.insert("description".into(), description.clone());
            }
            converted.insert("nullable".into(), Value::Bool(true));
        }
        return converted;
    }
    if let Some(tuple) = tuple_as_array(map) {
        report.push(
            &format!("{path}/prefixItems"),
            tuple.message("Gemini's OpenAPI subset has no `prefixItems`"),
        );
        return convert(&Value::Object(tuple.schema), path, report);
    }
    // Gemini's Schema requires a type on every schema
    // (<https://ai.google.dev/api/caching#Schema>: `type` is "Required"):
    // `IpAddr`'s `{"type":"string","anyOf":[{"format":"ipv4"},..]}` moves
    // its type into each choice.
    if let Some(typed) = type_into_choices(map) {
        report.push(
            path,
            "changed: `type` written into each choice (Gemini wants a type on every schema); the same values pass",
        );
        return one_choice_left(convert(&Value::Object(typed), path, report));
    }
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        match key.as_str() {
            "type" => match value {
                Value::Array(types) => {
                    let named: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                    if let [single] = named[..] {
                        out.insert("type".into(), single.clone());
                        if named.len() < types.len() {
                            out.insert("nullable".into(), Value::Bool(true));
                        }
                        report.push(&at, "changed: a type array written as one type (and `nullable`)");
                    } else {
                        report.push(&at, "dropped: OpenAPI 3.0 has no type arrays");
                    }
                }
                other => {
                    out.insert("type".into(), other.clone());
                }
            },
            key if KEPT.contains(&key) => {
                out.insert(key.to_owned(), value.clone());
            }
            "const" => {
                out.insert("enum".into(), Value::Array(vec![value.clone()]));
                report.push(&at, "changed: `const` written as a one-value `enum`");
            }
            "format" if has_format(map.get("type"), value) => {
                out.insert(key.to_owned(), value.clone());
            }
            "format" => report.push(
                &at,
                format!(
                    "dropped: Gemini's OpenAPI subset has no format {value} here (only \"date-time\" and \"enum\" for a string){}",
                    what_parse_keeps(key)
                ),
            ),
            "examples" => match value.as_array().and_then(|examples| examples.first()) {
                Some(first) => {
                    out.insert("example".into(), first.clone());
                    let count = value.as_array().map_or(0, Vec::len);
                    let message = if count == 1 {
                        "changed: `examples` written as `example` (OpenAPI 3.0 has one example)"
                            .to_owned()
                    } else {
                        format!(
                            "changed: `examples` written as `example`, the first of {count} (OpenAPI 3.0 has one example)"
                        )
                    };
                    report.push(&at, message);
                }
                None => report.push(&at, "dropped: no example in `examples`"),
            },
            "items" => {
                out.insert("items".into(), convert(value, &at, report));
            }
            "anyOf" | "oneOf" if key == "anyOf" || !map.contains_key("anyOf") => {
                if key == "oneOf" {
                    report.push(&at, one_of_message("Gemini's OpenAPI subset has no `oneOf`"));
                }
                let branches = convert_branches(value, &at, |branch, at| convert(branch, at, report));
                if branches.as_array().is_some_and(|branches| {
                    branches.iter().any(|branch| branch.as_object().is_some_and(Map::is_empty))
                }) {
                    report.push(
                        &at,
                        "dropped: a choice left with nothing to check (after the drops above) makes the whole choice accept any value (parse still enforces it)",
                    );
                } else {
                    out.insert("anyOf".into(), branches);
                }
            }
            "properties" | "required" => {}
            "additionalProperties" if value == &Value::Bool(false) => report.push(
                &at,
                "dropped: OpenAPI 3.0 (Gemini) cannot close an object; parse drops undeclared keys, or refuses them where the type denies unknown fields",
            ),
            "additionalProperties" => report.push(
                &at,
                "dropped: OpenAPI 3.0 (Gemini) cannot describe a map's values; parse still checks each one",
            ),
            other => report.push(
                &at,
                format!(
                    "dropped: Gemini's OpenAPI subset has no `{other}`{}",
                    what_parse_keeps(other)
                ),
            ),
        }
    }
    crate::providers::dropped_words::say_what_was_dropped(
        map,
        &mut out,
        path,
        "Gemini's OpenAPI subset",
        report,
    );
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        let required = required_names(map);
        let mut converted = Map::new();
        for (name, property) in properties {
            let at = format!("{path}/properties/{}", escape(name));
            let mut property = convert(property, &at, report);
            if !required.contains(&name.as_str())
                && let Value::Object(property) = &mut property
                && property.get("nullable") != Some(&Value::Bool(true))
            {
                property.insert("nullable".into(), Value::Bool(true));
                report.push(
                    &at,
                    "changed: optional, so marked `\"nullable\": true` (null means absent)",
                );
            }
            converted.insert(name.clone(), property);
        }
        out.insert("properties".into(), Value::Object(converted));
        if let Some(required) = map.get("required") {
            out.insert("required".into(), required.clone());
        }
    }
    let is_object = map.get("type").and_then(Value::as_str) == Some("object");
    let has_properties = out
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    // The arguments object itself is handled by the caller (a declaration
    // can leave `parameters` out); deeper down there is no way around it.
    if is_object && !has_properties && !path.is_empty() {
        report.push(
            path,
            "Gemini refuses an object without properties (\"properties: should be non-empty for OBJECT type\"); declare this tool with the `gemini` format (parametersJsonSchema) instead",
        );
    }
    Value::Object(out)
}

/// Whether the subset has the format `value` for a schema of type `kind`.
fn has_format(kind: Option<&Value>, value: &Value) -> bool {
    FORMATS.iter().any(|(named, formats)| {
        kind.is_some_and(|kind| kind == named)
            && value
                .as_str()
                .is_some_and(|format| formats.contains(&format))
    })
}

/// The non-null branch of `{"anyOf":[T,{"type":"null"}]}` (either order).
fn nullable_branch(map: &Map<String, Value>) -> Option<&Value> {
    let branches = map.get("anyOf")?.as_array()?;
    let is_null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
    match branches.as_slice() {
        [a, b] if is_null(b) && !is_null(a) => Some(a),
        [a, b] if is_null(a) && !is_null(b) => Some(b),
        _ => None,
    }
}

/// `{"anyOf":[S,S],..}` as `{..S}`: choices the conversion made equal
/// (`IpAddr`'s two formats, both dropped) are one schema.
fn one_choice_left(converted: Value) -> Value {
    let Value::Object(mut map) = converted else {
        return converted;
    };
    let same = match map.get("anyOf").and_then(Value::as_array) {
        Some(choices) => match choices.split_first() {
            Some((Value::Object(first), rest)) => rest
                .iter()
                .all(|c| c.as_object() == Some(first))
                .then(|| first.clone()),
            _ => None,
        },
        None => None,
    };
    if let Some(choice) = same {
        map.remove("anyOf");
        for (key, value) in choice {
            map.entry(key).or_insert(value);
        }
    }
    Value::Object(map)
}
