//! The other direction: an MCP server's tools in a [`ToolRegistry`], through
//! rmcp's client. Connect to a server (a command started on stdio, or a
//! streamable HTTP URL), then register its tools, each a [`Tool`](tool_core::Tool) whose
//! calls go to the server:
//!
//! ```no_run
//! use tool_core::ToolRegistry;
//! use tool_mcp::client::{McpClient, Upstream};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let github = McpClient::connect(
//!     Upstream::http("https://mcp.example.com/mcp").with_bearer_token("ghp_..."),
//! )
//! .await?;
//! let files = McpClient::connect(Upstream::command("mcp-files", ["--root", "/srv"])).await?;
//!
//! let mut tools = ToolRegistry::new();
//! github.register_into(&mut tools, Some("github"))?; // github__create_issue, ...
//! files.register_into(&mut tools, Some("files"))?; // files__read, ...
//! # Ok(())
//! # }
//! ```
//!
//! What a remote tool does on a call:
//!
//! - It checks the arguments against the server's `inputSchema` first (a
//!   [`SchemaCheck`](tool_core::params::SchemaCheck) compiled once, when the
//!   tool list arrives), as its parse ([`Tool::check_arguments`](tool_core::Tool::check_arguments)):
//!   bad arguments never reach the server and fail in the words and shape
//!   of a derived tool's (`Tool x failed: limit: expected integer, got
//!   string`, every problem on its own line, at its path), and go through
//!   the executor's opt-in repair as a derived tool's do (`{"limit":"2"}`
//!   sent as `{"limit":2}`).
//! - The call's cancellation is the server's: when the signal is cancelled,
//!   or the executor drops the call at its timeout, the server is sent
//!   `notifications/cancelled` for the request.
//! - The server's progress notifications for the call become
//!   [`ToolContext::report_progress`](tool_core::ToolContext::report_progress)
//!   updates (one text item: the notification's message, else `progress/total`).
//! - The result comes back as it was sent: text, image, audio and
//!   `resource_link` content (an embedded text resource becomes its text),
//!   `structuredContent` as the details, `isError` as
//!   [`ToolOutput::is_error`](tool_core::ToolOutput). A JSON-RPC error, a
//!   server that closed the connection, or an answer that is not a tool
//!   result is the call's paired failure, never a panic.
//!
//! A server that exits or drops the connection is started again (stdio) or
//! reconnected (HTTP) on the next call; after a failed attempt the next one
//! waits 100 ms, doubling up to 5 s. The calls it was answering fail at
//! once, paired (`the MCP server closed the connection`): a stdio server's
//! pipe closes, and an HTTP server's response stream that breaks before the
//! answer is resumed once (at once when the connection broke, after the
//! server's SSE `retry` wait when the stream ended cleanly) and then given
//! up. A
//! server that hangs, or writes garbage instead of answering (rmcp skips
//! lines that are not JSON), is bounded only by a timeout:
//! [`DEFAULT_CALL_TIMEOUT`] unless [`Upstream::with_timeout`] says otherwise
//! (each remote tool's [`Tool::timeout`](tool_core::Tool::timeout)), or the
//! call's own.
//!
//! A started server sees only the environment it needs ([`INHERITED_ENV`]
//! and what [`Upstream::with_env`] and [`Upstream::with_inherited_env`]
//! add), never this process's settings and secrets.
//!
//! When the server announces `notifications/tools/list_changed`, the client
//! lists the tools again. The registry is the caller's and its definitions
//! are fixed at registration, so the refresh changes what the already
//! registered tools do, not what the model was shown: a tool the server no
//! longer offers fails with `no longer offered by the server`, and a tool
//! whose schema changed is checked against the new one. Tools new upstream
//! appear in [`McpClient::tool_names`]; register them by building a new
//! registry with [`McpClient::register_into`].

mod connection;
cfg_feature!("client-oauth" =>
    pub mod oauth;
);
mod progress;
mod questions;
mod remote;
mod span;
mod start;
mod token_file;

use connection::Connection;
use remote::RemoteTool;
use std::ffi::OsString;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use tool_core::ToolRegistry;
use tool_core::registry::{RegisteredTool, RegistryError};
use tool_core::toolset::Toolset;

