//! Argument parsing against the alternatives a user would pick, in the same
//! run: serde's derive deserializing the same `&Value` into the same struct,
//! and the `jsonschema` crate validating against the same schema followed by
//! serde. Ratios, not absolute times, are what to read (scripts/bench-ratios.sh).

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use support::{Large, Medium, Small, large_args, medium_args, medium_bad_args, small_args};
use tool_core::ToolParams;

fn compare<T: ToolParams + DeserializeOwned>(c: &mut Criterion, size: &str, arguments: Value) {
    let validator =
        jsonschema::draft202012::new(&T::json_schema()).expect("the derived schema compiles");
    assert!(T::parse(&arguments).is_ok() && validator.is_valid(&arguments));
    let mut group = c.benchmark_group(format!("parse/{size}"));
    group.bench_with_input(
        BenchmarkId::new("tool_core", size),
        &arguments,
        |b, args| b.iter(|| T::parse(black_box(args)).unwrap()),
    );
    group.bench_with_input(BenchmarkId::new("serde", size), &arguments, |b, args| {
        b.iter(|| T::deserialize(black_box(args)).unwrap())
    });
    group.bench_with_input(
        BenchmarkId::new("jsonschema_serde", size),
        &arguments,
        |b, args| {
            b.iter(|| {
                let args = black_box(args);
                // A validator user checks first, then deserializes.
                if !validator.is_valid(args) {
                    panic!("valid input");
                }
                T::deserialize(args).unwrap()
            })
        },
    );
    group.finish();
}

fn parse_valid(c: &mut Criterion) {
    compare::<Small>(c, "small", small_args());
    compare::<Medium>(c, "medium", medium_args());
    compare::<Large>(c, "large", large_args());
}

fn parse_errors(c: &mut Criterion) {
    let arguments = medium_bad_args();
    let ours = Medium::parse(&arguments).unwrap_err();
    assert_eq!(ours.count(), 3, "{ours}");
    let mut group = c.benchmark_group("errors/medium");
    group.bench_function("tool_core_all_problems", |b| {
        b.iter(|| {
            Medium::parse(black_box(&arguments))
                .unwrap_err()
                .to_string()
        })
    });
    group.bench_function("serde_first_error", |b| {
        b.iter(|| {
            Medium::deserialize(black_box(&arguments))
                .unwrap_err()
                .to_string()
        })
    });
    group.finish();
}

criterion_group!(benches, parse_valid, parse_errors);
criterion_main!(benches);
