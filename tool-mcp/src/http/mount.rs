//! MCP over streamable HTTP without a socket of its own: the checks as a
//! tower layer ([`McpGate`]) over rmcp's service, for an application that
//! serves MCP beside its own routes, behind its own middleware.
//! [`HttpServer`](super::HttpServer) is this plus a listener.

#[cfg(feature = "oauth")]
use super::auth::OAuth;
use super::auth::{Auth, BearerToken, StaticToken};
use super::callers::CallerQuotas;
use super::gate::Gate;
use super::hosts::HostPolicy;
use super::layer::McpGate;
use super::limits::{CallSlots, Limits, SessionSlots};
#[cfg(feature = "oauth")]
use super::oauth::{Metadata, OAuthConfig, ScopeTable, Verifier, check_tool_scopes};
use super::owners::SessionOwners;
use super::polling::MemoryEvents;
use super::quotas::{CallerLimits, MemoryQuotas, Network, QuotaStore};
use super::session_ends::{self, OpenSessions};
use super::shared::{self, SharedSessions, SharedState};
use crate::McpServer;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// rmcp's streamable HTTP service serving an [`McpServer`], with sessions
/// held in this process: what [`McpGate`] is layered over. It is a tower
/// `Service<http::Request<B>>`; [`McpHttp::build`] makes one.
pub type RmcpHttpService = StreamableHttpService<McpServer, LocalSessionManager>;

/// Where the static token comes from.
#[derive(Clone)]
pub(super) enum TokenSource {
    Value(String),
    File(PathBuf),
}

/// MCP over streamable HTTP, to mount in an application's own router:
/// the same checks, limits and sessions as [`HttpServer`](super::HttpServer),
/// without its socket. [`build`](Self::build) gives rmcp's service and the
/// [`McpGate`] layer that goes over it; the application routes requests to
/// the layered service and adds whatever middleware it already uses.
///
/// ```
/// use std::time::Duration;
/// use tool_mcp::{McpGate, McpHttp};
/// use tower_layer::Layer;
///
/// # fn mount(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
/// let (gate, rmcp_service) = McpHttp::new(tools)
///     .with_bearer_token("s3cret-token")
///     .with_allowed_hosts(["app.example.com"])
///     .build()?;
/// // A tower `Service<http::Request<B>>` for any body `B` (hyper's,
/// // axum's): with axum, `Router::new().route_service("/mcp", mcp)`.
/// let mcp = gate.layer(rmcp_service);
/// # let _ = mcp;
/// // At shutdown: the calls get their grace, then the sessions end.
/// # async fn stop(gate: McpGate) {
/// gate.stop(Duration::from_secs(30)).await;
/// # }
/// # Ok(())
/// # }
/// ```
///
/// What the layered service does to each request is steps 2 to 10 of
/// [`HttpServer`](super::HttpServer)'s list: `Host` and `Origin`, the
/// protected resource metadata (with OAuth, at the paths
/// [`McpGate::metadata_paths`] names: route them to the service too), the
/// credentials, the session's owner, the scope of a call, the body and the
/// limits. It answers MCP at whatever path it is routed from; the health
/// probe, the connection limits and the header timeout are the server's
/// (hyper's, axum's), not the layer's.
///
/// Accepted `Host` values: `localhost`, `127.0.0.1`, `[::1]` and the hosts
/// named with [`with_allowed_hosts`](Self::with_allowed_hosts) (the layer
/// does not know the address it is served on).
///
/// Without a token or OAuth, [`build`](Self::build) refuses unless told
/// [`allow_unauthenticated`](Self::allow_unauthenticated): the application's
/// own middleware may authenticate, but the layer cannot know that it does.
pub struct McpHttp {
    pub(super) server: McpServer,
    pub(super) token: Option<TokenSource>,
    #[cfg(feature = "oauth")]
    pub(super) oauth: Option<OAuthConfig>,
    pub(super) allow_unauthenticated: bool,
    pub(super) allowed_hosts: Vec<String>,
    pub(super) allowed_origins: Vec<String>,
    pub(super) limits: Limits,
    pub(super) stateless: bool,
    pub(super) shared: Option<SharedState>,
    pub(super) caller_limits: CallerLimits,
}

