//! What tool-mcp emits that the MCP metrics are made of: the names of its
//! spans, fields and audit events, written out as text (this crate never
//! depends on tool-mcp). The spans follow the MCP semantic conventions,
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md>;
//! the audit events are tool-mcp's own (`tool-mcp/src/audit.rs`).

/// `mcp.method.name`: present on every span of one MCP operation, server
/// (`tools/call`) or client (`upstream_call`, or tool-core's
/// `execute_tool` of an imported tool); the mark of such a span.
pub(super) const METHOD_NAME: &str = "mcp.method.name";

/// tool-core's span around each call: an imported tool's carries the MCP
/// client's attributes.
pub(super) const TOOL_EXECUTION_SPAN: &str = "execute_tool";

/// `otel.kind`: `server` on the span of a request the server answers,
/// `client` on the span of a request sent upstream.
pub(super) const KIND: &str = "otel.kind";

/// The span fields that become attributes of the operation metrics: the
/// conventions' list for `mcp.{server,client}.operation.duration`, as far
/// as tool-mcp records them (`mcp.session.id`, `jsonrpc.request.id` and
/// `client.address` are on the spans but not in the list: one series per
/// session or request would be unbounded).
pub(super) const OPERATION_ATTRIBUTES: [&str; 9] = [
    METHOD_NAME,
    "gen_ai.tool.name",
    "gen_ai.operation.name",
    "error.type",
    "rpc.response.status_code",
    "mcp.protocol.version",
    "network.transport",
    "server.address",
    "server.port",
];

/// Of those, the ones known when the span opens, which the count of
/// operations in flight carries (the rest are recorded later, and an
/// up-down counter must be taken down with the attributes it was put up
/// with).
pub(super) const ACTIVE_ATTRIBUTES: [&str; 2] = [METHOD_NAME, "gen_ai.tool.name"];

/// The `tracing` name of the span tool-mcp's HTTP gate opens around each
/// request (at debug: an exporting filter must let it through).
pub(super) const REQUEST_SPAN: &str = "mcp_http";

/// Its field holding the request's method.
pub(super) const REQUEST_METHOD: &str = "method";

/// Its field holding the answer's status, recorded once it is known.
pub(super) const RESPONSE_STATUS: &str = "http.response.status_code";

/// The target of tool-mcp's audit events.
pub(super) const AUDIT_TARGET: &str = "tool_mcp::audit";

/// The field naming an audit event.
pub(super) const AUDIT_EVENT: &str = "event";

/// The field of a refusal giving its reason: a fixed sentence, one of a
/// few tool-mcp knows, never the token.
pub(super) const REFUSAL_REASON: &str = "reason";

/// A request's credentials were refused (a 401).
pub(super) const CREDENTIAL_REFUSED: &str = "credential_refused";

/// A session was opened.
pub(super) const SESSION_OPENED: &str = "session_opened";

/// A session was closed: by its client (DELETE) or by the gate.
pub(super) const SESSION_CLOSED: &str = "session_closed";
