//! Types that are strings in JSON: `char` (exactly one code point) and
//! `PathBuf`.

use super::scalars::expected;
use crate::params::describe::Excerpt;
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::path::PathBuf;

impl ParamValue for char {
    fn schema() -> Value {
        json!({"type": "string", "minLength": 1, "maxLength": 1})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let Value::String(text) = value else {
            return expected(path, "string", value, errors);
        };
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(only), None) => Some(only),
            _ => {
                errors.push(
                    path,
                    format_args!(
                        "expected a string of exactly 1 character, got {}",
                        Excerpt(value)
                    ),
                );
                None
            }
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
}

/// A path as the model writes it; whether it is safe to use is the tool's
/// business (see the `read` example tool's sandbox).
impl ParamValue for PathBuf {
    fn schema() -> Value {
        json!({"type": "string"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        match value {
            Value::String(text) => Some(PathBuf::from(text)),
            other => expected(path, "string", other, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.to_string_lossy().into_owned())
    }
}
