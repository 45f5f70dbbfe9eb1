//! The two wire messages: a model's request to call a tool, and the result
//! paired with it by id.

use super::{CallOrigin, Content, FailureKind, Repair};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// A model's request to run a tool:
/// `{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi"}}`.
///
/// Reading one, `"type"` may be left out but must be `"toolCall"` when
/// present, and missing `arguments` mean `{}`.
///
/// ```
/// use tool_core::ToolCall;
/// use serde_json::json;
///
/// let call: ToolCall = serde_json::from_str(
///     r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi"}}"#,
/// ).unwrap();
/// assert_eq!(call, ToolCall::new("call-1", "echo", json!({"value": "Pi"})));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename = "toolCall")]
pub struct ToolCall {
    /// Pairs the result with this call.
    pub id: String,
    /// The tool to run.
    pub name: String,
    /// The arguments, as the model wrote them (not yet checked).
    pub arguments: Value,
    /// Who made the call when it was not the model itself (a program run
    /// by the provider's code execution), as the provider's format read
    /// it; `None` for the model's own calls. Not part of the call's JSON
    /// line: the format that read it writes its result.
    #[serde(skip)]
    pub origin: Option<CallOrigin>,
}

impl ToolCall {
    /// A call of tool `name` with these arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
            origin: None,
        }
    }
}

/// The one result of a call, paired by `tool_call_id`:
/// `{"role":"toolResult","toolCallId":"call-1","toolName":"echo","content":[..],"details":{..},"isError":false,"timestamp":1764000000000}`.
///
/// Two keys appear only when they say something: `"failure"` when a failed
/// call is `fatal`, `internal`, `denied` or `interrupted` (a retry failure,
/// the default, is left out),
/// and `"repairs"` when the arguments were repaired or rewritten before they
/// parsed. A result with neither has exactly the seven keys above (six
/// without `details`).
///
/// `serde_json::to_string(&result)` and `serde_json::to_vec(&result)` are
/// the way to write one: they write its JSON text in one piece, as fast as
/// [`write_json`](Self::write_json), which is for appending to a buffer
/// you already have. Every other serializer (`serde_json::to_value`, the
/// pretty printer, other formats) sees the same struct serde's derive
/// would show it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "WireToolResult")]
#[non_exhaustive]
pub struct ToolResultMessage {
    /// The id of the call this answers.
    pub tool_call_id: String,
    /// The name the call asked for, even when no such tool exists.
    pub tool_name: String,
    /// What the model reads.
    pub content: Vec<Content>,
    /// Structured data for the program; left out when `None`.
    pub details: Option<Value>,
    /// True when the call failed or the tool reported a domain error.
    pub is_error: bool,
    /// What a failure means for the agent loop: `None` for a result that is
    /// not an error, else [`Retry`](FailureKind::Retry) (try again),
    /// [`Fatal`](FailureKind::Fatal) (stop calling this tool in this turn),
    /// [`Internal`](FailureKind::Internal) (see the logs),
    /// [`Denied`](FailureKind::Denied) (a person or a policy refused it) or
    /// [`Interrupted`](FailureKind::Interrupted) (it may or may not have
    /// run).
    pub failure_kind: Option<FailureKind>,
    /// What was changed in the arguments before they parsed (opt-in repair,
    /// a before hook's rewrite); left out when empty.
    pub repairs: Vec<Repair>,
    /// When the result was made, in milliseconds since the Unix epoch.
    pub timestamp: u64,
    /// The call's [`origin`](ToolCall::origin), kept for the format that
    /// writes the result in the shape its program receives. Not part of
    /// the result's JSON line.
    pub origin: Option<CallOrigin>,
}

fn is_retry_or_none(failure: &Option<FailureKind>) -> bool {
    matches!(failure, None | Some(FailureKind::Retry))
}

/// The result as serde's derive shows it to a serializer: the shape every
/// serializer but serde_json's compact one is given (see
/// `result_wire.rs`), and the one whose bytes `write_json` reproduces.
#[derive(Serialize)]
#[serde(tag = "role", rename = "toolResult", rename_all = "camelCase")]
pub(super) struct WireResult<'a> {
    tool_call_id: &'a str,
    tool_name: &'a str,
    content: &'a [Content],
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a Value>,
    is_error: bool,
    #[serde(rename = "failure", skip_serializing_if = "is_retry_or_none")]
    failure_kind: Option<FailureKind>,
    #[serde(skip_serializing_if = "<[Repair]>::is_empty")]
    repairs: &'a [Repair],
    timestamp: u64,
}