/// What joins a prefix and a server's tool name in a registry:
/// `github` + `create_issue` is `github__create_issue`. Two underscores
/// fit every provider's tool-name rule (letters, digits, `_` and `-`) and
/// rarely occur inside a name.
pub const PREFIX_SEPARATOR: &str = "__";

/// How long [`McpClient::connect`] (and a reconnection) may take to start
/// the server and finish MCP's `initialize`, unless
/// [`Upstream::with_connect_timeout`] says otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a call of a server's tool may run, unless
/// [`Upstream::with_timeout`] or [`Upstream::without_timeout`] says
/// otherwise: a server that hangs, or whose host vanished without closing
/// the connection, must not hold its callers for ever. Two minutes leave
/// room for slow tools (a search, a build) and still free the caller.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// The variables a started server gets from this process, those of them
/// that are set: enough to find programs (`PATH`), a home and a temporary
/// directory, and the language of messages. Nothing else is passed on, so
/// this process's settings and secrets (tokens, the address it serves on)
/// do not reach a program that has no use for them, and a server that reads
/// the same variables as its client does not take them for its own. Add
/// more with [`Upstream::with_env`] or [`Upstream::with_inherited_env`].
#[cfg(not(windows))]
pub const INHERITED_ENV: [&str; 4] = ["PATH", "HOME", "LANG", "TMPDIR"];

/// The variables a started server gets from this process, those of them
/// that are set: on Windows a program cannot start its sockets or find its
/// system libraries without `SYSTEMROOT`, and has its home and temporary
/// directories in `USERPROFILE`, `TEMP` and `TMP`. Nothing else is passed
/// on; add more with [`Upstream::with_env`] or
/// [`Upstream::with_inherited_env`].
#[cfg(windows)]
pub const INHERITED_ENV: [&str; 7] = [
    "PATH",
    "PATHEXT",
    "SYSTEMROOT",
    "USERPROFILE",
    "TEMP",
    "TMP",
    "LANG",
];

/// Where an MCP server is: a command to start (it speaks MCP on its stdin
/// and stdout), or a streamable HTTP endpoint.
///
/// ```
/// use std::time::Duration;
/// use tool_mcp::client::Upstream;
///
/// let local = Upstream::command("npx", ["-y", "@modelcontextprotocol/server-everything"])
///     .with_env("DEBUG", "0")
///     .with_inherited_env("NPM_CONFIG_REGISTRY")
///     .with_timeout(Duration::from_secs(60));
/// let remote = Upstream::http("https://mcp.example.com/mcp").with_bearer_token("s3cret");
/// // The token never shows in logs.
/// assert!(!format!("{remote:?}").contains("s3cret"));
/// # let _ = local;
/// ```
#[derive(Clone)]
pub struct Upstream {
    target: Target,
    timeout: Option<Duration>,
    connect_timeout: Duration,
    /// Whether its tools' annotations may decide (scopes, approvals).
    trusted_hints: bool,
    /// The revision offered at `initialize`; rmcp's latest when `None`.
    protocol_version: Option<rmcp::model::ProtocolVersion>,
    /// Who answers the server's questions to the person; without one the
    /// client declares no elicitation.
    elicitation: Option<tool_core::ElicitFn>,
}

#[derive(Clone)]
enum Target {
    Command {
        program: OsString,
        args: Vec<OsString>,
        /// Applied in order, after [`INHERITED_ENV`]: a later one wins.
        env: Vec<Variable>,
    },
    Http {
        url: String,
        bearer_token: Option<Credential>,
        /// PEM text, each holding one or more CA certificates.
        root_certificates: Vec<Vec<u8>>,
        /// How a 401 is answered, when it is (instead of `bearer_token`).
        #[cfg(feature = "client-oauth")]
        oauth: Option<oauth::OAuthClient>,
    },
}

/// Where an HTTP upstream's token comes from.
#[derive(Clone)]
enum Credential {
    Fixed(String),
    /// Read from this file, and again when it changes.
    File(std::path::PathBuf),
}

/// One variable of a started server's environment.
#[derive(Clone)]
enum Variable {
    Set(OsString, OsString),
    /// This process's value, if it has one.
    Inherited(OsString),
}

