//! Integers, non-zero integers and floats. Each schema states the bounds its
//! parser enforces, so a model is never told a value is fine that parse
//! then rejects (`300` for a `u8`). A signed non-zero integer's range has a
//! hole at zero, stated as two ranges in `anyOf` (plain `minimum` and
//! `maximum`, which every provider's format keeps or reports), not as
//! `not`, which few providers take.

use crate::params::describe::Excerpt;
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Map, Number, Value};
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroIsize, NonZeroU8, NonZeroU16, NonZeroU32,
    NonZeroU64, NonZeroUsize,
};

/// Reads an integral JSON number in `min..=max`. `2.0` is the integer 2, as
/// JSON Schema's `integer` type says; `2.5` is not an integer.
///
/// Inlined with constant bounds, the common case (an integer in range) is a
/// couple of comparisons; everything else goes to the out-of-line path.
#[inline]
fn integer_in_range(
    value: &Value,
    min: i128,
    max: i128,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<i128> {
    if let Value::Number(number) = value {
        if let Some(unsigned) = number.as_u64() {
            let integer = i128::from(unsigned);
            if integer >= min && integer <= max {
                return Some(integer);
            }
        } else if let Some(signed) = number.as_i64() {
            let integer = i128::from(signed);
            if integer >= min && integer <= max {
                return Some(integer);
            }
        }
    }
    integer_slow(value, min, max, path, errors)
}

/// Floats, values out of range, and everything that is no integer.
#[cold]
fn integer_slow(
    value: &Value,
    min: i128,
    max: i128,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<i128> {
    let Value::Number(number) = value else {
        errors.expected(path, "integer", value);
        return None;
    };
    let integer = if let Some(unsigned) = number.as_u64() {
        i128::from(unsigned)
    } else if let Some(signed) = number.as_i64() {
        i128::from(signed)
    } else {
        let float = number.as_f64().unwrap_or(f64::NAN);
        if !float.is_finite() || float.fract() != 0.0 {
            errors.expected(path, "integer", value);
            return None;
        }
        // Saturates, so integral floats beyond i128 still fail the range check.
        float as i128
    };
    if integer < min {
        errors.push(
            path,
            format_args!("expected integer >= {min}, got {}", Excerpt(value)),
        );
        None
    } else if integer > max {
        errors.push(
            path,
            format_args!("expected integer <= {max}, got {}", Excerpt(value)),
        );
        None
    } else {
        Some(integer)
    }
}

/// An `i128` bound as a JSON number (every bound here fits `i64` or `u64`).
fn bound_json(bound: i128) -> Value {
    match (i64::try_from(bound), u64::try_from(bound)) {
        (Ok(signed), _) => Value::from(signed),
        (_, Ok(unsigned)) => Value::from(unsigned),
        _ => Value::from(bound as f64),
    }
}

fn integer_schema(min: i128, max: i128) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "integer".into());
    schema.insert("minimum".into(), bound_json(min));
    schema.insert("maximum".into(), bound_json(max));
    Value::Object(schema)
}

