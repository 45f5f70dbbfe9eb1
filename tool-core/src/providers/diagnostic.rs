//! What a conversion reports, and why a provider payload could not be read.

use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Something a provider format could not express as it was, for one tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The tool concerned.
    pub tool: String,
    /// Where in its parameters schema, as a JSON Pointer (`/properties/tags/maxItems`);
    /// empty for the tool itself (its name, or the whole schema).
    pub path: String,
    /// What was dropped or changed, and why.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(out, "{}: {}", self.tool, self.message)
        } else {
            write!(out, "{}: {}: {}", self.tool, self.path, self.message)
        }
    }
}

/// Definitions in a provider's shape, and what that shape lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// The JSON to send.
    pub value: Value,
    /// What was dropped or changed, in tool order; empty when nothing was.
    pub diagnostics: Vec<Diagnostic>,
}

/// A provider payload that is not the shape it should be (a tool call
/// without an id, say): which kind of mistake, and a message saying what
/// was expected and where. A bad `arguments` value is not this: it still
/// makes a call, answered by the executor with a paired error.
///
/// ```
/// use tool_core::providers::{AdapterErrorKind, openai_chat};
/// use serde_json::json;
///
/// let error = openai_chat::read_call(&json!({"type": "function", "function": {"name": "echo"}})).unwrap_err();
/// assert_eq!(error.kind(), AdapterErrorKind::Missing);
/// assert_eq!(error.message(), "a tool_calls entry: `id` is missing");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterError {
    kind: AdapterErrorKind,
    message: String,
}

/// Which kind of mistake a provider payload made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AdapterErrorKind {
    /// A field the shape requires is missing.
    Missing,
    /// A field or an event has another type or kind than the shape says.
    WrongShape,
    /// A stream's events came in an order its protocol does not allow: a
    /// block opened twice, a delta for nothing open, an id that changed.
    OutOfOrder,
    /// The provider reported an error in the stream itself.
    Reported,
}

impl AdapterError {
    pub(crate) fn new(kind: AdapterErrorKind, message: impl Into<String>) -> Self {
        AdapterError {
            kind,
            message: message.into(),
        }
    }

    /// Which kind of mistake it is.
    pub fn kind(&self) -> AdapterErrorKind {
        self.kind
    }

    /// What was expected, and where.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for AdapterError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(&self.message)
    }
}

impl std::error::Error for AdapterError {}

/// Collects the diagnostics of one tool's conversion.
pub(crate) struct Report<'a> {
    pub(crate) tool: &'a str,
    pub(crate) diagnostics: &'a mut Vec<Diagnostic>,
}

impl Report<'_> {
    pub(crate) fn push(&mut self, path: &str, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            tool: self.tool.to_owned(),
            path: path.to_owned(),
            message: message.into(),
        });
    }
}