/// What it serves and how, never its token.
impl std::fmt::Debug for McpHttp {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut debug = out.debug_struct("McpHttp");
        debug
            .field("server", &self.server)
            .field("token", &self.token.as_ref().map(|_| "set"));
        #[cfg(feature = "oauth")]
        debug.field("oauth", &self.oauth.as_ref().map(|_| "set"));
        debug
            .field("allow_unauthenticated", &self.allow_unauthenticated)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("limits", &self.limits)
            .field("stateless", &self.stateless)
            .field("shared", &self.shared)
            .field("caller_limits", &self.caller_limits)
            .finish()
    }
}

impl McpHttp {
    /// MCP over HTTP for `server`: a [`ToolRegistry`](tool_core::ToolRegistry),
    /// or an [`McpServer`] built with the options its calls run with.
    pub fn new(server: impl Into<McpServer>) -> Self {
        McpHttp {
            server: server.into(),
            token: None,
            #[cfg(feature = "oauth")]
            oauth: None,
            allow_unauthenticated: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            limits: Limits::default(),
            stateless: false,
            shared: None,
            caller_limits: CallerLimits::default(),
        }
    }

    /// Limits per caller (none by default): requests per second (GCRA, a
    /// burst allowed), sessions open and JSON-RPC requests in flight, each
    /// answered 429 with `Retry-After` when reached. A caller is who the
    /// credentials name (an access token's subject, or the static token's
    /// holders as one), or, unauthenticated, the client's address (with
    /// [`CallerLimits::trusted_proxies`], the one those proxies give in
    /// `X-Forwarded-For`; a mounted service knows the address only from
    /// a [`ClientAddr`](super::ClientAddr) in the request's extensions).
    ///
    /// Counted in the shared store when [`SharedState::with_quotas`] gave
    /// one, so that they hold across every process sharing it; else in
    /// this process's memory ([`MemoryQuotas`](super::MemoryQuotas)).
    ///
    /// ```
    /// use tool_mcp::{CallerLimits, McpHttp};
    ///
    /// # fn mount(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
    /// # let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    /// # let _guard = runtime.enter();
    /// let (gate, service) = McpHttp::new(tools)
    ///     .with_bearer_token("s3cret-token")
    ///     .with_caller_limits(
    ///         CallerLimits::new()
    ///             .rate(20, 40)
    ///             .sessions(8)
    ///             .in_flight(16)
    ///             .trusted_proxies(["10.0.0.0/8"]),
    ///     )
    ///     .build()?;
    /// # let _ = (gate, service);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_caller_limits(mut self, limits: CallerLimits) -> Self {
        self.caller_limits = limits;
        self
    }

    /// Believes `X-Forwarded-For` from these proxies (addresses, or
    /// networks such as `10.0.0.0/8`): the rightmost address in it that is
    /// not itself a trusted proxy is the client, for the audit log
    /// (target `tool_mcp::audit`) and the limits per caller. From any
    /// other peer the header is ignored: a client could write anything in
    /// it. The same list as [`CallerLimits::trusted_proxies`].
    ///
    /// ```
    /// # fn mount(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
    /// # let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    /// # let _guard = runtime.enter();
    /// let (gate, service) = tool_mcp::McpHttp::new(tools)
    ///     .with_bearer_token("s3cret-token")
    ///     .with_trusted_proxies(["10.0.0.0/8", "192.168.1.7"])
    ///     .build()?;
    /// # let _ = (gate, service);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_trusted_proxies(
        mut self,
        proxies: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.caller_limits = self.caller_limits.trusted_proxies(proxies);
        self
    }

    /// Keeps sessions in `state`, the store every process serving this
    /// deployment shares, so that none of them needs sticky routing: a
    /// session opened by one process is served by any other (rmcp
    /// restores it from its `initialize`), keeps its owner there, resumes
    /// its streams there (`Last-Event-ID`), and a client's answer to a
    /// question a call asked (elicitation) or its cancellation reaches the
    /// process running that call. A session unused for the idle timeout
    /// ends everywhere at once.
    ///
    /// A request that needs the store when it does not answer gets 503
    /// with `Retry-After` and an error in the logs naming the store: never
    /// a session served from one process's memory alone. tool-redis gives
    /// one on Redis. Stateless serving needs none of it.
    pub fn with_shared_state(mut self, state: SharedState) -> Self {
        self.shared = Some(state);
        self
    }

    /// Serves clients of every revision without sessions: each request is
    /// whole in itself, so it can reach any process behind a balancer.
    /// Answers are JSON, or an event stream when the call reports progress
    /// before its result; a client cancels a call by closing its request
    /// (`notifications/cancelled` cannot reach a request of another
    /// process, and is not needed). There is then no server-to-client
    /// stream outside a request (`GET /mcp` gets 405), and no session limit.
    pub fn stateless(mut self) -> Self {
        self.stateless = true;
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request, compared
    /// in constant time. The token must be visible ASCII without spaces;
    /// read it from a file or the environment, not from a command line,
    /// which other users of the machine can see. This is a static token,
    /// not MCP's OAuth authorization flow (see `with_oauth`, feature
    /// `oauth`, which it can stand beside): it names no one, and allows
    /// every tool.
    pub fn with_bearer_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(TokenSource::Value(token.into()));
        self
    }

    /// [`with_bearer_token`](Self::with_bearer_token) with the token in the
    /// file at `path` (surrounding whitespace is not part of it), read
    /// again when the file changes: the file is looked at, at most once a
    /// second, as requests arrive, so a new token takes over without a
    /// restart and the old one stops working. The file decides: emptied
    /// or deleted, no static token is accepted (that is how it is revoked);
    /// unreadable or invalid, the last token is kept for
    /// [`with_credential_stale_limit`](Self::with_credential_stale_limit)
    /// at most, with a warning each minute. Building fails if the file
    /// cannot be read then, or holds no token.
    pub fn with_bearer_token_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.token = Some(TokenSource::File(path.into()));
        self
    }

    /// Serves without a token or OAuth. [`HttpServer`](super::HttpServer)
    /// needs it only on a non-loopback address; a mounted service always
    /// does, since it cannot see the address it is served on: anyone who
    /// reaches it can then call every tool, unless the application's own
    /// middleware stops them first.
    pub fn allow_unauthenticated(mut self) -> Self {
        self.allow_unauthenticated = true;
        self
    }

    /// The host names (`name` or `name:port`) clients will use in `Host`,
    /// besides the loopback names (and, served by
    /// [`HttpServer`](super::HttpServer), the address bound). Naming any
    /// turns off "any IP address of this machine" on an all-interfaces
    /// address.
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

    /// How long a credential file (the token file, the JWKS file) that
    /// cannot be read or is not valid keeps its last good value (default
    /// 5 minutes), with a warning each minute; then nothing it held is
    /// accepted until a good file is back. A file emptied (a token file
    /// with no token, a key set with no keys) or deleted accepts nothing
    /// at once: writing the file is how a credential is revoked. The
    /// same bound holds for keys fetched from an OAuth issuer
    /// (`OAuthConfig::from_issuer`, feature `oauth`)
    /// while it cannot be reached.
    pub fn with_credential_stale_limit(mut self, limit: Duration) -> Self {
        self.limits.credential_stale_limit = limit;
        self
    }

    /// SSE polling (SEP-1699, MCP 2025-11-25): a request's event stream is
    /// closed once it has been open for `close_after`, and the client,
    /// told by the stream's first event to reconnect after `retry`, reads
    /// the rest with `Last-Event-ID`: no connection stays open for the
    /// length of a long call, so a balancer's or proxy's idle or
    /// connection timeout above `close_after` never cuts one. The call
    /// runs on, holding its place in flight, and its events are stored:
    /// in this process's memory (a reconnection is sent what it missed,
    /// then what follows, for up to `close_after` again), or with
    /// [`with_shared_state`](Self::with_shared_state) in the shared store
    /// (a reconnection to any process is sent what was stored, and the
    /// client polls again after `retry`). Off by default: a client that
    /// does not resume (before SEP-1699) would lose the answer.
    /// Stateless serving has no session to resume and is never polled.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_mcp::McpHttp;
    ///
    /// # fn mount(tools: tool_core::ToolRegistry) -> std::io::Result<()> {
    /// # let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    /// # let _guard = runtime.enter();
    /// // Behind a proxy that cuts connections idle for 60 s.
    /// let (gate, service) = McpHttp::new(tools)
    ///     .with_bearer_token("s3cret-token")
    ///     .with_sse_polling(Duration::from_secs(30), Duration::from_secs(2))
    ///     .build()?;
    /// # let _ = (gate, service);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_sse_polling(mut self, close_after: Duration, retry: Duration) -> Self {
        self.limits.sse_polling = Some((close_after, retry));
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

    /// How many JSON-RPC requests the whole server may have in flight,
    /// whether they belong to a session or not (default 256); one more gets
    /// 429 with `Retry-After`.
    pub fn with_max_in_flight(mut self, requests: usize) -> Self {
        self.limits.max_in_flight = requests;
        self
    }

    /// How long a client has to send a request's whole body (default 30
    /// s); then 408 and the connection is closed. The whole body, not the
    /// time between its pieces (tower-http's `RequestBodyTimeoutLayer`),
    /// so a client sending a byte now and then cannot hold a request open.
    pub fn with_body_read_timeout(mut self, timeout: Duration) -> Self {
        self.limits.body_read_timeout = timeout;
        self
    }

    /// rmcp's service and the layer that checks what reaches it, or an
    /// `InvalidInput` error saying why not: no token or OAuth without
    /// [`allow_unauthenticated`](Self::allow_unauthenticated), or a token,
    /// token file, OAuth configuration (its URLs, scopes, JWKS file) or
    /// named host that cannot be used.
    pub fn build(self) -> std::io::Result<(McpGate, RmcpHttpService)> {
        self.assemble(None)
    }

    /// [`build`](Self::build) for a server bound to `bound` (its own
    /// address is then an accepted `Host`, and no token is needed on
    /// loopback), or for a mounted service (`None`).
    pub(super) fn assemble(
        self,
        bound: Option<SocketAddr>,
    ) -> std::io::Result<(McpGate, RmcpHttpService)> {
        let auth = self.auth()?;
        let loopback = bound.is_some_and(|address| address.ip().is_loopback());
        if !auth.required() && !self.allow_unauthenticated && !loopback {
            return Err(unauthenticated(bound));
        }
        let hosts = HostPolicy::new(bound, &self.allowed_hosts, &self.allowed_origins)?;
        let limits = self.limits;
        // rmcp's own stop: it ends the sessions and their streams, so it
        // comes last, after the calls are answered (McpGate::stop).
        let sessions_end = CancellationToken::new();
        let mut config = StreamableHttpServerConfig::default()
            .with_cancellation_token(sessions_end.clone())
            // The gate has read the whole body within this limit already;
            // rmcp's must not be smaller.
            .with_max_request_body_bytes(limits.max_body_bytes)
            // `Host` and `Origin` are checked once, by the gate, before
            // the credentials: rmcp's list cannot say "any IP address of
            // this machine" nor "an Origin naming an accepted host, any
            // port", and it logs each refusal as a warning, which anyone
            // who reaches the port could use to fill the logs.
            .disable_allowed_hosts();
        if self.stateless {
            config = config
                .with_legacy_session_mode(false)
                .with_json_response(true);
        }
        let trusted = trusted_networks(&self.caller_limits)?;
        let callers = caller_quotas(
            self.caller_limits,
            self.shared.as_ref().and_then(|state| state.quotas.clone()),
            limits.session_idle_timeout,
        )?;
        let shared = self.shared.filter(|_| !self.stateless);
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(limits.session_idle_timeout);
        if let Some(shared) = &shared {
            config.session_store = Some(Arc::clone(&shared.sessions));
            sessions = sessions.with_event_store(Arc::clone(&shared.events));
        }
        if let Some((close_after, retry)) = limits.sse_polling.filter(|_| !self.stateless) {
            // The retry hint of every stream's first event.
            config = config.with_sse_retry(Some(retry));
            sessions.session_config.sse_retry = Some(retry);
            if shared.is_none() {
                sessions = sessions.with_event_store(Arc::new(MemoryEvents::new(close_after)));
            }
        }
        let sessions = Arc::new(sessions);
        let server = if self.stateless {
            self.server.serving_without_sessions()
        } else {
            self.server
        };
        let calls_of = server.clone();
        let service =
            StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&sessions), config);
        // With credentials, each session is its opener's alone; without,
        // all callers are one and the same.
        let shared = match shared {
            Some(state) => Some(shared_sessions(
                state,
                &sessions,
                &limits,
                auth.required(),
                sessions_end.clone(),
            )?),
            None => None,
        };
        let owners = (!self.stateless && auth.required() && shared.is_none())
            .then(|| SessionOwners::new(Arc::clone(&sessions)));
        let open_sessions = (!self.stateless).then(|| {
            let open = Arc::new(OpenSessions::default());
            session_ends::spawn_sweeper(
                Arc::clone(&open),
                Arc::clone(&sessions),
                sessions_end.clone(),
            );
            open
        });
        let gate = Gate {
            hosts,
            auth,
            limits,
            owners,
            shared,
            callers,
            trusted,
            draining: std::sync::atomic::AtomicBool::new(false),
            sessions: (!self.stateless).then(|| SessionSlots::new(sessions, limits.max_sessions)),
            open_sessions,
            calls: CallSlots::new(limits.max_in_flight, limits.max_calls_per_session),
        };
        Ok((McpGate::new(gate, calls_of, sessions_end), service))
    }

    fn auth(&self) -> std::io::Result<Auth> {
        let token = match self.token.clone() {
            None => None,
            Some(TokenSource::Value(token)) => Some(StaticToken::Fixed(BearerToken::new(token)?)),
            Some(TokenSource::File(path)) => Some(StaticToken::file(
                &path,
                self.limits.credential_stale_limit,
            )?),
        };
        Ok(Auth {
            token,
            #[cfg(feature = "oauth")]
            oauth: match &self.oauth {
                None => None,
                Some(config) => {
                    check_tool_scopes(config, &self.server.tools().current().registry)?;
                    Some(OAuth {
                        metadata: Metadata::new(config)?,
                        verifier: Verifier::new(config, self.limits.credential_stale_limit)?,
                        scopes: Arc::new(ScopeTable::new(
                            config,
                            self.server.tools(),
                            self.server.call_options(),
                        )),
                    })
                }
            },
        })
    }
}

