//! A remote tool's arguments checked against the server's `inputSchema`
//! before they are sent, reported as a derived tool reports its own: every
//! problem, one a line, each at its path (`items[2].name: expected integer,
//! got string`).

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;
use tool_core::ParamError;
use tool_core::params::{ParamPath, ParseContext, json_type};

/// Compiles `schema`; a schema that is not valid JSON Schema (or names a
/// `$ref` that cannot be resolved offline) is refused with jsonschema's
/// words.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::validator_for(schema).map_err(|error| error.to_string())
}

/// Every problem `arguments` has against `validator`, or `None` when it
/// has none.
pub(crate) fn problems(validator: &Validator, arguments: &Value) -> Option<ParamError> {
    let mut cx = ParseContext::new();
    for error in validator.iter_errors(arguments) {
        record(&mut cx, arguments, &error);
    }
    cx.finish().err()
}

fn record(errors: &mut ParseContext, arguments: &Value, error: &ValidationError<'_>) {
    let segments: Vec<String> = error
        .instance_path()
        .segments()
        .map(|segment| segment.to_string())
        .collect();
    let got = error.instance();
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_owned);
            let mut path = segments;
            path.push(name);
            push_at(
                errors,
                &ParamPath::root(),
                Some(arguments),
                &path,
                "missing required field",
            );
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            for name in unexpected {
                let mut path = segments.clone();
                path.push(name.clone());
                push_at(
                    errors,
                    &ParamPath::root(),
                    Some(arguments),
                    &path,
                    "unknown field",
                );
            }
        }
        kind => {
            let message = message(kind, got).unwrap_or_else(|| error.to_string());
            push_at(
                errors,
                &ParamPath::root(),
                Some(arguments),
                &segments,
                &message,
            );
        }
    }
}

/// Our words for the common keywords; `None` leaves jsonschema's.
fn message(kind: &ValidationErrorKind, got: &Value) -> Option<String> {
    Some(match kind {
        ValidationErrorKind::Type {
            kind: TypeKind::Single(expected),
        } => format!("expected {expected}, got {}", json_type(got)),
        ValidationErrorKind::Type {
            kind: TypeKind::Multiple(expected),
        } => {
            let names: Vec<String> = expected.iter().map(|t| t.to_string()).collect();
            format!("expected {}, got {}", names.join(" or "), json_type(got))
        }
        ValidationErrorKind::Enum { options } => {
            let listed: Vec<String> = options
                .as_array()
                .map(|options| options.iter().map(excerpt).collect())
                .unwrap_or_default();
            format!(
                "expected one of {}, got {}",
                listed.join(", "),
                excerpt(got)
            )
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("expected {}, got {}", excerpt(expected_value), excerpt(got))
        }
        ValidationErrorKind::Minimum { limit } => {
            format!(
                "expected {} >= {limit}, got {}",
                number_type(got),
                excerpt(got)
            )
        }
        ValidationErrorKind::Maximum { limit } => {
            format!(
                "expected {} <= {limit}, got {}",
                number_type(got),
                excerpt(got)
            )
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!(
                "expected {} > {limit}, got {}",
                number_type(got),
                excerpt(got)
            )
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!(
                "expected {} < {limit}, got {}",
                number_type(got),
                excerpt(got)
            )
        }
        _ => return None,
    })
}

/// Walks `value` along `segments` so an index is written `[2]` only where
/// the value there is an array (a key `"2"` of an object stays a field).
fn push_at(
    errors: &mut ParseContext,
    path: &ParamPath<'_>,
    value: Option<&Value>,
    segments: &[String],
    message: &str,
) {
    let Some((segment, rest)) = segments.split_first() else {
        errors.push(path, message);
        return;
    };
    match (value, segment.parse::<usize>()) {
        (Some(Value::Array(items)), Ok(index)) => {
            push_at(errors, &path.index(index), items.get(index), rest, message);
        }
        (value, _) => {
            let inner = value.and_then(|value| value.get(segment.as_str()));
            push_at(errors, &path.field(segment), inner, rest, message);
        }
    }
}

fn number_type(value: &Value) -> &'static str {
    if value.is_i64() || value.is_u64() {
        "integer"
    } else {
        "number"
    }
}

/// A value as JSON text, capped so a huge value does not come back whole.
fn excerpt(value: &Value) -> String {
    const MAX: usize = 64;
    let text = value.to_string();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, arguments: Value) -> String {
        let validator = compile(&schema).unwrap();
        problems(&validator, &arguments).map_or_else(String::new, |e| e.to_string())
    }

    #[test]
    fn reports_every_problem_at_its_path_in_our_words() {
        let schema = json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "minimum": 1},
                "items": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                }},
                "mode": {"enum": ["quick", "slow"]},
            },
            "required": ["limit"],
            "additionalProperties": false,
        });
        assert_eq!(
            check(
                schema.clone(),
                json!({"items": [{"name": "a"}, {}, {"name": 3}], "mode": "fast", "x": 1})
            ),
            "items[1].name: missing required field\n\
             items[2].name: expected string, got number\n\
             mode: expected one of \"quick\", \"slow\", got \"fast\"\n\
             x: unknown field\n\
             limit: missing required field"
        );
        assert_eq!(
            check(schema.clone(), json!({"limit": "3"})),
            "limit: expected integer, got string"
        );
        assert_eq!(
            check(schema, json!({"limit": 0})),
            "limit: expected integer >= 1, got 0"
        );
    }

    #[test]
    fn keys_that_look_like_numbers_stay_fields_of_objects() {
        let schema = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(
            check(schema, json!({"2": 1})),
            "2: expected string, got number"
        );
    }

    #[test]
    fn a_schema_that_is_not_json_schema_is_refused() {
        assert!(compile(&json!({"type": 12})).is_err());
    }
}
