//! A subscriber with tool-otel's layer over in-memory exporters, and the
//! span tool-core's executor opens for a call, field for field.

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing::Dispatch;
use tracing::field::Empty;
use tracing_subscriber::prelude::*;

/// One process's telemetry: a tracer and a meter provider whose exports
/// stay in memory, and a subscriber with `tool_otel::layer` over them.
pub(crate) struct Telemetry {
    spans: InMemorySpanExporter,
    metrics: InMemoryMetricExporter,
    tracers: SdkTracerProvider,
    meters: SdkMeterProvider,
    dispatch: Dispatch,
}

impl Telemetry {
    pub(crate) fn new() -> Self {
        Self::with(|layer| Dispatch::new(tracing_subscriber::registry().with(layer)))
    }

    /// `subscriber` puts the layer into a subscriber of its own making.
    pub(crate) fn with(
        subscriber: impl FnOnce(
            tool_otel::ToolTelemetryLayer<
                tracing_subscriber::Registry,
                opentelemetry_sdk::trace::SdkTracer,
            >,
        ) -> Dispatch,
    ) -> Self {
        let spans = InMemorySpanExporter::default();
        let metrics = InMemoryMetricExporter::default();
        let tracers = SdkTracerProvider::builder()
            .with_simple_exporter(spans.clone())
            .build();
        let meters = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(metrics.clone()).build())
            .build();
        let layer = tool_otel::layer(tracers.tracer("tests"), &meters.meter("tests"));
        let dispatch = subscriber(layer);
        Telemetry {
            spans,
            metrics,
            tracers,
            meters,
            dispatch,
        }
    }

    /// Runs `f` with this telemetry's subscriber as the thread's default.
    pub(crate) fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        tracing::dispatcher::with_default(&self.dispatch, f)
    }

    /// The spans ended so far, in the order they ended.
    pub(crate) fn spans(&self) -> Vec<SpanData> {
        self.tracers.force_flush().unwrap();
        self.spans.get_finished_spans().unwrap()
    }

    /// The one span named `name`.
    pub(crate) fn span(&self, name: &str) -> SpanData {
        let mut found: Vec<_> = self
            .spans()
            .into_iter()
            .filter(|s| s.name == name)
            .collect();
        assert_eq!(found.len(), 1, "spans named {name:?}");
        found.remove(0)
    }

    /// The f64 histogram named `name` as it stands now (cumulative), if
    /// anything was recorded into it.
    pub(crate) fn histogram(&self, name: &str) -> Option<HistogramSnapshot> {
        self.metrics.reset();
        self.meters.force_flush().unwrap();
        let exports = self.metrics.get_finished_metrics().unwrap();
        let metric = exports
            .last()?
            .scope_metrics()
            .flat_map(|scope| scope.metrics())
            .find(|metric| metric.name() == name)?;
        let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = metric.data() else {
            panic!("{name} is not a histogram of f64: {:?}", metric.data());
        };
        let mut points: Vec<_> = histogram
            .data_points()
            .map(|point| Point {
                attributes: attribute_text(point.attributes()),
                count: point.count(),
                sum: point.sum(),
                bounds: point.bounds().collect(),
            })
            .collect();
        points.sort_by(|a, b| a.attributes.cmp(&b.attributes));
        Some(HistogramSnapshot {
            unit: metric.unit().to_owned(),
            description: metric.description().to_owned(),
            points,
        })
    }
}

/// A histogram as exported: its unit, description and data points (sorted
/// by attributes).
#[derive(Debug)]
pub(crate) struct HistogramSnapshot {
    pub(crate) unit: String,
    pub(crate) description: String,
    pub(crate) points: Vec<Point>,
}

/// One data point of a histogram.
#[derive(Debug)]
pub(crate) struct Point {
    /// Sorted `key=value` text.
    pub(crate) attributes: Vec<String>,
    pub(crate) count: u64,
    pub(crate) sum: f64,
    pub(crate) bounds: Vec<f64>,
}

/// `attributes` as sorted `key=value` text, to compare whole sets.
fn attribute_text<'a>(attributes: impl IntoIterator<Item = &'a KeyValue>) -> Vec<String> {
    let mut text: Vec<String> = attributes
        .into_iter()
        .map(|kv| format!("{}={}", kv.key, kv.value))
        .collect();
    text.sort();
    text
}

/// The value of attribute `key` of `span`, if it has one.
pub(crate) fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

/// The span tool-core's executor opens for a call of `tool` with id
/// `call_id` (the span contract of issue 24: its name, target and
/// fields). Real calls through tool-core under `tool_otel::layer` are
/// tested in `tests/tests/executor/otel_export.rs`, and across processes
/// in `tool-examples/tests/cli/otlp/`.
pub(crate) fn execute_tool_span(tool: &str, call_id: &str) -> tracing::Span {
    tracing::info_span!(
        target: "tool_core::executor::call_span",
        "execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %tool,
        gen_ai.tool.call.id = %call_id,
        gen_ai.tool.type = "function",
        gen_ai.tool.description = Empty,
        error.type = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
        gen_ai.tool.call.arguments = Empty,
        gen_ai.tool.call.result = Empty,
    )
}

/// Records a failure on a call's span as the executor does.
pub(crate) fn fail(span: &tracing::Span, error_type: &str, cause: &str) {
    span.record("error.type", error_type);
    span.record("otel.status_code", "error");
    span.record("otel.status_description", cause);
}