impl Upstream {
    /// A server started as `program args...`, speaking MCP on its stdin and
    /// stdout; its stderr is this process's. Its environment holds only
    /// [`INHERITED_ENV`] and what [`with_env`](Self::with_env) and
    /// [`with_inherited_env`](Self::with_inherited_env) add. It is killed
    /// when the client (and every tool registered from it) is dropped, or
    /// when it must be restarted.
    pub fn command<I, A>(program: impl Into<OsString>, args: I) -> Self
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        Upstream::of(Target::Command {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
        })
    }

    /// A server at a streamable HTTP endpoint (`http://host:port/mcp` or
    /// `https://...`). An `https` server's certificate is checked against
    /// the system's roots (rustls, through rustls-platform-verifier: the
    /// operating system's store, or on Linux the CA bundle that
    /// `SSL_CERT_FILE` / `SSL_CERT_DIR` or the distribution names); a private
    /// CA is trusted with [`with_root_certificate`](Self::with_root_certificate).
    pub fn http(url: impl Into<String>) -> Self {
        Upstream::of(Target::Http {
            url: url.into(),
            bearer_token: None,
            root_certificates: Vec::new(),
            #[cfg(feature = "client-oauth")]
            oauth: None,
        })
    }

    fn of(target: Target) -> Self {
        Upstream {
            target,
            timeout: Some(DEFAULT_CALL_TIMEOUT),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            trusted_hints: false,
            protocol_version: None,
            elicitation: None,
        }
    }

    /// Answers the server's questions to the person (`elicitation/create`,
    /// form mode) with `ask`, and declares form elicitation at `initialize`
    /// so the server may ask. `ask` gets the question and the form's schema
    /// ([`ElicitationRequest::defaults`](tool_core::ElicitationRequest::defaults)
    /// gives the values SEP-1034 says to pre-fill); an accepted answer is
    /// checked against the form before it is sent, and one that does not
    /// fit goes back to the server as an error naming the field. Without
    /// it, the client declares no elicitation and a server that asks anyway
    /// gets "method not found".
    ///
    /// The asker is the connection's, not a call's: rmcp's client does not
    /// tell which call of several in flight a question belongs to, and
    /// guessing could put one caller's question to another person.
    ///
    /// ```
    /// use tool_core::Elicited;
    /// use tool_mcp::client::Upstream;
    ///
    /// // Accepts every question with the form's defaults.
    /// let upstream = Upstream::http("http://127.0.0.1:9/mcp").with_elicitation(|question| async move {
    ///     Ok(Elicited::Accept(serde_json::Value::Object(question.defaults())))
    /// });
    /// # let _ = upstream;
    /// ```
    pub fn with_elicitation<F, Answer>(mut self, ask: F) -> Self
    where
        F: Fn(tool_core::ElicitationRequest) -> Answer + Send + Sync + 'static,
        Answer: std::future::Future<
                Output = Result<tool_core::Elicited<serde_json::Value>, tool_core::ElicitError>,
            > + Send
            + 'static,
    {
        self.elicitation = Some(Arc::new(move |question| {
            Box::pin(ask(question)) as tool_core::ElicitFuture
        }));
        self
    }

    /// Who answers the server's questions, when someone does.
    pub(crate) fn elicitation(&self) -> Option<&tool_core::ElicitFn> {
        self.elicitation.as_ref()
    }

    /// Offers `version` at `initialize` instead of the newest revision rmcp
    /// speaks: for a server, or a test, that must see an older one (the
    /// server still answers with the revision it picks).
    ///
    /// ```
    /// use rmcp::model::ProtocolVersion;
    /// use tool_mcp::client::Upstream;
    ///
    /// let upstream = Upstream::http("http://127.0.0.1:9/mcp")
    ///     .with_protocol_version(ProtocolVersion::V_2025_11_25);
    /// # let _ = upstream;
    /// ```
    pub fn with_protocol_version(mut self, version: rmcp::model::ProtocolVersion) -> Self {
        self.protocol_version = Some(version);
        self
    }

    /// The revision offered at `initialize`, when one was set.
    pub(crate) fn protocol_version(&self) -> Option<&rmcp::model::ProtocolVersion> {
        self.protocol_version.as_ref()
    }

    /// Sends `Authorization: Bearer <token>` with every HTTP request; give
    /// the token alone. Does nothing for a command.
    pub fn with_bearer_token(mut self, token: impl Into<String>) -> Self {
        if let Target::Http { bearer_token, .. } = &mut self.target {
            *bearer_token = Some(Credential::Fixed(token.into()));
        }
        self
    }

    /// Sends `Authorization: Bearer <token>` with every HTTP request, the
    /// token read from the file at `path` (without surrounding
    /// whitespace) and read again when the file changes, so that it can
    /// be rotated while the client runs. The file is the authority: an
    /// emptied or deleted file sends no token (the upstream refuses, and
    /// the calls fail saying so); one that cannot be read or holds no
    /// usable token keeps the last good token for 5 minutes, with a
    /// warning each minute, then sends none. [`McpClient::connect`] fails
    /// when the file cannot be read at first. Does nothing for a command.
    ///
    /// ```
    /// use tool_mcp::client::Upstream;
    ///
    /// let remote = Upstream::http("https://mcp.example.com/mcp")
    ///     .with_bearer_token_file("/run/secrets/mcp-upstream-token");
    /// # let _ = remote;
    /// ```
    pub fn with_bearer_token_file(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        if let Target::Http { bearer_token, .. } = &mut self.target {
            *bearer_token = Some(Credential::File(path.into()));
        }
        self
    }

    /// Authorizes with OAuth when the server asks (a 401), as the MCP
    /// authorization spec describes: see [`oauth`] for the flow, and
    /// [`OAuthClient`](oauth::OAuthClient) for the application's part.
    /// Replaces [`with_bearer_token`](Self::with_bearer_token) and
    /// [`with_bearer_token_file`](Self::with_bearer_token_file). The
    /// server's URL must be `https`, or `http` on loopback:
    /// [`McpClient::connect`] fails otherwise, before any request. Does
    /// nothing for a command. (Feature `client-oauth`.)
    ///
    /// The person's step happens inside [`McpClient::connect`] (the first
    /// request is refused with a 401), and inside a call for a step-up: the
    /// connect timeout becomes at least
    /// [`OAUTH_CONNECT_TIMEOUT`](oauth::OAUTH_CONNECT_TIMEOUT) to leave them
    /// time to log in ([`with_connect_timeout`](Self::with_connect_timeout)
    /// after this sets another), and a call's timeout
    /// ([`with_timeout`](Self::with_timeout)) bounds a step-up.
    ///
    /// ```no_run
    /// use tool_mcp::client::oauth::OAuthClient;
    /// use tool_mcp::client::{McpClient, Upstream};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let oauth = OAuthClient::new("http://localhost:8976/callback", |url: String| async move {
    ///     println!("open {url}");
    ///     let redirect = String::new(); // the URL the browser came back to
    ///     Ok(redirect)
    /// })
    /// .with_client_credentials("my-app", "s3cret");
    /// let client =
    ///     McpClient::connect(Upstream::http("https://mcp.example.com/mcp").with_oauth(oauth)).await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "client-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "client-oauth")))]
    pub fn with_oauth(mut self, client: oauth::OAuthClient) -> Self {
        if let Target::Http {
            oauth,
            bearer_token,
            ..
        } = &mut self.target
        {
            *oauth = Some(client);
            *bearer_token = None;
            self.connect_timeout = self.connect_timeout.max(oauth::OAUTH_CONNECT_TIMEOUT);
        }
        self
    }

    /// Also trusts the CA certificates in `pem` (PEM text: one certificate
    /// or a bundle, as in a `.crt` file) for this server's `https`, besides
    /// the system's roots: for a server whose certificate a private CA
    /// signed. Text that holds no certificate fails [`McpClient::connect`]
    /// with a [`ClientError::Connect`] saying so. Does nothing for a command.
    ///
    /// ```no_run
    /// use tool_mcp::client::{McpClient, Upstream};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let ca = std::fs::read("/etc/mcp/internal-ca.pem")?;
    /// let client =
    ///     McpClient::connect(Upstream::http("https://tools.internal/mcp").with_root_certificate(ca))
    ///         .await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_root_certificate(mut self, pem: impl Into<Vec<u8>>) -> Self {
        if let Target::Http {
            root_certificates, ..
        } = &mut self.target
        {
            root_certificates.push(pem.into());
        }
        self
    }

    /// Sets a variable of the command's environment (over one of
    /// [`INHERITED_ENV`], or one set before). Does nothing for HTTP.
    pub fn with_env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        if let Target::Command { env, .. } = &mut self.target {
            env.push(Variable::Set(key.into(), value.into()));
        }
        self
    }

    /// Passes this process's variable `key` on to the command, when it is
    /// set when the server is started (or restarted): for what a server
    /// needs beyond [`INHERITED_ENV`], such as its own API key or a proxy,
    /// without writing the value down. Does nothing for HTTP.
    ///
    /// ```
    /// use tool_mcp::client::Upstream;
    ///
    /// let github = Upstream::command("github-mcp-server", ["stdio"])
    ///     .with_inherited_env("GITHUB_PERSONAL_ACCESS_TOKEN")
    ///     .with_inherited_env("HTTPS_PROXY");
    /// # let _ = github;
    /// ```
    pub fn with_inherited_env(mut self, key: impl Into<OsString>) -> Self {
        if let Target::Command { env, .. } = &mut self.target {
            env.push(Variable::Inherited(key.into()));
        }
        self
    }

    /// How long a call of any of the server's tools may run
    /// ([`DEFAULT_CALL_TIMEOUT`] unless set): each remote tool's
    /// [`Tool::timeout`](tool_core::Tool::timeout), so the executor answers
    /// `timed out after N ms` and the server is told to cancel. A call's own
    /// timeout, when shorter, ends it first.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_mcp::client::Upstream;
    ///
    /// let slow_builds = Upstream::http("http://ci.internal:8080/mcp")
    ///     .with_timeout(Duration::from_secs(30 * 60));
    /// # let _ = slow_builds;
    /// ```
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// No timeout of the server's own: its calls run until they are
    /// answered, cancelled, or the call's own timeout (a
    /// [`RunOptions`](tool_core::RunOptions)'s) ends them. For servers
    /// whose tools run for hours, when every caller sets a timeout of its
    /// own; a server that hangs then holds a caller that does not.
    ///
    /// ```
    /// use tool_mcp::client::Upstream;
    ///
    /// let batch = Upstream::command("batch-mcp", ["--queue", "nightly"]).without_timeout();
    /// # let _ = batch;
    /// ```
    pub fn without_timeout(mut self) -> Self {
        self.timeout = None;
        self
    }

    /// Takes the server's word for its tools' annotations. By default they
    /// are hints from a peer that may lie (MCP: "clients MUST consider tool
    /// annotations to be untrusted unless they come from trusted servers",
    /// <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations>):
    /// shown to clients, but each imported tool counts as possibly
    /// destructive and not read-only wherever something decides by them
    /// (an OAuth server's scope for it, `ApprovalPolicy::may_destroy`). A
    /// server of your own, whose `readOnlyHint` you vouch for, may be
    /// trusted; a tool's scope can also be set by name (`OAuthConfig`'s
    /// `with_tool_scope`) whatever its hints.
    ///
    /// ```
    /// use tool_mcp::client::Upstream;
    ///
    /// let ours = Upstream::http("http://tools.internal:8080/mcp").with_trusted_hints();
    /// # let _ = ours;
    /// ```
    pub fn with_trusted_hints(mut self) -> Self {
        self.trusted_hints = true;
        self
    }

    /// Whether [`with_trusted_hints`](Self::with_trusted_hints) was said.
    pub fn hints_trusted(&self) -> bool {
        self.trusted_hints
    }

    /// How long starting (or reaching) the server and MCP's `initialize`
    /// may take; [`DEFAULT_CONNECT_TIMEOUT`] by default.
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }
}

