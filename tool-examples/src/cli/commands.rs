//! Each command's flags. A field's doc comment is its `--help` text; its
//! first line is what `-h` shows.

use super::format::Format;
use super::{
    APPROVAL_KEY_VARIABLE, HTTP_VARIABLE, ROOT_VARIABLE, STATE_PASSWORD_VARIABLE,
    STATE_URL_VARIABLE, STATELESS_VARIABLE, TOKEN_FILE_VARIABLE,
};
use crate::upstream::{TokenFile, UpstreamEnv, UpstreamSettings, UpstreamSpec};
use clap::Args;
use clap::builder::NonEmptyStringValueParser;
use std::net::SocketAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;
use std::time::Duration;

/// `--root`, which `call` and `mcp` share: where the `Files` tools are
/// rooted.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// The directory `read` and `list` may look in
    #[arg(
        long = "root",
        value_name = "DIR",
        default_value = ".",
        env = ROOT_VARIABLE,
        hide_env_values = true
    )]
    pub dir: PathBuf,
}

/// The other MCP servers whose tools `call` and `mcp` add to their own, and
/// what those servers are given.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct Upstreams {
    /// Also serve or call another MCP server's tools, as PREFIX__name (repeatable)
    ///
    /// SERVER is [NAME=]URL (streamable HTTP) or [NAME=]"PROGRAM ARGS" (stdio); the prefix is
    /// NAME, else the URL's host and port or the program's name. `mcp` serves without an upstream
    /// that is down, and adds its tools when it connects.
    #[arg(long = "upstream", value_name = "SERVER", value_parser = UpstreamSpec::parse)]
    pub servers: Vec<UpstreamSpec>,
    /// Set NAME in every stdio upstream's environment, or pass this program's NAME on (repeatable)
    ///
    /// A stdio upstream gets only PATH, HOME, LANG and TMPDIR from this program, and these.
    #[arg(long = "upstream-env", value_name = "NAME[=VALUE]", value_parser = UpstreamEnv::parse)]
    pub env: Vec<UpstreamEnv>,
    /// Send the HTTP upstream NAME the bearer token read from FILE (repeatable)
    ///
    /// Surrounding whitespace is ignored; the file is read again when it changes. Without one, an
    /// HTTP upstream is sent TOOL_EXAMPLES_UPSTREAM_TOKEN's, if set.
    #[arg(long = "upstream-token-file", value_name = "NAME=FILE", value_parser = TokenFile::parse)]
    pub token_files: Vec<TokenFile>,
    /// Take the upstream NAME's word for its tools' annotations (repeatable)
    ///
    /// Otherwise an upstream's readOnlyHint and destructiveHint are shown to clients but decide
    /// nothing: each of its tools needs the write scope under OAuth, and counts as possibly
    /// destructive.
    #[arg(long = "upstream-trust", value_name = "NAME", value_parser = NonEmptyStringValueParser::new())]
    pub trusted: Vec<String>,
}

impl Upstreams {
    /// What [`add_upstreams`](crate::upstream::add_upstreams) gives the servers.
    pub fn settings(&self) -> UpstreamSettings {
        UpstreamSettings {
            env: self.env.clone(),
            token_files: self.token_files.clone(),
            trusted: self.trusted.clone(),
        }
    }
}

/// `--defer-all-except`, which `call`, `mcp` and `definitions` share: the
/// few tools offered up front when the others wait for a search
/// ([`defer_all_except`](crate::deferral::defer_all_except)).
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct Deferral {
    /// Offer only these tools up front, the others through tool_search (repeatable)
    ///
    /// NAMES are tool names, comma-separated. The other tools, upstream ones too, are listed no
    /// more: tool_search finds them by what they do, and they are still called by name.
    /// `definitions` for Anthropic and OpenAI Responses lists them marked defer_loading instead,
    /// beside the provider's own search tool. A name that is no tool is an error listing the
    /// tools.
    #[arg(
        long = "defer-all-except",
        value_name = "NAMES",
        value_delimiter = ',',
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub core: Vec<String>,
}

/// `call`: the JSON-lines runner.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct CallArgs {
    /// The directory the Files tools serve.
    #[command(flatten)]
    pub root: Root,
    /// Run one call at a time, in input order
    #[arg(long)]
    pub sequential: bool,
    /// Repair near-miss arguments, visibly
    ///
    /// "2" for 2, JSON text for an object, one value for a list, "Fast" for "fast", empty for
    /// {}; each repair is listed in the result's "repairs" and told to the model.
    #[arg(long)]
    pub repair: bool,
    /// How calls that need a person's approval are answered.
    #[command(flatten)]
    pub approvals: ApprovalArgs,
    /// The MCP servers whose tools are imported.
    #[command(flatten)]
    pub upstreams: Upstreams,
    /// The tools offered up front when the others wait for a search.
    #[command(flatten)]
    pub deferral: Deferral,
    /// Where the state several processes share lives (last: its help
    /// heading holds every flag after it).
    #[command(flatten)]
    pub state: SharedState,
}

