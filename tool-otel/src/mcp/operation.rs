//! `mcp.server.operation.duration` and `mcp.client.operation.duration`,
//! from the spans tool-mcp opens for each operation, and the operations a
//! server has in flight.
//!
//! The histograms follow the MCP conventions: unit `s`, their bucket
//! advice, the attributes listed in [`contract::OPERATION_ATTRIBUTES`]
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#metric-mcpserveroperationduration>,
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#metric-mcpclientoperationduration>.
//! Each value is the span's whole life, so the metric and the exported span
//! agree. A call through the executor (every call of an imported tool) has
//! no client span of its own: its `execute_tool` span carries the MCP
//! attributes, and its life (which includes the local check of the
//! arguments, microseconds) is the client's duration. tool-mcp opens these spans for `tools/call` only, so that is the
//! only `mcp.method.name` they carry.
//!
//! The conventions have no metric for operations in flight:
//! `mcp.server.active_operations` is this crate's name, made like the HTTP
//! conventions' `http.server.active_requests`
//! (<https://opentelemetry.io/docs/specs/semconv/http/http-metrics/#metric-httpserveractive_requests>).

use super::contract;
use super::fields::Captured;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter, UpDownCounter};
use std::time::Instant;

/// The conventions' bucket advice for both operation histograms, in
/// seconds.
pub(super) const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The instruments of the operations.
#[derive(Clone, Debug)]
pub(super) struct OperationMetrics {
    server: Histogram<f64>,
    client: Histogram<f64>,
    active: UpDownCounter<i64>,
}

/// Which side of an operation a span is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Server,
    Client,
    /// tool-core's `execute_tool` span: a client operation when the tool
    /// was another MCP server's (tool-mcp then records `mcp.method.name`
    /// on it, as the conventions ask, instead of opening a span of its
    /// own); a local tool's otherwise, which is no MCP operation.
    ToolExecution,
}

/// What an operation's span holds until it closes.
pub(super) struct Operation {
    side: Side,
    start: Instant,
    fields: Captured,
    /// The attributes the server's count in flight went up with; `None` on
    /// the client side.
    active: Option<Vec<KeyValue>>,
}

impl OperationMetrics {
    pub(super) fn new(meter: &Meter) -> Self {
        let histogram = |name: &'static str, description: &'static str| {
            meter
                .f64_histogram(name)
                .with_unit("s")
                .with_description(description)
                .with_boundaries(BOUNDARIES.to_vec())
                .build()
        };
        OperationMetrics {
            // The conventions' briefs.
            server: histogram(
                "mcp.server.operation.duration",
                "MCP request or notification duration as observed on the receiver \
                 from the time it was received until the result or ack is sent.",
            ),
            client: histogram(
                "mcp.client.operation.duration",
                "The duration of the MCP request or notification as observed on the \
                 sender from the time it was sent until the response or ack is received.",
            ),
            active: meter
                .i64_up_down_counter("mcp.server.active_operations")
                .with_unit("{operation}")
                .with_description("MCP requests the server is answering.")
                .build(),
        }
    }

    /// The state of a new span whose fields so far are `attributes`, if it
    /// is an operation's: on the server side, it is now in flight.
    pub(super) fn opened(&self, attributes: &tracing::span::Attributes<'_>) -> Option<Operation> {
        let mut kind = Captured::of(&[contract::KIND]);
        attributes.record(&mut kind);
        let side = match kind.get(contract::KIND).as_deref() {
            Some("server") => Side::Server,
            Some("client") => Side::Client,
            _ if attributes.metadata().name() == contract::TOOL_EXECUTION_SPAN => {
                Side::ToolExecution
            }
            _ => return None,
        };
        let mut fields = Captured::of(&contract::OPERATION_ATTRIBUTES);
        attributes.record(&mut fields);
        let active = (side == Side::Server).then(|| {
            let active: Vec<KeyValue> = fields
                .values
                .iter()
                .filter(|pair| contract::ACTIVE_ATTRIBUTES.contains(&pair.key.as_str()))
                .cloned()
                .collect();
            self.active.add(1, &active);
            active
        });
        Some(Operation {
            side,
            start: Instant::now(),
            fields,
            active,
        })
    }

    /// `operation`'s span closed: its duration, and (server side) it is no
    /// longer in flight.
    pub(super) fn closed(&self, operation: Operation) {
        let seconds = operation.start.elapsed().as_secs_f64();
        let histogram = match operation.side {
            Side::Server => &self.server,
            Side::Client => &self.client,
            Side::ToolExecution if operation.fields.get(contract::METHOD_NAME).is_some() => {
                &self.client
            }
            Side::ToolExecution => return,
        };
        histogram.record(seconds, &operation.fields.values);
        if let Some(active) = operation.active {
            self.active.add(-1, &active);
        }
    }
}

impl Operation {
    /// Values recorded on the span after it opened.
    pub(super) fn record(&mut self, values: &tracing::span::Record<'_>) {
        values.record(&mut self.fields);
    }
}