impl Upstream {
    /// Where the server is, for a log line: the URL, or the program. Never
    /// the token, nor the command's arguments and environment, which may
    /// hold secrets.
    fn place(&self) -> String {
        match &self.target {
            Target::Command { program, .. } => program.to_string_lossy().into_owned(),
            Target::Http { url, .. } => url.clone(),
        }
    }

    /// The transport as the OpenTelemetry conventions name it
    /// (`network.transport`: "`pipe` if the transport is stdio", `tcp`
    /// for HTTP).
    fn transport(&self) -> &'static str {
        match &self.target {
            Target::Command { .. } => "pipe",
            Target::Http { .. } => "tcp",
        }
    }

    /// An HTTP server's host and port (the scheme's default when the URL
    /// names none); none for a command, or a URL that does not parse
    /// (which fails at connection, with its own error).
    fn host_and_port(&self) -> Option<(String, u16)> {
        let Target::Http { url, .. } = &self.target else {
            return None;
        };
        let url = reqwest::Url::parse(url).ok()?;
        Some((url.host_str()?.to_owned(), url.port_or_known_default()?))
    }
}

impl fmt::Debug for Upstream {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = out.debug_struct("Upstream");
        match &self.target {
            Target::Command { program, args, env } => {
                // The variables' names only: their values may be secrets.
                let names: Vec<&OsString> = env
                    .iter()
                    .map(|variable| match variable {
                        Variable::Set(key, _) | Variable::Inherited(key) => key,
                    })
                    .collect();
                debug
                    .field("program", program)
                    .field("args", args)
                    .field("env", &names);
            }
            Target::Http {
                url,
                bearer_token,
                root_certificates,
                #[cfg(feature = "client-oauth")]
                oauth,
            } => {
                #[cfg(feature = "client-oauth")]
                debug.field("oauth", oauth);
                debug
                    .field("url", url)
                    .field(
                        "bearer_token",
                        &bearer_token.as_ref().map(|credential| match credential {
                            Credential::Fixed(_) => "<redacted>".to_owned(),
                            Credential::File(path) => format!("from {}", path.display()),
                        }),
                    )
                    .field("root_certificates", &root_certificates.len());
            }
        }
        debug
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("trusted_hints", &self.trusted_hints)
            .field("protocol_version", &self.protocol_version)
            .field("elicitation", &self.elicitation.is_some())
            .finish()
    }
}

