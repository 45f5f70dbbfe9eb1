//! The accept loop, each connection's task, and the stop: stop accepting,
//! let the calls in flight finish within the grace period, cancel the rest
//! (they are still answered), then end the sessions.

use super::layer::McpGate;
use super::limits::{Admission, PendingConnections};
use super::quotas::ClientAddr;
use super::mount::RmcpHttpService;
use super::{HttpResponse, HttpServer, MCP_PATH, Refusal};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The path a probe asks whether the process serves: 200 `ok`, with no
/// token and whatever the `Host`.
pub const HEALTH_PATH: &str = "/healthz";

/// The path a balancer asks whether this process can serve requests now:
/// 200 `ready`, or 503 naming what it waits for (the shared store, with
/// [`McpHttp::with_shared_state`](super::McpHttp::with_shared_state)). No
/// token, any `Host`, as [`HEALTH_PATH`]; that one stays liveness (the
/// process answers), so an orchestrator does not restart a process whose
/// store is down.
pub const READY_PATH: &str = "/readyz";

/// How long the connections get, once the sessions have ended, to send
/// what they hold before they are dropped.
const FLUSH: Duration = Duration::from_secs(2);

pub(super) async fn run(http: HttpServer, shutdown: CancellationToken) -> std::io::Result<()> {
    let HttpServer {
        listener,
        http,
        stop_now,
    } = http;
    let address = listener.local_addr()?;
    let limits = http.limits;
    let (gate, service) = http.assemble(Some(address))?;
    let pending = PendingConnections::new(limits.max_pending_connections);
    let mut connections = http1::Builder::new();
    connections
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let tracker = TaskTracker::new();
    let stopping = CancellationToken::new();

    let accept = |stream: TcpStream| {
        let connection = Connection {
            service: service.clone(),
            gate: gate.clone(),
            admission: Arc::new(pending.admit()),
            builder: connections.clone(),
            stopping: stopping.clone(),
        };
        tracker.spawn(connection.serve(stream));
    };
    // Serving, until asked to stop.
    while let Some(stream) = next_connection(&listener, &shutdown).await {
        accept(stream);
    }
    // Draining: readiness says 503 while requests are still served, so a
    // balancer takes this process out of rotation before it stops
    // accepting (requests already on their way still land).
    if !limits.drain_delay.is_zero() {
        gate.start_draining();
        tracing::info!(
            "draining: {} answers 503 for {} s while requests are still served",
            READY_PATH,
            limits.drain_delay.as_secs_f64()
        );
        let drained = tokio::time::sleep(limits.drain_delay);
        tokio::pin!(drained);
        let now = CancellationToken::new();
        loop {
            tokio::select! {
                () = &mut drained => break,
                () = stop_now.cancelled() => break,
                next = next_connection(&listener, &now) => match next {
                    Some(stream) => accept(stream),
                    None => break,
                },
            }
        }
    }

    // No new connections: a balancer's next attempt goes elsewhere.
    drop(listener);
    tracing::info!("stopping: no new connections");
    stopping.cancel();
    // A second request to stop cuts the grace short: the calls running are
    // cancelled (and answered so) at once.
    tokio::select! {
        () = gate.stop(limits.shutdown_grace) => {}
        () = stop_now.cancelled() => {
            tracing::info!("stopping now: the calls running are cancelled");
            gate.stop(Duration::ZERO).await;
        }
    }
    tracker.close();
    let _ = tokio::time::timeout(FLUSH, tracker.wait()).await;
    tracing::info!("stopped");
    Ok(())
}

/// The next connection accepted, or `None` once `shutdown` is cancelled.
/// A failed accept (out of file descriptors and the like) waits a moment
/// and tries again: the listener itself is fine, and others may still be
/// served.
async fn next_connection(listener: &TcpListener, shutdown: &CancellationToken) -> Option<TcpStream> {
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => return Some(stream),
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            () = shutdown.cancelled() => return None,
        }
    }
}

/// One accepted connection and what its requests need.
struct Connection {
    service: RmcpHttpService,
    gate: McpGate,
    admission: Arc<Admission>,
    builder: http1::Builder,
    stopping: CancellationToken,
}

impl Connection {
    async fn serve(self, stream: TcpStream) {
        // Answers go out at once: with Nagle's algorithm on, a client that
        // keeps its connection waits ~40 ms for its own delayed ACK on
        // every call (measured by benches/http_load.rs --pooled).
        let _ = stream.set_nodelay(true);
        let Connection {
            service,
            gate,
            admission,
            builder,
            stopping,
        } = self;
        let closed = admission.closed().clone();
        let peer = stream.peer_addr().ok().map(ClientAddr);
        let handler = service_fn(move |mut request: Request<Incoming>| {
            let service = service.clone();
            let gate = gate.clone();
            // The gate tells it when a request passes the checks.
            request.extensions_mut().insert(Arc::clone(&admission));
            // Whose request it is, for the limits per client address.
            if let Some(peer) = peer {
                request.extensions_mut().insert(peer);
            }
            async move { Ok::<_, Infallible>(route(&gate, service, request).await) }
        });
        let connection = builder.serve_connection(TokioIo::new(stream), handler);
        tokio::pin!(connection);
        // A connection that breaks, or times out, affects only itself.
        tokio::select! {
            _ = connection.as_mut() => return,
            () = closed.cancelled() => {
                tracing::debug!("closed: a newer connection took its place among those not yet past the checks");
                return;
            }
            () = stopping.cancelled() => {}
        }
        // Stopping: the request being answered is finished, and the
        // connection then closed instead of kept for another.
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
    }
}

/// The health probe, the MCP path and (with OAuth) the metadata's paths;
/// 404 for any other.
async fn route(gate: &McpGate, service: RmcpHttpService, request: Request<Incoming>) -> HttpResponse {
    let path = request.uri().path();
    if path == HEALTH_PATH {
        return health(request.method());
    }
    if path == READY_PATH {
        return readiness(request.method(), gate).await;
    }
    if path != MCP_PATH && !gate.gate().serves_metadata(path) {
        return *Refusal::new(
            StatusCode::NOT_FOUND,
            "not found: MCP is served at /mcp\n".to_owned(),
        )
        .0;
    }
    gate.gate().answer(service, request).await
}

/// 200 `ready` to GET and HEAD when the gate's state answers, else 503
/// with `Retry-After` and the reason.
async fn readiness(method: &Method, gate: &McpGate) -> HttpResponse {
    let ready = super::document(
        method,
        READY_PATH,
        Bytes::from_static(b"ready\n"),
        "text/plain; charset=utf-8",
    );
    if !ready.status().is_success() {
        return ready;
    }
    match gate.ready().await {
        Ok(()) => ready,
        Err(why) => *super::shared::not_ready(&why).0,
    }
}

/// 200 `ok` to GET and HEAD: it says only that the process answers, so it
/// needs no token and takes any `Host` (a probe uses the backend's own
/// address). A stopping server has closed its listener, so a probe fails
/// then, and a balancer stops sending it work.
fn health(method: &Method) -> HttpResponse {
    super::document(
        method,
        HEALTH_PATH,
        Bytes::from_static(b"ok\n"),
        "text/plain; charset=utf-8",
    )
}