/// The gate's side of shared sessions, and the task that hands this
/// process the messages other processes received for its calls. Needs a
/// tokio runtime (the task runs on it).
fn shared_sessions(
    state: SharedState,
    local: &Arc<LocalSessionManager>,
    limits: &Limits,
    owned: bool,
    sessions_end: CancellationToken,
) -> std::io::Result<SharedSessions> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(std::io::Error::other(
            "shared state needs a tokio runtime: build the service inside one",
        ));
    }
    shared::spawn_inbox(&state.directory, local, sessions_end);
    Ok(SharedSessions {
        directory: state.directory,
        store: state.sessions,
        local: Arc::clone(local),
        idle: limits.session_idle_timeout,
        owned,
    })
}

/// The trusted proxies' networks; an error names one that is not an
/// address or a network.
fn trusted_networks(limits: &CallerLimits) -> std::io::Result<Vec<Network>> {
    limits
        .trusted_proxies
        .iter()
        .map(|proxy| Network::parse(proxy))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| std::io::Error::new(std::io::ErrorKind::InvalidInput, why))
}

/// The gate's side of the limits per caller, `None` when none is set: in
/// `store` when given, else in this process's memory.
fn caller_quotas(
    limits: CallerLimits,
    store: Option<Arc<dyn QuotaStore>>,
    idle: Duration,
) -> std::io::Result<Option<CallerQuotas>> {
    if !limits.any() {
        return Ok(None);
    }
    if let Some(rate) = limits.rate
        && (rate.per_second == 0 || rate.burst == 0)
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a rate per caller of 0 requests a second, or a burst of 0, would refuse every request",
        ));
    }
    let mut process = [0u8; 8];
    getrandom::fill(&mut process).map_err(std::io::Error::other)?;
    Ok(Some(CallerQuotas {
        store: store.unwrap_or_else(|| Arc::new(MemoryQuotas::new())),
        limits,
        idle,
        process: process.iter().map(|byte| format!("{byte:02x}")).collect(),
        next: AtomicU64::new(0),
        renewed: Mutex::default(),
    }))
}