/// Why a server's tools could not be had.
///
/// ```no_run
/// use tool_core::ToolRegistry;
/// use tool_mcp::client::{ClientError, McpClient, Upstream};
///
/// # async fn run(client: McpClient) {
/// let mut tools = ToolRegistry::new();
/// if let Err(ClientError::InvalidSchema { tool, message }) = client.register_into(&mut tools, None) {
///     eprintln!("the server's {tool} cannot be checked: {message}");
/// }
/// # }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The server could not be started or reached, or `initialize` failed.
    Connect(String),
    /// `tools/list` failed.
    ListTools(String),
    /// A tool's `inputSchema` is not valid JSON Schema (or names a `$ref`
    /// that cannot be resolved offline): nothing was registered.
    InvalidSchema {
        /// The tool's name on the server.
        tool: String,
        /// What is wrong with it.
        message: String,
    },
    /// A name was already taken in the registry: nothing was registered.
    Registry(RegistryError),
}

impl fmt::Display for ClientError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connect(message) => {
                write!(out, "cannot connect to the MCP server: {message}")
            }
            ClientError::ListTools(message) => {
                write!(out, "cannot list the MCP server's tools: {message}")
            }
            ClientError::InvalidSchema { tool, message } => write!(
                out,
                "the MCP server's tool {tool} has an input schema that is not valid JSON Schema: {message}"
            ),
            ClientError::Registry(error) => error.fmt(out),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<RegistryError> for ClientError {
    fn from(error: RegistryError) -> Self {
        ClientError::Registry(error)
    }
}

