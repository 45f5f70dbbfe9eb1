//! `mcp --http`: the options of the HTTP server from the command line and
//! the environment, the token, and the signals that stop it.

use crate::cli::HttpLimits;
use crate::token_file::read_token_file;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_mcp::{HttpServer, McpServer, OAuthConfig};

/// The bearer token, when `--token-file` is not given.
pub const TOKEN_VARIABLE: &str = "TOOL_EXAMPLES_TOKEN";
/// More allowed hosts, comma-separated.
pub const HOSTS_VARIABLE: &str = "TOOL_EXAMPLES_ALLOWED_HOSTS";
/// More allowed origins, comma-separated.
pub const ORIGINS_VARIABLE: &str = "TOOL_EXAMPLES_ALLOWED_ORIGINS";

/// Where the token came from, to say so at startup.
pub struct Token {
    value: String,
    source: String,
    /// The file it was read from: the server reads it again when it
    /// changes, so it can be rotated without a restart.
    file: Option<PathBuf>,
}

/// The token's value never reaches a log: only where it came from.
impl std::fmt::Debug for Token {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("Token")
            .field("source", &self.source)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Everything `mcp --http` serves with, read and checked.
#[derive(Debug)]
pub struct HttpOptions {
    /// Where to listen.
    pub address: SocketAddr,
    /// The bearer token, if any.
    pub token: Option<Token>,
    /// OAuth access tokens accepted, if any (`--oauth-issuer`, ...).
    pub oauth: Option<OAuthConfig>,
    /// `--allowed-host`s and those of the environment.
    pub allowed_hosts: Vec<String>,
    /// `--allowed-origin`s and those of the environment.
    pub allowed_origins: Vec<String>,
    /// `--allow-unauthenticated`.
    pub allow_unauthenticated: bool,
    /// `--stateless`.
    pub stateless: bool,
    /// `--state-url`: sessions in the store every process shares.
    pub shared: Option<tool_mcp::SharedState>,
    /// The limits given; the library's defaults for the others.
    pub limits: HttpLimits,
    /// How long the calls running may go on once a signal asks to stop.
    pub shutdown_grace: Duration,
    /// How long readiness answers 503 before the listener closes.
    pub drain_delay: Duration,
}

/// The bearer token: from `--token-file` when given, else from
/// `TOOL_EXAMPLES_TOKEN`, else none. Surrounding whitespace (the file's last
/// newline) is not part of it; an empty one is a mistake, not "no token".
pub fn bearer_token(file: Option<&Path>) -> io::Result<Option<Token>> {
    if let Some(path) = file {
        let source = format!("--token-file {}", path.display());
        let value = read_token_file(&source, path)?;
        return Ok(Some(Token {
            value,
            source,
            file: Some(path.to_owned()),
        }));
    }
    let value = match std::env::var(TOKEN_VARIABLE) {
        Ok(value) => value,
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{TOKEN_VARIABLE} is not UTF-8"),
            ));
        }
    };
    let value = value.trim();
    if value.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{TOKEN_VARIABLE}: the token is empty"),
        ));
    }
    Ok(Some(Token {
        value: value.to_owned(),
        source: TOKEN_VARIABLE.to_owned(),
        file: None,
    }))
}

/// `values` given as flags, then those of the comma-separated `variable`.
pub fn with_env_list(mut values: Vec<String>, variable: &str) -> io::Result<Vec<String>> {
    match std::env::var(variable) {
        Ok(list) => values.extend(
            list.split(',')
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_owned),
        ),
        Err(std::env::VarError::NotPresent) => {}
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{variable} is not UTF-8"),
            ));
        }
    }
    Ok(values)
}

/// Serves over HTTP until SIGTERM or SIGINT, logging where, for which
/// hosts and with what authentication; then stops as the grace period
/// says and returns `Ok`. A non-loopback address with no token is refused
/// before anything is bound, unless `--allow-unauthenticated`.
pub async fn serve_http(server: McpServer, options: HttpOptions) -> io::Result<()> {
    let address = options.address;
    if options.token.is_none()
        && options.oauth.is_none()
        && !options.allow_unauthenticated
        && !address.ip().is_loopback()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "refusing to serve MCP on {address} without a token: that address can be \
                 reached from other machines, and whoever reaches it could call every tool. \
                 Give a token with --token-file PATH or {TOKEN_VARIABLE}, or OAuth with \
                 --oauth-issuer and --audience, or pass --allow-unauthenticated if that \
                 is meant"
            ),
        ));
    }
    let mut http = HttpServer::bind(server, address)
        .await?
        .with_allowed_hosts(options.allowed_hosts)
        .with_allowed_origins(options.allowed_origins);
    http = with_limits(http, &options.limits);
    if options.stateless {
        http = http.stateless();
    }
    let shared = options.shared.as_ref().map(tool_mcp::SharedState::describe);
    if let Some(state) = options.shared {
        http = http.with_shared_state(state);
    }
    let signals = Signals::watch();
    http = http
        .with_shutdown_grace(options.shutdown_grace)
        .with_drain_delay(options.drain_delay)
        .with_stop_now(signals.again.clone());
    // Whoever reaches a non-loopback address without a token may call every
    // tool: that is said as a warning, not as news.
    let mut accepted = Vec::new();
    if let Some(token) = options.token {
        http = match token.file {
            Some(file) => http.with_bearer_token_file(file),
            None => http.with_bearer_token(token.value),
        };
        accepted.push(format!("bearer token from {}", token.source));
    }
    if let Some(oauth) = options.oauth {
        accepted.push(format!(
            "OAuth access tokens from {} for {} (scopes {})",
            oauth.issuer(),
            oauth.audience(),
            oauth.scopes_supported().join(", ")
        ));
        http = http.with_oauth(oauth);
    }
    let (authentication, open_to_all) = if !accepted.is_empty() {
        (accepted.join("; "), false)
    } else if address.ip().is_loopback() {
        ("none (loopback only)".to_owned(), false)
    } else {
        http = http.allow_unauthenticated();
        let warning =
            "NONE (--allow-unauthenticated): whoever reaches this address can call every tool";
        (warning.to_owned(), true)
    };
    let hosts = http.accepted_hosts()?;
    tracing::info!(
        "serving MCP on http://{}/mcp (Ctrl-C to stop)",
        http.local_addr()?
    );
    tracing::info!("accepting Host: {hosts} (name others with --allowed-host)");
    if open_to_all {
        tracing::warn!("authentication: {authentication}");
    } else {
        tracing::info!("authentication: {authentication}");
    }
    if options.stateless {
        tracing::info!("stateless: no sessions; any process behind a balancer can answer");
    } else if let Some(store) = shared {
        tracing::info!(
            "sessions in the shared store ({store}): any process behind a balancer can answer; \
             readiness at /readyz"
        );
    }
    http.run(signals.first).await
}