/// Why a server without credentials is refused: it would let whoever
/// reaches it call every tool.
fn unauthenticated(bound: Option<SocketAddr>) -> std::io::Error {
    let (what, builder) = match bound {
        Some(address) => (
            format!(
                "refusing to serve MCP on {address} without authentication: that address \
                 can be reached from other machines"
            ),
            "HttpServer",
        ),
        None => (
            "refusing to build MCP over HTTP without authentication: the layer cannot \
             see the address it will be served on"
                .to_owned(),
            "McpHttp",
        ),
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{what}, and whoever reaches it could call every tool; give it a bearer token \
             ({builder}::with_bearer_token){oauth}, or say that no authentication is meant \
             ({builder}::allow_unauthenticated)",
            oauth = if cfg!(feature = "oauth") {
                format!(" or OAuth ({builder}::with_oauth)")
            } else {
                String::new()
            },
        ),
    )
}

cfg_feature!("oauth" =>
    impl McpHttp {
        /// Makes the service an OAuth 2.1 resource server, as
        /// [`HttpServer::with_oauth`](super::HttpServer::with_oauth)
        /// describes. Route [`McpGate::metadata_paths`] to the layered
        /// service as well: clients find the metadata there.
        pub fn with_oauth(mut self, config: OAuthConfig) -> Self {
            self.oauth = Some(config);
            self
        }
    }
);