/// `call`'s approvals: a call of a tool that needs approval (`write`) is
/// answered with an approval-request line, and runs when a decision line
/// comes back with its sealed state.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct ApprovalArgs {
    /// Run calls that need a person's approval without asking
    #[arg(long, conflicts_with_all = ["key_file", "approval_ledger", "url"])]
    pub approve_all: bool,
    /// Seal approval requests with the key in FILE (32 bytes or more)
    ///
    /// A decision line then resumes its call in any process given the same key, so they need one
    /// ledger of the approvals resumed: --state-url, or --approval-ledger none to accept that
    /// each process remembers only its own. Without a key, each process seals with a random key
    /// of its own, and only it resumes them.
    #[arg(long = "approval-key-file", value_name = "FILE", env = APPROVAL_KEY_VARIABLE, hide_env_values = true)]
    pub key_file: Option<PathBuf>,
}

/// Where the state several processes share lives (`call` and `mcp`): the
/// approval ledger, which records each approval resumed (or MCP
/// `requestState` used) so that it runs its call once, and (`mcp --http`)
/// the sessions every process serves.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(next_help_heading = "Shared state")]
pub struct SharedState {
    /// Keep the state processes share in the Redis at URL: redis://HOST:PORT/DB
    ///
    /// Every process given the same --approval-key-file must be given the same store: an approval
    /// then runs its call once across them, and one whose process died is answered interrupted,
    /// never run again. With `mcp --http`, sessions live there too, so any process serves any
    /// session: no sticky routing. rediss:// for TLS. A password belongs in
    /// --state-password-file, not on the command line.
    #[arg(long = "state-url", value_name = "URL", env = STATE_URL_VARIABLE, hide_env_values = true)]
    pub url: Option<String>,
    /// The store's password, read from FILE (it replaces any in the URL)
    #[arg(
        long = "state-password-file",
        value_name = "FILE",
        requires = "url",
        env = STATE_PASSWORD_VARIABLE,
        hide_env_values = true
    )]
    pub password_file: Option<PathBuf>,
    /// The prefix of every key written to the store, one per deployment [default: tool-examples]
    #[arg(long = "state-prefix", value_name = "NAME", requires = "url", value_parser = NonEmptyStringValueParser::new())]
    pub prefix: Option<String>,
    /// Keep the approval ledger in this process's memory, even with --approval-key-file
    ///
    /// Each process then runs an approval replayed to it once, whatever the others did.
    #[arg(long = "approval-ledger", value_name = "none", conflicts_with = "url")]
    pub approval_ledger: Option<LedgerChoice>,
}

/// What `--approval-ledger` names: only `none` (the ledger in memory, each
/// process its own); a shared one comes with `--state-url`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LedgerChoice {
    /// Each process remembers only the approvals it resumed.
    None,
}

/// `definitions`: what a model is shown.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct DefinitionsArgs {
    /// The provider whose format the definitions are written in
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "neutral")]
    pub format: Format,
    /// The tools offered up front when the others wait for a search.
    #[command(flatten)]
    pub deferral: Deferral,
}

