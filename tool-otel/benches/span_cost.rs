//! What one tool call's span costs: the span tool-core's executor opens
//! (created, entered, one event, a failure recorded, closed) with no
//! subscriber, with a bare `Registry`, with tracing-opentelemetry's layer
//! alone, with `ToolDurationLayer` alone, and with `tool_otel::layer`
//! (both). What tool-otel adds is `ToolDurationLayer` over the bare
//! registry, or `tool_otel::layer` over tracing-opentelemetry's; the first
//! row is what an application that installs nothing pays.
//!
//! The second group is a whole `echo` call through tool-core's executor
//! (parse, run, result) with no subscriber and with `tool_otel::layer`: the
//! ratio is what exporting costs a real call.
//!
//! `cargo bench -p tool-otel --bench span_cost`

use criterion::{Criterion, criterion_group, criterion_main};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use std::hint::black_box;
use tracing::Dispatch;
use tracing_subscriber::prelude::*;

// The span as tool-core's executor opens it, and a failure recorded as it
// records one: the tests' copy of the span contract, not a second one.
#[path = "../tests/otel/support.rs"]
#[allow(dead_code)]
mod support;

/// One call's span: created, entered, an event, a failure recorded, closed.
fn one_call(tool: &str, id: &str) {
    let span = support::execute_tool_span(tool, id);
    let entered = span.enter();
    tracing::info!(timeout_ms = 5000_u64, "timeout");
    support::fail(&span, "timeout", "the tool ran past its timeout");
    drop(entered);
}

fn span_cost(c: &mut Criterion) {
    // Spans are built and ended; no exporter, so the figure is the layers'
    // work, not a network's. The meter has a reader, or its instruments
    // would record nothing.
    let tracers = SdkTracerProvider::builder().build();
    let meters = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(InMemoryMetricExporter::default()).build())
        .build();
    let meter = meters.meter("bench");

    let mut group = c.benchmark_group("one call's span");
    group.bench_function("no subscriber", |b| {
        b.iter(|| one_call(black_box("echo"), black_box("call_1")))
    });
    let setups = [
        (
            "registry, no layer",
            Dispatch::new(tracing_subscriber::registry()),
        ),
        (
            "tracing-opentelemetry layer",
            Dispatch::new(
                tracing_subscriber::registry()
                    .with(tracing_opentelemetry::layer().with_tracer(tracers.tracer("bench"))),
            ),
        ),
        (
            "ToolDurationLayer alone",
            Dispatch::new(
                tracing_subscriber::registry().with(tool_otel::ToolDurationLayer::new(&meter)),
            ),
        ),
        (
            "tool_otel::layer",
            Dispatch::new(
                tracing_subscriber::registry()
                    .with(tool_otel::layer(tracers.tracer("bench"), &meter)),
            ),
        ),
    ];
    for (name, dispatch) in setups {
        tracing::dispatcher::with_default(&dispatch, || {
            group.bench_function(name, |b| {
                b.iter(|| one_call(black_box("echo"), black_box("call_1")))
            });
        });
    }
    group.finish();
}

/// Echo one value
#[tool_core::tool]
async fn echo(value: String) -> String {
    value
}

fn real_call(c: &mut Criterion) {
    let tracers = SdkTracerProvider::builder().build();
    let meters = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(InMemoryMetricExporter::default()).build())
        .build();
    let mut tools = tool_core::ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    let call = tool_core::ToolCall::new("call_1", "echo", serde_json::json!({"value": "hi"}));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let run = || {
        runtime.block_on(tool_core::execute_tool_call(
            black_box(&call),
            &tools,
            tool_core::RunOptions::new(),
        ))
    };

    let mut group = c.benchmark_group("an echo call through the executor");
    group.bench_function("no subscriber", |b| b.iter(run));
    let exported = Dispatch::new(tracing_subscriber::registry().with(tool_otel::layer(
        tracers.tracer("bench"),
        &meters.meter("bench"),
    )));
    tracing::dispatcher::with_default(&exported, || {
        group.bench_function("tool_otel::layer", |b| b.iter(run));
    });
    group.finish();
}

criterion_group!(benches, span_cost, real_call);
criterion_main!(benches);