/// A connection to one MCP server, whose tools it registers into a
/// [`ToolRegistry`]. Cloning it is cheap; the tools it registered hold a
/// clone, so the connection lives as long as they do.
///
/// ```no_run
/// use tool_core::{RunOptions, ToolCall, ToolRegistry, execute_tool_call};
/// use tool_mcp::client::{McpClient, Upstream};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let client = McpClient::connect(Upstream::command("my-mcp-server", ["--stdio"])).await?;
/// let mut tools = ToolRegistry::new();
/// let added = client.register_into(&mut tools, None)?;
/// println!("{added} tools: {:?}", client.tool_names());
///
/// let call = ToolCall::new("call-1", "echo", serde_json::json!({"value": "hi"}));
/// let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct McpClient {
    connection: Arc<Connection>,
}

impl McpClient {
    /// Starts or reaches the server, runs MCP's `initialize` and lists its
    /// tools (compiling each `inputSchema` once).
    ///
    /// ```no_run
    /// use tool_mcp::client::{ClientError, McpClient, Upstream};
    ///
    /// # async fn run() {
    /// match McpClient::connect(Upstream::http("http://127.0.0.1:8080/mcp")).await {
    ///     Ok(client) => println!("tools: {:?}", client.tool_names()),
    ///     Err(ClientError::Connect(why)) => eprintln!("no server: {why}"),
    ///     Err(other) => eprintln!("{other}"),
    /// }
    /// # }
    /// ```
    pub async fn connect(upstream: Upstream) -> Result<McpClient, ClientError> {
        let connection = Connection::open(upstream).await?;
        Ok(McpClient {
            connection: Arc::new(connection),
        })
    }

