//! `min_length` / `max_length`: characters of a string, items of an array.

use super::LengthOf;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Map, Value};

fn length(value: &Value, of: LengthOf) -> Option<usize> {
    match (value, of) {
        (Value::String(text), LengthOf::Characters) => Some(text.chars().count()),
        (Value::Array(items), LengthOf::Items) => Some(items.len()),
        _ => None,
    }
}

/// Reports `value` if it is a string or array shorter than `min`; true if it did.
pub(super) fn check_min(
    value: &Value,
    min: usize,
    of: LengthOf,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let violated = length(value, of).filter(|length| *length < min);
    if let Some(length) = violated {
        errors.push(path, message("at least", min, length, of));
    }
    violated.is_some()
}

/// Reports `value` if it is a string or array longer than `max`; true if it did.
pub(super) fn check_max(
    value: &Value,
    max: usize,
    of: LengthOf,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let violated = length(value, of).filter(|length| *length > max);
    if let Some(length) = violated {
        errors.push(path, message("at most", max, length, of));
    }
    violated.is_some()
}

fn message(relation: &str, bound: usize, length: usize, of: LengthOf) -> String {
    let (kind, unit) = match (of, bound) {
        (LengthOf::Characters, 1) => ("string", "character"),
        (LengthOf::Characters, _) => ("string", "characters"),
        (LengthOf::Items, 1) => ("array", "item"),
        (LengthOf::Items, _) => ("array", "items"),
    };
    format!("expected {kind} of {relation} {bound} {unit}, got {length}")
}

/// The keywords a length goes into: `minItems`/`maxItems` for an array
/// schema, `minLength`/`maxLength` otherwise.
pub(super) fn keywords(schema: &Map<String, Value>) -> (&'static str, &'static str) {
    if schema.get("type").and_then(Value::as_str) == Some("array") {
        ("minItems", "maxItems")
    } else {
        ("minLength", "maxLength")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lengths_count_characters_and_items() {
        let mut errors = ParseContext::new();
        let path = ParamPath::root();
        check_min(&json!("é"), 2, LengthOf::Characters, &path, &mut errors);
        check_max(&json!([1, 2, 3]), 2, LengthOf::Items, &path, &mut errors);
        check_min(&Value::Null, 2, LengthOf::Characters, &path, &mut errors);
        check_min(&json!(""), 1, LengthOf::Characters, &path, &mut errors);
        assert_eq!(
            errors.into_error().to_string(),
            "arguments: expected string of at least 2 characters, got 1\n\
             arguments: expected array of at most 2 items, got 3\n\
             arguments: expected string of at least 1 character, got 0"
        );
    }
}
