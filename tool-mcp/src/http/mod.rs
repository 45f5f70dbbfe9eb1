//! MCP over streamable HTTP: rmcp's service, mounted on a hyper HTTP/1
//! server at `/mcp`, on a socket of the caller's choosing, behind the checks
//! that make it safe to expose: `Host` and `Origin` (against DNS
//! rebinding), a bearer token or (feature `oauth`) OAuth access tokens,
//! and limits with plain HTTP answers.

mod auth;
mod callers;
mod cors;
mod event_ids;
mod gate;
mod grant;
mod hosts;
mod layer;
mod limits;
mod message;
mod mount;
#[cfg(feature = "oauth")]
mod oauth;
mod owners;
mod polling;
mod quotas;
mod serve;
mod session_ends;
mod shared;

pub use event_ids::{event_id, split_event_id};
pub(crate) use gate::session_of;
pub(crate) use grant::Grant;
pub(crate) use quotas::ClientIp;
pub(crate) use shared::SharedLoads;
pub use layer::{McpGate, McpGateService};
pub use mount::{McpHttp, RmcpHttpService};
#[cfg(feature = "oauth")]
pub use oauth::{OAuthConfig, UnknownTool};
pub use serve::{HEALTH_PATH, READY_PATH};
pub use quotas::{CallerLimits, ClientAddr, MemoryQuotas, QuotaStore, Rate};
pub use shared::{Delivered, EventStore, SessionDirectory, SessionStore, SharedState, StateError, StateFuture};

use crate::McpServer;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::{Method, Response, StatusCode};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// How long a session may go unused before it ends, unless
/// [`HttpServer::with_session_idle_timeout`] says otherwise.
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The path the MCP endpoint answers on.
pub const MCP_PATH: &str = "/mcp";