/// Serves over stdio until the client closes stdin, or until SIGTERM or
/// SIGINT: then the calls running have `grace` to finish (the rest are
/// cancelled and answered), and it returns `Ok`.
pub async fn serve_stdio(server: McpServer, grace: Duration) -> io::Result<()> {
    tool_mcp::serve_stdio_until(server, shutdown_on_signal(), grace).await
}

/// The grace period when none is given: as long as an orchestrator
/// commonly waits between SIGTERM and SIGKILL.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// The drain when none is given: a few periods of a common readiness
/// check (Kubernetes' default `periodSeconds` is 10; balancers' health
/// checks are often 2 to 5 s apart), short beside the grace.
pub const DEFAULT_DRAIN_DELAY: Duration = Duration::from_secs(5);

/// The stop signals, as tokens: the first SIGTERM or SIGINT, and a
/// second one after it (which ends the drain and the grace at once).
struct Signals {
    first: CancellationToken,
    again: CancellationToken,
}

impl Signals {
    fn watch() -> Signals {
        let signals = Signals {
            first: CancellationToken::new(),
            again: CancellationToken::new(),
        };
        let (first, again) = (signals.first.clone(), signals.again.clone());
        tokio::spawn(async move {
            cancel_on_signal(first).await;
            let signal = stop_signal().await;
            tracing::info!("{signal} again: stopping now");
            again.cancel();
        });
        signals
    }
}

/// A token cancelled at the first SIGTERM or SIGINT.
fn shutdown_on_signal() -> CancellationToken {
    let shutdown = CancellationToken::new();
    tokio::spawn(cancel_on_signal(shutdown.clone()));
    shutdown
}

/// How long a client whose stream `--sse-polling` closed waits before it
/// reconnects.
const SSE_RETRY: Duration = Duration::from_secs(1);

fn with_limits(mut http: HttpServer, limits: &HttpLimits) -> HttpServer {
    if let Some(sessions) = limits.max_sessions {
        http = http.with_max_sessions(sessions.get());
    }
    if let Some(requests) = limits.max_in_flight {
        http = http.with_max_in_flight(requests.get());
    }
    if let Some(requests) = limits.max_in_flight_per_session {
        http = http.with_max_calls_per_session(requests.get());
    }
    if let Some(connections) = limits.max_pending_connections {
        http = http.with_max_pending_connections(connections.get());
    }
    if let Some(bytes) = limits.max_body_bytes {
        http = http.with_max_body_bytes(bytes.get());
    }
    if let Some(timeout) = limits.session_idle_timeout {
        http = http.with_session_idle_timeout(timeout);
    }
    if let Some(timeout) = limits.read_timeout {
        http = http
            .with_header_read_timeout(timeout)
            .with_body_read_timeout(timeout);
    }
    if let Some(limit) = limits.credential_stale_limit {
        http = http.with_credential_stale_limit(limit);
    }
    if let Some(close_after) = limits.sse_polling {
        http = http.with_sse_polling(close_after, SSE_RETRY);
    }
    http.with_trusted_proxies(limits.trusted_proxies.clone())
        .with_caller_limits(caller_limits(limits))
}

/// The limits per caller the flags set (none by default).
fn caller_limits(limits: &HttpLimits) -> tool_mcp::CallerLimits {
    let mut callers = tool_mcp::CallerLimits::new();
    if let Some(rate) = limits.rate_per_caller {
        let burst = limits.burst_per_caller.unwrap_or(rate);
        callers = callers.rate(rate.get(), burst.get());
    }
    if let Some(sessions) = limits.max_sessions_per_caller {
        callers = callers.sessions(sessions.get());
    }
    if let Some(requests) = limits.max_in_flight_per_caller {
        callers = callers.in_flight(requests.get());
    }
    callers
}

/// Cancels `shutdown` at the first SIGTERM (what an orchestrator sends) or
/// SIGINT (Ctrl-C).
async fn cancel_on_signal(shutdown: CancellationToken) {
    let signal = stop_signal().await;
    tracing::info!("{signal}: stopping");
    shutdown.cancel();
}

#[cfg(unix)]
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut terminate) = signal(SignalKind::terminate()) else {
        let _ = tokio::signal::ctrl_c().await;
        return "SIGINT";
    };
    tokio::select! {
        _ = terminate.recv() => "SIGTERM",
        _ = tokio::signal::ctrl_c() => "SIGINT",
    }
}

#[cfg(not(unix))]
async fn stop_signal() -> &'static str {
    let _ = tokio::signal::ctrl_c().await;
    "Ctrl-C"
}
