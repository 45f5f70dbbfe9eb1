//! Fixed-length arrays whose items each have their own type: tuples, and
//! the tuple variants of an enum.

use super::objects::too_deep;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Map, Value};

/// `{"type":"array","prefixItems":[..],"items":false,"minItems":n}`:
/// exactly these items, in this order.
pub fn tuple_schema(items: Vec<Value>) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "array".into());
    let length = items.len();
    schema.insert("prefixItems".into(), Value::Array(items));
    schema.insert("items".into(), false.into());
    schema.insert("minItems".into(), length.into());
    Value::Object(schema)
}

/// The items of a tuple of `length` items, or a reported problem.
#[inline]
pub fn expect_tuple<'v>(
    value: &'v Value,
    length: usize,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<&'v [Value]> {
    if too_deep(path, errors) {
        return None;
    }
    match value {
        Value::Array(items) if items.len() == length => Some(items),
        Value::Array(items) => {
            let unit = if length == 1 { "item" } else { "items" };
            errors.push(
                path,
                format_args!(
                    "expected array of exactly {length} {unit}, got {}",
                    items.len()
                ),
            );
            None
        }
        other => {
            errors.expected(path, "array", other);
            None
        }
    }
}
