//! The span of one `tools/call` the server answers, as the MCP semantic
//! conventions name the server side of a request
//! (<https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#server>):
//! `tools/call {tool}`, kind SERVER, with `mcp.method.name`,
//! `gen_ai.tool.name`, `gen_ai.operation.name = "execute_tool"`,
//! `jsonrpc.request.id`, `mcp.session.id`, `network.transport = "tcp"` and
//! `client.address` (past trusted proxies) over HTTP, `network.transport =
//! "pipe"` over stdio, `mcp.protocol.version` when the client said it, and on
//! failure `error.type` (the JSON-RPC error's code, or `tool_error` for a
//! result with `isError`) with the span's status Error.
//!
//! Every log line of the call, the tool's own included, is inside it, so
//! it says which call of which session a line belongs to. With the `otel`
//! feature the trace context of the request's `_meta` becomes its parent
//! ([`crate::trace_context::adopt_parent`]), so tool-core's span for the
//! call, inside it, continues the caller's trace.

use super::request_id;
use rmcp::model::CallToolResponse;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer};
use tracing::Span;
use tracing::field::Empty;

/// The span of a call of `tool` in the request `context`, not yet entered.
pub(super) fn call_span(tool: &str, context: &RequestContext<RoleServer>) -> Span {
    let span = tracing::info_span!(
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        jsonrpc.request.id = %request_id(&context.id),
        mcp.session.id = Empty,
        mcp.protocol.version = Empty,
        network.transport = Empty,
        client.address = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    record_request(&span, context);
    span
}

/// The span of a request that is not a call (`initialize`, `tools/list`),
/// named by its method, as the conventions name the server side of every
/// request; not yet entered.
pub(super) fn request_span(method: &'static str, context: &RequestContext<RoleServer>) -> Span {
    let span = tracing::info_span!(
        "mcp_request",
        otel.name = method,
        otel.kind = "server",
        mcp.method.name = method,
        jsonrpc.request.id = %request_id(&context.id),
        mcp.session.id = Empty,
        mcp.protocol.version = Empty,
        network.transport = Empty,
        client.address = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    if !span.is_disabled() {
        record_request(&span, context);
    }
    span
}

/// The span of a notification the client sent (`notifications/cancelled`).
pub(super) fn notification_span(
    method: &'static str,
    context: &NotificationContext<RoleServer>,
) -> Span {
    let span = tracing::info_span!(
        "mcp_notification",
        otel.name = method,
        otel.kind = "server",
        mcp.method.name = method,
        network.transport = super::transport::notification_transport(context),
        mcp.protocol.version = Empty,
    );
    if !span.is_disabled()
        && let Some(client) = context.peer.peer_info()
    {
        span.record(
            "mcp.protocol.version",
            tracing::field::display(&client.protocol_version),
        );
    }
    span
}

/// What the transport tells of a request: over HTTP its session and the
/// client's address, over anything else a pipe; and the revision.
fn record_request(span: &Span, context: &RequestContext<RoleServer>) {
    match super::transport::http_session(context) {
        Some(session) => {
            span.record("network.transport", "tcp");
            if let Some(session) = session {
                span.record("mcp.session.id", session);
            }
            if let Some(client) = super::transport::client_of(context) {
                span.record("client.address", tracing::field::display(client));
            }
        }
        // The conventions' word for stdio.
        None => {
            span.record("network.transport", "pipe");
        }
    }
    if let Some(revision) = context.protocol_version() {
        span.record("mcp.protocol.version", tracing::field::display(revision));
    }
}

/// A request answered with a JSON-RPC error: its code.
pub(super) fn refused(span: &Span, error: &ErrorData) {
    if span.is_disabled() {
        return;
    }
    let code = error.code.0.to_string();
    span.record("rpc.response.status_code", code.as_str());
    span.record("error.type", code.as_str());
    span.record("otel.status_code", "error");
    span.record("otel.status_description", &*error.message);
}

/// How the call was answered: a JSON-RPC error is its code (and its
/// message the status description), a tool result with `isError` is
/// `tool_error`, as the conventions' note on `error.type` says.
pub(super) fn answered(span: &Span, answer: &Result<CallToolResponse, ErrorData>) {
    if span.is_disabled() {
        return;
    }
    match answer {
        Err(error) => refused(span, error),
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            span.record("error.type", "tool_error");
            span.record("otel.status_code", "error");
            span.record("otel.status_description", "the tool answered with isError");
        }
        Ok(_) => {}
    }
}
