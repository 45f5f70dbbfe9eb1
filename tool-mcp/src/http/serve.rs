//! The accept loop, each connection's task, and the stop: stop accepting,
//! let the calls in flight finish within the grace period, cancel the rest
//! (they are still answered), then end the sessions.

#[cfg(feature = "oauth")]
use super::auth::OAuth;
use super::auth::{Auth, BearerToken, StaticToken};
use super::gate::Gate;
use super::limits::{CallSlots, PendingConnections, SessionSlots};
#[cfg(feature = "oauth")]
use super::oauth::{Metadata, ScopeTable, Verifier};
use super::owners::SessionOwners;
use super::{HttpServer, Service, TokenSource};
use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
#[cfg(feature = "oauth")]
use std::hash::RandomState;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How long the connections get, once every call is answered, to send what
/// they hold before they are dropped.
const FLUSH: Duration = Duration::from_secs(2);

pub(super) async fn run(http: HttpServer, shutdown: CancellationToken) -> std::io::Result<()> {
    let address = http.listener.local_addr()?;
    let token = match http.token.clone() {
        None => None,
        Some(TokenSource::Value(token)) => Some(StaticToken::Fixed(BearerToken::new(token)?)),
        Some(TokenSource::File(path)) => Some(StaticToken::file(&path)?),
    };
    let auth = Auth {
        token,
        #[cfg(feature = "oauth")]
        oauth: match &http.oauth {
            None => None,
            Some(config) => Some(OAuth {
                metadata: Metadata::new(config)?,
                verifier: Verifier::new(config)?,
                scopes: Arc::new(ScopeTable::new(
                    config,
                    http.server.registry(),
                    http.server.call_options(),
                )),
                token_hasher: RandomState::new(),
            }),
        },
    };
    if !auth.required() && !http.allow_unauthenticated && !address.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "refusing to serve MCP on {address} without authentication: that address \
                 can be reached from other machines, and whoever reaches it could call \
                 every tool; give the server a bearer token \
                 (HttpServer::with_bearer_token){oauth}, \
                 or say that no authentication is meant \
                 (HttpServer::allow_unauthenticated)",
                oauth = if cfg!(feature = "oauth") {
                    " or OAuth (HttpServer::with_oauth)"
                } else {
                    ""
                },
            ),
        ));
    }
    let hosts = http.host_policy()?;
    let limits = http.limits;

    // rmcp's own stop: it ends the sessions and their streams, so it comes
    // last, after the calls are answered.
    let sessions_end = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(sessions_end.clone())
        .with_max_request_body_bytes(limits.max_body_bytes);
    if http.stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    // The same list for rmcp's own check, a second line; with "any
    // address of this machine" there is no list to give it.
    config = match hosts.fixed_list() {
        Some(list) => config.with_allowed_hosts(list),
        None => config.disable_allowed_hosts(),
    };
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(limits.session_idle_timeout);
    let sessions = Arc::new(sessions);
    let server = if http.stateless {
        http.server.serving_without_sessions()
    } else {
        http.server
    };
    let calls_of = server.clone();
    let service: Service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&sessions), config);
    // With credentials, each session is its opener's alone; without, all
    // callers are one and the same.
    let owners =
        (!http.stateless && auth.required()).then(|| SessionOwners::new(Arc::clone(&sessions)));
    let gate = Arc::new(Gate {
        hosts,
        auth,
        limits,
        owners,
        sessions: (!http.stateless).then(|| SessionSlots::new(sessions, limits.max_sessions)),
        calls: CallSlots::new(limits.max_in_flight, limits.max_calls_per_session),
    });
    let pending = PendingConnections::new(limits.max_pending_connections);
    let mut connections = http1::Builder::new();
    connections
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let tracker = TaskTracker::new();
    let stopping = CancellationToken::new();

    loop {
        let stream = tokio::select! {
            accepted = http.listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: the listener
                // itself is fine, and others may still be served.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = shutdown.cancelled() => break,
        };
        let admission = pending.admit();
        let connection = Connection {
            service: service.clone(),
            gate: Arc::clone(&gate),
            admission: Arc::new(admission),
            builder: connections.clone(),
            stopping: stopping.clone(),
        };
        tracker.spawn(connection.serve(stream));
    }

    // No new connections: a balancer's next attempt goes elsewhere.
    drop(http.listener);
    tracing::info!(
        calls = calls_of.calls_running(),
        "stopping: no new connections; waiting up to {} s for the calls running",
        limits.shutdown_grace.as_secs_f64()
    );
    stopping.cancel();
    calls_of.stop(limits.shutdown_grace).await;
    // Every call is answered: the answers still on their way get their
    // connection's time to be written.
    let _ = tokio::time::timeout(FLUSH, gate.calls.idle()).await;
    sessions_end.cancel();
    tracker.close();
    let _ = tokio::time::timeout(FLUSH, tracker.wait()).await;
    tracing::info!("stopped");
    Ok(())
}

/// One accepted connection and what its requests need.
struct Connection {
    service: Service,
    gate: Arc<Gate>,
    admission: Arc<super::limits::Admission>,
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
        let handler = service_fn(move |request: Request<Incoming>| {
            let service = service.clone();
            let gate = Arc::clone(&gate);
            let admission = Arc::clone(&admission);
            async move { Ok::<_, Infallible>(gate.answer(&service, request, &admission).await) }
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
