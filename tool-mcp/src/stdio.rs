//! MCP over stdio: one client, one session, on this process's stdin and
//! stdout.

use crate::McpServer;
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
