//! Trace context across MCP hops (the `otel` feature): the spans of calls
//! through our client and server, exported in memory by OpenTelemetry's
//! SDK behind tracing-opentelemetry, as an application that opts in sees
//! them. A test binary of its own: its subscriber is global (rmcp and the
//! server run the calls on tokio's other threads), which the MCP tests'
//! binary must not get.
//!
//! - [`hops`]: one hop, two hops (a server importing another's tools), a
//!   request without trace context.
//! - [`collector`]: the exporter, and reading a trace back as parent links.

mod collector;
mod hops;
// The HTTP server helpers of the MCP tests: a server on a free port,
// requests written by hand.
#[path = "../support/mod.rs"]
mod support;
