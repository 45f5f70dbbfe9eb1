//! The help texts longer than a field's doc comment: what each command
//! does, the environment variables that are not a flag's, and the limits
//! a server's operator should know. clap wraps them at the command's width.

/// Why the environment block of `mcp` is written once: its short and its
/// long help both carry it.
macro_rules! mcp_environment {
    () => {
        "Environment:
  TOOL_EXAMPLES_TOKEN            the bearer token, when --token-file is not given
  TOOL_EXAMPLES_ALLOWED_HOSTS    more allowed hosts, comma-separated
  TOOL_EXAMPLES_ALLOWED_ORIGINS  more allowed origins, comma-separated
  TOOL_EXAMPLES_UPSTREAM_TOKEN   the bearer token sent to HTTP upstreams without a token file"
    };
}

/// The one-line summary, of `-h` and of the completion scripts.
pub const ABOUT: &str =
    "Typed tool calling, shown on real tools (echo, upper, read, list, write, wait, label)";

/// `tool-examples --help`: what the program is for, command by command.
pub const LONG_ABOUT: &str = "\
Typed tool calling, shown on real tools: echo, upper, read, list, write, wait and label.

Without a command, walks through an echo call, its result and three failures. `call` runs \
tool calls read as JSON lines, `definitions` prints what a model is shown of the tools, and `mcp` \
serves the tools to any MCP client.";

/// Where the logs go, at the end of `tool-examples --help`: a server's
/// operator looks for it there, and must know stdout is not for logs.
pub const LOGGING: &str = "\
Logs go to stderr only (stdout carries results and MCP). RUST_LOG filters them, as in \
RUST_LOG=debug or RUST_LOG=tool_mcp=debug (default: warn,tool_examples=info,tool_mcp=info); \
--log-format json writes one JSON object per line, with trace_id and span_id when the line is \
written inside a call's span and --otlp-endpoint exports it. With --otlp-endpoint, tool calls \
(execute_tool spans, tools/call spans of MCP, the gen_ai.execute_tool.duration histogram) go to \
the collector whatever RUST_LOG says; OTEL_SERVICE_NAME names the service (default: \
tool-examples).";

/// `call --help`.
pub const CALL: &str = "\
Run tool calls read from stdin, one ToolCall JSON object per line, such as \
{\"type\":\"toolCall\",\"id\":\"call-1\",\"name\":\"echo\",\"arguments\":{\"value\":\"Pi\"}}

Each call is answered by one ToolResultMessage JSON line on stdout, in input order. Calls run in \
parallel; answers stream out as soon as every earlier one is written. A line that is not a tool \
call gets a paired error result when its \"id\" can be read, else {\"error\": ..., \"line\": N}. \
Blank lines are skipped. Exits 0 at end of input.

A call that needs a person's approval (write) is answered instead by an approval-request line \
{\"type\":\"approvalRequest\",\"approvalId\": ..., \"toolCallId\": ..., \"toolName\": ..., \
\"arguments\": ..., \"argumentsSha256\": ..., \"annotations\": ..., \"question\": ..., \
\"expiresAt\": ..., \"suspension\":\"v2....\"}, its suspension sealed (no one can read or change \
it). A later input line {\"type\":\"approval\",\"toolCallId\": ..., \"decision\":\"approve\", \
\"suspension\": ...} runs it; the decision may also be \"approveWith\" (with \"arguments\"), \
\"deny\" (with an optional \"reason\"), \"alwaysApprove\" or \"alwaysDeny\" (the same for every \
later call of the tool), or \"respond\" (with the \"result\" to answer with, the tool not run). A line \
{\"type\":\"approvalClose\",\"suspension\": ..., \"reason\": ...} answers a call that will never \
be decided, without running it. Each is answered with the call's result, or with \
{\"type\":\"approvalError\",\"error\": ...} when it cannot apply (edited arguments that do not \
parse; a state changed, expired, or resumed or closed already), and nothing runs. A state resumes once in this process; \
across processes given the same --approval-key-file, only with --state-url.";

/// The variable of `call` that is no flag's.
pub const CALL_ENVIRONMENT: &str = "\
Environment:
  TOOL_EXAMPLES_UPSTREAM_TOKEN  the bearer token sent to HTTP upstreams without a token file";

/// `definitions --help`.
pub const DEFINITIONS: &str = "\
Print the example tools' definitions (name, description, JSON Schema of the parameters) in a \
provider's format: a JSON array of tool definitions (for Gemini, the object that wraps \
functionDeclarations). What a format cannot express is listed on stderr, one line per change.";

/// `mcp --help`.
pub const MCP: &str = "\
Serve the example tools over the Model Context Protocol.

Over stdio by default: stdin and stdout carry JSON-RPC, as an MCP client that starts this program \
expects. With --http, over streamable HTTP at http://ADDR/mcp (port 0 picks a free port). Logs go \
to stderr only.";

/// The variables of `mcp` that are no flag's (`-h`).
pub const MCP_ENVIRONMENT: &str = mcp_environment!();

/// The same, and the limits of the HTTP server (`--help`): what a client
/// that meets a 413, 429 or 503 should have known.
pub const MCP_AFTER: &str = concat!(
    mcp_environment!(),
    "

Over HTTP, GET /healthz answers 200 ok with no token and whatever the Host. With --oauth-issuer, \
GET /.well-known/oauth-protected-resource answers the protected resource metadata with no token; \
a token that is not accepted gets 401 (error=\"invalid_token\" and why), a call of a tool its \
scopes do not allow 403 (error=\"insufficient_scope\" and the scope needed). A body that is not \
JSON-RPC gets JSON-RPC's own error (-32700 or -32600) with 400. The HTTP limits above answer \
413 (body too large), 408 (body too slow), 503 (too many sessions; with Retry-After), 404 (a \
session that ended) and 429 (too many requests in flight; with Retry-After). On SIGTERM or \
SIGINT the server stops accepting connections, lets calls finish within --shutdown-grace, \
answers the rest as cancelled, and exits 0."
);

/// `completions --help`.
pub const COMPLETIONS: &str = "\
Print a shell's completion script for tool-examples on stdout. Load it from the shell's startup \
file; for bash: source <(tool-examples completions bash)";
