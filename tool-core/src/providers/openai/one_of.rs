//! `oneOf` written as `anyOf` at every depth of a schema, the rest kept as
//! it is: OpenAI's non-strict tools. The Responses API refuses `oneOf`
//! even without strict mode ("'oneOf' is not permitted", reported in
//! openai/openai-node#2602), and a tagged enum's choices never overlap, so
//! `anyOf` accepts the same values.

use crate::providers::common::escape;
use crate::providers::diagnostic::Report;
use crate::providers::rewrite::one_of_message;
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

/// `schema` with every `oneOf` an `anyOf`, each reported with `why` the
/// provider needs it (`"OpenAI refuses `oneOf`"`).
pub(crate) fn one_of_as_any_of(schema: &Value, why: &str, report: &mut Report<'_>) -> Value {
    walk(schema, "", why, report)
}

fn walk(schema: &Value, path: &str, why: &str, report: &mut Report<'_>) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        let at = format!("{path}/{key}");
        let renamed = key == "oneOf" && !map.contains_key("anyOf");
        if renamed {
            report.push(&at, one_of_message(why));
        }
        let converted = match key.as_str() {
            key if SCHEMA.contains(&key) => walk(value, &at, why, report),
            key if LIST.contains(&key) => match value {
                Value::Array(schemas) => Value::Array(
                    schemas
                        .iter()
                        .enumerate()
                        .map(|(i, schema)| walk(schema, &format!("{at}/{i}"), why, report))
                        .collect(),
                ),
                other => other.clone(),
            },
            key if NAMED.contains(&key) => match value {
                Value::Object(named) => Value::Object(
                    named
                        .iter()
                        .map(|(name, schema)| {
                            let at = format!("{at}/{}", escape(name));
                            (name.clone(), walk(schema, &at, why, report))
                        })
                        .collect(),
                ),
                other => other.clone(),
            },
            _ => value.clone(),
        };
        let key = if renamed {
            "anyOf".to_owned()
        } else {
            key.clone()
        };
        out.insert(key, converted);
    }
    Value::Object(out)
}
