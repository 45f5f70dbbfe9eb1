//! Fixed-length arrays: `[T; N]` (N items of one type) and tuples (one
//! type per position, JSON Schema's `prefixItems`).

use crate::params::derive_support::{expect_tuple, tuple_schema};
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};

impl<T: ParamValue, const N: usize> ParamValue for [T; N] {
    fn schema() -> Value {
        json!({"type": "array", "items": T::schema(), "minItems": N, "maxItems": N})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        if let Value::Array(items) = value
            && items.len() != N
        {
            let unit = if N == 1 { "item" } else { "items" };
            errors.push(
                path,
                format_args!("expected array of exactly {N} {unit}, got {}", items.len()),
            );
            // The items are still checked, so every problem is reported.
            <Vec<T> as ParamValue>::parse_value(value, path, errors);
            return None;
        }
        let items = <Vec<T> as ParamValue>::parse_value(value, path, errors)?;
        items.try_into().ok()
    }

    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

macro_rules! tuple_param {
    ($length:literal => $($item:ident $index:tt),+) => {
        impl<$($item: ParamValue),+> ParamValue for ($($item,)+) {
            fn schema() -> Value {
                tuple_schema(vec![$($item::schema()),+])
            }

            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                let items = expect_tuple(value, $length, path, errors)?;
                // Every item is parsed before any is unwrapped, so each
                // problem is reported.
                let parsed = ($($item::parse_value(&items[$index], &path.index($index), errors),)+);
                Some(($(parsed.$index?,)+))
            }

            fn to_json(&self) -> Value {
                Value::Array(vec![$(self.$index.to_json()),+])
            }
        }
    };
}

tuple_param!(1 => A 0);
tuple_param!(2 => A 0, B 1);
tuple_param!(3 => A 0, B 1, C 2);
tuple_param!(4 => A 0, B 1, C 2, D 3);
tuple_param!(5 => A 0, B 1, C 2, D 3, E 4);
tuple_param!(6 => A 0, B 1, C 2, D 3, E 4, F 5);
tuple_param!(7 => A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_param!(8 => A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_take_each_position_in_turn() {
        let mut errors = ParseContext::new();
        let parsed = <(String, u8)>::parse_value(
            &json!(["a", 300]),
            &ParamPath::root().field("pair"),
            &mut errors,
        );
        assert_eq!(parsed, None);
        assert_eq!(
            errors.into_error().to_string(),
            "pair[1]: expected integer <= 255, got 300"
        );
        assert_eq!(
            <(String, u8)>::schema(),
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "minimum": 0, "maximum": 255}], "items": false, "minItems": 2})
        );
        let mut errors = ParseContext::new();
        assert_eq!(
            <[u8; 2]>::parse_value(&json!([1, "x", 3]), &ParamPath::root(), &mut errors),
            None
        );
        assert_eq!(
            errors.into_error().to_string(),
            "arguments: expected array of exactly 2 items, got 3\narguments[1]: expected integer, got string \"x\""
        );
        let mut errors = ParseContext::new();
        assert_eq!(
            <[u8; 2]>::parse_value(&json!([1, 2]), &ParamPath::root(), &mut errors),
            Some([1, 2])
        );
    }
}
