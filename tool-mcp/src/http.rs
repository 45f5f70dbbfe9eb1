//! MCP over streamable HTTP: rmcp's service, mounted on a hyper HTTP/1
//! server at `/mcp`, on a socket of the caller's choosing, behind the checks
//! that make it safe to expose: `Host` and `Origin` (against DNS
//! rebinding), a bearer token, and limits with plain HTTP answers.

mod auth;
mod hosts;
mod limits;

use crate::McpServer;
use auth::BearerToken;
use hosts::HostPolicy;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use limits::{CallSlots, Limits, SessionSlots};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;
use tracing::Instrument;

/// The path the MCP endpoint answers on.
pub const MCP_PATH: &str = "/mcp";

type HttpResponse = Response<BoxBody<Bytes, Infallible>>;
type Service = StreamableHttpService<McpServer, LocalSessionManager>;

/// A bound MCP HTTP server, not yet serving: bind first to learn the port
/// (bind to port 0 for any free one), set its options, then
/// [`run`](Self::run).
///
/// ```no_run
/// # async fn serve(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
/// let token = std::fs::read_to_string("/run/secrets/mcp-token")?;
/// tool_mcp::HttpServer::bind(tools, "0.0.0.0:8080".parse().unwrap())
///     .await?
///     .with_bearer_token(token.trim())
///     .with_allowed_hosts(["mcp.example.com"])
///     .run(tokio_util::sync::CancellationToken::new())
///     .await
/// # }
/// ```
///
/// What every request meets, in order:
///
/// 1. `Host` must be an accepted host, else 403 naming the accepted ones:
///    `localhost`, `127.0.0.1` and `[::1]` always; the address bound, unless
///    it is every interface's (`0.0.0.0`, `::`); the hosts named with
///    [`with_allowed_hosts`](Self::with_allowed_hosts); and, bound to every
///    interface with none named, any IP address of this machine.
/// 2. `Origin`, when sent (browsers do), must name an accepted host (any
///    port) or be named with [`with_allowed_origins`](Self::with_allowed_origins),
///    else 403, as the MCP transport specification asks.
/// 3. With a token, `Authorization: Bearer <token>`, else 401 with
///    `WWW-Authenticate: Bearer realm="mcp"`.
/// 4. A POST body of at most 4 MiB (413) that arrives within 30 s (408);
///    request headers must arrive within 30 s too, or the connection is
///    closed.
/// 5. At most 256 sessions at once: an `initialize` beyond that gets 503
///    with `Retry-After`. A session unused for 10 minutes ends; requests
///    naming it then get 404, and the client starts a new one.
/// 6. At most 32 JSON-RPC requests in flight per session: one more gets 429
///    with `Retry-After` (notifications, such as cancellations, always pass).
pub struct HttpServer {
    listener: TcpListener,
    server: McpServer,
    token: Option<String>,
    allow_unauthenticated: bool,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    limits: Limits,
}

