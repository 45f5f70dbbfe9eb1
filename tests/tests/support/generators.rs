//! Number and string generators shared by the two property tests that walk
//! `Everything`'s schema: `agreement.rs` (parse against a JSON Schema
//! validator) and `fuzz_properties.rs` (the `parse` fuzz target's
//! properties). Each includes this file with
//! `#[path = "support/generators.rs"] mod generators;`.
//!
//! What each file generates from these (its own walk of the schema, its own
//! random JSON) stays in that file: the two differ on purpose (the agreement
//! test must not meet values nested past `MAX_JSON_DEPTH`, which parse refuses
//! and the schema allows).

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::Value;

/// A strategy for JSON values.
pub type Gen = BoxedStrategy<Value>;

/// The JSON number `float`, or `null` where JSON has none (NaN, infinities).
pub fn float_json(float: f64) -> Value {
    serde_json::Number::from_f64(float).map_or(Value::Null, Value::Number)
}

/// An exact JSON integer, or the nearest float when it fits neither `i64`
/// nor `u64`.
pub fn int_json(int: i128) -> Value {
    match (i64::try_from(int), u64::try_from(int)) {
        (Ok(signed), _) => Value::from(signed),
        (_, Ok(unsigned)) => Value::from(unsigned),
        _ => float_json(int as f64),
    }
}

/// `minimum` and `maximum` of an integer schema, in `i128`: a float bound
/// rounded inwards, a missing one `-1_000_000` or `1_000_000`.
pub fn integer_bounds(schema: &Value) -> (i128, i128) {
    let bound = |keyword: &str, round: fn(f64) -> f64, default: i128| match schema
        .get(keyword)
        .and_then(Value::as_number)
    {
        Some(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(signed), _, _) => i128::from(signed),
            (_, Some(unsigned), _) => i128::from(unsigned),
            (_, _, Some(float)) => round(float) as i128,
            _ => default,
        },
        None => default,
    };
    (
        bound("minimum", f64::ceil, -1_000_000),
        bound("maximum", f64::floor, 1_000_000),
    )
}

/// A float bound (`minimum`, `maximum`) of a number schema.
pub fn float_bound(schema: &Value, keyword: &str) -> Option<f64> {
    schema.get(keyword).and_then(Value::as_f64)
}

/// A length bound (`minLength`, `maxItems`, ...) of a schema.
pub fn length_bound(schema: &Value, keyword: &str) -> Option<usize> {
    schema
        .get(keyword)
        .and_then(Value::as_u64)
        .map(|n| n as usize)
}

/// Characters for strings: ASCII, multi-byte, control characters, quotes,
/// the characters of a path (`.`, `[`) and a newline (which must not break
/// the one-line-per-problem rule).
pub const CHARS: &[char] = &[
    'a', 'Z', '0', ' ', '.', '[', 'é', 'ß', '中', '😀', '\u{0}', '\n', '"', '\\',
];

/// Strings of [`CHARS`], `lengths` characters long.
pub fn string_of(lengths: std::ops::RangeInclusive<usize>) -> BoxedStrategy<String> {
    vec(prop::sample::select(CHARS), lengths)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// [`string_of`], as JSON strings.
pub fn json_string_of(lengths: std::ops::RangeInclusive<usize>) -> Gen {
    string_of(lengths).prop_map(Value::String).boxed()
}

/// Numbers that sit at some integer or float type's edge, or at the edges
/// of the bounds written in `Everything`'s attributes (`-5..=5`,
/// `0.5..=10.0`, `0..=100`, `±1e18`, `max = 1000`, `1..=10`).
pub fn edge_numbers() -> Vec<Value> {
    let mut numbers: Vec<Value> = [
        0i128,
        1,
        -1,
        2,
        -5,
        -6,
        5,
        6,
        10,
        11,
        100,
        101,
        1000,
        1001,
        i128::from(i8::MIN) - 1,
        i128::from(i8::MIN),
        i128::from(i8::MAX),
        i128::from(i8::MAX) + 1,
        i128::from(u8::MAX),
        i128::from(u8::MAX) + 1,
        i128::from(i16::MIN) - 1,
        i128::from(i16::MAX),
        i128::from(i16::MAX) + 1,
        i128::from(u16::MAX),
        i128::from(u16::MAX) + 1,
        i128::from(i32::MIN) - 1,
        i128::from(i32::MIN),
        i128::from(i32::MAX),
        i128::from(i32::MAX) + 1,
        i128::from(u32::MAX),
        i128::from(u32::MAX) + 1,
        i128::from(i64::MIN),
        i128::from(i64::MAX),
        i128::from(i64::MAX) + 1,
        i128::from(u64::MAX) - 1,
        i128::from(u64::MAX),
        1_000_000_000_000_000_000,
        -1_000_000_000_000_000_000,
        1_000_000_000_000_000_001,
    ]
    .into_iter()
    .map(int_json)
    .collect();
    numbers.extend(
        [
            -0.0,
            2.0,
            0.5,
            0.49,
            -0.5,
            2.5,
            10.0,
            10.000001,
            10.01,
            100.0,
            100.5,
            -1e-9,
            1e18,
            -1e18,
            1e19,
            1e20,
            -1e20,
            // 2^63 and 2^64: integral floats just past i64::MAX and u64::MAX;
            // -2^63 is i64::MIN, the next float below it is not an i64.
            9_223_372_036_854_775_808.0,
            -9_223_372_036_854_775_808.0,
            -9_223_372_036_854_777_856.0,
            18_446_744_073_709_551_616.0,
            f64::from(f32::MAX),
            -f64::from(f32::MAX),
            f64::from(f32::MAX).next_up(),
            f64::from(f32::MAX).next_up().next_up(),
            -f64::from(f32::MAX).next_up(),
            3.4028235e38,
            3.4028236e38,
            1e39,
            -1e39,
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            // An f32 subnormal.
            f64::from(f32::MIN_POSITIVE) / 4.0,
            5e-324,
        ]
        .into_iter()
        .map(float_json),
    );
    numbers
}
