//! Argument parsing against the alternatives a user would pick, in the same
//! run: serde's derive deserializing the same `&Value` into the same struct,
//! and the `jsonschema` crate validating against the same schema followed by
//! serde; and the error path. `script` is the enum-heavy struct (a list of
//! internally tagged steps). The measured code is `support::variants`, the
//! same the instruction counter and the interleaved harness run. Ratios, not
//! absolute times, are what to read (scripts/bench-ratios.sh).

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use support::variants::{self, find};

fn parse_valid(c: &mut Criterion) {
    let mut variants = variants::all();
    for size in ["small", "medium", "large", "script"] {
        let mut group = c.benchmark_group(format!("parse/{size}"));
        for how in ["tool_core", "serde", "jsonschema_serde"] {
            let variant = find(&mut variants, &format!("{size}/{how}"));
            group.bench_function(BenchmarkId::new(how, size), |b| {
                b.iter_custom(|n| variant.time(n))
            });
        }
        group.finish();
    }
}

fn parse_errors(c: &mut Criterion) {
    let mut variants = variants::all();
    for (args, prefix) in [("medium", "errors"), ("script", "errors_script")] {
        let mut group = c.benchmark_group(format!("errors/{args}"));
        for (id, how) in [
            ("tool_core_all_problems", "tool_core"),
            ("serde_first_error", "serde"),
        ] {
            let variant = find(&mut variants, &format!("{prefix}/{how}"));
            group.bench_function(id, |b| b.iter_custom(|n| variant.time(n)));
        }
        group.finish();
    }
}

criterion_group!(benches, parse_valid, parse_errors);
criterion_main!(benches);