impl HttpServer {
    /// Binds `address` for `registry`.
    pub async fn bind(registry: ToolRegistry, address: SocketAddr) -> std::io::Result<Self> {
        Ok(HttpServer {
            listener: TcpListener::bind(address).await?,
            server: McpServer::new(registry),
            token: None,
            allow_unauthenticated: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            limits: Limits::default(),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Requires `Authorization: Bearer <token>` on every request, compared
    /// in constant time. The token must be visible ASCII without spaces;
    /// read it from a file or the environment, not from a command line,
    /// which other users of the machine can see. This is a static token,
    /// not MCP's OAuth authorization flow: the 401 challenge names no
    /// protected resource metadata.
    pub fn with_bearer_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Serves a non-loopback address without a token, which [`run`](Self::run)
    /// otherwise refuses to: anyone who can reach the address can then call
    /// every tool.
    pub fn allow_unauthenticated(mut self) -> Self {
        self.allow_unauthenticated = true;
        self
    }

    /// The host names (`name` or `name:port`) clients will use in `Host`,
    /// besides the loopback names and the address bound. Naming any turns
    /// off "any IP address of this machine" on an all-interfaces address.
    pub fn with_allowed_hosts(
        mut self,
        hosts: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.allowed_hosts.extend(hosts.into_iter().map(Into::into));
        self
    }

    /// Browser origins (`https://app.example.com`, port included when not
    /// the scheme's default) accepted besides those naming an accepted host.
    pub fn with_allowed_origins(
        mut self,
        origins: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.allowed_origins
            .extend(origins.into_iter().map(Into::into));
        self
    }

    /// The largest request body accepted (default 4 MiB); larger gets 413.
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_body_bytes = bytes;
        self
    }

    /// How many sessions may be open at once (default 256); one more
    /// `initialize` gets 503 with `Retry-After`.
    pub fn with_max_sessions(mut self, sessions: usize) -> Self {
        self.limits.max_sessions = sessions;
        self
    }

    /// How long a session may go unused before it ends (default 10
    /// minutes); its id then gets 404, as the MCP spec says for a session
    /// that ended.
    pub fn with_session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.limits.session_idle_timeout = timeout;
        self
    }

    /// How many JSON-RPC requests one session may have in flight (default
    /// 32); one more gets 429 with `Retry-After`.
    pub fn with_max_calls_per_session(mut self, calls: usize) -> Self {
        self.limits.max_calls_per_session = calls;
        self
    }

    /// How long a client has to send a request's headers (default 30 s),
    /// and how long an open connection may sit idle between requests; then
    /// the connection is closed.
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Self {
        self.limits.header_read_timeout = timeout;
        self
    }

    /// How long a client has to send a request's body (default 30 s); then
    /// 408 and the connection is closed.
    pub fn with_body_read_timeout(mut self, timeout: Duration) -> Self {
        self.limits.body_read_timeout = timeout;
        self
    }

    /// The `Host` values accepted, for people: `localhost, 127.0.0.1,
    /// [::1], and any IP address of this machine`. An error when a named
    /// host is not a host name.
    pub fn accepted_hosts(&self) -> std::io::Result<String> {
        Ok(self.host_policy()?.describe())
    }

    fn host_policy(&self) -> std::io::Result<HostPolicy> {
        HostPolicy::new(
            self.local_addr()?,
            &self.allowed_hosts,
            &self.allowed_origins,
        )
    }

    /// Serves until `shutdown` is cancelled. Refuses to start (an
    /// `InvalidInput` error saying why) on a non-loopback address with no
    /// token unless [`allow_unauthenticated`](Self::allow_unauthenticated),
    /// and on a token or a named host that cannot be used.
    pub async fn run(self, shutdown: CancellationToken) -> std::io::Result<()> {
        let address = self.listener.local_addr()?;
        let token = self.token.clone().map(BearerToken::new).transpose()?;
        if token.is_none() && !self.allow_unauthenticated && !address.ip().is_loopback() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "refusing to serve MCP on {address} without authentication: that address \
                     can be reached from other machines, and whoever reaches it could call \
                     every tool; give the server a bearer token \
                     (HttpServer::with_bearer_token), or say that no authentication is meant \
                     (HttpServer::allow_unauthenticated)"
                ),
            ));
        }
        let hosts = self.host_policy()?;
        let limits = self.limits;

        let mut config = StreamableHttpServerConfig::default()
            .with_cancellation_token(shutdown.child_token())
            .with_max_request_body_bytes(limits.max_body_bytes);
        // The same list for rmcp's own check, a second line; with "any
        // address of this machine" there is no list to give it.
        config = match hosts.fixed_list() {
            Some(list) => config.with_allowed_hosts(list),
            None => config.disable_allowed_hosts(),
        };
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(limits.session_idle_timeout);
        let sessions = Arc::new(sessions);
        let server = self.server;
        let service: Service =
            StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&sessions), config);
        let gate = Arc::new(Gate {
            hosts,
            token,
            limits,
            sessions: SessionSlots::new(sessions, limits.max_sessions),
            calls: CallSlots::new(limits.max_calls_per_session),
        });
        let mut connections = http1::Builder::new();
        connections
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read_timeout);

        loop {
            let (stream, _) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    // Out of file descriptors and the like: the listener
                    // itself is fine, and others may still be served.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = shutdown.cancelled() => return Ok(()),
            };
            // Answers go out at once: with Nagle's algorithm on, a client
            // that keeps its connection waits ~40 ms for its own delayed ACK
            // on every call (measured by benches/http_load.rs --pooled).
            let _ = stream.set_nodelay(true);
            let service = service.clone();
            let gate = Arc::clone(&gate);
            let connections = connections.clone();
            tokio::spawn(async move {
                let handler = service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    let gate = Arc::clone(&gate);
                    async move { Ok::<_, Infallible>(gate.answer(&service, request).await) }
                });
                // A connection that breaks, or times out, affects only itself.
                let _ = connections
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}

