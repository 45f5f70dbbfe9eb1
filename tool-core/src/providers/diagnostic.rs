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
/// without an id, say). A bad `arguments` value is not this: it still makes
/// a call, answered by the executor with a paired error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterError {
    /// What was expected, and where.
    pub message: String,
}

impl AdapterError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        AdapterError {
            message: message.into(),
        }
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
