//! `#[param(min, max, min_length, max_length)]`: the checks parse runs and
//! the schema keywords that state them, side by side so they agree.
//!
//! Which field types take which attribute is decided by two traits,
//! [`Numeric`] and [`HasLength`]; the derive asserts them at the attribute's
//! span, so `min` on a `String` is a compile error that says why.

use crate::params::describe::Excerpt;
use crate::{ParamError, ParamPath};
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;

/// A bound written in a `min`/`max` attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Bound {
    fn to_json(self) -> Value {
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
fn compare(value: &Number, bound: Bound) -> Option<Ordering> {
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

/// A field type `min`/`max` apply to: numbers, and options of numbers.
#[diagnostic::on_unimplemented(
    message = "`min`/`max` apply only to numbers, not to `{Self}`",
    label = "not a number",
    note = "use `min_length`/`max_length` to bound strings and arrays"
)]
pub trait Numeric {
    /// Whether the number is an integer, which error messages say.
    const INTEGER: bool;
}

macro_rules! numeric {
    ($integer:expr => $($number:ty),*) => {$(
        impl Numeric for $number {
            const INTEGER: bool = $integer;
        }
    )*};
}
numeric!(true => i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
numeric!(true =>
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize
);
numeric!(false => f32, f64);

impl<T: Numeric> Numeric for Option<T> {
    const INTEGER: bool = T::INTEGER;
}

impl<T: Numeric> Numeric for Box<T> {
    const INTEGER: bool = T::INTEGER;
}

/// What a length counts: characters of a string or items of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthOf {
    /// Unicode scalar values, as JSON Schema's `minLength` counts them.
    Characters,
    /// Array items.
    Items,
}

/// A field type `min_length`/`max_length` apply to: strings, arrays, and
/// options of them.
#[diagnostic::on_unimplemented(
    message = "`min_length`/`max_length` apply only to strings and arrays, not to `{Self}`",
    label = "not a string or an array",
    note = "use `min`/`max` to bound numbers"
)]
pub trait HasLength {
    /// What the length counts.
    const LENGTH_OF: LengthOf;
}

impl HasLength for String {
    const LENGTH_OF: LengthOf = LengthOf::Characters;
}

impl<T> HasLength for Vec<T> {
    const LENGTH_OF: LengthOf = LengthOf::Items;
}

impl<T: HasLength> HasLength for Option<T> {
    const LENGTH_OF: LengthOf = T::LENGTH_OF;
}

impl<T: HasLength> HasLength for Box<T> {
    const LENGTH_OF: LengthOf = T::LENGTH_OF;
}

// The checks read the JSON the model sent, not the parsed value: that is
// what the schema's `minimum`/`minLength` judge, so parse and schema agree
// even where parsing rounds (an `f32`). They run only on values that parsed,
// and pass over `null` (an absent option).

/// Reports `value` if it is a number below `min`; true if it did.
pub fn check_min(
    value: &Value,
    min: Bound,
    integer: bool,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    check_bound(value, min, Ordering::Less, ">=", integer, path, errors)
}

/// Reports `value` if it is a number above `max`; true if it did.
pub fn check_max(
    value: &Value,
    max: Bound,
    integer: bool,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    check_bound(value, max, Ordering::Greater, "<=", integer, path, errors)
}

