//! The audit trail: one structured line per event an operator answering
//! "who did what, from where, and was it let through" needs, under the
//! target `tool_mcp::audit` at info, so that it is on with the default
//! filter and can be routed apart from the other logs (a `tracing`
//! layer filtered on the target, or `RUST_LOG=tool_mcp::audit=info`).
//!
//! - a refused credential: why, the client's address, and the `kid` and
//!   `iss` of a JWT when they can be read (never the token);
//! - a session opened or closed: by whom, from where, and how it ended;
//! - each `tools/call`: the caller, the tool, the outcome, how long it
//!   took, and the approval decision when one was asked.
//!
//! The client's address is the connection's, or behind a balancer the one
//! a trusted proxy wrote in `X-Forwarded-For`
//! (`HttpServer::with_trusted_proxies`).
//! A request over stdio has none, and its caller is the process that
//! started the server (`local`).

use std::net::IpAddr;
use std::time::Duration;

/// Who a call or a session belongs to, as the audit line names it:
/// `anonymous` without credentials, `local` over stdio.
pub(crate) const ANONYMOUS: &str = "anonymous";

/// The caller of a call that came over stdio.
pub(crate) const LOCAL: &str = "local";

/// What a JWT that was refused says of itself, read without trusting it:
/// which key it names and who it claims issued it.
#[cfg(feature = "http")]
#[derive(Debug, Default)]
pub(crate) struct ClaimedBy {
    pub kid: Option<String>,
    pub iss: Option<String>,
}

/// A request's credentials were refused (401): `reason` is the
/// description the client was given.
#[cfg(feature = "http")]
pub(crate) fn credential_refused(reason: &str, client: Option<IpAddr>, claimed: &ClaimedBy) {
    tracing::info!(
        event = "credential_refused",
        reason,
        client.address = display_address(client),
        kid = claimed.kid.as_deref(),
        iss = claimed.iss.as_deref(),
        "credential refused"
    );
}

/// A session was opened by `caller`.
#[cfg(feature = "http")]
pub(crate) fn session_opened(session: &str, caller: &str, client: Option<IpAddr>) {
    tracing::info!(
        event = "session_opened",
        mcp.session.id = session,
        caller = %caller,
        client.address = display_address(client),
        "MCP session opened"
    );
}

/// A session was closed: `how` is `client` (a DELETE) or why the server
/// ended it.
#[cfg(feature = "http")]
pub(crate) fn session_closed(session: &str, caller: &str, client: Option<IpAddr>, how: &str) {
    tracing::info!(
        event = "session_closed",
        mcp.session.id = session,
        caller = %caller,
        client.address = display_address(client),
        closed_by = how,
        "MCP session closed"
    );
}

/// Whether a subscriber wants the audit lines now: what a caller checks
/// before it does work for one on a hot path (every call).
pub(crate) fn wanted() -> bool {
    tracing::enabled!(tracing::Level::INFO)
}

/// What one `tools/call` did, for its audit line.
pub(crate) struct CallRecord<'a> {
    pub tool: &'a str,
    pub caller: &'a str,
    pub client: Option<IpAddr>,
    pub session: Option<&'a str>,
    pub outcome: Outcome,
    pub approval: Option<&'static str>,
    pub duration: Duration,
}

/// How a call was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A result that is not an error.
    Ok,
    /// A result with `isError`: the tool failed, or its arguments did not
    /// parse.
    ToolError,
    /// A person or a policy refused it: nothing ran.
    Denied,
    /// Cancelled or cut short: it may or may not have run.
    Interrupted,
    /// Answered with a question for a person (2026-07-28's
    /// `InputRequiredResult`): nothing ran yet.
    InputRequired,
    /// A JSON-RPC error: an unknown tool, a missing scope, a stopping
    /// server, a refused `requestState`.
    Refused,
}

impl Outcome {
    /// How `result` answered its call.
    pub(crate) fn of(result: &tool_core::ToolResultMessage) -> Outcome {
        use tool_core::FailureKind;
        match result.failure_kind {
            _ if !result.is_error => Outcome::Ok,
            Some(FailureKind::Denied) => Outcome::Denied,
            Some(FailureKind::Interrupted) => Outcome::Interrupted,
            _ => Outcome::ToolError,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::Denied => "denied",
            Outcome::Interrupted => "interrupted",
            Outcome::InputRequired => "input_required",
            Outcome::Refused => "refused",
        }
    }
}

/// A call was answered.
pub(crate) fn call_answered(record: &CallRecord<'_>) {
    tracing::info!(
        event = "tool_call",
        gen_ai.tool.name = record.tool,
        caller = %record.caller,
        client.address = display_address(record.client),
        mcp.session.id = record.session,
        outcome = record.outcome.as_str(),
        approval = record.approval,
        duration_ms = record.duration.as_secs_f64() * 1000.0,
        "tool call"
    );
}

/// The address as the line shows it; `-` when it is not known (stdio, or
/// a mounted service given no `ClientAddr`).
fn display_address(client: Option<IpAddr>) -> tracing::field::DisplayValue<String> {
    tracing::field::display(client.map_or_else(|| "-".to_owned(), |address| address.to_string()))
}
