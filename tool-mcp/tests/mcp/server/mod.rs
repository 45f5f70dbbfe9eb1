//! The server, met by real clients: HTTP/1.1 written by hand where the
//! bytes matter (with `crate::support`), rmcp's client where a revision's
//! lifecycle does.
//!
//! - [`safety`]: the token, Host and Origin, body limits, sessions, the
//!   refusal to start unauthenticated.
//! - [`protocol`]: what each protocol revision is sent, and JSON-RPC's
//!   errors.
//! - [`limits`]: stateless serving, the process-wide in-flight limit, the
//!   pending-connection limit, `/healthz`.
//! - [`shutdown`]: the stop with its grace period.
//! - [`mounted`]: the gate as a tower layer in an axum `Router`, beside the
//!   application's routes and behind its middleware.
//! - [`options`]: served calls run with the server's options (hooks,
//!   repair, enabled tools, a caller's signal).
//! - [`search`]: deferred tools behind `tool_search`: the list, the
//!   search, the call of a found tool, the same bytes in any order.
//! - [`shared`]: two servers sharing one (fake) store: a session opened on
//!   one served by the other, its owner, its end, a store that fails, a
//!   cancellation delivered across, streams resumed only by their own.
//! - [`alongside`]: prompts, resources and completion from the application's
//!   own rmcp handler.
//! - [`questions`]: a tool's own question to the person (elicitation).
//! - [`logging`]: what tools log, sent to the client at the level it asked.
//! - [`cors`]: CORS for the allowed origins.
//! - [`tools_changed`]: tools added while serving, and the clients told.
//! - [`loaded`]: what a session's `tool_search` found joins its
//!   `tools/list`, and its client is told; without a session, every tool.
//! - [`callers`]: the limits per caller (rate, sessions, in flight),
//!   counted in memory.
//! - [`polling`]: SSE polling, a long call answered through
//!   reconnections with `Last-Event-ID`.

mod alongside;
mod callers;
mod cors;
mod limits;
mod loaded;
mod logging;
mod mounted;
mod options;
mod polling;
mod protocol;
pub(crate) mod questions;
mod safety;
mod search;
mod shared;
mod shutdown;
mod tools_changed;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::time::Duration;
use tool_mcp::McpServer;

/// rmcp's client, as the in-process tests hold it.
type Client = RunningService<RoleClient, ClientConfig>;

/// `server` on one end of a pipe, whose other end is returned.
fn serve(server: McpServer) -> tokio::io::DuplexStream {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    client_end
}

/// rmcp's client, initialized against `server` over a pipe.
async fn connect(server: McpServer) -> Client {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("server-test", "0.1.0"),
    )
    .serve(serve(server))
    .await
    .expect("initialize succeeds")
}

/// `tools/call` of `name`, its result as JSON.
async fn call(client: &Client, name: &str, arguments: Value) -> Value {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    let result = client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|error| panic!("{name} answers: {error}"));
    serde_json::to_value(result).unwrap()
}

/// `future`, which must end within 10 s.
async fn bounded<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(10), future)
        .await
        .expect("within 10 s")
}
