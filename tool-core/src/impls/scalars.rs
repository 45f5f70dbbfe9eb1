//! Strings and booleans.

use crate::{ParamError, ParamPath, ParamValue};
use serde_json::{Value, json};

impl ParamValue for String {
    fn schema() -> Value {
        json!({"type": "string"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParamError) -> Option<Self> {
        match value {
            Value::String(text) => Some(text.clone()),
            other => {
                errors.expected(path, "string", other);
                None
            }
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

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParamError) -> Option<Self> {
        match value {
            Value::Bool(flag) => Some(*flag),
            other => {
                errors.expected(path, "boolean", other);
                None
            }
        }
    }

    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}