/// What stands between a request and rmcp.
struct Gate {
    hosts: HostPolicy,
    token: Option<BearerToken>,
    limits: Limits,
    sessions: SessionSlots,
    calls: CallSlots,
}

/// What a POST carries, as far as the limits care.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Message {
    Initialize,
    /// A JSON-RPC request other than `initialize` (or a batch).
    Request,
    /// A notification, a response, or something rmcp will refuse.
    Other,
}

impl Message {
    fn of(body: &[u8]) -> Message {
        match serde_json::from_slice::<serde_json::Value>(body) {
            Ok(serde_json::Value::Object(object)) if object.contains_key("id") => {
                match object.get("method").and_then(serde_json::Value::as_str) {
                    Some("initialize") => Message::Initialize,
                    Some(_) => Message::Request,
                    None => Message::Other,
                }
            }
            Ok(serde_json::Value::Array(_)) => Message::Request,
            _ => Message::Other,
        }
    }
}

impl Gate {
    async fn answer(&self, service: &Service, request: Request<Incoming>) -> HttpResponse {
        // A span per request, naming its session: the lines of one
        // client's session can be picked out of many clients' at debug.
        let span = tracing::debug_span!(
            "mcp_http",
            method = %request.method(),
            session = tracing::field::Empty,
        );
        if let Some(session) = session_of(request.headers()) {
            span.record("session", session);
        }
        async {
            match self.check(service, request).await {
                Ok(response) => response,
                Err(Refusal(response)) => {
                    // Not above debug: whoever can reach the port could fill
                    // the logs with refusals.
                    tracing::debug!(status = response.status().as_u16(), "refused");
                    *response
                }
            }
        }
        .instrument(span)
        .await
    }

    async fn check(
        &self,
        service: &Service,
        request: Request<Incoming>,
    ) -> Result<HttpResponse, Refusal> {
        self.hosts.check(request.headers())?;
        if request.uri().path() != MCP_PATH {
            return Err(Refusal::new(
                StatusCode::NOT_FOUND,
                "not found: MCP is served at /mcp\n".to_owned(),
            ));
        }
        if let Some(token) = &self.token {
            token.check(request.headers())?;
        }
        if request.method() != Method::POST {
            let closing = request.method() == Method::DELETE;
            let response = service.handle(request).await;
            if closing && response.status().is_success() {
                tracing::info!("MCP session closed by the client");
            }
            return Ok(response);
        }
        let (parts, body) = request.into_parts();
        let body = limits::read_body(body, &parts.headers, &self.limits).await?;
        let message = Message::of(&body);
        let session = session_of(&parts.headers);
        let opening = match (session, message) {
            (None, Message::Initialize) => Some(self.sessions.open().await?),
            _ => None,
        };
        let in_flight = match (session, message) {
            (Some(session), Message::Request | Message::Initialize) => {
                Some(self.calls.start(session)?)
            }
            _ => None,
        };
        let response = service
            .handle(Request::from_parts(parts, Full::new(body)))
            .await;
        // Answered: a new session is in rmcp's map now, and counted there.
        if opening.is_some()
            && let Some(session) = session_of(response.headers())
        {
            tracing::info!(session, "MCP session opened");
        }
        drop(opening);
        Ok(match in_flight {
            // The request stays in flight until its answer has been sent
            // (or the client has gone): the guard goes with the body.
            Some(in_flight) => response.map(|body| {
                body.map_frame(move |frame| {
                    let _in_flight = &in_flight;
                    frame
                })
                .boxed()
            }),
            None => response,
        })
    }
}

/// The `Mcp-Session-Id` of a request or of the answer that opened it.
fn session_of(headers: &hyper::HeaderMap) -> Option<&str> {
    headers.get("mcp-session-id")?.to_str().ok()
}

/// The answer to a request that is not served: a status and a line of
/// text saying why (boxed, as a response is large).
struct Refusal(Box<HttpResponse>);

impl Refusal {
    fn new(status: StatusCode, text: String) -> Refusal {
        let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
        *response.status_mut() = status;
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        Refusal(Box::new(response))
    }

    fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Refusal {
        self.0.headers_mut().insert(name, value);
        self
    }
}

/// Serves `registry` over streamable HTTP at `http://<address>/mcp` until
/// `shutdown` is cancelled, with the default limits and no token: a
/// non-loopback `address` is refused (use [`HttpServer`] to give a token).
pub async fn serve_http(
    registry: ToolRegistry,
    address: SocketAddr,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    HttpServer::bind(registry, address)
        .await?
        .run(shutdown)
        .await
}