type HttpBody = BoxBody<Bytes, Infallible>;
type HttpResponse = Response<HttpBody>;

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
///     .stateless()
///     .run(tokio_util::sync::CancellationToken::new())
///     .await
/// # }
/// ```
///
/// What every request meets, in order:
///
/// 1. `GET /healthz` is answered 200 `ok` at once, whatever the `Host` and
///    with no token: it tells only that the process serves. `GET /readyz`
///    answers 200 `ready`, or 503 while the shared store
///    ([`with_shared_state`](Self::with_shared_state)) does not answer.
/// 2. `Host` must be an accepted host, else 403 (the accepted ones are
///    logged, not told):
///    `localhost`, `127.0.0.1` and `[::1]` always; the address bound, unless
///    it is every interface's (`0.0.0.0`, `::`); the hosts named with
///    [`with_allowed_hosts`](Self::with_allowed_hosts); and, bound to every
///    interface with none named, any IP address of this machine.
/// 3. `Origin`, when sent (browsers do), must name an accepted host (any
///    port) or be named with [`with_allowed_origins`](Self::with_allowed_origins),
///    else 403, as the MCP transport specification asks.
/// 4. With OAuth ([`with_oauth`](Self::with_oauth)), `GET
///    /.well-known/oauth-protected-resource` (also with `/mcp` after it)
///    answers the protected resource metadata, with no token.
/// 5. With a token ([`with_bearer_token`](Self::with_bearer_token),
///    [`with_bearer_token_file`](Self::with_bearer_token_file)) or OAuth,
///    `Authorization: Bearer <token>`, else 401 with a `WWW-Authenticate`
///    challenge: `Bearer realm="mcp"` with a static token only;
///    `Bearer resource_metadata="<metadata URL>", scope="..."` with OAuth,
///    and `error="invalid_token", error_description="<why>"` for a token
///    that is not accepted. A token in the query string (`?access_token=`)
///    is refused, not ignored.
/// 6. With a token or OAuth, a request naming a session (`Mcp-Session-Id`)
///    that another caller opened gets the 404 of an unknown session, and a
///    warning is logged: a session is used only by its opener (an access
///    token's issuer and `sub`; the static token's holders are one caller).
/// 7. With OAuth, a `tools/call` of a tool the token's scopes do not allow
///    gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
///    scope="<the scope it needs>", resource_metadata="..."`.
/// 8. A POST body of at most 4 MiB (413) that arrives within 30 s (408);
///    request headers must arrive within 30 s too, or the connection is
///    closed. A body that is not JSON gets JSON-RPC's parse error (-32700),
///    JSON that is not a JSON-RPC message its invalid request (-32600),
///    both with HTTP 400.
/// 9. At most 256 sessions at once: an `initialize` beyond that gets 503
///    with `Retry-After`. A session unused for 10 minutes ends; requests
///    naming it then get 404, and the client starts a new one.
/// 10. At most 256 JSON-RPC requests in flight in the process, sessions or
///     not, and 32 in one session: one more gets 429 with `Retry-After`
///     (notifications, such as cancellations, always pass).
///
/// And every connection: at most 256 may be open that have not yet sent a
/// request that passed 2 to 5; one more closes the oldest of them, so a
/// client cannot hold sockets and memory without the token, nor lock
/// others out by trying.
///
/// ## In a router of your own
///
/// `HttpServer` is [`McpHttp`] (the checks, as a tower layer over rmcp's
/// service) plus a listener, the health probe, the connection limits and
/// the stop. An application with a server of its own (axum, or any tower
/// stack) mounts [`McpHttp::build`]'s service in its router instead.
///
/// ## Sessions, or none
///
/// By default a client on a revision before 2026-07-28 gets a session (its
/// `Mcp-Session-Id`), held in this process: behind a balancer, its requests
/// must all reach this process (sticky routing). [`stateless`](Self::stateless)
/// serves such clients without sessions, so any number of processes can
/// stand behind an ordinary round-robin balancer. Clients on 2026-07-28
/// never have sessions.
///
/// ## Stopping
///
/// When `shutdown` is cancelled the server first drains, if
/// [`with_drain_delay`](Self::with_drain_delay) says so: [`READY_PATH`]
/// answers 503 while everything is still served. Then it stops accepting
/// connections,
/// lets the requests in flight finish for up to the grace period (30 s;
/// [`with_shutdown_grace`](Self::with_shutdown_grace)), then cancels the
/// calls still running, which are answered `cancelled`, ends the sessions
/// and returns.
pub struct HttpServer {
    listener: TcpListener,
    http: McpHttp,
    /// Cancelled by a second request to stop: the drain and the grace end
    /// at once.
    stop_now: CancellationToken,
}

/// What it serves and how, never its token.
impl std::fmt::Debug for HttpServer {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("HttpServer")
            .field("address", &self.listener.local_addr().ok())
            .field("http", &self.http)
            .finish()
    }
}

/// Methods that set the [`McpHttp`] inside, documented there.
macro_rules! configures {
    ($($(#[$doc:meta])* fn $name:ident($($argument:ident: $type:ty),*);)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self $(, $argument: $type)*) -> Self {
                self.http = self.http.$name($($argument),*);
                self
            }
        )*
    };
}