    /// Registers every tool the server offers into `registry`, named
    /// `<prefix>__<name>` when `prefix` is given (see [`PREFIX_SEPARATOR`]),
    /// and returns how many. All or nothing: a tool whose schema is not
    /// valid JSON Schema, or a name already taken, registers none.
    ///
    /// ```no_run
    /// use tool_core::ToolRegistry;
    /// use tool_mcp::client::{McpClient, Upstream};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = McpClient::connect(Upstream::command("mcp-files", ["--root", "/srv"])).await?;
    /// let mut tools = ToolRegistry::new();
    /// client.register_into(&mut tools, Some("files"))?;
    /// // Taken names: an error, and nothing more registered.
    /// assert!(client.register_into(&mut tools, Some("files")).is_err());
    /// # Ok(())
    /// # }
    /// ```
    pub fn register_into(
        &self,
        registry: &mut ToolRegistry,
        prefix: Option<&str>,
    ) -> Result<usize, ClientError> {
        let set = self.remote_toolset(prefix)?;
        let count = set.len();
        registry.register_all(set)?;
        Ok(count)
    }

    /// The server's tools as a [`Toolset`], under their own names, labelled
    /// `MCP server <address>` (the program, or the URL): compose it as any
    /// other set (`.prefixed("github")`, `.filtered(..)`, `.deferred()`)
    /// before a registry takes it, all or nothing. A tool whose schema is
    /// not valid JSON Schema is refused here, and none is given.
    ///
    /// ```no_run
    /// use tool_core::ToolRegistry;
    /// use tool_mcp::client::{McpClient, Upstream};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let github = McpClient::connect(Upstream::http("http://127.0.0.1:8080/mcp")).await?;
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(
    ///     github
    ///         .toolset()?
    ///         .prefixed("github")
    ///         .filtered(|tool| tool.annotations().read_only == Some(true))
    ///         .deferred(),
    /// )?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn toolset(&self) -> Result<Toolset, ClientError> {
        self.remote_toolset(None)
    }

    fn remote_toolset(&self, prefix: Option<&str>) -> Result<Toolset, ClientError> {
        let mut tools = Vec::new();
        for spec in self.connection.state().specs() {
            if let Err(error) = &spec.check {
                return Err(ClientError::InvalidSchema {
                    tool: spec.tool.name.to_string(),
                    message: error.message().to_owned(),
                });
            }
            let tool = RemoteTool::new(Arc::clone(&self.connection), &spec.tool, prefix);
            tools.push(RegisteredTool::new(tool));
        }
        let label = format!("MCP server {}", self.connection.upstream().place());
        Ok(Toolset::from_tools(label, tools))
    }

    /// The names of the tools the server offers now (its own names, with
    /// no prefix), in its order.
    ///
    /// ```no_run
    /// # fn run(client: tool_mcp::client::McpClient) {
    /// let new_upstream: Vec<String> = client.tool_names();
    /// # }
    /// ```
    pub fn tool_names(&self) -> Vec<String> {
        self.connection
            .state()
            .specs()
            .iter()
            .map(|spec| spec.tool.name.to_string())
            .collect()
    }

    /// Lists the server's tools again, as a `notifications/tools/list_changed`
    /// does (reconnecting first if the connection was lost); returns how
    /// many it offers.
    ///
    /// ```no_run
    /// # async fn run(client: tool_mcp::client::McpClient) -> Result<(), Box<dyn std::error::Error>> {
    /// let offered = client.refresh().await?;
    /// println!("{offered} tools now: {:?}", client.tool_names());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn refresh(&self) -> Result<usize, ClientError> {
        self.connection.refresh().await
    }

    /// Ends the current connection (a started server is killed). A later
    /// call of a registered tool connects again.
    ///
    /// ```no_run
    /// # async fn run(client: tool_mcp::client::McpClient) {
    /// client.close().await; // the server process is gone
    /// # }
    /// ```
    pub async fn close(&self) {
        self.connection.close().await;
    }
}

impl fmt::Debug for McpClient {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("McpClient")
            .field("upstream", self.connection.upstream())
            .field("tools", &self.tool_names())
            .finish()
    }
}
