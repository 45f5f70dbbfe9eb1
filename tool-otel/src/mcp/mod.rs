//! The MCP server's metrics, read from what tool-mcp already emits as
//! `tracing` data: its operation spans, its HTTP gate's request span and
//! its audit events. tool-mcp needs no OpenTelemetry for them.

mod audit;
mod contract;
mod fields;
mod http;
mod operation;

use audit::AuditMetrics;
use http::{HttpMetrics, Request};
use opentelemetry::metrics::Meter;
use operation::{Operation, OperationMetrics};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;

/// A [`Layer`] that records an MCP server's (and client's) metrics on a
/// [`Meter`], from the spans and events tool-mcp emits:
///
/// | metric | unit | from | attributes |
/// | --- | --- | --- | --- |
/// | `mcp.server.operation.duration` | `s` | the server's `tools/call` spans | `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`, `network.transport`, `mcp.protocol.version`; on failure `error.type`, `rpc.response.status_code` |
/// | `mcp.client.operation.duration` | `s` | the client's spans (`--upstream` calls) | the same, and `server.address`, `server.port` |
/// | `mcp.server.active_operations` | `{operation}` | the server's spans, up when one opens, down when it closes | `mcp.method.name`, `gen_ai.tool.name` |
/// | `http.server.request.duration` | `s` | the HTTP gate's `mcp_http` span | `http.request.method`, `http.response.status_code`, `error.type` (5xx, or no answer) |
/// | `mcp.server.refused_credentials` | `{credential}` | audit `credential_refused` | `reason` |
/// | `mcp.server.active_sessions` | `{session}` | audit `session_opened` / `session_closed` | none |
///
/// The two operation histograms follow the MCP conventions
/// (<https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#metrics>),
/// the request histogram the HTTP ones; the other three have no convention
/// and are this crate's names.
///
/// Two things a filter in front of it must let through: the `mcp_http`
/// span is at debug (give this layer a filter of its own, so the logs stay
/// quiet), and the audit events are at info under `tool_mcp::audit`.
///
/// ```
/// use opentelemetry::metrics::MeterProvider as _;
/// use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
/// use tracing_subscriber::prelude::*;
///
/// let exporter = InMemoryMetricExporter::default();
/// let meters = SdkMeterProvider::builder()
///     .with_reader(PeriodicReader::builder(exporter.clone()).build())
///     .build();
/// let subscriber = tracing_subscriber::registry()
///     .with(tool_otel::McpMetricsLayer::new(&meters.meter("my-server")));
///
/// tracing::subscriber::with_default(subscriber, || {
///     // What tool-mcp's server opens for a call of `echo`.
///     let _call = tracing::info_span!(
///         "tools/call",
///         otel.kind = "server",
///         mcp.method.name = "tools/call",
///         gen_ai.tool.name = "echo",
///     )
///     .entered();
/// });
///
/// meters.force_flush().unwrap();
/// let exported = exporter.get_finished_metrics().unwrap();
/// let names: Vec<&str> = exported[0]
///     .scope_metrics()
///     .flat_map(|scope| scope.metrics())
///     .map(|metric| metric.name())
///     .collect();
/// assert!(names.contains(&"mcp.server.operation.duration"));
/// assert!(names.contains(&"mcp.server.active_operations"));
/// ```
#[derive(Clone, Debug)]
pub struct McpMetricsLayer {
    operations: OperationMetrics,
    http: HttpMetrics,
    audit: AuditMetrics,
}

impl McpMetricsLayer {
    /// Builds the instruments on `meter` (its instrumentation scope is the
    /// application's choice).
    pub fn new(meter: &Meter) -> Self {
        McpMetricsLayer {
            operations: OperationMetrics::new(meter),
            http: HttpMetrics::new(meter),
            audit: AuditMetrics::new(meter),
        }
    }
}

/// Which of tool-mcp's spans a span is, by its metadata alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Watched {
    Operation,
    Request,
}

fn watched(metadata: &Metadata<'_>) -> Option<Watched> {
    let fields = metadata.fields();
    if metadata.name() == contract::REQUEST_SPAN && fields.field(contract::REQUEST_METHOD).is_some()
    {
        Some(Watched::Request)
    } else if fields.field(contract::METHOD_NAME).is_some() {
        Some(Watched::Operation)
    } else {
        None
    }
}

impl<S> Layer<S> for McpMetricsLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(kind) = watched(attrs.metadata()) else {
            return;
        };
        let Some(span) = ctx.span(id) else {
            return;
        };
        match kind {
            Watched::Request => span.extensions_mut().insert(HttpMetrics::opened(attrs)),
            Watched::Operation => {
                if let Some(operation) = self.operations.opened(attrs) {
                    span.extensions_mut().insert(operation);
                }
            }
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else {
            return;
        };
        // Other spans' records skip the extensions' lock.
        match watched(span.metadata()) {
            Some(Watched::Request) => {
                if let Some(request) = span.extensions_mut().get_mut::<Request>() {
                    request.record(values);
                }
            }
            Some(Watched::Operation) => {
                if let Some(operation) = span.extensions_mut().get_mut::<Operation>() {
                    operation.record(values);
                }
            }
            None => {}
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else {
            return;
        };
        match watched(span.metadata()) {
            Some(Watched::Request) => {
                if let Some(request) = span.extensions_mut().remove::<Request>() {
                    self.http.closed(request);
                }
            }
            Some(Watched::Operation) => {
                if let Some(operation) = span.extensions_mut().remove::<Operation>() {
                    self.operations.closed(operation);
                }
            }
            None => {}
        }
    }

    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        if event.metadata().target() == contract::AUDIT_TARGET {
            self.audit.event(event);
        }
    }
}