impl HttpServer {
    /// Binds `address` for `server`: a [`ToolRegistry`](tool_core::ToolRegistry),
    /// or an [`McpServer`] built with the options its calls run with.
    pub async fn bind(server: impl Into<McpServer>, address: SocketAddr) -> std::io::Result<Self> {
        Ok(HttpServer {
            listener: TcpListener::bind(address).await?,
            http: McpHttp::new(server),
            stop_now: CancellationToken::new(),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    configures! {
        /// See [`McpHttp::stateless`].
        fn stateless();
        /// See [`McpHttp::with_bearer_token`].
        ///
        /// ```no_run
        /// # async fn serve(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
        /// let token = std::fs::read_to_string("/run/secrets/mcp-token")?;
        /// tool_mcp::HttpServer::bind(tools, "0.0.0.0:8080".parse().unwrap())
        ///     .await?
        ///     .with_bearer_token(token.trim())
        ///     .run(tokio_util::sync::CancellationToken::new())
        ///     .await
        /// # }
        /// ```
        fn with_bearer_token(token: impl Into<String>);
        /// See [`McpHttp::with_bearer_token_file`]; [`run`](Self::run)
        /// fails if the file cannot be read at start.
        fn with_bearer_token_file(path: impl Into<PathBuf>);
        /// Serves a non-loopback address without a token, which
        /// [`run`](Self::run) otherwise refuses to: anyone who can reach the
        /// address can then call every tool.
        fn allow_unauthenticated();
        /// See [`McpHttp::with_allowed_hosts`].
        fn with_allowed_hosts(hosts: impl IntoIterator<Item = impl Into<String>>);
        /// See [`McpHttp::with_allowed_origins`].
        fn with_allowed_origins(origins: impl IntoIterator<Item = impl Into<String>>);
        /// See [`McpHttp::with_max_body_bytes`].
        fn with_max_body_bytes(bytes: usize);
        /// See [`McpHttp::with_max_sessions`].
        fn with_max_sessions(sessions: usize);
        /// See [`McpHttp::with_session_idle_timeout`].
        fn with_session_idle_timeout(timeout: Duration);
        /// See [`McpHttp::with_max_calls_per_session`].
        fn with_max_calls_per_session(calls: usize);
        /// See [`McpHttp::with_max_in_flight`].
        fn with_max_in_flight(requests: usize);
        /// See [`McpHttp::with_body_read_timeout`].
        fn with_body_read_timeout(timeout: Duration);
        /// See [`McpHttp::with_shared_state`].
        fn with_shared_state(state: SharedState);
        /// See [`McpHttp::with_caller_limits`].
        fn with_caller_limits(limits: CallerLimits);
        /// See [`McpHttp::with_trusted_proxies`].
        fn with_trusted_proxies(proxies: impl IntoIterator<Item = impl Into<String>>);
        /// See [`McpHttp::with_credential_stale_limit`].
        fn with_credential_stale_limit(limit: Duration);
        /// See [`McpHttp::with_sse_polling`].
        fn with_sse_polling(close_after: Duration, retry: Duration);
    }

    /// How many connections may be open that have not yet sent a request
    /// past the `Host`, `Origin` and token checks (default 256); one more
    /// closes the oldest of them. A connection a client's pool opened and
    /// never used is such a connection too (until its client uses it, or
    /// the header read timeout closes it): raise this for many clients that
    /// keep spare connections.
    pub fn with_max_pending_connections(mut self, connections: usize) -> Self {
        self.http.limits.max_pending_connections = connections;
        self
    }

    /// How long the server keeps serving once `shutdown` is cancelled,
    /// with [`READY_PATH`] answering 503 (default none): time for a
    /// balancer's readiness check to take the process out of rotation
    /// before it stops accepting connections, so no request is sent to a
    /// closed port. Then it stops as [`with_shutdown_grace`](Self::with_shutdown_grace)
    /// says.
    pub fn with_drain_delay(mut self, delay: Duration) -> Self {
        self.http.limits.drain_delay = delay;
        self
    }

    /// A second request to stop (an operator's second signal): when
    /// `now` is cancelled during the drain or the grace, both end at once,
    /// and the calls still running are cancelled (and answered so).
    pub fn with_stop_now(mut self, now: CancellationToken) -> Self {
        self.stop_now = now;
        self
    }

    /// How long calls in flight may go on once `shutdown` is cancelled
    /// (default 30 s); those still running then are cancelled and answered
    /// `cancelled`.
    pub fn with_shutdown_grace(mut self, grace: Duration) -> Self {
        self.http.limits.shutdown_grace = grace;
        self
    }

    /// How long a client has to send a request's headers (default 30 s),
    /// and how long an open connection may sit idle between requests; then
    /// the connection is closed.
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Self {
        self.http.limits.header_read_timeout = timeout;
        self
    }

    /// The `Host` values accepted, for people: `localhost, 127.0.0.1,
    /// [::1], and any IP address of this machine`. An error when a named
    /// host is not a host name.
    pub fn accepted_hosts(&self) -> std::io::Result<String> {
        Ok(hosts::HostPolicy::new(
            Some(self.local_addr()?),
            &self.http.allowed_hosts,
            &self.http.allowed_origins,
        )?
        .describe())
    }

    /// Serves until `shutdown` is cancelled, then stops as
    /// [`with_shutdown_grace`](Self::with_shutdown_grace) says. Refuses to
    /// start (an `InvalidInput` error saying why) on a non-loopback address
    /// with neither a token nor OAuth unless [`allow_unauthenticated`](Self::allow_unauthenticated),
    /// and on a token, a token file, an OAuth configuration (its URLs,
    /// scopes, JWKS file) or a named host that cannot be used.
    pub async fn run(self, shutdown: CancellationToken) -> std::io::Result<()> {
        serve::run(self, shutdown).await
    }
}

cfg_feature!("oauth" =>
    impl HttpServer {
        /// Makes the server an OAuth 2.1 resource server, as the MCP
        /// authorization specification describes: it serves its protected
        /// resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`
        /// (and `/.well-known/oauth-protected-resource/mcp`), names it in every
        /// 401, and accepts JWT access tokens that `config` validates, each
        /// allowing the tools its scopes allow. A static token
        /// ([`with_bearer_token`](Self::with_bearer_token)) may be configured
        /// too: either credential is then accepted.
        ///
        /// ```no_run
        /// # async fn serve(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
        /// use tool_mcp::{HttpServer, OAuthConfig};
        ///
        /// let oauth = OAuthConfig::new(
        ///     "https://auth.example.com/realms/mcp",
        ///     "https://mcp.example.com/mcp",
        ///     "/etc/mcp/jwks.json",
        /// );
        /// HttpServer::bind(tools, "0.0.0.0:8080".parse().unwrap())
        ///     .await?
        ///     .with_oauth(oauth)
        ///     .with_allowed_hosts(["mcp.example.com"])
        ///     .run(tokio_util::sync::CancellationToken::new())
        ///     .await
        /// # }
        /// ```
        ///
        /// The metadata it serves, for that configuration and the default
        /// scopes:
        ///
        /// ```json
        /// {"resource": "https://mcp.example.com/mcp",
        ///  "authorization_servers": ["https://auth.example.com/realms/mcp"],
        ///  "scopes_supported": ["tools:read", "tools:write"],
        ///  "bearer_methods_supported": ["header"]}
        /// ```
        ///
        /// The server never passes a client's token on: the upstreams of a
        /// federating server ([`client::Upstream`](crate::client::Upstream))
        /// are sent their own credentials, as the specification requires.
        pub fn with_oauth(mut self, config: OAuthConfig) -> Self {
            self.http = self.http.with_oauth(config);
            self
        }
    }
);

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

/// `body` with its content type to GET and HEAD; to anything else, 405
/// naming `what` may be had with GET.
fn document(method: &Method, what: &str, body: Bytes, content_type: &'static str) -> HttpResponse {
    if method != Method::GET && method != Method::HEAD {
        return *Refusal::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("Method Not Allowed: GET {what}\n"),
        )
        .with_header(ALLOW, HeaderValue::from_static("GET, HEAD"))
        .0;
    }
    let mut response = Response::new(Full::new(body).boxed());
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// Serves `registry` over streamable HTTP at `http://<address>/mcp` until
/// `shutdown` is cancelled, with the default limits and no token: a
/// non-loopback `address` is refused (use [`HttpServer`] to give a token).
pub async fn serve_http(
    registry: impl Into<McpServer>,
    address: SocketAddr,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    HttpServer::bind(registry, address)
        .await?
        .run(shutdown)
        .await
}
