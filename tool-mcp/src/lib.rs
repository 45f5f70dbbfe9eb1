//! Serves any [`ToolRegistry`](tool_core::ToolRegistry) over the Model
//! Context Protocol, through the official Rust SDK (`rmcp`): your tools, in
//! one call, to any MCP client; and puts other MCP servers' tools into a
//! registry ([`client`]).
//!
//! - `tools/list` gives each tool's name, description and `inputSchema`.
//! - `tools/call` runs the executor. Bad arguments and tool errors are
//!   results with `isError: true` (the MCP spec: a model can correct itself
//!   from them); an unknown tool is the JSON-RPC invalid-params error.
//! - A client's `notifications/cancelled` cancels the tool's signal; when the
//!   client sends a `progressToken`, the tool's `report_progress` becomes MCP
//!   progress notifications, all sent before the result.
//! - A call that needs a person's approval (`#[tool(needs_approval)]`) asks
//!   the client before it runs: `elicitation/create`, or on 2026-07-28 an
//!   `InputRequiredResult` with a signed `requestState`
//!   ([`McpServer`]'s "Approval").
//! - Over HTTP (feature `http`), [`HttpServer`] checks `Host` and
//!   `Origin`, a static bearer token or (feature `oauth`) OAuth access
//!   tokens ([`HttpServer::with_oauth`]: the protected resource metadata
//!   of RFC 9728, JWTs checked against a JWKS file, a scope per tool, the
//!   caller handed to the before hook), and limits. The same checks are a
//!   tower layer ([`McpHttp`], [`McpGate`]) for an application that mounts
//!   MCP in its own router (axum's, or any tower stack) beside its routes
//!   and behind its own middleware.
//! - Each `tools/call` has a span on both sides, as OpenTelemetry's MCP
//!   conventions ask: `tools/call {tool}` of kind SERVER on the server,
//!   and on the client the executor's `execute_tool` span with the MCP
//!   attributes added (never a second span for the same execution). With
//!   the feature `otel` (off by default) the client sends its span's
//!   trace context in the request's `params._meta`
//!   (`traceparent`, `tracestate`) and the server continues that trace,
//!   through the propagator the application sets with
//!   `opentelemetry::global::set_text_map_propagator` (the README's
//!   "Tracing across hops").
//!
//! ```no_run
//! use tool_core::{tool, ToolRegistry};
//!
//! /// Echo one value
//! #[tool]
//! async fn echo(value: String) -> String {
//!     value
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     let mut tools = ToolRegistry::new();
//!     tools.register(EchoTool).unwrap();
//!     tool_mcp::serve_stdio(tools).await
//! }
//! ```
//!
//! # Features
//!
//! Pay for what you use: each side of MCP is a feature, so a stdio server
//! builds no HTTP stack, and no server builds an HTTP client or a JWT
//! library (reqwest and jsonwebtoken, which bring rustls and aws-lc-rs's C
//! build). The counts are the distinct crates `cargo tree -e normal` lists,
//! tool-mcp and tool-core included (`scripts/tree-sizes.sh` keeps them).
//!
//! | feature | gives | crates |
//! | --- | --- | --- |
//! | `server` (default) | [`McpServer`], [`serve_stdio`], [`serve_stdio_until`]: `tools/list`, `tools/call`, progress, cancellation, stopping, approvals asked of the client (tool-core's `approval-state` for the `requestState` ledger), results checked against each tool's `outputSchema` (jsonschema) | `server` alone: 121 |
//! | `http` (default, with `server`) | [`HttpServer`], [`serve_http`], [`MCP_PATH`], [`HEALTH_PATH`], and [`McpHttp`] / [`McpGate`] to mount it in a router of your own: streamable HTTP with a static bearer token, the `Host` and `Origin` checks, the limits, stateless mode, each session its opener's (hyper, tower's two traits) | the defaults: 136 |
//! | `oauth` (with `http`) | [`OAuthConfig`], [`HttpServer::with_oauth`]: the OAuth resource server, its RFC 9728 metadata, JWTs checked against the issuer's keys (fetched from its metadata, or a JWKS file), opaque tokens introspected (RFC 7662), a scope per tool (jsonwebtoken, aws-lc-rs, reqwest) | `http` + `oauth`: 188 |
//! | `client` | [`client`]: another server's tools in a registry, over a child process's stdio or streamable HTTP (reqwest, rustls), arguments checked against its `inputSchema` (tool-core's `schema-check`) | `client` alone: 167 |
//! | `client-oauth` (with `client`) | [`client::Upstream::with_oauth`], [`client::oauth`]: the client's OAuth flow for an upstream that asks for one (discovery from a 401, PKCE, client registration, refresh, step-up), on rmcp's `auth` | `client-oauth` alone: 185 |
//! | `otel` | a call's trace context in `_meta`, sent by the client and read by the server, whichever of them is built | +6 |
//!
//! Every feature: 198 crates. A stdio server alone is `default-features =
//! false, features = ["server"]`; remote tools alone, `features =
//! ["client"]`.

#![forbid(unsafe_code)]
// docs.rs (nightly, `--cfg docsrs`) marks each feature-gated item with its
// feature; stable builds never see the unstable feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[macro_use]
mod macros;

cfg_feature!("server" =>
    mod approval;
    mod audit;
    mod handler;
    mod idle;
    mod stdio;
    pub use handler::McpServer;
    pub use stdio::{serve_stdio, serve_stdio_until};
);
cfg_feature!("http" =>
    mod http;
    pub use http::{
        CallerLimits, ClientAddr, DEFAULT_SESSION_IDLE_TIMEOUT, Delivered, MemoryQuotas, QuotaStore, Rate, EventStore, HEALTH_PATH, HttpServer, MCP_PATH, McpGate, McpGateService, McpHttp,
        READY_PATH, RmcpHttpService, SessionDirectory, SessionStore, SharedState, StateError,
        StateFuture, event_id, serve_http, split_event_id,
    };
);
cfg_feature!("oauth" =>
    pub use http::{OAuthConfig, UnknownTool};
);
cfg_feature!("client" =>
    pub mod client;
);
#[cfg(any(feature = "server", feature = "client"))]
mod trace_context;
// Credential files read again when they change: the server's token and
// key set, an upstream's token.
#[cfg(any(feature = "http", feature = "client"))]
mod watched;