impl<'a> From<&'a ToolResultMessage> for WireResult<'a> {
    fn from(result: &'a ToolResultMessage) -> Self {
        WireResult {
            tool_call_id: &result.tool_call_id,
            tool_name: &result.tool_name,
            content: &result.content,
            details: result.details.as_ref(),
            is_error: result.is_error,
            failure_kind: result.failure_kind,
            repairs: &result.repairs,
            timestamp: result.timestamp,
        }
    }
}

/// The result as read from the wire, where a retry failure is implied by
/// `isError` without a `failure` key.
#[derive(Deserialize)]
#[serde(tag = "role", rename = "toolResult", rename_all = "camelCase")]
struct WireToolResult {
    tool_call_id: String,
    tool_name: String,
    content: Vec<Content>,
    #[serde(default)]
    details: Option<Value>,
    is_error: bool,
    #[serde(default)]
    failure: Option<FailureKind>,
    #[serde(default)]
    repairs: Vec<Repair>,
    timestamp: u64,
}

impl From<WireToolResult> for ToolResultMessage {
    fn from(wire: WireToolResult) -> Self {
        let failure = match (wire.is_error, wire.failure) {
            (false, _) => None,
            (true, None) => Some(FailureKind::Retry),
            (true, kind) => kind,
        };
        ToolResultMessage {
            tool_call_id: wire.tool_call_id,
            tool_name: wire.tool_name,
            content: wire.content,
            details: wire.details,
            is_error: wire.is_error,
            failure_kind: failure,
            repairs: wire.repairs,
            timestamp: wire.timestamp,
            origin: None,
        }
    }
}

impl ToolResultMessage {
    /// The successful result of `call` with `content`, made now: no details,
    /// no repairs. A new field of a later release gets its default here,
    /// so code that builds results this way keeps compiling (the struct is
    /// `#[non_exhaustive]`: its fields are read and set, not listed).
    ///
    /// ```
    /// use tool_core::{Content, ToolCall, ToolResultMessage};
    /// use serde_json::json;
    ///
    /// let call = ToolCall::new("call-1", "echo", json!({"value": "Pi"}));
    /// let result = ToolResultMessage::new(&call, vec![Content::text("Pi")]).with_details(json!({"source": "echo"}));
    /// assert_eq!((result.tool_call_id.as_str(), result.is_error), ("call-1", false));
    /// ```
    pub fn new(call: &ToolCall, content: Vec<Content>) -> Self {
        ToolResultMessage {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            content,
            details: None,
            is_error: false,
            failure_kind: None,
            repairs: Vec::new(),
            timestamp: now_millis(),
            origin: call.origin.clone(),
        }
    }

    /// The same result with these details.
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// The paired failure of `call`: content `Tool <name> failed: <message>`,
    /// details `{"error": <message>}`, a retry failure.
    pub fn failure(call: &ToolCall, message: &str) -> Self {
        ToolResultMessage::failed(call, message, FailureKind::Retry)
    }

    /// The paired failure of `call`, of the given kind.
    pub fn failed(call: &ToolCall, message: &str, kind: FailureKind) -> Self {
        let mut details = Map::new();
        details.insert("error".into(), Value::from(message));
        ToolResultMessage {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            content: vec![Content::text(format!(
                "Tool {} failed: {message}",
                call.name
            ))],
            details: Some(Value::Object(details)),
            is_error: true,
            failure_kind: Some(kind),
            repairs: Vec::new(),
            timestamp: now_millis(),
            origin: call.origin.clone(),
        }
    }

    /// The paired failure of a call that may or may not have run: a person
    /// approved it, and what was running it stopped before it answered (a
    /// lost resume, a retry that reused an approval whose run was lost).
    /// A failure of kind [`Interrupted`](FailureKind::Interrupted).
    pub fn interrupted(call: &ToolCall) -> Self {
        const TEXT: &str = "This call may or may not have run: a person approved it, and what \
                            was running it stopped before it answered. Check whether it took \
                            effect before calling it again.";
        let mut result = ToolResultMessage::failed(call, TEXT, FailureKind::Interrupted);
        result.content = vec![Content::text(TEXT)];
        result
    }
}

/// Milliseconds since the Unix epoch; 0 if the clock is before it.
pub(crate) fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn call_reads_without_type_or_arguments_and_refuses_other_types() {
        let call: ToolCall = serde_json::from_value(json!({"id": "a", "name": "echo"})).unwrap();
        assert_eq!(call.arguments, json!({}));
        let wrong =
            serde_json::from_value::<ToolCall>(json!({"type": "x", "id": "a", "name": "echo"}));
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "expected \"type\": \"toolCall\", got \"x\""
        );
    }

    #[test]
    fn call_writes_the_seed_shape() {
        let call = ToolCall::new("call-1", "echo", json!({"value": "Pi"}));
        assert_eq!(
            serde_json::to_string(&call).unwrap(),
            r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi"}}"#
        );
    }
}
