//! The span of one call, in OpenTelemetry's GenAI conventions for tool
//! execution
//! (<https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#execute-tool-span>,
//! now kept in
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/execute-tool.md>):
//! named `execute_tool {tool}`, of kind internal, with the operation, the
//! tool's name, type and description and the call's id from the start;
//! when the call failed, `error.type` and an error status at its end;
//! and, when the application opts in, the arguments and the result. A
//! tool that is another MCP server's records the MCP client's attributes
//! here (`mcp.method.name`, `jsonrpc.request.id`, `network.transport`,
//! `server.address`...), as the MCP conventions ask of an MCP client whose
//! call an outer instrumentation already traces
//! (<https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#client>).
//!
//! tool-core depends on `tracing` only, so these are tracing fields whose
//! names `tracing-opentelemetry` maps: `otel.name`, `otel.kind`,
//! `otel.status_code` and `otel.status_description` become the span's
//! name, kind and status, every other field an attribute of that name.
//! With no subscriber, or one that does not want the span, the span is
//! disabled (one check of a static) and nothing here computes a value.
//!
//! What is known only on the way (the arguments, how the call ended) is
//! recorded on the current span, the one the executor entered for the
//! call: a handle kept beside the running call would make every call's
//! future bigger. Subscribers built on `tracing-subscriber`'s registry
//! (`tracing-opentelemetry`'s layer among them) know the current span.

use super::error_type::ErrorType;
use super::run_options::RunOptions;
use crate::model::Content;
use crate::model::json_head;
use crate::model::{ToolCall, ToolResultMessage};
use crate::registry::RegisteredTool;
use serde_json::Value;
use crate::trace::Span;
use crate::trace::field::Empty;

/// At most this many bytes of a failure's message make the span's status
/// description (and `…` when it is cut): a description, not the message's
/// whole text.
const STATUS_DESCRIPTION_BYTES: usize = 256;

/// The span of `call`, and its [`Trace`] under `ctx`; `tool` is what the
/// registry holds under its name. Only the fields the conventions want at
/// the start are set here (the ones a sampler may read); the rest are
/// declared, to be recorded on the way and by [`finish`]. Nothing is
/// formatted unless a subscriber wants the span.
#[inline]
pub(crate) fn open(
    call: &ToolCall,
    tool: Option<&RegisteredTool>,
    ctx: &RunOptions,
) -> (Span, Trace) {
    let span = crate::trace::info_span!(
        "execute_tool",
        "otel.name" = %format_args!("execute_tool {}", call.name),
        "otel.kind" = "internal",
        "gen_ai.operation.name" = "execute_tool",
        "gen_ai.tool.name" = %call.name,
        "gen_ai.tool.call.id" = %call.id,
        // A tool the application runs itself, on the model's arguments,
        // is a `function` in the conventions' words (an `extension` runs
        // on the agent's side, a `datastore` retrieves).
        "gen_ai.tool.type" = "function",
        "gen_ai.tool.description" = tool.map(RegisteredTool::description),
        "error.type" = Empty,
        "otel.status_code" = Empty,
        "otel.status_description" = Empty,
        "gen_ai.tool.call.arguments" = Empty,
        "gen_ai.tool.call.result" = Empty,
        // What an MCP client records when the tool is another server's
        // (tool-mcp's imported tools): the MCP conventions ask it to add
        // its attributes to this span rather than open a second one for
        // the same execution.
        "mcp.method.name" = Empty,
        "mcp.session.id" = Empty,
        "jsonrpc.request.id" = Empty,
        "rpc.response.status_code" = Empty,
        "network.transport" = Empty,
        "server.address" = Empty,
        "server.port" = Empty,
    );
    let trace = Trace::new(&span, ctx);
    (span, trace)
}

/// What the span records that only the steps of the call know, and
/// whether it records anything. It is held across every await of the
/// call, so it is a few bytes: what is recorded on the way goes onto the
/// span at once.
pub(crate) struct Trace {
    /// Why the call failed, when a step failed it.
    pub(crate) why: Option<ErrorType>,
    /// Whether a subscriber wants the span: else nothing is recorded.
    pub(crate) recording: bool,
    /// Whether the span records the arguments and the result (the
    /// application opted in, and a subscriber wants the span); else
    /// nothing is computed for them.
    pub(crate) content: bool,
    /// Whether the arguments the tool was given are recorded already.
    arguments_recorded: bool,
}

impl Trace {
    /// Nothing known yet about the call that runs in `span` under `ctx`.
    #[inline]
    fn new(span: &Span, ctx: &RunOptions) -> Trace {
        let recording = !span.is_disabled();
        Trace {
            why: None,
            recording,
            content: recording && ctx.traced_content.is_some(),
            arguments_recorded: false,
        }
    }
}

