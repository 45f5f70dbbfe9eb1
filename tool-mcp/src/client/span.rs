//! The span of one remote call: the executor's `execute_tool` span with
//! the MCP client's attributes added, or outside the executor a span of
//! its own, as the MCP semantic conventions name the client side of a
//! request
//! (<https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#client>):
//! `tools/call {tool}`, kind CLIENT, with `mcp.method.name`,
//! `gen_ai.tool.name`, `gen_ai.operation.name = "execute_tool"`,
//! `jsonrpc.request.id` once the request is sent, `network.transport`
//! (`pipe` for stdio, `tcp` for HTTP) and `server.address`/`server.port`
//! for HTTP, and on failure `error.type` with the span's status Error.
//!
//! tracing-opentelemetry reads `otel.name` and `otel.kind` when the span is
//! created, and `otel.status_code`/`otel.status_description` whenever they
//! are recorded
//! (<https://docs.rs/tracing-opentelemetry/0.34.0/tracing_opentelemetry/#special-fields>).
//! Without an OpenTelemetry layer these are ordinary fields of a plain
//! tracing span (its name in the logs stays `upstream_call`), and nothing
//! here costs more than the span itself: every field is computed only
//! when a subscriber wants the span.

use super::Upstream;
use rmcp::model::{ErrorCode, RequestId, ServerResult};
use tracing::Span;
use tracing::field::Empty;

/// The span a call of the server's tool `tool` runs in, before it is sent:
/// the executor's `execute_tool` span when the call runs in one (always,
/// through a registry), with the MCP attributes added to it; else a span
/// of its own.
///
/// The MCP conventions: "If the MCP instrumentation can reliably detect
/// that outer GenAI instrumentation is already tracing the tool
/// execution, it SHOULD NOT create a separate span. Instead, it SHOULD add
/// MCP-specific attributes to the existing tool execution span"
/// (<https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#client>).
/// tool-core's span declares the fields for it.
pub(super) fn call_span(tool: &str, upstream: &Upstream) -> Span {
    let current = Span::current();
    if current
        .metadata()
        .is_some_and(|span| span.name() == "execute_tool" && span.target().starts_with("tool_core"))
    {
        current.record("mcp.method.name", "tools/call");
        current.record("network.transport", upstream.transport());
        record_server(&current, upstream);
        return current;
    }
    let span = tracing::info_span!(
        "upstream_call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "client",
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        // For the logs: the URL or the command, whichever it is.
        server = %upstream.place(),
        network.transport = upstream.transport(),
        server.address = Empty,
        server.port = Empty,
        jsonrpc.request.id = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    record_server(&span, upstream);
    span
}

/// The span of a request that is not a call (`initialize`, `tools/list`):
/// the conventions' client span, named by the method, so that every
/// request the client sends is traced and carries its context.
pub(super) fn request_span(method: &'static str, upstream: &Upstream) -> Span {
    let span = tracing::info_span!(
        "upstream_request",
        otel.name = method,
        otel.kind = "client",
        mcp.method.name = method,
        server = %upstream.place(),
        network.transport = upstream.transport(),
        server.address = Empty,
        server.port = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    record_server(&span, upstream);
    span
}

/// The span of a notification sent about a call (`notifications/cancelled`),
/// a child of the call's span.
pub(super) fn notification_span(method: &'static str, call: &Span) -> Span {
    tracing::info_span!(
        parent: call,
        "upstream_notification",
        otel.name = method,
        otel.kind = "client",
        mcp.method.name = method,
    )
}

/// `server.address` and `server.port` of an HTTP upstream.
fn record_server(span: &Span, upstream: &Upstream) {
    if !span.is_disabled()
        && let Some((host, port)) = upstream.host_and_port()
    {
        span.record("server.address", host);
        span.record("server.port", i64::from(port));
    }
}

/// The JSON-RPC id the request went with.
pub(super) fn sent(span: &Span, id: &RequestId) {
    span.record("jsonrpc.request.id", tracing::field::display(id));
}

/// The server's answer: a tool result with `isError` is the conventions'
/// `tool_error`; an answer that is no tool result is an error too (the
/// call fails with it).
pub(super) fn answered(span: &Span, answer: &ServerResult) {
    match answer {
        ServerResult::CallToolResult(result) if result.is_error == Some(true) => {
            failed(span, "tool_error", "the tool answered with isError");
        }
        ServerResult::CallToolResult(_) => {}
        _ => failed(span, "_OTHER", "the answer is not a tool result"),
    }
}

/// A JSON-RPC error answer: its code is the error type, its message the
/// status description (the conventions' rule for both).
pub(super) fn rejected(span: &Span, code: ErrorCode, message: &str) {
    if span.is_disabled() {
        return;
    }
    let code = code.0.to_string();
    span.record("rpc.response.status_code", code.as_str());
    failed(span, &code, message);
}

/// A request that is not a call failed: a JSON-RPC error is its code, any
/// other failure (a transport closed, a timeout) `_OTHER`.
pub(super) fn failed_request(span: &Span, error: &rmcp::ServiceError) {
    match error {
        rmcp::ServiceError::McpError(error) => rejected(span, error.code, &error.message),
        other => failed(span, "_OTHER", &other.to_string()),
    }
}

/// The call failed for `kind` (low-cardinality: `cancelled`,
/// `connection_closed`, `unreachable`, a JSON-RPC code...), described by
/// `description`.
pub(super) fn failed(span: &Span, kind: &str, description: &str) {
    span.record("error.type", kind);
    span.record("otel.status_code", "error");
    span.record("otel.status_description", description);
}