macro_rules! integer_param {
    ($($int:ty),* $(,)?) => {$(
        impl ParamValue for $int {
            fn schema() -> Value {
                integer_schema(<$int>::MIN as i128, <$int>::MAX as i128)
            }

            #[inline]
            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                let integer =
                    integer_in_range(value, <$int>::MIN as i128, <$int>::MAX as i128, path, errors)?;
                // In range, so the conversion cannot fail.
                <$int>::try_from(integer).ok()
            }

            fn to_json(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

integer_param!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! non_zero_param {
    ($($non_zero:ty => $int:ty),* $(,)?) => {$(
        impl ParamValue for $non_zero {
            fn schema() -> Value {
                integer_schema(1, <$int>::MAX as i128)
            }

            #[inline]
            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                let integer = integer_in_range(value, 1, <$int>::MAX as i128, path, errors)?;
                <$int>::try_from(integer).ok().and_then(<$non_zero>::new)
            }

            fn to_json(&self) -> Value {
                Value::from(self.get())
            }
        }
    )*};
}

non_zero_param!(
    NonZeroU8 => u8,
    NonZeroU16 => u16,
    NonZeroU32 => u32,
    NonZeroU64 => u64,
    NonZeroUsize => usize,
);

/// `{"type":"integer","anyOf":[{"minimum":min,"maximum":-1},{"minimum":1,"maximum":max}]}`.
fn signed_non_zero_schema(min: i128, max: i128) -> Value {
    let range = |min: i128, max: i128| {
        let mut range = Map::new();
        range.insert("minimum".into(), bound_json(min));
        range.insert("maximum".into(), bound_json(max));
        Value::Object(range)
    };
    let mut schema = Map::new();
    schema.insert("type".into(), "integer".into());
    schema.insert(
        "anyOf".into(),
        Value::Array(vec![range(min, -1), range(1, max)]),
    );
    Value::Object(schema)
}

/// Zero where a non-zero integer is expected (`0`, `0.0`, `-0.0`).
#[cold]
fn zero<T>(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<T> {
    errors.push(
        path,
        format_args!("expected a non-zero integer, got {}", Excerpt(value)),
    );
    None
}

macro_rules! signed_non_zero_param {
    ($($non_zero:ty => $int:ty),* $(,)?) => {$(
        impl ParamValue for $non_zero {
            fn schema() -> Value {
                signed_non_zero_schema(<$int>::MIN as i128, <$int>::MAX as i128)
            }

            #[inline]
            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                let integer =
                    integer_in_range(value, <$int>::MIN as i128, <$int>::MAX as i128, path, errors)?;
                if integer == 0 {
                    return zero(value, path, errors);
                }
                <$int>::try_from(integer).ok().and_then(<$non_zero>::new)
            }

            fn to_json(&self) -> Value {
                Value::from(self.get())
            }
        }
    )*};
}

signed_non_zero_param!(
    NonZeroI8 => i8,
    NonZeroI16 => i16,
    NonZeroI32 => i32,
    NonZeroI64 => i64,
    NonZeroIsize => isize,
);

#[inline]
fn number(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<f64> {
    match value {
        // Without serde_json's arbitrary_precision every number is an f64 at worst.
        Value::Number(number) => number.as_f64(),
        other => super::scalars::expected(path, "number", other, errors),
    }
}

impl ParamValue for f64 {
    fn schema() -> Value {
        serde_json::json!({"type": "number"})
    }

    #[inline]
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        number(value, path, errors)
    }

    fn to_json(&self) -> Value {
        Number::from_f64(*self).map_or(Value::Null, Value::Number)
    }
}

impl ParamValue for f32 {
    fn schema() -> Value {
        let limit = f64::from(f32::MAX);
        serde_json::json!({"type": "number", "minimum": -limit, "maximum": limit})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let wide = number(value, path, errors)?;
        let limit = f64::from(f32::MAX);
        if wide.abs() > limit {
            let bound = if wide > 0.0 { "<=" } else { ">=" };
            let limit = if wide > 0.0 { limit } else { -limit };
            errors.push(
                path,
                format_args!(
                    "expected number {bound} {}, got {}",
                    Value::from(limit),
                    Excerpt(value)
                ),
            );
            return None;
        }
        Some(wide as f32)
    }

    fn to_json(&self) -> Value {
        Number::from_f64(f64::from(*self)).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse<T: ParamValue>(value: Value) -> Result<T, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("step");
        T::parse_value(&value, &path, &mut errors).ok_or_else(|| errors.into_error().to_string())
    }

    #[test]
    fn signed_non_zero_integers_skip_zero() {
        assert_eq!(parse::<NonZeroI8>(json!(-128)).unwrap().get(), -128);
        assert_eq!(parse::<NonZeroI8>(json!(127.0)).unwrap().get(), 127);
        assert_eq!(
            parse::<NonZeroI64>(json!(i64::MIN)).unwrap().get(),
            i64::MIN
        );
        for zero in [json!(0), json!(0.0), json!(-0.0)] {
            assert_eq!(
                parse::<NonZeroI32>(zero.clone()).unwrap_err(),
                format!("step: expected a non-zero integer, got {zero}")
            );
        }
        assert_eq!(
            parse::<NonZeroI8>(json!(-129)).unwrap_err(),
            "step: expected integer >= -128, got -129"
        );
        assert_eq!(
            parse::<NonZeroI16>(json!(0.5)).unwrap_err(),
            "step: expected integer, got number 0.5"
        );
        assert_eq!(
            NonZeroI8::schema(),
            json!({"type": "integer", "anyOf": [{"minimum": -128, "maximum": -1}, {"minimum": 1, "maximum": 127}]})
        );
        assert_eq!(NonZeroIsize::new(-5).unwrap().to_json(), json!(-5));
    }
}
