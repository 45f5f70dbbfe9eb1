//! `ToolParams::parse` on a struct of every field type.
//!
//! Input bytes that are JSON (`serde_json::from_slice`) are parsed as
//! [`Everything`]'s arguments. The properties:
//!
//! - parse never panics (libFuzzer reports a panic as a crash);
//! - `Ok(v)`: `v` keeps its declared bounds, and `v.to_json()` parses back to
//!   an equal struct whose `to_json()` is the same JSON (floats compare
//!   through their JSON, so `-0.0` and `0.0` differ);
//! - `Err(e)`: at least one problem, at most `MAX_PROBLEMS` kept, each with a
//!   non-empty path and message, and `e.to_string()` is one line per kept
//!   problem (plus `... and N more problems` when some were only counted).
//!
//! The struct is a copy of `Everything` in tests/tests/agreement.rs (every
//! field type and attribute of SPEC's table), with `PartialEq` added.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::num::{NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize};
use tool_core::{MAX_PROBLEMS, ParamValue, ToolParams};

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "kebab-case")]
enum Mode {
    FastPath,
    SlowPath,
    Off,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Integers {
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    isize: isize,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    usize: usize,
}

#[derive(ToolParams, Debug, PartialEq)]
struct NonZeros {
    u8: NonZeroU8,
    u16: NonZeroU16,
    u32: NonZeroU32,
    u64: NonZeroU64,
    usize: NonZeroUsize,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
struct Inner {
    #[param(min_length = 1)]
    display_name: String,
    #[param(min = 1, max = 10)]
    weight: Option<u16>,
    mode: Option<Mode>,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(description = "Every supported field type")]
struct Everything {
    /// Free text
    text: String,
    flag: bool,
    ints: Integers,
    non_zero: Box<NonZeros>,
    f32: f32,
    f64: f64,
    #[param(min = -5, max = 5)]
    small: i32,
    #[param(min = 0.5, max = 10.0)]
    ratio: f64,
    #[param(min = 0, max = 100)]
    percent: f32,
    #[param(min = -1e18, max = 1e18)]
    big: i64,
    #[param(min_length = 2, max_length = 4)]
    code: String,
    #[param(min_length = 1, max_length = 3)]
    tags: Vec<String>,
    #[param(max_length = 5)]
    label: Option<String>,
    #[param(max = 1000)]
    limit: Option<NonZeroU32>,
    bytes: Vec<Option<u8>>,
    inners: Vec<Inner>,
    counts: BTreeMap<String, i32>,
    lookup: HashMap<String, Inner>,
    sparse: HashMap<String, Option<bool>>,
    raw: Value,
    inner: Inner,
    maybe_inner: Option<Inner>,
    maybe_boxed: Box<Option<u32>>,
    #[param(rename = "type")]
    kind: Mode,
    #[param(default = 3)]
    retries: u8,
    #[param(default)]
    verbose: bool,
}

fn inner_in_bounds(inner: &Inner) -> bool {
    inner.display_name.chars().count() >= 1
        && inner.weight.is_none_or(|weight| (1..=10).contains(&weight))
}

/// The declared bounds, on a parsed value.
fn in_bounds(v: &Everything) -> bool {
    (-5..=5).contains(&v.small)
        && (0.5..=10.0).contains(&v.ratio)
        && (0.0..=100.0).contains(&v.percent)
        && (-1e18..=1e18).contains(&(v.big as f64))
        && (2..=4).contains(&v.code.chars().count())
        && (1..=3).contains(&v.tags.len())
        && v.label
            .as_ref()
            .is_none_or(|label| label.chars().count() <= 5)
        && v.limit.is_none_or(|limit| limit.get() <= 1000)
        && v.f32.is_finite()
        && v.f64.is_finite()
        && inner_in_bounds(&v.inner)
        && v.inners.iter().all(inner_in_bounds)
        && v.lookup.values().all(inner_in_bounds)
        && v.maybe_inner.as_ref().is_none_or(inner_in_bounds)
}

fuzz_target!(|data: &[u8]| {
    let Ok(arguments) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    match Everything::parse(&arguments) {
        Ok(parsed) => {
            assert!(in_bounds(&parsed), "out of bounds: {parsed:?}");
            let json = parsed.to_json();
            let again = Everything::parse(&json)
                .unwrap_or_else(|error| panic!("to_json does not parse back: {error}\n{json}"));
            assert_eq!(again, parsed, "to_json parses back to another value");
            assert_eq!(again.to_json(), json, "to_json differs after a round trip");
        }
        Err(error) => {
            let problems = error.problems();
            assert!(!problems.is_empty(), "an error without problems");
            assert!(problems.len() <= MAX_PROBLEMS);
            assert!(error.count() >= problems.len());
            for problem in problems {
                assert!(!problem.path().is_empty(), "empty path: {problem:?}");
                assert!(!problem.message().is_empty(), "empty message: {problem:?}");
            }
            let text = error.to_string();
            let expected = problems.len() + usize::from(error.count() > problems.len());
            assert_eq!(
                text.split('\n').count(),
                expected,
                "not one line per problem: {text:?}"
            );
        }
    }
});
