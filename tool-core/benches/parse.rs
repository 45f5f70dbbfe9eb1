//! Argument parsing against the alternatives a user would pick, in the same
//! run: serde's derive deserializing the same `&Value` into the same struct,
//! and the `jsonschema` crate validating against the same schema followed by
//! serde; and the error path. The measured code is `support::variants`, the
//! same the instruction counter and the interleaved harness run. Ratios, not
//! absolute times, are what to read (scripts/bench-ratios.sh).

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use support::variants::{self, find};

fn parse_valid(c: &mut Criterion) {
    let mut variants = variants::all();
    for size in ["small", "medium", "large"] {
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
    let mut group = c.benchmark_group("errors/medium");
    for (id, name) in [
        ("tool_core_all_problems", "errors/tool_core"),
        ("serde_first_error", "errors/serde"),
    ] {
        let variant = find(&mut variants, name);
        group.bench_function(id, |b| b.iter_custom(|n| variant.time(n)));
    }
    group.finish();
}

criterion_group!(benches, parse_valid, parse_errors);
criterion_main!(benches);
