//! Every schema inside a schema, by keyword: the walk the conversions that
//! rewrite one keyword at any depth share (`oneOf` as `anyOf` for OpenAI,
//! `const` as `enum` for Gemini), and the counts and checks that look at
//! every sub-schema (Anthropic's strict limits, recursion).

use super::common::escape;
use super::diagnostic::Report;
use serde_json::{Map, Value};

/// Keywords whose value is one schema.
const SCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is a list of schemas.
const LIST: &[&str] = &["prefixItems", "anyOf", "allOf", "oneOf"];
/// Keywords whose value maps names to schemas.
const NAMED: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// The schemas directly under `map`, each with its JSON Pointer below
/// `path` (`<path>/properties/name`, `<path>/anyOf/0`).
pub(crate) fn children<'a>(map: &'a Map<String, Value>, path: &str) -> Vec<(String, &'a Value)> {
    let mut found = Vec::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        match (key.as_str(), value) {
            (key, _) if SCHEMA.contains(&key) => found.push((at, value)),
            (key, Value::Array(schemas)) if LIST.contains(&key) => found.extend(
                schemas
                    .iter()
                    .enumerate()
                    .map(|(i, schema)| (format!("{at}/{i}"), schema)),
            ),
            (key, Value::Object(named)) if NAMED.contains(&key) => found.extend(
                named
                    .iter()
                    .map(|(name, schema)| (format!("{at}/{}", escape(name)), schema)),
            ),
            _ => {}
        }
    }
    found
}

/// Calls `visit` on `schema` and on every schema inside it, each with its
/// JSON Pointer, parents first.
pub(crate) fn each_schema(schema: &Value, path: &str, visit: &mut impl FnMut(&Value, &str)) {
    visit(schema, path);
    if let Value::Object(map) = schema {
        for (at, child) in children(map, path) {
            each_schema(child, &at, visit);
        }
    }
}

/// `schema` with each keyword of each schema at any depth passed through
/// `keyword(map, key, value, path, report)`, which returns the keyword to
/// write in its place (the same, renamed, or with another value), or
/// `None` to leave it out. A schema keyword's value is walked afterwards,
/// at the keyword's original path, so diagnostics come parents first.
pub(crate) fn rewrite_keywords(
    schema: &Value,
    path: &str,
    report: &mut Report<'_>,
    keyword: &mut impl FnMut(
        &Map<String, Value>,
        &str,
        &Value,
        &str,
        &mut Report<'_>,
    ) -> Option<(String, Value)>,
) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        let Some((name, value)) = keyword(map, key, value, &at, report) else {
            continue;
        };
        let value = match (key.as_str(), value) {
            (key, value) if SCHEMA.contains(&key) => rewrite_keywords(&value, &at, report, keyword),
            (key, Value::Array(schemas)) if LIST.contains(&key) => Value::Array(
                schemas
                    .iter()
                    .enumerate()
                    .map(|(i, schema)| {
                        rewrite_keywords(schema, &format!("{at}/{i}"), report, keyword)
                    })
                    .collect(),
            ),
            (key, Value::Object(named)) if NAMED.contains(&key) => Value::Object(
                named
                    .iter()
                    .map(|(name, schema)| {
                        let at = format!("{at}/{}", escape(name));
                        (name.clone(), rewrite_keywords(schema, &at, report, keyword))
                    })
                    .collect(),
            ),
            (_, value) => value,
        };
        out.insert(name, value);
    }
    Value::Object(out)
}
