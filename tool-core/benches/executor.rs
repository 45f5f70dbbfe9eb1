//! The executor end to end, against the floor a user cannot go below: from
//! a tool call's JSON line to its serialized result line, versus parsing and
//! serializing the same line with serde_json alone. And batches of 1,000
//! calls, parallel and sequential.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use support::variants::{self, find};
use support::{LINE, echo_registry};
use tool_core::{ExecutionMode, RunOptions, ToolCall, execute_tool_calls};

/// The line bench's code is `support::variants` (`line/...`), the same the
/// instruction counter and the interleaved harness run.
fn end_to_end(c: &mut Criterion) {
    let mut variants = variants::all();
    let mut group = c.benchmark_group("executor/line");
    for (id, name) in [
        ("tool_core", "line/tool_core"),
        ("dynamic", "line/dynamic"),
        ("dynamic_schema", "line/dynamic_schema"),
        ("serde_json_floor", "line/serde_json_floor"),
    ] {
        let variant = find(&mut variants, name);
        group.bench_function(id, |b| b.iter_custom(|n| variant.time(n)));
    }
    group.finish();
}

fn batches(c: &mut Criterion) {
    let tools = echo_registry();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let calls: Vec<ToolCall> = (0..1000)
        .map(|i| serde_json::from_str(&LINE.replace("call-1", &format!("call-{i}"))).unwrap())
        .collect();
    let mut group = c.benchmark_group("executor/batch_1000");
    for (name, mode) in [
        ("parallel", ExecutionMode::Parallel),
        ("sequential", ExecutionMode::Sequential),
    ] {
        group.bench_function(name, |b| {
            b.to_async(&runtime).iter(|| async {
                execute_tool_calls(black_box(&calls), &tools, RunOptions::default(), mode).await
            })
        });
    }
    group.finish();
}

criterion_group!(benches, end_to_end, batches);
criterion_main!(benches);
