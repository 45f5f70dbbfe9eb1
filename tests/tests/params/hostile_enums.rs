//! Hostile arguments for recursive enums: every representation of an enum
//! that holds itself, fed 100,000 levels, and untagged enums whose
//! variants try the same value again (`Neg(Box<Expr>)`), which would
//! otherwise recurse without end or try exponentially many combinations.
//! Each must end quickly in one small error, never a stack overflow.
//!
//! Each case runs in a child process (this test binary, filtered to the
//! test), so a stack overflow, which aborts the whole process, fails only
//! the test that found it.

use serde_json::{Map, Value};
use std::time::{Duration, Instant};
use tool_core::params::{ParamPath, ParamValue, ParseContext};
use tool_core::{ParamError, ToolParams};

const DEEP: usize = 100_000;

fn object(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.into(), value);
    Value::Object(map)
}

/// Wraps `leaf` `depth` times with `wrap`.
fn nest(depth: usize, leaf: Value, wrap: impl Fn(Value) -> Value) -> Value {
    (0..depth).fold(leaf, |inner, _| wrap(inner))
}

/// Internally tagged, recursing through a struct variant's field.
#[derive(ToolParams, Debug)]
#[param(tag = "t")]
#[allow(dead_code)]
enum Internal {
    Leaf,
    Node { child: Box<Internal> },
}

/// Adjacently tagged, recursing through a newtype's content.
#[derive(ToolParams, Debug)]
#[param(tag = "t", content = "c")]
#[allow(dead_code)]
enum Adjacent {
    Leaf,
    Node(Box<Adjacent>),
}

/// Externally tagged, recursing through a newtype and a tuple.
#[derive(ToolParams, Debug)]
#[allow(dead_code)]
enum External {
    Leaf,
    Wrap(Box<External>),
    Pair(Box<External>, u8),
}

/// Untagged, whose second variant tries the same value again.
#[derive(ToolParams, Debug)]
#[param(untagged)]
#[allow(dead_code)]
enum Expr {
    Num(f64),
    Neg(Box<Expr>),
}

/// Untagged, two variants trying the same value again: 2^depth tries
/// without a budget. (`Right` differs from `Left` by `null` alone: the
/// derive refuses a variant an earlier one always wins over.)
#[derive(ToolParams, Debug)]
#[param(untagged)]
#[allow(dead_code)]
enum Twice {
    Leaf(u8),
    Left(Box<Twice>),
    Right(Box<Option<Twice>>),
}

/// Untagged, recursing through a list.
#[derive(ToolParams, Debug)]
#[param(untagged)]
#[allow(dead_code)]
enum Tree {
    Leaf(u8),
    Branch(Vec<Tree>),
}

fn parse_root<T: ParamValue>(value: &Value) -> ParamError {
    let mut errors = ParseContext::new();
    let parsed = T::parse_value(value, &ParamPath::root(), &mut errors);
    assert!(
        parsed.is_none() && !errors.is_empty(),
        "parsed without an error"
    );
    errors.into_error()
}

/// Runs `body` in a child process filtered to `test`, bounded in time.
fn in_child_process(test: &str, body: impl FnOnce()) {
    let started = Instant::now();
    crate::support::child_process::in_child_process(module_path!(), test, body);
    // Not a timing assertion on the library: a generous bound that an
    // exponential search (2^128 tries) could never meet.
    assert!(started.elapsed() < Duration::from_secs(120));
}

/// The error of a value nested past the limit: small, and saying so.
fn one_nesting_error(errors: &ParamError) {
    let text = errors.to_string();
    assert!(text.len() < 8192, "{text:.300}");
    assert!(text.ends_with("nest deeper than 128 levels"), "{text:.500}");
}

/// The error of an untagged value no variant takes: small, naming the
/// variants tried (where the tries stopped, deep down, the closest
/// variant's problems say), or saying the tries ran out.
fn no_variant_error(errors: &ParamError) {
    let text = errors.to_string();
    assert!(text.len() < 8192, "{text:.300}");
    assert!(errors.problems().len() <= tool_core::params::MAX_PROBLEMS);
    assert!(
        text.starts_with("arguments: matches none of the variants")
            || text.starts_with("arguments: too many alternatives to try"),
        "{text:.500}"
    );
}

#[test]
fn tagged_enums_nested_100_000_deep_stop_at_the_nesting_limit() {
    in_child_process(
        "tagged_enums_nested_100_000_deep_stop_at_the_nesting_limit",
        || {
            let internal = nest(DEEP, object("t", "Leaf".into()), |inner| {
                let mut map = Map::new();
                map.insert("t".into(), "Node".into());
                map.insert("child".into(), inner);
                Value::Object(map)
            });
            let errors = Internal::parse(&internal).unwrap_err();
            std::mem::forget(internal);
            one_nesting_error(&errors);

            let adjacent = nest(DEEP, object("t", "Leaf".into()), |inner| {
                let mut map = Map::new();
                map.insert("t".into(), "Node".into());
                map.insert("c".into(), inner);
                Value::Object(map)
            });
            let errors = Adjacent::parse(&adjacent).unwrap_err();
            std::mem::forget(adjacent);
            one_nesting_error(&errors);

            let wrapped = nest(DEEP, "Leaf".into(), |inner| object("Wrap", inner));
            let errors = parse_root::<External>(&wrapped);
            std::mem::forget(wrapped);
            one_nesting_error(&errors);

            let pairs = nest(DEEP, "Leaf".into(), |inner| {
                object("Pair", Value::Array(vec![inner, 1.into()]))
            });
            let errors = parse_root::<External>(&pairs);
            std::mem::forget(pairs);
            one_nesting_error(&errors);
        },
    );
}

#[test]
fn an_untagged_variant_that_retries_its_own_enum_stops() {
    in_child_process(
        "an_untagged_variant_that_retries_its_own_enum_stops",
        || {
            // `Neg(Box<Expr>)` parses the very same value again, at the same
            // path: only the limit on nested tries ends it.
            no_variant_error(&parse_root::<Expr>(&"x".into()));
            // Two such variants: each level tries both, 2^128 tries unbounded.
            no_variant_error(&parse_root::<Twice>(&"x".into()));
            // A value that does parse still does.
            let mut errors = ParseContext::new();
            assert!(Expr::parse_value(&2.5.into(), &ParamPath::root(), &mut errors).is_some());
        },
    );
}

#[test]
fn an_untagged_tree_nested_100_000_deep_stops() {
    in_child_process("an_untagged_tree_nested_100_000_deep_stops", || {
        let tree = nest(DEEP, Value::from(1), |inner| Value::Array(vec![inner]));
        let errors = parse_root::<Tree>(&tree);
        std::mem::forget(tree);
        no_variant_error(&errors);
        // Within the limits, it parses.
        let shallow = nest(40, Value::from(1), |inner| Value::Array(vec![inner]));
        let mut errors = ParseContext::new();
        assert!(Tree::parse_value(&shallow, &ParamPath::root(), &mut errors).is_some());
    });
}
