//! `#[param(min, max, min_length, max_length)]`: the checks parse runs and
//! the schema keywords that state them, side by side so they agree.
//!
//! Which field types take which attribute is decided by two traits,
//! [`Numeric`] and [`HasLength`]; the derive asserts them at the attribute's
//! span, so `min` on a `String` is a compile error that says why.

use crate::describe::Excerpt;
use crate::{ParamError, ParamPath};
use serde_json::{Map, Number, Value};

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

    fn as_f64(self) -> f64 {
        match self {
            Bound::Int(int) => int as f64,
            Bound::Float(float) => float,
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

/// `Less` when `value` is below `bound`; exact for integers of any width.
fn compare(value: Bound, bound: Bound) -> Option<std::cmp::Ordering> {
    match (value, bound) {
        (Bound::Int(a), Bound::Int(b)) => Some(a.cmp(&b)),
        (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
    }
}

/// A field type `min`/`max` apply to: numbers, and options of numbers.
#[diagnostic::on_unimplemented(
    message = "`min`/`max` apply only to numbers, not to `{Self}`",
    label = "not a number",
    note = "use `min_length`/`max_length` to bound strings and arrays"
)]
pub trait Numeric {
    /// The value to compare, or `None` when there is none (`Option::None`).
    fn numeric(&self) -> Option<Bound>;
}

macro_rules! numeric_int {
    ($($int:ty),*) => {$(
        impl Numeric for $int {
            fn numeric(&self) -> Option<Bound> {
                Some(Bound::Int(*self as i128))
            }
        }
    )*};
}
numeric_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! numeric_non_zero {
    ($($int:ty),*) => {$(
        impl Numeric for $int {
            fn numeric(&self) -> Option<Bound> {
                Some(Bound::Int(self.get() as i128))
            }
        }
    )*};
}
numeric_non_zero!(
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize
);

impl Numeric for f64 {
    fn numeric(&self) -> Option<Bound> {
        Some(Bound::Float(*self))
    }
}

impl Numeric for f32 {
    fn numeric(&self) -> Option<Bound> {
        Some(Bound::Float(f64::from(*self)))
    }
}

impl<T: Numeric> Numeric for Option<T> {
    fn numeric(&self) -> Option<Bound> {
        self.as_ref().and_then(T::numeric)
    }
}

impl<T: Numeric> Numeric for Box<T> {
    fn numeric(&self) -> Option<Bound> {
        T::numeric(self)
    }
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
    /// The length to compare, or `None` when there is none (`Option::None`).
    fn length(&self) -> Option<(usize, LengthOf)>;
}

impl HasLength for String {
    fn length(&self) -> Option<(usize, LengthOf)> {
        Some((self.chars().count(), LengthOf::Characters))
    }
}

impl<T> HasLength for Vec<T> {
    fn length(&self) -> Option<(usize, LengthOf)> {
        Some((self.len(), LengthOf::Items))
    }
}

impl<T: HasLength> HasLength for Option<T> {
    fn length(&self) -> Option<(usize, LengthOf)> {
        self.as_ref().and_then(T::length)
    }
}

impl<T: HasLength> HasLength for Box<T> {
    fn length(&self) -> Option<(usize, LengthOf)> {
        T::length(self)
    }
}

/// Reports `value` (from [`Numeric::numeric`]) if it is below `min`.
pub fn check_min(value: Option<Bound>, min: Bound, path: &ParamPath<'_>, errors: &mut ParamError) {
    check_bound(value, min, std::cmp::Ordering::Less, ">=", path, errors);
}

/// Reports `value` (from [`Numeric::numeric`]) if it is above `max`.
pub fn check_max(value: Option<Bound>, max: Bound, path: &ParamPath<'_>, errors: &mut ParamError) {
    check_bound(value, max, std::cmp::Ordering::Greater, "<=", path, errors);
}

fn check_bound(
    value: Option<Bound>,
    bound: Bound,
    violation: std::cmp::Ordering,
    relation: &str,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) {
    let Some(number) = value else {
        return;
    };
    if compare(number, bound) == Some(violation) {
        let kind = match number {
            Bound::Int(_) => "integer",
            Bound::Float(_) => "number",
        };
        let got = number.to_json();
        errors.push(
            path,
            format_args!(
                "expected {kind} {relation} {}, got {}",
                bound.to_json(),
                Excerpt(&got)
            ),
        );
    }
}

/// Reports `value` (from [`HasLength::length`]) if it is shorter than `min`.
pub fn check_min_length(
    value: Option<(usize, LengthOf)>,
    min: usize,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) {
    if let Some((length, of)) = value
        && length < min
    {
        errors.push(path, length_message("at least", min, length, of));
    }
}

/// Reports `value` (from [`HasLength::length`]) if it is longer than `max`.
pub fn check_max_length(
    value: Option<(usize, LengthOf)>,
    max: usize,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) {
    if let Some((length, of)) = value
        && length > max
    {
        errors.push(path, length_message("at most", max, length, of));
    }
}

fn length_message(relation: &str, bound: usize, length: usize, of: LengthOf) -> String {
    let (kind, unit) = match of {
        LengthOf::Characters => ("string", "characters"),
        LengthOf::Items => ("array", "items"),
    };
    format!("expected {kind} of {relation} {bound} {unit}, got {length}")
}

fn object(schema: &mut Value) -> Option<&mut Map<String, Value>> {
    schema.as_object_mut()
}

/// Adds `"minimum"` to a number schema, keeping the tighter of an existing
/// bound (a `u8`'s 0) and the attribute's.
pub fn apply_min(schema: &mut Value, min: Bound) {
    tighten(schema, "minimum", min, std::cmp::Ordering::Greater);
}

/// Adds `"maximum"`, keeping the tighter bound.
pub fn apply_max(schema: &mut Value, max: Bound) {
    tighten(schema, "maximum", max, std::cmp::Ordering::Less);
}

fn tighten(schema: &mut Value, keyword: &str, bound: Bound, tighter: std::cmp::Ordering) {
    let Some(schema) = object(schema) else {
        return;
    };
    let keep_existing = schema
        .get(keyword)
        .and_then(Value::as_number)
        .is_some_and(|existing| compare(bound, Bound::from_json(existing)) != Some(tighter));
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
    fn compares_wide_integers_exactly() {
        let mut errors = ParamError::new();
        let root = ParamPath::root();
        check_max(
            u64::MAX.numeric(),
            Bound::Int(i128::from(u64::MAX) - 1),
            &root,
            &mut errors,
        );
        assert_eq!(
            errors.to_string(),
            "arguments: expected integer <= 18446744073709551614, got 18446744073709551615"
        );
    }

    #[test]
    fn lengths_count_characters_and_items() {
        let mut errors = ParamError::new();
        let path = ParamPath::root();
        check_min_length("é".to_string().length(), 2, &path, &mut errors);
        check_max_length(vec![1, 2, 3].length(), 2, &path, &mut errors);
        check_min_length(None::<String>.length(), 2, &path, &mut errors);
        assert_eq!(
            errors.to_string(),
            "arguments: expected string of at least 2 characters, got 1\n\
             arguments: expected array of at most 2 items, got 3"
        );
    }
}
