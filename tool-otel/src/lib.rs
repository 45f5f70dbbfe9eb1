#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod contract;
mod duration;
mod mcp;
pub mod propagation;

pub use duration::ToolDurationLayer;
pub use mcp::McpMetricsLayer;

use opentelemetry::metrics::Meter;
use opentelemetry::trace::Tracer;
use tracing::Subscriber;
use tracing_opentelemetry::OpenTelemetryLayer;
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Layered;
use tracing_subscriber::registry::LookupSpan;

/// What [`layer`] returns: `tracing_opentelemetry`'s span layer with
/// [`ToolDurationLayer`] on top, a `tracing_subscriber` [`Layer`] for a
/// subscriber `S` exporting through tracer `T`.
pub type ToolTelemetryLayer<S, T> = Layered<ToolDurationLayer, OpenTelemetryLayer<S, T>, S>;

/// The layer that turns tool-core's `execute_tool` spans into OpenTelemetry
/// spans through `tracer` (every other `tracing` span too, as
/// `tracing_opentelemetry` does) and records the
/// `gen_ai.execute_tool.duration` histogram on `meter`.
///
/// The span layer has `tracing_opentelemetry`'s defaults; to change them,
/// build it yourself and add [`ToolDurationLayer`] beside it.
///
/// ```
/// use opentelemetry::metrics::MeterProvider as _;
/// use opentelemetry::trace::TracerProvider as _;
/// use opentelemetry_sdk::{metrics::SdkMeterProvider, trace::{InMemorySpanExporter, SdkTracerProvider}};
/// use tracing_subscriber::prelude::*;
///
/// let exporter = InMemorySpanExporter::default();
/// let tracers = SdkTracerProvider::builder().with_simple_exporter(exporter.clone()).build();
/// let meters = SdkMeterProvider::builder().build();
/// let subscriber = tracing_subscriber::registry()
///     .with(tool_otel::layer(tracers.tracer("my-agent"), &meters.meter("my-agent")));
///
/// tracing::subscriber::with_default(subscriber, || {
///     // What tool-core's executor opens for a call of `echo`.
///     let _call = tracing::info_span!(
///         "execute_tool",
///         otel.name = "execute_tool echo",
///         otel.kind = "internal",
///         gen_ai.operation.name = "execute_tool",
///         gen_ai.tool.name = "echo",
///         gen_ai.tool.call.id = "call_1",
///         gen_ai.tool.type = "function",
///     )
///     .entered();
/// });
///
/// let spans = exporter.get_finished_spans().unwrap();
/// assert_eq!(spans[0].name, "execute_tool echo");
/// ```
pub fn layer<S, T>(tracer: T, meter: &Meter) -> ToolTelemetryLayer<S, T>
where
    S: Subscriber + for<'span> LookupSpan<'span>,
    T: Tracer + 'static,
    T::Span: Send + Sync,
{
    tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .and_then(ToolDurationLayer::new(meter))
}
