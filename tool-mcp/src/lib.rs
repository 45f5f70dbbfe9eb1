//! Serves any [`ToolRegistry`](tool_core::ToolRegistry) over the Model
//! Context Protocol, through the official Rust SDK (`rmcp`): your tools, in
//! one call, to any MCP client.
//!
//! - `tools/list` gives each tool's name, description and `inputSchema`.
//! - `tools/call` runs the executor. Bad arguments and tool errors are
//!   results with `isError: true` (the MCP spec: a model can correct itself
//!   from them); an unknown tool is the JSON-RPC invalid-params error.
//! - A client's `notifications/cancelled` cancels the tool's signal; when the
//!   client sends a `progressToken`, the tool's `report_progress` becomes MCP
//!   progress notifications, all sent before the result.
//! - A call that needs a person's approval (`#[tool(needs_approval)]`) asks
//!   the client before it runs: `elicitation/create`, or on 2026-07-28 an
//!   `InputRequiredResult` with a signed `requestState`
//!   ([`McpServer`]'s "Approval").
//! - Over HTTP, [`HttpServer`] checks `Host` and `Origin`, a static
//!   bearer token or OAuth access tokens ([`HttpServer::with_oauth`]: the
//!   protected resource metadata of RFC 9728, JWTs checked against a JWKS
//!   file, a scope per tool, the caller handed to the before hook), and
//!   limits.
//! - Each `tools/call` has a span on both sides, named as OpenTelemetry's
//!   MCP conventions name them (`tools/call {tool}`, kinds CLIENT and
//!   SERVER). With the feature `otel` (off by default) the client sends
//!   its span's trace context in the request's `params._meta`
//!   (`traceparent`, `tracestate`) and the server continues that trace,
//!   through the propagator the application sets with
//!   `opentelemetry::global::set_text_map_propagator` (the README's
//!   "Tracing across hops").
//!
//! ```no_run
//! use tool_core::{tool, ToolRegistry};
//!
//! /// Echo one value
//! #[tool]
//! async fn echo(value: String) -> String {
//!     value
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     let mut tools = ToolRegistry::new();
//!     tools.register(EchoTool).unwrap();
//!     tool_mcp::serve_stdio(tools).await
//! }
//! ```

#![forbid(unsafe_code)]
mod approval;
pub mod client;
mod handler;
mod http;
mod idle;
mod trace_context;

pub use handler::McpServer;
pub use http::{HEALTH_PATH, HttpServer, MCP_PATH, OAuthConfig, serve_http};

use rmcp::ServiceExt;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// Serves `server` (a [`ToolRegistry`](tool_core::ToolRegistry), or an
/// [`McpServer`] with the options its calls run with) over stdio (stdin
/// and stdout carry JSON-RPC) until the client closes stdin. Nothing else
/// may write to stdout meanwhile: logs go wherever the application's
/// `tracing` subscriber writes, which must not be stdout.
///
/// A line that is not JSON is skipped, as rmcp and the other official SDKs
/// do on stdio (an answer to it could not be paired with anything);
/// `tools/call` params that are not an object get JSON-RPC's -32602.
pub async fn serve_stdio(server: impl Into<McpServer>) -> std::io::Result<()> {
    serve_stdio_until(server, CancellationToken::new(), Duration::ZERO).await
}

/// [`serve_stdio`], until the client closes stdin or `shutdown` is
/// cancelled; then the server [stops](McpServer::stop) with `grace`: no new
/// call, the running ones answered (by the end of the grace period, or
/// cancelled), and the session closed.
///
/// ```no_run
/// # async fn run(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
/// use std::time::Duration;
/// let shutdown = tokio_util::sync::CancellationToken::new();
/// // Cancelled by whatever stops the program: a signal handler, a parent.
/// let stop = shutdown.clone();
/// # stop.cancel();
/// tool_mcp::serve_stdio_until(tools, shutdown, Duration::from_secs(30)).await
/// # }
/// ```
pub async fn serve_stdio_until(
    server: impl Into<McpServer>,
    shutdown: CancellationToken,
    grace: Duration,
) -> std::io::Result<()> {
    let server: McpServer = server.into();
    // One client, one session: its span marks every line logged while it
    // is set up and ended.
    let span = tracing::info_span!("mcp_session", transport = "stdio");
    async move {
        let stopper = server.clone();
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(std::io::Error::other)?;
        match running.peer().peer_info() {
            Some(client) => tracing::info!(
                client = %client.client_info.name,
                client_version = %client.client_info.version,
                "MCP session started"
            ),
            None => tracing::info!("MCP session started"),
        }
        let session = running.cancellation_token();
        let waiting = running.waiting();
        tokio::pin!(waiting);
        tokio::select! {
            ended = &mut waiting => {
                ended.map_err(std::io::Error::other)?;
                tracing::info!("MCP session ended");
                return Ok(());
            }
            () = shutdown.cancelled() => {}
        }
        stopper.stop(grace).await;
        // Every call is answered: ending the service closes the transport,
        // which writes out what it still holds.
        session.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(2), waiting).await;
        tracing::info!("MCP session closed: the server stopped");
        Ok(())
    }
    .instrument(span)
    .await
}