/// `mcp`: the server. The HTTP-only flags need `--http` (or its variable).
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct McpArgs {
    /// The directory the Files tools serve.
    #[command(flatten)]
    pub root: Root,
    /// The MCP servers whose tools are imported.
    #[command(flatten)]
    pub upstreams: Upstreams,
    /// The tools offered up front when the others wait for a search.
    #[command(flatten)]
    pub deferral: Deferral,
    /// Serve streamable HTTP on ADDR, such as 127.0.0.1:8080, instead of stdio
    #[arg(long, value_name = "ADDR", env = HTTP_VARIABLE, hide_env_values = true)]
    pub http: Option<SocketAddr>,
    /// Require `Authorization: Bearer <token>`, the token read from PATH
    ///
    /// Surrounding whitespace is ignored; the file is read again when it changes, so the token
    /// rotates without a restart, and emptied or deleted it accepts no token (revocation).
    /// Without it, the token is TOOL_EXAMPLES_TOKEN's, if set.
    /// The token itself is never accepted on the command line, where other users can see it.
    #[arg(
        long,
        value_name = "PATH",
        requires = "http",
        env = TOKEN_FILE_VARIABLE,
        hide_env_values = true
    )]
    pub token_file: Option<PathBuf>,
    // The help text is clap's, not markdown: `[::]` and bare URLs stay as written.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// A host name clients will put in the URL, HOST or HOST:PORT (repeatable)
    ///
    /// Loopback names and the address bound are always accepted, and on 0.0.0.0 or [::] with
    /// none named, any IP address of this machine.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        requires = "http",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub allowed_hosts: Vec<String>,
    /// Serve a non-loopback address without a token (else refused)
    #[arg(long, requires = "http")]
    pub allow_unauthenticated: bool,
    #[allow(rustdoc::bare_urls)]
    /// A browser origin allowed besides those of the allowed hosts (repeatable)
    ///
    /// As https://app.example.com, with the port when it is not the scheme's default. Requests
    /// that send no Origin (every client but a browser) are not affected.
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        requires = "http",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub allowed_origins: Vec<String>,
    /// Serve without sessions, for several processes behind a balancer
    ///
    /// Clients of every protocol revision are served request by request, so any process can
    /// answer any request: an ordinary round-robin balancer works. Without it, clients before
    /// revision 2026-07-28 get a session that lives in this process, and need sticky routing.
    #[arg(long, requires = "http", env = STATELESS_VARIABLE, hide_env_values = true)]
    pub stateless: bool,
    /// Keep deferral for clients without a session (--stateless, and revision 2026-07-28)
    ///
    /// Without it they list every tool, the deferred ones after the others: without a session
    /// there is nowhere to keep what their tool_search found, and a host offers its model only the
    /// tools it listed. With it they list only the tools offered up front and tool_search, and
    /// call what a search finds by name (its answer carries the definitions), which a host that
    /// offers only listed tools cannot do. A client with a session lists what its own searches
    /// found either way.
    #[arg(long, requires = "core")]
    pub defer_without_sessions: bool,
    /// Also serve run_code: the model writes one JavaScript program over all the tools served
    ///
    /// Upstream ones included. The program runs here, in an embedded interpreter with limits on
    /// time, memory, calls and output; each call it makes is served as a call of its own, and
    /// only what it prints and returns goes back. --defer-all-except may name run_code.
    #[arg(long)]
    pub code_mode: bool,
    /// Wall time of one run_code program, its tool calls included [default: 30]
    ///
    /// A program still running then is stopped, and the model told which limit ended it.
    #[arg(long, value_name = "SECONDS", requires = "code_mode", value_parser = parse_time_limit)]
    pub code_time_limit: Option<Duration>,
    /// Seal the approval state sent to clients on revision 2026-07-28 with the key in FILE
    ///
    /// 32 bytes or more, as `call`'s. A client's answer then runs its call in any process given
    /// the same key (behind a balancer), so they need one ledger of the states used: --state-url,
    /// or --approval-ledger none. Without a key, each process seals with a random key of its own.
    #[arg(long = "approval-key-file", value_name = "FILE", env = APPROVAL_KEY_VARIABLE, hide_env_values = true)]
    pub approval_key_file: Option<PathBuf>,
    /// Repair near-miss arguments of the calls served, visibly
    ///
    /// As `call --repair` does: each repair is told to the model in the result.
    #[arg(long)]
    pub repair: bool,
    /// On SIGTERM or SIGINT, time the calls running have to finish [default: 30]
    ///
    /// No new call is taken meanwhile (over HTTP, no new connection); calls still running then are
    /// cancelled, and answered as cancelled, and the server exits 0.
    #[arg(
        long,
        value_name = "SECONDS",
        env = "TOOL_EXAMPLES_SHUTDOWN_GRACE",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub shutdown_grace: Option<Duration>,
    /// On SIGTERM or SIGINT over HTTP, time /readyz answers 503 while requests are still served [default: 5]
    ///
    /// So a balancer's readiness check takes the process out of rotation before it stops
    /// accepting connections. A second signal ends the drain and the grace at once: the calls
    /// still running are cancelled, and answered so.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "http",
        env = "TOOL_EXAMPLES_DRAIN_DELAY",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub drain_delay: Option<Duration>,
    /// Where the state several processes share lives (after the flags
    /// without a heading: its heading holds every flag after it, up to
    /// the limits' own).
    #[command(flatten)]
    pub state: SharedState,
    /// The HTTP server's limits (boxed, as `oauth`).
    #[command(flatten)]
    pub limits: Box<HttpLimits>,
    /// OAuth access tokens accepted over HTTP (boxed: rarely set, and
    /// `Command`'s variants stay of a size).
    #[command(flatten)]
    pub oauth: Box<super::OAuthArgs>,
}