/// Records on `span` the arguments the tool is given (after repair and
/// rewrites), as JSON, bounded by `ctx`'s limit.
#[cold]
pub(crate) fn record_arguments(
    span: &Span,
    arguments: &Value,
    ctx: &RunOptions,
    trace: &mut Trace,
) {
    let Some(max) = ctx.traced_content.filter(|_| trace.content) else {
        return;
    };
    span.record(
        "gen_ai.tool.call.arguments",
        bounded_json(arguments, max).as_str(),
    );
    trace.arguments_recorded = true;
}

/// Records on `span` how `call` ended: `error.type` and the error status
/// when `result` is an error; with content, the result when the call
/// succeeded, and the arguments as the model sent them when the call
/// failed before they parsed.
#[cold]
pub(crate) fn finish(
    span: &Span,
    call: &ToolCall,
    result: &ToolResultMessage,
    trace: &Trace,
    ctx: &RunOptions,
) {
    if span.is_disabled() {
        return;
    }
    if let Some(why) = ErrorType::of_result(result, trace.why) {
        span.record("error.type", why.as_str());
        span.record("otel.status_code", "error");
        span.record(
            "otel.status_description",
            status_description(result, why).as_str(),
        );
    }
    let Some(max) = ctx.traced_content.filter(|_| trace.content) else {
        return;
    };
    if !trace.arguments_recorded {
        span.record(
            "gen_ai.tool.call.arguments",
            sent_arguments(call, max).as_str(),
        );
    }
    // The conventions record the result "if any and if execution was
    // successful":
    // https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/
    if !result.is_error {
        span.record(
            "gen_ai.tool.call.result",
            result_content(result, max).as_str(),
        );
    }
}

/// The failure's message as the model reads it (the `error` of a paired
/// failure's details: for an internal failure, the reference to its log
/// line, not its message), or what `why` says; cut short. An output
/// marked as an error is the tool's content, recorded only when the
/// application opts in: the description only says what it is.
fn status_description(result: &ToolResultMessage, why: ErrorType) -> String {
    let message = result
        .details
        .as_ref()
        .and_then(|details| details.get("error"))
        .and_then(Value::as_str);
    let text = match (why, message) {
        (ErrorType::ToolError, _) => "the tool's output is marked as an error",
        (_, Some(message)) => message,
        (_, None) => why.as_str(),
    };
    crate::model::cut_short(text.to_owned(), STATUS_DESCRIPTION_BYTES)
}

/// The arguments as the model sent them: JSON text as it came (OpenAI
/// sends a string), anything else as its JSON text.
fn sent_arguments(call: &ToolCall, max: usize) -> String {
    match &call.arguments {
        Value::String(text) => {
            let mut bounded = Bounded::new(max);
            bounded.push(text);
            bounded.finish()
        }
        other => bounded_json(other, max),
    }
}

/// What the tool answered: its details' JSON when it gave details (the
/// conventions expect an object), else its content's text when all of it
/// is text (items joined by a new line), else the content's JSON.
fn result_content(result: &ToolResultMessage, max: usize) -> String {
    if let Some(details) = &result.details {
        return bounded_json(details, max);
    }
    if !result.content.iter().all(|item| item.as_text().is_some()) {
        return bounded_json(&result.content, max);
    }
    let mut bounded = Bounded::new(max);
    for (index, text) in result
        .content
        .iter()
        .filter_map(Content::as_text)
        .enumerate()
    {
        if index > 0 {
            bounded.push("\n");
        }
        bounded.push(text);
    }
    bounded.finish()
}

/// `value`'s compact JSON text, bounded as [`Bounded`] says; the text is
/// written once and only its first `max` bytes are kept. Whole, it is the
/// JSON itself; cut, it is a JSON string holding the piece kept and the
/// marker, so that whoever parses the attribute as JSON gets a value that
/// says what it is (a piece of JSON, so much cut) rather than a parse
/// error.
fn bounded_json<T: serde::Serialize + ?Sized>(value: &T, max: usize) -> String {
    let (head, total) = json_head(value, max);
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    let bounded = Bounded {
        kept: head,
        total,
        max,
    }
    .finish();
    if total <= max {
        return bounded;
    }
    // A string always serializes.
    serde_json::to_string(&bounded).unwrap_or_default()
}

/// Text bounded for the span: its first `max` bytes at most, cut on a
/// character boundary, then `…[N bytes cut]` when anything was cut, so the
/// reader knows the value is not whole and how much is missing.
struct Bounded {
    kept: String,
    total: usize,
    max: usize,
}

