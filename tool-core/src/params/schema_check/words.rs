//! The validator's errors in the words and at the paths a derived type's
//! parse uses: `items[2].name: expected string, got number 3`.

use crate::params::describe::{Excerpt, Received, StrExcerpt, json_type};
use crate::params::{ParamError, ParamPath, ParseContext};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

/// At most this many allowed values are listed in an `enum` problem.
const MAX_LISTED: usize = 10;

/// Every problem `arguments` has against `validator` (which found some).
pub(super) fn problems(validator: &Validator, arguments: &Value) -> Result<(), ParamError> {
    let mut cx = ParseContext::new();
    for error in validator.iter_errors(arguments) {
        record(&mut cx, arguments, &error);
    }
    // `is_valid` said no: never let an empty list of errors read as valid.
    if cx.is_empty() {
        cx.push(&ParamPath::root(), "does not match the tool's schema");
    }
    cx.finish()
}

fn record(cx: &mut ParseContext, arguments: &Value, error: &ValidationError<'_>) {
    let segments: Vec<String> = error
        .instance_path()
        .segments()
        .map(|segment| segment.to_string())
        .collect();
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let mut path = segments;
            path.push(
                property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned),
            );
            push_at(cx, &ParamPath::root(), Some(arguments), &path, &|cx, at| {
                cx.push_missing(at, "missing required field");
            });
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            for name in unexpected {
                let mut path = segments.clone();
                path.push(name.clone());
                push_at(cx, &ParamPath::root(), Some(arguments), &path, &|cx, at| {
                    cx.push(at, "unknown field");
                });
            }
        }
        kind => {
            let message =
                message(kind, error.instance().as_ref()).unwrap_or_else(|| fallback(error));
            push_at(
                cx,
                &ParamPath::root(),
                Some(arguments),
                &segments,
                &|cx, at| cx.push(at, &message),
            );
        }
    }
}

/// Our words for a keyword, as the derived parsers say them; `None` leaves
/// the validator's.
fn message(kind: &ValidationErrorKind, got: &Value) -> Option<String> {
    Some(match kind {
        ValidationErrorKind::Type {
            kind: TypeKind::Single(expected),
        } => format!("expected {expected}, got {}", Received(got)),
        ValidationErrorKind::Type {
            kind: TypeKind::Multiple(expected),
        } => {
            let names: Vec<String> = expected.iter().map(|t| t.to_string()).collect();
            format!("expected {}, got {}", names.join(" or "), Received(got))
        }
        ValidationErrorKind::Enum { options } => {
            let options = options.as_array().map(Vec::as_slice).unwrap_or_default();
            let mut listed: Vec<String> = options
                .iter()
                .take(MAX_LISTED)
                .map(|option| Excerpt(option).to_string())
                .collect();
            if options.len() > MAX_LISTED {
                listed.push(format!("… ({} in all)", options.len()));
            }
            // A value of a type none of the allowed values has is named
            // with its type, as a derived enum names it (`got number 3`).
            let same_type = options
                .iter()
                .any(|option| json_type(option) == json_type(got));
            let got: &dyn std::fmt::Display = if same_type {
                &Excerpt(got)
            } else {
                &Received(got)
            };
            format!("expected one of {}, got {got}", listed.join(", "))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("expected {}, got {}", Excerpt(expected_value), Excerpt(got))
        }
        ValidationErrorKind::Minimum { limit } => bound(">=", limit, got),
        ValidationErrorKind::Maximum { limit } => bound("<=", limit, got),
        ValidationErrorKind::ExclusiveMinimum { limit } => bound(">", limit, got),
        ValidationErrorKind::ExclusiveMaximum { limit } => bound("<", limit, got),
        ValidationErrorKind::MultipleOf { multiple_of } => {
            format!("expected a multiple of {multiple_of}, got {}", Excerpt(got))
        }
        ValidationErrorKind::MinLength { limit } => length("string", "at least", *limit, got),
        ValidationErrorKind::MaxLength { limit } => length("string", "at most", *limit, got),
        ValidationErrorKind::MinItems { limit } => length("array", "at least", *limit, got),
        ValidationErrorKind::MaxItems { limit } => length("array", "at most", *limit, got),
        ValidationErrorKind::MinProperties { limit } => length("object", "at least", *limit, got),
        ValidationErrorKind::MaxProperties { limit } => length("object", "at most", *limit, got),
        ValidationErrorKind::Pattern { pattern } => format!(
            "expected a string matching {}, got {}",
            StrExcerpt(pattern),
            Excerpt(got)
        ),
        ValidationErrorKind::Format { format } => format!(
            "expected a string of format {}, got {}",
            StrExcerpt(format),
            Excerpt(got)
        ),
        ValidationErrorKind::UniqueItems => "expected items that all differ".to_owned(),
        ValidationErrorKind::FalseSchema => "no value is allowed here".to_owned(),
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            format!(
                "expected a value matching one of the alternatives, got {}",
                Excerpt(got)
            )
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            format!(
                "expected a value matching exactly one of the alternatives, got {}",
                Excerpt(got)
            )
        }
        ValidationErrorKind::Not { .. } => {
            format!(
                "expected a value that does not match the excluded schema, got {}",
                Excerpt(got)
            )
        }
        ValidationErrorKind::Contains => {
            "expected an array with at least one matching item".to_owned()
        }
        _ => return None,
    })
}

/// `expected integer >= 1, got 0`, as the derived bounds say it.
fn bound(relation: &str, limit: &Value, got: &Value) -> String {
    let kind = if got.is_i64() || got.is_u64() {
        "integer"
    } else {
        "number"
    };
    format!("expected {kind} {relation} {limit}, got {}", Excerpt(got))
}

/// `expected string of at least 2 characters, got 1`, as the derived
/// lengths say it (the validator reports them only on a value of `kind`).
fn length(kind: &str, relation: &str, limit: u64, got: &Value) -> String {
    let (count, unit) = match got {
        Value::String(text) => (text.chars().count(), "character"),
        Value::Array(items) => (items.len(), "item"),
        Value::Object(members) => (members.len(), "propert"),
        _ => (0, "value"),
    };
    let plural = match (unit, limit) {
        ("propert", 1) => "y",
        ("propert", _) => "ies",
        (_, 1) => "",
        _ => "s",
    };
    format!("expected {kind} of {relation} {limit} {unit}{plural}, got {count}")
}

/// The validator's own message for the rarer keywords. It may quote the
/// value whole, so it is cut like an echoed value.
fn fallback(error: &ValidationError<'_>) -> String {
    let message = error.to_string();
    match message
        .char_indices()
        .nth(crate::params::MAX_ECHO_CHARS * 2)
    {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// Pushes at the path `segments` name, walking `value` along them so an
/// index is written `[2]` only where the value there is an array (a key
/// `"2"` of an object stays a field).
fn push_at(
    cx: &mut ParseContext,
    path: &ParamPath<'_>,
    value: Option<&Value>,
    segments: &[String],
    push: &dyn Fn(&mut ParseContext, &ParamPath<'_>),
) {
    let Some((segment, rest)) = segments.split_first() else {
        push(cx, path);
        return;
    };
    match (value, segment.parse::<usize>()) {
        (Some(Value::Array(items)), Ok(index)) => {
            push_at(cx, &path.index(index), items.get(index), rest, push);
        }
        (value, _) => {
            let inner = value.and_then(|value| value.get(segment.as_str()));
            push_at(cx, &path.field(segment), inner, rest, push);
        }
    }
}