/// The HTTP server's limits, each with its variable; the defaults are the
/// library's (`tool_mcp::HttpServer`).
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(next_help_heading = "HTTP limits")]
pub struct HttpLimits {
    /// Sessions open at once; one more initialize gets 503 [default: 256]
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_SESSIONS",
        hide_env_values = true
    )]
    pub max_sessions: Option<NonZeroUsize>,
    /// Requests in flight in the whole server, sessions or not; one more gets 429 [default: 256]
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_IN_FLIGHT",
        hide_env_values = true
    )]
    pub max_in_flight: Option<NonZeroUsize>,
    /// Requests in flight in one session; one more gets 429 [default: 32]
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_IN_FLIGHT_PER_SESSION",
        hide_env_values = true
    )]
    pub max_in_flight_per_session: Option<NonZeroUsize>,
    /// Connections not yet past the Host and token checks; more close the oldest [default: 256]
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_PENDING_CONNECTIONS",
        hide_env_values = true
    )]
    pub max_pending_connections: Option<NonZeroUsize>,
    /// The largest request body; larger gets 413 [default: 4194304]
    #[arg(
        long,
        value_name = "BYTES",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_BODY_BYTES",
        hide_env_values = true
    )]
    pub max_body_bytes: Option<NonZeroUsize>,
    /// Idle time after which a session ends [default: 600]
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "http",
        env = "TOOL_EXAMPLES_SESSION_IDLE_TIMEOUT",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub session_idle_timeout: Option<Duration>,
    /// Time a client has to send a request's headers, and then its body [default: 30]
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "http",
        env = "TOOL_EXAMPLES_READ_TIMEOUT",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub read_timeout: Option<Duration>,
    /// How long an unreadable or invalid token or JWKS file, or an unreachable issuer, keeps its last good value [default: 300]
    ///
    /// With a warning each minute; then nothing it held is accepted until a good file (or the
    /// issuer) is back.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "http",
        env = "TOOL_EXAMPLES_CREDENTIAL_STALE_LIMIT",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub credential_stale_limit: Option<Duration>,
    /// Close each call's event stream after this long; the client reconnects for the rest [default: off]
    ///
    /// SSE polling (SEP-1699, MCP 2025-11-25): no connection stays open for the length of a long
    /// call, so set it below a balancer's or proxy's timeout. Clients told to reconnect after 1 s;
    /// a client that does not resume with Last-Event-ID (before 2025-11-25) loses the answer.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "http",
        env = "TOOL_EXAMPLES_SSE_POLLING",
        hide_env_values = true,
        value_parser = parse_seconds
    )]
    pub sse_polling: Option<Duration>,
    /// Requests a second per caller (a token's subject, or unauthenticated, an address); more get 429
    ///
    /// Counted in the --state-url store when given, so the limit holds across processes.
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_RATE_PER_CALLER",
        hide_env_values = true
    )]
    pub rate_per_caller: Option<NonZeroU32>,
    /// Requests one caller may send at once after a quiet spell [default: the rate]
    #[arg(
        long,
        value_name = "N",
        requires = "rate_per_caller",
        env = "TOOL_EXAMPLES_BURST_PER_CALLER",
        hide_env_values = true
    )]
    pub burst_per_caller: Option<NonZeroU32>,
    /// Sessions one caller may have open at once; one more initialize gets 429
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_SESSIONS_PER_CALLER",
        hide_env_values = true
    )]
    pub max_sessions_per_caller: Option<NonZeroU32>,
    /// Requests one caller may have in flight at once; one more gets 429
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        env = "TOOL_EXAMPLES_MAX_IN_FLIGHT_PER_CALLER",
        hide_env_values = true
    )]
    pub max_in_flight_per_caller: Option<NonZeroU32>,
    /// A proxy (address or network, as 10.0.0.0/8) whose X-Forwarded-For names the client (repeatable)
    ///
    /// The address the audit log (target tool_mcp::audit) names, and the one the limits per caller
    /// count an unauthenticated caller by; from anyone else the header is ignored.
    #[arg(
        long = "trusted-proxy",
        value_name = "NET",
        requires = "http",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub trusted_proxies: Vec<String>,
}

/// A number of seconds, such as `30` or `0.5`.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds, such as 30 or 0.5"))?;
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("'{text}' is not a number of seconds from 0 up, such as 30 or 0.5"))
}

/// A time limit: seconds, more than none.
fn parse_time_limit(text: &str) -> Result<Duration, String> {
    let limit = parse_seconds(text)?;
    if limit.is_zero() {
        return Err(format!(
            "'{text}' would stop every program at once: give more than 0 seconds"
        ));
    }
    Ok(limit)
}

/// `completions`: a script for the user's shell.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
