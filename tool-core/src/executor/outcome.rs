//! What a tool's run becomes on the wire: its output, or a paired failure
//! of the kind it asked for. An internal failure's message goes to the logs
//! (`tracing`) and the after hook, never to the model.

use super::catch_unwind::panic_message;
use crate::model::FailureKind;
use crate::model::{ToolCall, ToolResultMessage, now_millis};
use crate::tool::{ToolError, ToolFailure, ToolOutput};
use serde_json::Value;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};

/// The tool's output as the result: a domain error (`is_error`) is a
/// retry failure unless the after hook says otherwise.
#[inline]
pub(crate) fn success(call: &ToolCall, output: ToolOutput<Value>) -> ToolResultMessage {
    ToolResultMessage {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        content: output.content,
        details: output.details,
        is_error: output.is_error,
        failure_kind: output.is_error.then_some(FailureKind::Retry),
        repairs: Vec::new(),
        timestamp: now_millis(),
        origin: call.origin.clone(),
    }
}

#[cold]
pub(crate) fn panicked(call: &ToolCall, payload: &(dyn std::any::Any + Send)) -> ToolResultMessage {
    let message = panic_message(payload);
    crate::trace::error!(panic = %message, "the tool panicked");
    ToolResultMessage::failure(call, &format!("panicked: {message}"))
}

/// A tool's error as the paired failure of the kind it says (a
/// [`ToolFailure`]), or a retry failure; an internal failure's full message
/// goes to `internal_error` (and the logs), not to the model.
#[cold]
pub(crate) fn failed(
    call: &ToolCall,
    error: &ToolError,
    internal_error: &mut Option<String>,
) -> ToolResultMessage {
    let Told { kind, text } = told(call, error, "tool", internal_error);
    ToolResultMessage::failed(call, &text, kind)
}

/// What the model may read of an error, and its kind.
pub(crate) struct Told {
    /// The [`ToolFailure`]'s kind, or `Retry` for any other error.
    pub(crate) kind: FailureKind,
    /// The error's message with its causes; for an internal failure, a
    /// generic text with the reference of the log line holding it.
    pub(crate) text: String,
}

/// `error`, which `source` (`tool`, `before hook`, `after hook`) returned,
/// as the model may read it. An internal failure's full message goes to
/// the logs (`internal <source> error: ...`, with the reference the model
/// reads) and to `internal_error`, never to the model.
#[cold]
pub(crate) fn told(
    call: &ToolCall,
    error: &ToolError,
    source: &str,
    internal_error: &mut Option<String>,
) -> Told {
    let kind = error
        .downcast_ref::<ToolFailure>()
        .map_or(FailureKind::Retry, ToolFailure::kind);
    let message = error_message(&**error);
    if kind != FailureKind::Internal {
        return Told {
            kind,
            text: message,
        };
    }
    let reference = reference();
    crate::trace::error!(
        call_id = %call.id,
        tool = %call.name,
        reference = %reference,
        "internal {source} error: {message}"
    );
    *internal_error = Some(message);
    Told {
        kind,
        text: format!("internal error (reference {reference}); the details are in the logs"),
    }
}

/// A short reference joining what the model reads to the log line:
/// 8 hex digits, different for every internal failure of the process.
fn reference() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    let hash = RandomState::new().hash_one((count, now_millis()));
    format!("{:08x}", hash as u32)
}

/// An error's message followed by its causes, each once: `reading config:
/// No such file or directory`. A stack trace never gets in.
pub(crate) fn error_message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(source) = cause {
        let text = source.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = source.source();
    }
    message
}
