//! `Option`, `Vec`, `Box` and string-keyed maps: each delegates to its
//! element type and extends the path (`items[2]`, `tags.color`).

use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;
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

/// Indirection changes nothing about the value: `Box<T>` and `Arc<T>` are
/// `T`.
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

transparent!(Box, Arc);

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

fn map_schema<T: ParamValue>() -> Value {
    json!({"type": "object", "additionalProperties": T::schema()})
}

/// Parses every entry of a JSON object with `T`, collecting into any map.
fn parse_entries<'v, T: ParamValue>(
    value: &'v Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
    mut insert: impl FnMut(&'v str, T),
) -> bool {
    let Value::Object(entries) = value else {
        errors.expected(path, "object", value);
        return false;
    };
    let mut rest = entries.iter();
    for (key, item) in rest.by_ref() {
        match T::parse_value(item, &path.key(key), errors) {
            Some(item) => insert(key, item),
            None => {
                for (key, item) in rest {
                    T::parse_value(item, &path.key(key), errors);
                }
                return false;
            }
        }
    }
    true
}

fn entries_json<'a, T: ParamValue + 'a>(
    entries: impl Iterator<Item = (&'a String, &'a T)>,
) -> Value {
    Value::Object(
        entries
            .map(|(key, item)| (key.clone(), item.to_json()))
            .collect::<Map<String, Value>>(),
    )
}

impl<T: ParamValue> ParamValue for BTreeMap<String, T> {
    fn schema() -> Value {
        map_schema::<T>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let mut parsed = BTreeMap::new();
        parse_entries(value, path, errors, |key, item| {
            parsed.insert(key.to_owned(), item);
        })
        .then_some(parsed)
    }

    fn to_json(&self) -> Value {
        entries_json(self.iter())
    }
}

impl<T: ParamValue, S: BuildHasher + Default> ParamValue for HashMap<String, T, S> {
    fn schema() -> Value {
        map_schema::<T>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let capacity = value.as_object().map_or(0, Map::len);
        let mut parsed = HashMap::with_capacity_and_hasher(capacity, S::default());
        parse_entries(value, path, errors, |key, item| {
            parsed.insert(key.to_owned(), item);
        })
        .then_some(parsed)
    }

    fn to_json(&self) -> Value {
        entries_json(self.iter())
    }
}
