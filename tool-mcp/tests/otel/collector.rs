//! The process's one OpenTelemetry pipeline: tracing-opentelemetry over an
//! SDK tracer whose spans go to an in-memory exporter as each ends, and
//! the W3C propagator, global, as an application sets it. Each test finds
//! its own spans by the trace id of a root span it opens (the tests run in
//! parallel, into the same exporter).

use opentelemetry::trace::{SpanId, SpanKind, TraceId, TracerProvider as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

struct Pipeline {
    exporter: InMemorySpanExporter,
    /// Kept: the tracer exports through it.
    _provider: SdkTracerProvider,
}

static PIPELINE: OnceLock<Pipeline> = OnceLock::new();

/// Installs the pipeline once for the process; every test calls it first.
pub(crate) fn install() {
    PIPELINE.get_or_init(|| {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        // Our crates' spans at info (tool-core's call span, tool-mcp's
        // `tools/call`), and this binary's own; not rmcp's or hyper's.
        let targets = Targets::new()
            .with_target("tool_core", Level::INFO)
            .with_target("tool_mcp", Level::INFO)
            .with_target("otel", Level::INFO);
        tracing_subscriber::registry()
            .with(
                tracing_opentelemetry::layer()
                    .with_tracer(provider.tracer("tool-mcp-tests"))
                    .with_filter(targets),
            )
            .init();
        Pipeline {
            exporter,
            _provider: provider,
        }
    });
}

fn finished() -> Vec<SpanData> {
    PIPELINE
        .get()
        .expect("collector::install() first")
        .exporter
        .get_finished_spans()
        .expect("the in-memory exporter answers")
}

/// The ended spans of `trace` once `ready` holds of them (spans end on
/// other tasks, a little after the answer that the test awaited).
pub(crate) async fn trace(trace: TraceId, ready: impl Fn(&[SpanData]) -> bool) -> Vec<SpanData> {
    let start = Instant::now();
    loop {
        let spans: Vec<SpanData> = finished()
            .into_iter()
            .filter(|span| span.span_context.trace_id() == trace)
            .collect();
        if ready(&spans) {
            return spans;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "trace {trace} not complete within 5 s: {:#?}",
            names(&spans)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The ended spans named `name`, in every trace, once there are `count`.
pub(crate) async fn named(name: &str, count: usize) -> Vec<SpanData> {
    let start = Instant::now();
    loop {
        let spans: Vec<SpanData> = finished()
            .into_iter()
            .filter(|span| span.name == name)
            .collect();
        if spans.len() >= count {
            return spans;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{count} spans {name} not ended within 5 s: {:#?}",
            names(&spans)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Whether a span named `name` is among `spans`.
pub(crate) fn has(spans: &[SpanData], name: &str) -> bool {
    spans.iter().any(|span| span.name == name)
}

/// The one span named `name` (of kind `kind`) in `spans`.
pub(crate) fn one<'a>(spans: &'a [SpanData], name: &str, kind: SpanKind) -> &'a SpanData {
    let found: Vec<&SpanData> = spans
        .iter()
        .filter(|span| span.name == name && span.span_kind == kind)
        .collect();
    assert_eq!(found.len(), 1, "{name} ({kind:?}) in {:#?}", names(spans));
    found[0]
}

/// `leaf`, its parent, the parent's parent... as far as the parents are
/// among `spans`.
pub(crate) fn ancestry<'a>(spans: &'a [SpanData], leaf: &'a SpanData) -> Vec<&'a SpanData> {
    let mut chain = vec![leaf];
    let mut parent = leaf.parent_span_id;
    while parent != SpanId::INVALID {
        let Some(span) = spans
            .iter()
            .find(|span| span.span_context.span_id() == parent)
        else {
            break;
        };
        chain.push(span);
        parent = span.parent_span_id;
    }
    chain
}

/// The names and kinds of `spans`, for a message.
pub(crate) fn names(spans: &[impl std::borrow::Borrow<SpanData>]) -> Vec<String> {
    spans
        .iter()
        .map(|span| {
            let span = span.borrow();
            format!("{} ({:?})", span.name, span.span_kind)
        })
        .collect()
}

/// The string value of `span`'s attribute `key`.
pub(crate) fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|attribute| attribute.key.as_str() == key)
        .map(|attribute| attribute.value.as_str().into_owned())
}
