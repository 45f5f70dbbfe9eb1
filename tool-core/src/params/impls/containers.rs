//! `Option`, `Vec`, `Box`, `Rc` and `Arc`: each delegates to its element
//! type, and `Vec` extends the path (`items[2]`). Maps are in `maps`.

use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::rc::Rc;
use std::sync::Arc;

impl<T: ParamValue> ParamValue for Option<T> {
    const OPTIONAL: bool = true;

    /// Wherever `null` can stand in for the value (an array item, a map
    /// value), the schema must admit it too.
    fn schema() -> Value {
        json!({"anyOf": [T::schema(), {"type": "null"}]})
    }

    /// As a field, absence is how an `Option` is left out, so the field shows
    /// `T`'s schema and is not required; `null` is also read as `None` (a
    /// documented leniency: some providers send it for omitted fields).
    fn field_schema() -> Value {
        T::schema()
    }

    #[inline]
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            present => T::parse_value(present, path, errors).map(Some),
        }
    }

    fn when_missing() -> Option<Self> {
        Some(None)
    }

    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
}

/// Indirection changes nothing about the value: `Box<T>`, `Rc<T>` and
/// `Arc<T>` are `T`.
macro_rules! transparent {
    ($($wrapper:ident),*) => {$(
        impl<T: ParamValue> ParamValue for $wrapper<T> {
            const OPTIONAL: bool = T::OPTIONAL;

            fn schema() -> Value {
                T::schema()
            }

            fn field_schema() -> Value {
                T::field_schema()
            }

            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                T::parse_value(value, path, errors).map($wrapper::new)
            }

            fn when_missing() -> Option<Self> {
                T::when_missing().map($wrapper::new)
            }

            fn to_json(&self) -> Value {
                T::to_json(self)
            }
        }
    )*};
}

transparent!(Box, Rc, Arc);

impl<T: ParamValue> ParamValue for Vec<T> {
    fn schema() -> Value {
        json!({"type": "array", "items": T::schema()})
    }

    #[inline]
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let Value::Array(items) = value else {
            errors.expected(path, "array", value);
            return None;
        };
        let mut parsed = Vec::with_capacity(items.len());
        let mut rest = items.iter().enumerate();
        for (index, item) in rest.by_ref() {
            match T::parse_value(item, &path.index(index), errors) {
                Some(item) => parsed.push(item),
                None => {
                    // One item failed: the array will not be returned, but
                    // the rest is still checked, so every problem is reported.
                    for (index, item) in rest {
                        T::parse_value(item, &path.index(index), errors);
                    }
                    return None;
                }
            }
        }
        Some(parsed)
    }

    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}
