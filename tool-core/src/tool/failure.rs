//! How a tool says what kind of failure it had, so the caller (and the
//! model) know whether to try again, stop, or look in the logs.

use super::ToolError;
use crate::model::FailureKind;

use std::fmt;

/// An error a tool returns to say which [`FailureKind`] it is. Any other
/// error (through `?`) is a retry failure whose message the model reads.
///
/// ```
/// use tool_core::{tool, ToolError, ToolFailure};
///
/// /// Charge a card
/// #[tool(destructive)]
/// async fn charge(cents: u64) -> Result<String, ToolError> {
///     if cents == 0 {
///         return Err(ToolFailure::retry("cents must be more than 0").into());
///     }
///     if cents > 100_000 {
///         return Err(ToolFailure::fatal("over the limit this agent may charge").into());
///     }
///     let receipt = std::fs::read_to_string("/nonexistent/ledger")
///         .map_err(|error| ToolFailure::internal(format!("ledger unreadable: {error}")))?;
///     Ok(receipt)
/// }
/// ```
#[derive(Debug)]
pub struct ToolFailure {
    kind: FailureKind,
    error: ToolError,
}

impl ToolFailure {
    /// A failure the model should correct: `message` tells it how.
    pub fn retry(message: impl Into<String>) -> Self {
        ToolFailure::of(FailureKind::Retry, message.into().into())
    }

    /// A failure that ends this tool's use in this turn: `message` says why.
    pub fn fatal(message: impl Into<String>) -> Self {
        ToolFailure::of(FailureKind::Fatal, message.into().into())
    }

    /// A failure inside the tool, for the logs: the model only learns that
    /// something went wrong (and a reference to find it in the logs).
    pub fn internal(error: impl Into<ToolError>) -> Self {
        ToolFailure::of(FailureKind::Internal, error.into())
    }

    fn of(kind: FailureKind, error: ToolError) -> Self {
        ToolFailure { kind, error }
    }

    /// Which kind of failure this is.
    pub fn kind(&self) -> FailureKind {
        self.kind
    }
}

impl fmt::Display for ToolFailure {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, out)
    }
}

impl std::error::Error for ToolFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}