fn check_bound(
    value: &Value,
    bound: Bound,
    violation: Ordering,
    relation: &str,
    integer: bool,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    let Value::Number(number) = value else {
        return false;
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

fn length(value: &Value, of: LengthOf) -> Option<usize> {
    match (value, of) {
        (Value::String(text), LengthOf::Characters) => Some(text.chars().count()),
        (Value::Array(items), LengthOf::Items) => Some(items.len()),
        _ => None,
    }
}

/// Reports `value` if it is a string or array shorter than `min`; true if it did.
pub fn check_min_length(
    value: &Value,
    min: usize,
    of: LengthOf,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    let violated = length(value, of).filter(|length| *length < min);
    if let Some(length) = violated {
        errors.push(path, length_message("at least", min, length, of));
    }
    violated.is_some()
}

/// Reports `value` if it is a string or array longer than `max`; true if it did.
pub fn check_max_length(
    value: &Value,
    max: usize,
    of: LengthOf,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    let violated = length(value, of).filter(|length| *length > max);
    if let Some(length) = violated {
        errors.push(path, length_message("at most", max, length, of));
    }
    violated.is_some()
}

fn length_message(relation: &str, bound: usize, length: usize, of: LengthOf) -> String {
    let (kind, unit) = match (of, bound) {
        (LengthOf::Characters, 1) => ("string", "character"),
        (LengthOf::Characters, _) => ("string", "characters"),
        (LengthOf::Items, 1) => ("array", "item"),
        (LengthOf::Items, _) => ("array", "items"),
    };
    format!("expected {kind} of {relation} {bound} {unit}, got {length}")
}

fn object(schema: &mut Value) -> Option<&mut Map<String, Value>> {
    schema.as_object_mut()
}

/// Adds `"minimum"` to a number schema, keeping the tighter of an existing
/// bound (a `u8`'s 0) and the attribute's.
pub fn apply_min(schema: &mut Value, min: Bound) {
    tighten(schema, "minimum", min, Ordering::Greater);
}

/// Adds `"maximum"`, keeping the tighter bound.
pub fn apply_max(schema: &mut Value, max: Bound) {
    tighten(schema, "maximum", max, Ordering::Less);
}

fn tighten(schema: &mut Value, keyword: &str, bound: Bound, tighter: std::cmp::Ordering) {
    let Some(schema) = object(schema) else {
        return;
    };
    let keep_existing = schema
        .get(keyword)
        .and_then(Value::as_number)
        .is_some_and(|existing| compare(existing, bound).map(Ordering::reverse) != Some(tighter));
    if !keep_existing {
        schema.insert(keyword.to_owned(), bound.to_json());
    }
}

/// Adds `"minLength"` to a string schema or `"minItems"` to an array schema.
pub fn apply_min_length(schema: &mut Value, min: usize) {
    apply_length(schema, "minLength", "minItems", min);
}

/// Adds `"maxLength"` to a string schema or `"maxItems"` to an array schema.
pub fn apply_max_length(schema: &mut Value, max: usize) {
    apply_length(schema, "maxLength", "maxItems", max);
}

fn apply_length(schema: &mut Value, for_string: &str, for_array: &str, bound: usize) {
    let Some(schema) = object(schema) else {
        return;
    };
    let keyword = if schema.get("type").and_then(Value::as_str) == Some("array") {
        for_array
    } else {
        for_string
    };
    schema.insert(keyword.to_owned(), Value::from(bound));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_the_tighter_bound() {
        let mut schema = json!({"type": "integer", "minimum": 0, "maximum": 255});
        apply_min(&mut schema, Bound::Int(1));
        apply_max(&mut schema, Bound::Int(1000));
        assert_eq!(
            schema,
            json!({"type": "integer", "minimum": 1, "maximum": 255})
        );
        apply_min(&mut schema, Bound::Float(-0.5));
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
        let mut errors = ParamError::new();
        let root = ParamPath::root();
        check_max(&json!(2.0), Bound::Float(1.5), false, &root, &mut errors);
        check_min(&json!(0), Bound::Int(1), true, &root, &mut errors);
        check_min(&Value::Null, Bound::Int(1), true, &root, &mut errors);
        assert_eq!(
            errors.to_string(),
            "arguments: expected number <= 1.5, got 2.0\narguments: expected integer >= 1, got 0"
        );
    }

    #[test]
    fn lengths_count_characters_and_items() {
        let mut errors = ParamError::new();
        let path = ParamPath::root();
        check_min_length(&json!("é"), 2, LengthOf::Characters, &path, &mut errors);
        check_max_length(&json!([1, 2, 3]), 2, LengthOf::Items, &path, &mut errors);
        check_min_length(&Value::Null, 2, LengthOf::Characters, &path, &mut errors);
        check_min_length(&json!(""), 1, LengthOf::Characters, &path, &mut errors);
        assert_eq!(
            errors.to_string(),
            "arguments: expected string of at least 2 characters, got 1\n\
             arguments: expected array of at most 2 items, got 3\n\
             arguments: expected string of at least 1 character, got 0"
        );
    }
}
