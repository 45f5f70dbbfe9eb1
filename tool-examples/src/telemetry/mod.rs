//! `--otlp-endpoint`: the binary's tool calls as OpenTelemetry traces and
//! metrics, sent to a collector with OTLP over HTTP/protobuf.
//!
//! What goes out is what [`tool_otel::layer`] makes of the spans tool-core
//! and tool-mcp open: `execute_tool {tool}` for every call, `tools/call
//! {tool}` around every MCP request (client and server side), and the
//! `gen_ai.execute_tool.duration` histogram; and what
//! [`tool_otel::McpMetricsLayer`] makes of tool-mcp's spans and audit
//! events: the MCP operations' durations, HTTP responses by status,
//! sessions open, calls in flight, credentials refused. The W3C trace
//! context travels in MCP's `_meta` (tool-mcp's `otel` feature) with the
//! propagator set here, so a call through an upstream is one trace across
//! both processes.

mod endpoint;
mod reported;

pub use endpoint::{ENDPOINT_VARIABLE, Endpoints, Signal};

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use reported::Reported;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tracing_subscriber::filter::{FilterExt, LevelFilter, Targets, filter_fn};
use tracing_subscriber::{Layer, Registry};

/// The service name the resource gets when neither `OTEL_SERVICE_NAME` nor
/// `OTEL_RESOURCE_ATTRIBUTES` names one, instead of the SDK's
/// `unknown_service`.
pub const SERVICE_NAME: &str = "tool-examples";

/// The crates whose spans are exported, whatever `RUST_LOG` says: the log
/// filter decides what is printed, not what a collector receives.
/// tool-core opens `execute_tool`, tool-mcp `tools/call`; the dependencies'
/// own spans (hyper, rmcp) would only bury them.
const EXPORTED_TARGETS: [&str; 3] = ["tool_core", "tool_mcp", "tool_examples"];

/// Of those, only the spans that name themselves for OpenTelemetry (an
/// `otel.name` field: the calls' spans, which follow the conventions) are
/// exported. The others are for the logs: above all `mcp_session`, which
/// lasts as long as a stdio client and would make every call of the
/// session one trace hours long, where each call (or the trace its client
/// sent in `_meta`) should be its own.
fn follows_the_conventions(metadata: &tracing::Metadata<'_>) -> bool {
    !metadata.is_span() || metadata.fields().field("otel.name").is_some()
}

/// What [`tool_otel::McpMetricsLayer`] is shown: tool-mcp's operation
/// spans, tool-core's `execute_tool` spans (an imported tool's is the MCP
/// client's operation), tool-mcp's audit events, and the span its HTTP gate opens
/// around each request, which is at debug so that the logs show it only
/// when asked (a filter per layer: `RUST_LOG` still decides the logs).
/// Nothing else, so that the debug lines of tool-mcp cost this layer no
/// more than a cached "never".
fn makes_mcp_metrics(metadata: &tracing::Metadata<'_>) -> bool {
    let target = metadata.target();
    let in_tool_mcp = target == "tool_mcp" || target.starts_with("tool_mcp::");
    let level = *metadata.level();
    // tool-core's `execute_tool`: an imported tool's carries the MCP
    // client's attributes (the client's operation duration).
    let tool_execution = target.starts_with("tool_core") && metadata.name() == "execute_tool";
    if metadata.is_span() {
        (in_tool_mcp || tool_execution)
            && ((metadata.name() == "mcp_http" && level <= tracing::Level::DEBUG)
                || (level <= tracing::Level::INFO && follows_the_conventions(metadata)))
    } else {
        target == "tool_mcp::audit" && level <= tracing::Level::INFO
    }
}

/// The exporting pipeline of this process: its tracer and meter
/// providers, which [`shutdown`](Self::shutdown) flushes.
#[derive(Debug)]
pub struct Telemetry {
    tracers: SdkTracerProvider,
    meters: SdkMeterProvider,
    /// Whether the last export of traces, and of metrics, failed (and was
    /// reported).
    failing: [Arc<AtomicBool>; 2],
}

