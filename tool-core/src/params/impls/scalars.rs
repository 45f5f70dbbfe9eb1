//! Strings and booleans.

use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};

impl ParamValue for String {
    fn schema() -> Value {
        json!({"type": "string"})
    }

    #[inline]
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        match value {
            Value::String(text) => Some(text.as_str().to_owned()),
            other => expected(path, "string", other, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ParamValue for bool {
    fn schema() -> Value {
        json!({"type": "boolean"})
    }

    #[inline]
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        match value {
            Value::Bool(flag) => Some(*flag),
            other => expected(path, "boolean", other, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

/// The wrong-type report, kept out of line so the happy path stays small.
#[cold]
pub(crate) fn expected<T>(
    path: &ParamPath<'_>,
    what: &str,
    got: &Value,
    errors: &mut ParseContext,
) -> Option<T> {
    errors.expected(path, what, got);
    None
}
