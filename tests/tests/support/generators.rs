//! Number and string generators shared by the property tests that walk
//! derived schemas: `params::agreement` (parse against a JSON Schema
//! validator), `params::fuzz_properties` (the `parse` fuzz target's
//! properties) and `executor::repair_properties`; and the proptest settings
//! and sampling the property tests share.
//!
//! What each file generates from these (its own walk of the schema, its own
//! random JSON) stays in that file: the two differ on purpose (the agreement
//! test must not meet values nested past `MAX_JSON_DEPTH`, which parse refuses
//! and the schema allows).

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union, ValueTree};
use proptest::test_runner::{FileFailurePersistence, TestRunner};
use serde_json::Value;

/// `cases` cases a run; a failure is reported with its minimal input, and
/// no file is written next to the tests.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..ProptestConfig::default()
    }
}

/// `count` values of `strategy`, the same on every run.
pub(crate) fn samples<S: Strategy>(strategy: S, count: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// A strategy for JSON values.
pub(crate) type Gen = BoxedStrategy<Value>;

/// The JSON number `float`, or `null` where JSON has none (NaN, infinities).
pub(crate) fn float_json(float: f64) -> Value {
    serde_json::Number::from_f64(float).map_or(Value::Null, Value::Number)
}

/// An exact JSON integer, or the nearest float when it fits neither `i64`
/// nor `u64`.
pub(crate) fn int_json(int: i128) -> Value {
    match (i64::try_from(int), u64::try_from(int)) {
        (Ok(signed), _) => Value::from(signed),
        (_, Ok(unsigned)) => Value::from(unsigned),
        _ => float_json(int as f64),
    }
}

/// `minimum` and `maximum` of an integer schema, in `i128`: a float bound
/// rounded inwards, a missing one `-1_000_000` or `1_000_000`.
pub(crate) fn integer_bounds(schema: &Value) -> (i128, i128) {
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
pub(crate) fn float_bound(schema: &Value, keyword: &str) -> Option<f64> {
    schema.get(keyword).and_then(Value::as_f64)
}

/// A length bound (`minLength`, `maxItems`, ...) of a schema.
pub(crate) fn length_bound(schema: &Value, keyword: &str) -> Option<usize> {
    schema
        .get(keyword)
        .and_then(Value::as_u64)
        .map(|n| n as usize)
}

/// Characters for strings: ASCII, multi-byte, control characters, quotes,
/// the characters of a path (`.`, `[`) and a newline (which must not break
/// the one-line-per-problem rule).
pub(crate) const CHARS: &[char] = &[
    'a', 'Z', '0', ' ', '.', '[', 'é', 'ß', '中', '😀', '\u{0}', '\n', '"', '\\',
];

/// Strings of [`CHARS`], `lengths` characters long.
pub(crate) fn string_of(lengths: std::ops::RangeInclusive<usize>) -> BoxedStrategy<String> {
    vec(prop::sample::select(CHARS), lengths)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// [`string_of`], as JSON strings.
pub(crate) fn json_string_of(lengths: std::ops::RangeInclusive<usize>) -> Gen {
    string_of(lengths).prop_map(Value::String).boxed()
}

/// Numbers that sit at some integer or float type's edge, or at the edges
/// of the bounds written in `Everything`'s attributes (`-5..=5`,
/// `0.5..=10.0`, `0..=100`, `±1e18`, `max = 1000`, `1..=10`).
pub(crate) fn edge_numbers() -> Vec<Value> {
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

/// The alternatives of an `anyOf` (an option, an untagged enum) or a
/// `oneOf` (a tagged enum).
pub(crate) fn branches(schema: &Value) -> Option<&Vec<Value>> {
    schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)
}

/// The positions of a tuple (`prefixItems`).
pub(crate) fn tuple_items(schema: &Value) -> Option<&Vec<Value>> {
    schema.get("prefixItems").and_then(Value::as_array)
}

/// Valid strings of each format parse checks, and near misses of them.
pub(crate) fn format_samples(format: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match format {
        "date-time" => (
            &[
                "2026-11-30T16:43:18Z",
                "1990-12-31T23:59:60Z",
                "2026-02-28t01:02:03.5+05:30",
                "0001-01-01T00:00:00-00:00",
            ],
            &[
                "2026-11-30 16:43:18Z",
                "2026-13-01T00:00:00Z",
                "2026-11-30T16:43:18",
                "2026-02-29T00:00:00Z",
                "2026-11-30T24:00:00Z",
                "",
            ],
        ),
        "date" => (
            &["2026-11-30", "2024-02-29", "0000-01-01"],
            &[
                "2026-02-29",
                "2026-1-30",
                "26-11-30",
                "2026/11/30",
                "2026-11-30T00:00:00Z",
                "",
            ],
        ),
        "time" => (
            &["16:43:18Z", "23:59:60Z", "01:02:03.123+01:00", "00:00:00z"],
            &[
                "16:43:18",
                "24:00:00Z",
                "16:43Z",
                "16:43:18+1:00",
                "12:00:60Z",
                "",
            ],
        ),
        // A `Duration`'s pattern (fixed units, at most 13 digits a number,
        // seconds alone up to u64::MAX) refuses some valid ones: those are
        // its near misses (see `constrained_string`).
        "duration" => (
            &[
                "P1D",
                "PT2H",
                "P1Y2M3DT4H5M6S",
                "P4W",
                "PT0S",
                "P1M",
                "PT90M",
                "P1DT2H0M5S",
                "P01D",
                "P9999999999999DT23H59M59S",
                "P10000000000000D",
                "PT18446744073709551615S",
                "PT18446744073709551616S",
                "P1DT18446744073709551615S",
            ],
            &[
                "P", "PT", "1D", "P1D2Y", "P1W1D", "PT1D", "", "PT1.5S", "P1DT", "PT1H2S", "p1d",
            ],
        ),
        "email" => (
            &[
                "someone@example.com",
                "a.b+c@d.example",
                "\"quoted\"@example.org",
                "x@[127.0.0.1]",
            ],
            &[
                "someone",
                "@example.com",
                "a@",
                "a b@example.com",
                "a@@example.com",
                "",
            ],
        ),
        "hostname" => (
            &[
                "example.com",
                "a",
                "api.example.com",
                "xn--bcher-kva.example",
                "a-b.c",
            ],
            &[
                "-a.com",
                "a-.com",
                "a..b",
                "a_b.com",
                "example.com.",
                "ab--c.com",
                "",
            ],
        ),
        "ipv4" => (
            &["192.0.2.1", "0.0.0.0", "255.255.255.255"],
            &["256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "::1", ""],
        ),
        "ipv6" => (
            &[
                "::1",
                "2001:db8::1",
                "::",
                "::ffff:192.0.2.1",
                "fe80::1:2:3:4",
            ],
            &["2001:db8:::1", "1::2::3", "192.0.2.1", "g::1", "[::1]", ""],
        ),
        "uuid" => (
            &[
                "123e4567-e89b-12d3-a456-426614174000",
                "00000000-0000-0000-0000-000000000000",
                "ABCDEF01-2345-6789-ABCD-EF0123456789",
            ],
            &[
                "123e4567e89b12d3a456426614174000",
                "123e4567-e89b-12d3-a456-42661417400",
                "g23e4567-e89b-12d3-a456-426614174000",
                "",
            ],
        ),
        "uri" => (
            &[
                "https://example.com/a?b#c",
                "mailto:a@b.c",
                "urn:isbn:0451450523",
                "http://[::1]:80/",
                "x:",
            ],
            &[
                "example.com",
                "/relative/path",
                "http://exa mple.com",
                "http://%zz",
                "://x",
                "",
            ],
        ),
        other => panic!("no samples for format {other:?}"),
    }
}

/// Strings for a string schema with a `format` or a `pattern`: its
/// samples (valid ones, and for a pattern the schema's `examples`), near
/// misses, and random strings; `None` for a plain string schema.
pub(crate) fn constrained_string(schema: &Value, valid_only: bool) -> Option<Gen> {
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        let (valid, invalid) = format_samples(format);
        let (mut valid, mut invalid) = (valid.to_vec(), invalid.to_vec());
        if let Some(pattern) = schema.get("pattern") {
            // A pattern beside the format (a `Duration`'s): the format's
            // samples it refuses are near misses too.
            let judge = key_judge(&serde_json::json!({ "pattern": pattern }));
            let (kept, refused) = valid
                .into_iter()
                .partition(|sample| judge.is_valid(&Value::from(*sample)));
            valid = kept;
            invalid.extend::<Vec<&str>>(refused);
            assert!(!valid.is_empty(), "no sample of {format} matches {pattern}");
        }
        let valid = prop::sample::select(valid).prop_map(Value::from).boxed();
        if valid_only {
            return Some(valid);
        }
        let invalid = prop::sample::select(invalid).prop_map(Value::from).boxed();
        return Some(
            Union::new_weighted(vec![(3, valid), (2, invalid), (1, json_string_of(0..=6))]).boxed(),
        );
    }
    schema.get("pattern")?;
    let examples: Vec<Value> = schema
        .get("examples")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // Without examples, short lowercase words: what simple patterns
    // (`^[a-z]+$`, `^[a-z0-9-]+$`) most often ask for.
    let seeds = if examples.is_empty() {
        let min = length_bound(schema, "minLength").unwrap_or(1);
        let max = length_bound(schema, "maxLength").unwrap_or(min + 4);
        vec(
            prop::sample::select(('a'..='z').collect::<Vec<_>>()),
            min..=max,
        )
        .prop_map(|chars| Value::String(chars.into_iter().collect()))
        .boxed()
    } else {
        prop::sample::select(examples).boxed()
    };
    if valid_only {
        return Some(seeds);
    }
    let pattern_chars = vec!['a', 'z', 'A', '0', '9', '-', '/', ' ', 'é'];
    let near = vec(prop::sample::select(pattern_chars), 0..=5)
        .prop_map(|chars| Value::String(chars.into_iter().collect()))
        .boxed();
    Some(Union::new_weighted(vec![(3, seeds), (3, near), (1, json_string_of(0..=6))]).boxed())
}

/// The alternatives of `schema` (see [`branches`]), each with the `type`
/// that `schema` states beside its `anyOf` when the alternative states
/// none: a signed non-zero integer is `{"type":"integer","anyOf":[{"minimum":
/// MIN,"maximum":-1},{"minimum":1,"maximum":MAX}]}`, whose alternatives
/// alone describe no whole value.
pub(crate) fn whole_branches(schema: &Value) -> Option<Vec<Value>> {
    let branches = branches(schema)?;
    let outer_type = schema.get("type");
    Some(
        branches
            .iter()
            .map(|branch| match (outer_type, branch) {
                (Some(kind), Value::Object(inner)) if !inner.contains_key("type") => {
                    let mut merged = inner.clone();
                    merged.insert("type".into(), kind.clone());
                    Value::Object(merged)
                }
                _ => branch.clone(),
            })
            .collect(),
    )
}

/// A validator of a key schema or a pattern, formats asserted.
fn key_judge(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the key schema compiles")
}

/// Keys for a map whose schema has `propertyNames`: the strings of
/// [`key_pool`] it accepts and those it refuses, judged by the key schema
/// itself; `None` without `propertyNames` (string keys: any key).
pub(crate) fn property_names(schema: &Value) -> Option<(Vec<String>, Vec<String>)> {
    let names = schema.get("propertyNames")?;
    let judge = key_judge(names);
    let (valid, invalid): (Vec<String>, Vec<String>) = key_pool()
        .into_iter()
        .partition(|key| judge.is_valid(&Value::from(key.as_str())));
    assert!(!valid.is_empty(), "no key of the pool matches {names}");
    Some((valid, invalid))
}

/// Candidate map keys: the numerals at and next to every integer type's
/// bounds and near zero, with non-canonical spellings (`+1`, `01`, `-0`,
/// `1.0`, ...); the names of `bool`; characters; UUIDs; IP addresses (the
/// format samples, and an IPv6 address in full and in uppercase, each of
/// an address no other sample names); the cells of `tests::everything::Cell`
/// and near misses; plain words.
///
/// No two keys that a key type accepts name the same value: with IPv6 keys
/// that would be a map parse refuses (a repeated address) and no key schema
/// can state, the one place parse is stricter than `propertyNames`
/// (tested on its own in `params::field_types`).
pub(crate) fn key_pool() -> Vec<String> {
    let mut numbers: Vec<i128> = vec![0, 1, -1, 2, -2, 7, 10, -10, 100];
    for bound in [
        i128::from(i8::MIN),
        i128::from(i8::MAX),
        i128::from(u8::MAX),
        i128::from(i16::MIN),
        i128::from(i16::MAX),
        i128::from(u16::MAX),
        i128::from(i32::MIN),
        i128::from(i32::MAX),
        i128::from(u32::MAX),
        i128::from(i64::MIN),
        i128::from(i64::MAX),
        i128::from(u64::MAX),
    ] {
        numbers.extend((-2..=2).map(|delta| bound + delta));
    }
    let mut keys: Vec<String> = numbers.iter().map(i128::to_string).collect();
    for n in [0, 1, 7, 127, 255, -128] {
        keys.extend([
            format!("+{n}"),
            format!("0{n}"),
            format!("{n}.0"),
            format!(" {n}"),
            format!("{n}e0"),
        ]);
    }
    keys.extend(["-0", "00", "-00", "٣", "１", "0x10", "--1", "-"].map(String::from));
    keys.extend(["true", "false", "True", "FALSE", "1 "].map(String::from));
    keys.extend(["a", "é", "😀", "\u{0}", "ab", "", " "].map(String::from));
    for format in ["uuid", "ipv4", "ipv6"] {
        let (valid, invalid) = format_samples(format);
        keys.extend(valid.iter().chain(invalid).map(|key| key.to_string()));
    }
    keys.extend(
        [
            "0:0:0:0:0:0:0:2",
            "2001:DB8::3",
            "123E4567-e89b-12d3-a456-426614174000",
        ]
        .map(String::from),
    );
    keys.extend(["a1", "h8", "e4", "i9", "A1", "a0", "a10", "e"].map(String::from));
    keys.extend(["key", "with space", "a.b", "[0]"].map(String::from));
    keys.sort();
    keys.dedup();
    keys
}