impl Telemetry {
    /// Starts exporting to `endpoints`: spans through a batch processor,
    /// metrics through a periodic reader (every 60 s, or
    /// `OTEL_METRIC_EXPORT_INTERVAL` milliseconds), both also on
    /// [`shutdown`](Self::shutdown). Sets the global propagator to W3C
    /// trace context, which tool-mcp injects into and reads from `_meta`.
    ///
    /// An endpoint that cannot be reached does not stop the command: each
    /// signal's first failure is a warning, and so is its recovery.
    pub fn start(endpoints: &Endpoints) -> io::Result<Telemetry> {
        let resource = resource();
        let failing: [Arc<AtomicBool>; 2] = Default::default();
        let spans = SpanExporter::builder().with_http();
        let spans = Reported::new(
            at(spans, endpoints, Signal::Traces).build(),
            Signal::Traces,
            endpoints,
            &failing[0],
        )?;
        let metrics = MetricExporter::builder().with_http();
        let metrics = Reported::new(
            at(metrics, endpoints, Signal::Metrics).build(),
            Signal::Metrics,
            endpoints,
            &failing[1],
        )?;
        let tracers = SdkTracerProvider::builder()
            .with_batch_exporter(spans)
            .with_resource(resource.clone())
            .build();
        let meters = SdkMeterProvider::builder()
            .with_periodic_exporter(metrics)
            .with_resource(resource)
            .build();
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        Ok(Telemetry {
            tracers,
            meters,
            failing,
        })
    }

    /// The layer that turns the exported crates' spans into OpenTelemetry
    /// spans and the duration histogram, beside the MCP server's metrics
    /// ([`tool_otel::McpMetricsLayer`]), each filtered on its own so that
    /// `RUST_LOG` cannot hide them from the collector.
    pub fn layer(&self) -> Box<dyn Layer<Registry> + Send + Sync> {
        let exported = EXPORTED_TARGETS
            .iter()
            .fold(Targets::new(), |targets, target| {
                targets.with_target(*target, LevelFilter::INFO)
            });
        let tracer = self.tracers.tracer(SERVICE_NAME);
        let meter = self.meters.meter(SERVICE_NAME);
        let exported = exported.and(filter_fn(follows_the_conventions));
        let metrics = tool_otel::McpMetricsLayer::new(&meter)
            .with_filter(filter_fn(makes_mcp_metrics).with_max_level_hint(LevelFilter::DEBUG));
        tool_otel::layer(tracer, &meter)
            .with_filter(exported)
            .and_then(metrics)
            .boxed()
    }

    /// Sends what is still buffered and stops the exporters: the spans
    /// of the batch processor and a last reading of the metrics. Problems
    /// are warnings, unless the failing export already said so; the
    /// command's own outcome stands.
    pub fn shutdown(self) {
        let [traces_failing, metrics_failing] = &self.failing;
        if let Err(error) = self.tracers.shutdown()
            && !traces_failing.load(Ordering::Relaxed)
        {
            tracing::warn!("OTLP traces: the last spans may not have been sent: {error}");
        }
        if let Err(error) = self.meters.shutdown()
            && !metrics_failing.load(Ordering::Relaxed)
        {
            tracing::warn!("OTLP metrics: the last reading may not have been sent: {error}");
        }
    }
}

/// The resource every span and metric carries: the SDK's detectors
/// (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, the SDK's name and
/// version), with [`SERVICE_NAME`] where they found no service name.
fn resource() -> Resource {
    let detected = Resource::builder().build();
    let named = detected
        .get(&opentelemetry::Key::from_static_str("service.name"))
        .is_some_and(|name| !name.as_str().starts_with("unknown_service"));
    if named {
        detected
    } else {
        Resource::builder().with_service_name(SERVICE_NAME).build()
    }
}

/// `builder` with OTLP's protobuf body, posting to where `endpoints` say
/// `signal` goes (else where the environment says).
fn at<B: WithExportConfig>(builder: B, endpoints: &Endpoints, signal: Signal) -> B {
    let builder = builder.with_protocol(Protocol::HttpBinary);
    match endpoints.given(signal) {
        Some(url) => builder.with_endpoint(url),
        None => builder,
    }
}
