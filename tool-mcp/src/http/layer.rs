//! The gate as tower sees it: a `Layer` whose service runs the checks
//! ([`Gate`]) and hands what passes to the service it wraps.

use super::HttpResponse;
use super::gate::Gate;
use crate::McpServer;
use http_body_util::Full;
use hyper::Request;
use hyper::body::{Body, Bytes};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

/// How long the responses still being sent get, once every call is
/// answered, before the sessions (and their streams) end.
const FLUSH: Duration = Duration::from_secs(2);

/// The checks of MCP over HTTP as a tower [`Layer`](tower_layer::Layer):
/// `Host` and `Origin`, the credentials, each session's owner, a call's
/// scope, the body and the limits, over the [`RmcpHttpService`](super::RmcpHttpService)
/// that [`McpHttp::build`](super::McpHttp::build) made with it (the gate
/// counts that service's sessions; over another one, its session limit
/// and owners would be wrong). Cheap to clone; every clone is the same
/// gate.
///
/// Middleware of the application's own may go outside the layered service
/// (it then sees every request, refused ones included) or between the gate
/// and rmcp's service (it sees only what passed, with a body of
/// `http_body_util::Full<Bytes>`).
#[derive(Clone)]
pub struct McpGate {
    shared: Arc<Shared>,
}

struct Shared {
    gate: Gate,
    /// The calls, for a stop that lets them finish first.
    server: McpServer,
    /// rmcp's own stop: it ends the sessions and their streams.
    sessions_end: CancellationToken,
}

impl std::fmt::Debug for McpGate {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("McpGate")
            .field("server", &self.shared.server)
            .field("requests_in_flight", &self.shared.gate.calls.in_flight())
            .finish_non_exhaustive()
    }
}

impl McpGate {
    pub(super) fn new(gate: Gate, server: McpServer, sessions_end: CancellationToken) -> Self {
        McpGate {
            shared: Arc::new(Shared {
                gate,
                server,
                sessions_end,
            }),
        }
    }

    pub(super) fn gate(&self) -> &Gate {
        &self.shared.gate
    }

    /// The paths of the OAuth protected resource metadata, which the
    /// layered service answers: route them to it beside the MCP path.
    /// Empty without OAuth.
    pub fn metadata_paths(&self) -> Vec<String> {
        #[cfg(feature = "oauth")]
        if let Some(metadata) = self.shared.gate.auth.metadata() {
            return metadata.paths().to_vec();
        }
        Vec::new()
    }

    /// Whether this process can serve requests now: `Err` naming the
    /// shared store ([`McpHttp::with_shared_state`](super::McpHttp::with_shared_state))
    /// and why when it does not answer. For an application's own readiness
    /// probe; [`HttpServer`](super::HttpServer) answers
    /// [`READY_PATH`](super::READY_PATH) with it.
    pub async fn ready(&self) -> Result<(), String> {
        self.shared.gate.ready().await
    }

    /// Marks the process as stopping: [`ready`](Self::ready) answers
    /// `Err` from now on, while requests are still served. Call it first
    /// when stopping, and give the balancer's readiness check time to see
    /// it before the server stops accepting.
    pub fn start_draining(&self) {
        self.shared
            .gate
            .draining
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Stops serving: the calls running get up to `grace` to finish (those
    /// still running then are cancelled and answered `cancelled`), their
    /// answers a moment to be sent, then every session and its stream
    /// ends. Call it before the server's own graceful shutdown waits for
    /// its connections: a session's event stream otherwise stays open.
    pub async fn stop(&self, grace: Duration) {
        tracing::info!(
            calls = self.shared.server.calls_running(),
            "stopping: waiting up to {} s for the calls running",
            grace.as_secs_f64()
        );
        self.shared.server.stop(grace).await;
        let _ = tokio::time::timeout(FLUSH, self.shared.gate.calls.idle()).await;
        self.shared.sessions_end.cancel();
    }
}

impl<S> tower_layer::Layer<S> for McpGate {
    type Service = McpGateService<S>;

    fn layer(&self, inner: S) -> McpGateService<S> {
        McpGateService {
            gate: self.clone(),
            inner,
        }
    }
}

/// A service behind an [`McpGate`]: answers what the checks refuse, and
/// passes the rest on with its body read whole.
#[derive(Clone, Debug)]
pub struct McpGateService<S> {
    gate: McpGate,
    inner: S,
}

impl<S, B> Service<Request<B>> for McpGateService<S>
where
    S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(context)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The ready service goes with this call; the clone waits for the
        // next (tower's advice for services that are cloned into futures).
        let ready = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, ready);
        let gate = self.gate.clone();
        Box::pin(async move { Ok(gate.gate().answer(inner, request).await) })
    }
}
