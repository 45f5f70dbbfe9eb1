//! `min` / `max`: numeric bounds, compared exactly as a JSON Schema
//! validator compares them.

use crate::params::describe::Excerpt;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;

/// A number written in an attribute (`min = 1`, `one_of = [0.5]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Bound {
    pub(super) fn to_json(self) -> Value {
        match self {
            Bound::Int(int) => match (i64::try_from(int), u64::try_from(int)) {
                (Ok(signed), _) => Value::from(signed),
                (_, Ok(unsigned)) => Value::from(unsigned),
                _ => Number::from_f64(int as f64).map_or(Value::Null, Value::Number),
            },
            Bound::Float(float) => Number::from_f64(float).map_or(Value::Null, Value::Number),
        }
    }

    fn from_json(number: &Number) -> Bound {
        match (number.as_i64(), number.as_u64()) {
            (Some(signed), _) => Bound::Int(i128::from(signed)),
            (_, Some(unsigned)) => Bound::Int(i128::from(unsigned)),
            _ => Bound::Float(number.as_f64().unwrap_or(f64::NAN)),
        }
    }
}

/// Orders a JSON number against a bound exactly, as a JSON Schema validator
/// does: `1000000000000000001` is above `1e18`, and `0.1` is not above `0.1`
/// even where an `f32` would round it.
pub(super) fn compare(value: &Number, bound: Bound) -> Option<Ordering> {
    let value = Bound::from_json(value);
    match (value, bound) {
        (Bound::Int(a), Bound::Int(b)) => Some(a.cmp(&b)),
        (Bound::Float(a), Bound::Float(b)) => a.partial_cmp(&b),
        (Bound::Int(a), Bound::Float(b)) => compare_int_float(a, b),
        (Bound::Float(a), Bound::Int(b)) => compare_int_float(b, a).map(Ordering::reverse),
    }
}

/// `int` against `float` without rounding either.
fn compare_int_float(int: i128, float: f64) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    // Beyond i128 on either side (2^127 is exactly representable).
    if float >= 2f64.powi(127) {
        return Some(Ordering::Less);
    }
    if float < -(2f64.powi(127)) {
        return Some(Ordering::Greater);
    }
    let whole = float.trunc();
    Some(match int.cmp(&(whole as i128)) {
        Ordering::Equal if float > whole => Ordering::Less,
        Ordering::Equal if float < whole => Ordering::Greater,
        other => other,
    })
}

/// Which end a bound closes.
#[derive(Clone, Copy)]
pub(super) enum Side {
    Min,
    Max,
}

/// Reports `value` if it is a number beyond `bound`; true if it did.
pub(super) fn check(
    value: &Value,
    bound: Bound,
    side: Side,
    integer: bool,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let Value::Number(number) = value else {
        return false;
    };
    let (violation, relation) = match side {
        Side::Min => (Ordering::Less, ">="),
        Side::Max => (Ordering::Greater, "<="),
    };
    let violated = compare(number, bound) == Some(violation);
    if violated {
        let kind = if integer { "integer" } else { "number" };
        errors.push(
            path,
            format_args!(
                "expected {kind} {relation} {}, got {}",
                bound.to_json(),
                Excerpt(value)
            ),
        );
    }
    violated
}

/// Writes `keyword` (`minimum`, `maximum`) into a number schema, keeping the
/// tighter of an existing bound (a `u8`'s 0) and the attribute's.
pub(super) fn tighten(
    schema: &mut Map<String, Value>,
    keyword: &str,
    bound: Bound,
    tighter: Ordering,
) {
    let keep_existing = schema
        .get(keyword)
        .and_then(Value::as_number)
        .is_some_and(|existing| compare(existing, bound).map(Ordering::reverse) != Some(tighter));
    if !keep_existing {
        schema.insert(keyword.to_owned(), bound.to_json());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_tighter_bound() {
        let mut schema = json!({"type": "integer", "minimum": 0, "maximum": 255});
        let map = schema.as_object_mut().unwrap();
        tighten(map, "minimum", Bound::Int(1), Ordering::Greater);
        tighten(map, "maximum", Bound::Int(1000), Ordering::Less);
        assert_eq!(
            schema,
            json!({"type": "integer", "minimum": 1, "maximum": 255})
        );
        let map = schema.as_object_mut().unwrap();
        tighten(map, "minimum", Bound::Float(-0.5), Ordering::Greater);
        assert_eq!(schema["minimum"], json!(1));
    }

    #[test]
    fn compares_numbers_exactly_across_kinds() {
        let number = |value: Value| value.as_number().unwrap().clone();
        let big = number(json!(1_000_000_000_000_000_001u64));
        assert_eq!(compare(&big, Bound::Float(1e18)), Some(Ordering::Greater));
        assert_eq!(
            compare(&number(json!(0.1)), Bound::Float(0.1)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare(&number(json!(2.5)), Bound::Int(2)),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare(&number(json!(-2.5)), Bound::Int(-2)),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare(
                &number(json!(u64::MAX)),
                Bound::Int(i128::from(u64::MAX) - 1)
            ),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare(&number(json!(1e300)), Bound::Int(i128::MAX)),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn checks_report_the_number_as_sent() {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        check(
            &json!(2.0),
            Bound::Float(1.5),
            Side::Max,
            false,
            &root,
            &mut errors,
        );
        check(
            &json!(0),
            Bound::Int(1),
            Side::Min,
            true,
            &root,
            &mut errors,
        );
        check(
            &Value::Null,
            Bound::Int(1),
            Side::Min,
            true,
            &root,
            &mut errors,
        );
        assert_eq!(
            errors.into_error().to_string(),
            "arguments: expected number <= 1.5, got 2.0\narguments: expected integer >= 1, got 0"
        );
    }
}
