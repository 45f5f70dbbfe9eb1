//! [`Everything`]: one parameter struct that uses every field type of SPEC's
//! table and every field attribute, shared by the parse/schema agreement
//! test (tests/agreement.rs), the fuzz properties (tests/fuzz_properties.rs)
//! and the `parse` fuzz target (fuzz/fuzz_targets/parse.rs, which includes
//! this file by path), so all three test the same struct.
//!
//! Types covered: `String`, `bool`, `i8`..`i64`, `isize`, `u8`..`u64`,
//! `usize`, `NonZeroU8`..`NonZeroU64`, `NonZeroUsize`, `f32`, `f64`,
//! `Option<T>` (of a scalar, of a struct, of an enum), `Vec<T>` (of strings,
//! of structs, and `Vec<Option<u8>>`, whose items may be null),
//! `BTreeMap<String, T>` and `HashMap<String, T>` (of integers, of structs,
//! of nullable values), `serde_json::Value`, `Box<T>` (of a struct and of an
//! `Option`), a nested struct and a unit-only enum with `rename_all`.
//! Attributes: `min`/`max` (integer and float bounds, on integer and float
//! fields), `min_length`/`max_length` (on a string and an array), `default`
//! and `default = expr`, `rename`, `description` (doc comments), container
//! `rename_all` and `description`.

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::num::{NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize};
use tool_core::{MAX_PROBLEMS, ParamValue, ToolParams};

/// A unit-only enum whose JSON names are kebab-case.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "kebab-case")]
pub enum Mode {
    /// `"fast-path"`
    FastPath,
    /// `"slow-path"`
    SlowPath,
    /// `"off"`
    Off,
}

/// One field of every integer type.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct Integers {
    pub i8: i8,
    pub i16: i16,
    pub i32: i32,
    pub i64: i64,
    pub isize: isize,
    pub u8: u8,
    pub u16: u16,
    pub u32: u32,
    pub u64: u64,
    pub usize: usize,
}

/// One field of every non-zero integer type.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct NonZeros {
    pub u8: NonZeroU8,
    pub u16: NonZeroU16,
    pub u32: NonZeroU32,
    pub u64: NonZeroU64,
    pub usize: NonZeroUsize,
}

/// A nested struct with camelCase names, bounds and optional fields.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Inner {
    #[param(min_length = 1)]
    pub display_name: String,
    // optional
    #[param(min = 1, max = 10)]
    pub weight: Option<u16>,
    // optional
    pub mode: Option<Mode>,
}

/// Every supported field type and attribute (see the module's comment).
#[derive(ToolParams, Debug, PartialEq)]
#[param(description = "Every supported field type")]
#[allow(missing_docs)]
pub struct Everything {
    /// Free text
    pub text: String,
    pub flag: bool,
    pub ints: Integers,
    pub non_zero: Box<NonZeros>,
    pub f32: f32,
    pub f64: f64,
    #[param(min = -5, max = 5)]
    pub small: i32,
    #[param(min = 0.5, max = 10.0)]
    pub ratio: f64,
    #[param(min = 0, max = 100)]
    pub percent: f32,
    #[param(min = -1e18, max = 1e18)]
    pub big: i64,
    #[param(min_length = 2, max_length = 4)]
    pub code: String,
    #[param(min_length = 1, max_length = 3)]
    pub tags: Vec<String>,
    // optional
    #[param(max_length = 5)]
    pub label: Option<String>,
    // optional
    #[param(max = 1000)]
    pub limit: Option<NonZeroU32>,
    pub bytes: Vec<Option<u8>>,
    pub inners: Vec<Inner>,
    pub counts: BTreeMap<String, i32>,
    pub lookup: HashMap<String, Inner>,
    pub sparse: HashMap<String, Option<bool>>,
    pub raw: Value,
    pub inner: Inner,
    // optional
    pub maybe_inner: Option<Inner>,
    // optional
    pub maybe_boxed: Box<Option<u32>>,
    #[param(rename = "type")]
    pub kind: Mode,
    // optional (has a default)
    #[param(default = 3)]
    pub retries: u8,
    // optional (has a default)
    #[param(default)]
    pub verbose: bool,
}

fn inner_in_bounds(inner: &Inner) -> bool {
    inner.display_name.chars().count() >= 1
        && inner.weight.is_none_or(|weight| (1..=10).contains(&weight))
}

/// Whether a parsed value keeps the bounds its attributes declare.
pub fn in_bounds(v: &Everything) -> bool {
    (-5..=5).contains(&v.small)
        && (0.5..=10.0).contains(&v.ratio)
        && (0.0..=100.0).contains(&v.percent)
        // Exactly: `1e18 + 1` as an `f64` would round back into range.
        && (-1_000_000_000_000_000_000..=1_000_000_000_000_000_000).contains(&v.big)
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

/// The properties of `Everything::parse(arguments)`, the ones the fuzz
/// target and its proptest twin check: `Ok(true)` when it parsed, `Ok(false)`
/// when it was refused as it should be, `Err` naming the broken property.
///
/// - `Ok(v)`: `v` keeps its declared bounds, and `v.to_json()` parses back
///   to an equal struct whose `to_json()` is the same JSON (floats compare
///   through their JSON, so `-0.0` and `0.0` differ);
/// - `Err(e)`: at least one problem, at most `MAX_PROBLEMS` kept, each with a
///   non-empty path and message, and `e.to_string()` is one line per kept
///   problem (plus `... and N more problems` when some were only counted).
pub fn check_parse(arguments: &Value) -> Result<bool, String> {
    match Everything::parse(arguments) {
        Ok(parsed) => {
            if !in_bounds(&parsed) {
                return Err(format!("out of bounds: {parsed:?}"));
            }
            let json = parsed.to_json();
            let again = Everything::parse(&json)
                .map_err(|error| format!("to_json does not parse back: {error}\n{json}"))?;
            if again != parsed {
                return Err(format!(
                    "to_json parses back to another value: {again:?} vs {parsed:?}"
                ));
            }
            if again.to_json() != json {
                return Err(format!("to_json differs after a round trip: {json}"));
            }
            Ok(true)
        }
        Err(error) => {
            let problems = error.problems();
            if problems.is_empty() {
                return Err("an error without problems".into());
            }
            if problems.len() > MAX_PROBLEMS || error.count() < problems.len() {
                return Err(format!(
                    "{} problems kept, {} counted, at most {MAX_PROBLEMS} allowed",
                    problems.len(),
                    error.count()
                ));
            }
            if let Some(problem) = problems
                .iter()
                .find(|p| p.path().is_empty() || p.message().is_empty())
            {
                return Err(format!("empty path or message: {problem:?}"));
            }
            let text = error.to_string();
            let expected = problems.len() + usize::from(error.count() > problems.len());
            if text.split('\n').count() != expected {
                return Err(format!("not one line per problem: {text:?}"));
            }
            Ok(false)
        }
    }
}
