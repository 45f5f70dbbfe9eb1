//! tool-otel against OpenTelemetry's in-memory exporters: what would be
//! sent for spans of the executor's contract (support.rs opens them as
//! tool-core's executor does).

mod mcp_metrics;
mod metrics;
mod propagation;
mod spans;
mod support;