impl Bounded {
    fn new(max: usize) -> Bounded {
        Bounded {
            kept: String::new(),
            total: 0,
            max,
        }
    }

    /// Appends `text`, as much of it as fits. Once a piece is cut, nothing
    /// after it is kept (a shorter later piece would fit in the room a cut
    /// character left, out of order).
    fn push(&mut self, text: &str) {
        self.total = self.total.saturating_add(text.len());
        let room = self.max.saturating_sub(self.kept.len());
        let mut end = room.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.kept.push_str(&text[..end]);
        if end < text.len() {
            self.max = self.kept.len();
        }
    }

    fn finish(mut self) -> String {
        let cut = self.total.saturating_sub(self.kept.len());
        if cut > 0 {
            self.kept.push_str(&format!("…[{cut} bytes cut]"));
        }
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolCall;
    use serde_json::json;

    #[test]
    fn text_is_cut_on_a_character_boundary_with_the_bytes_cut() {
        let mut bounded = Bounded::new(5);
        bounded.push("abcdé");
        // `é` is two bytes: byte 5 is inside it, so four bytes are kept.
        assert_eq!(bounded.finish(), "abcd…[2 bytes cut]");

        let mut whole = Bounded::new(6);
        whole.push("abcdé");
        assert_eq!(whole.finish(), "abcdé");

        // The room the cut `é` left is not filled by what comes after it.
        let mut bounded = Bounded::new(5);
        bounded.push("abcdé");
        bounded.push("f");
        assert_eq!(bounded.finish(), "abcd…[3 bytes cut]");
    }

    #[test]
    fn pieces_fill_the_room_in_order() {
        let mut bounded = Bounded::new(4);
        for piece in ["ab", "\n", "cd", "\n", "ef"] {
            bounded.push(piece);
        }
        assert_eq!(bounded.finish(), "ab\nc…[4 bytes cut]");
    }

    #[test]
    fn json_cut_stays_json_a_string_of_the_piece_kept() {
        let value = json!({"text": "x".repeat(100)});
        let text = value.to_string();
        let bounded = bounded_json(&value, 10);
        let parsed: serde_json::Value = serde_json::from_str(&bounded).expect("valid JSON");
        assert_eq!(
            parsed,
            json!(format!("{}…[{} bytes cut]", &text[..10], text.len() - 10))
        );
        assert_eq!(bounded_json(&json!({"a": 1}), 10), r#"{"a":1}"#);
    }

    #[test]
    fn arguments_sent_as_text_are_kept_as_text() {
        let call = ToolCall::new("c", "t", json!(r#"{"a":1}"#));
        assert_eq!(sent_arguments(&call, 100), r#"{"a":1}"#);
        let call = ToolCall::new("c", "t", json!({"a": 1}));
        assert_eq!(sent_arguments(&call, 100), r#"{"a":1}"#);
    }

    #[test]
    fn a_result_is_its_details_else_its_text_else_its_content() {
        let call = ToolCall::new("c", "t", json!({}));
        let mut result = ToolResultMessage::failure(&call, "x");
        result.is_error = false;
        result.failure_kind = None;
        assert_eq!(result_content(&result, 100), r#"{"error":"x"}"#);

        result.details = None;
        result.content = vec![Content::text("one"), Content::text("two")];
        assert_eq!(result_content(&result, 100), "one\ntwo");

        result
            .content
            .push(Content::resource_link("file:///a", "a"));
        assert_eq!(
            result_content(&result, 1_000),
            serde_json::to_string(&result.content).unwrap()
        );
    }

    #[test]
    fn the_status_description_is_the_failures_message_cut_short() {
        let call = ToolCall::new("c", "t", json!({}));
        let result = ToolResultMessage::failure(&call, "timed out after 20 ms");
        assert_eq!(
            status_description(&result, ErrorType::Timeout),
            "timed out after 20 ms"
        );
        let long = ToolResultMessage::failure(&call, &"é".repeat(200));
        let description = status_description(&long, ErrorType::Retry);
        assert_eq!(description, format!("{}…", "é".repeat(128)));

        // An output marked as an error: its details are the tool's content.
        let output_error = ToolResultMessage::failure(&call, "the user's address");
        assert_eq!(
            status_description(&output_error, ErrorType::ToolError),
            "the tool's output is marked as an error"
        );
        let mut bare = ToolResultMessage::failure(&call, "x");
        bare.details = None;
        assert_eq!(status_description(&bare, ErrorType::Fatal), "fatal");
    }
}
