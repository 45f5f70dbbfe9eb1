//! Why a call failed, in the few words its span's `error.type` holds: the
//! values the executor's module documentation lists. Every failure the
//! executor makes is answered with its reason ([`Failed`]); a tool's own
//! failure is named by how it failed.

use crate::model::FailureKind;
use crate::model::ToolResultMessage;

/// The `error.type` of a call that failed. OpenTelemetry asks for a
/// low-cardinality value that names the class of the error, with `_OTHER`
/// when none fits:
/// <https://opentelemetry.io/docs/specs/semconv/registry/attributes/error/>.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorType {
    /// No tool of that name is registered.
    UnknownTool,
    /// The tool is registered but not available in this turn.
    NotAvailable,
    /// The arguments do not parse (the model's, or a hook's or a person's
    /// replacement).
    InvalidArguments,
    /// The tool answered with an output marked as an error (`isError`), as
    /// OpenTelemetry's MCP conventions name a `CallToolResult` with
    /// `isError: true`:
    /// <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md>.
    ToolError,
    /// The tool (or the before hook) returned an error of kind
    /// [`Retry`](FailureKind::Retry), or any error that is not a
    /// [`ToolFailure`](crate::ToolFailure).
    Retry,
    /// A [`Fatal`](FailureKind::Fatal) failure: the tool's or a hook's, or a
    /// call not run because its tool's retries are spent.
    Fatal,
    /// An [`Internal`](FailureKind::Internal) failure.
    Internal,
    /// A person, an approval policy or the before hook refused the call.
    Denied,
    /// An approved call's run was lost before it answered: it may or may
    /// not have run ([`Interrupted`](FailureKind::Interrupted)).
    Interrupted,
    /// The tool ran past its timeout and was stopped.
    Timeout,
    /// The caller cancelled the call.
    Cancelled,
    /// The tool panicked (or its parameters' parser, or the before hook).
    Panic,
    /// A failure of no kind the executor knows (a result that says it is
    /// an error without a failure kind).
    Other,
}

impl ErrorType {
    /// Every value, in the order the documentation lists them.
    #[cfg(test)]
    pub(crate) const ALL: [ErrorType; 13] = [
        ErrorType::UnknownTool,
        ErrorType::NotAvailable,
        ErrorType::InvalidArguments,
        ErrorType::ToolError,
        ErrorType::Retry,
        ErrorType::Fatal,
        ErrorType::Internal,
        ErrorType::Denied,
        ErrorType::Interrupted,
        ErrorType::Timeout,
        ErrorType::Cancelled,
        ErrorType::Panic,
        ErrorType::Other,
    ];

    /// The value as the span records it.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            ErrorType::UnknownTool => "unknown_tool",
            ErrorType::NotAvailable => "not_available",
            ErrorType::InvalidArguments => "invalid_arguments",
            ErrorType::ToolError => "tool_error",
            ErrorType::Retry => "retry",
            ErrorType::Fatal => "fatal",
            ErrorType::Internal => "internal",
            ErrorType::Denied => "denied",
            ErrorType::Interrupted => "interrupted",
            ErrorType::Timeout => "timeout",
            ErrorType::Cancelled => "cancelled",
            ErrorType::Panic => "panic",
            ErrorType::Other => "_OTHER",
        }
    }

    /// A failure known only by its kind (a tool's error, a hook's).
    pub(crate) const fn of_kind(kind: Option<FailureKind>) -> ErrorType {
        match kind {
            Some(FailureKind::Retry) => ErrorType::Retry,
            Some(FailureKind::Fatal) => ErrorType::Fatal,
            Some(FailureKind::Internal) => ErrorType::Internal,
            Some(FailureKind::Denied) => ErrorType::Denied,
            Some(FailureKind::Interrupted) => ErrorType::Interrupted,
            None => ErrorType::Other,
        }
    }

    /// What the span of a call answered with `result` records: nothing
    /// for a result that is not an error; else `why` (what the step that
    /// failed the call knew). A result no step failed is an output marked
    /// as an error, the tool's or the after hook's: a `tool_error`, unless
    /// its kind says more (an after hook's fatal failure, a result made
    /// outside the executor). A retry budget that makes a failure fatal
    /// leaves its `why`: the value says what went wrong, the result's kind
    /// what the agent is to do about it.
    pub(crate) fn of_result(result: &ToolResultMessage, why: Option<ErrorType>) -> Option<Self> {
        if !result.is_error {
            return None;
        }
        Some(why.unwrap_or(match result.failure_kind {
            Some(FailureKind::Retry) => ErrorType::ToolError,
            kind => ErrorType::of_kind(kind),
        }))
    }
}

/// A paired failure the executor answers a call with, and why; boxed
/// where it is returned, as it is the rare path and large.
pub(crate) struct Failed {
    /// The answer.
    pub(crate) result: ToolResultMessage,
    /// Why, as the call's span records it.
    pub(crate) why: ErrorType,
}

impl Failed {
    /// `result`, failed because of `why`.
    pub(crate) fn boxed(result: ToolResultMessage, why: ErrorType) -> Box<Failed> {
        Box::new(Failed { result, why })
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorType;

    /// The values the executor's documentation (and `docs/running.md`,
    /// which copies its table) lists are the ones recorded.
    #[test]
    fn every_value_is_documented() {
        let documented = include_str!("mod.rs");
        for value in ErrorType::ALL {
            let cell = format!("| `{}` |", value.as_str());
            assert!(
                documented.contains(&cell),
                "{cell} is missing from the table in executor/mod.rs"
            );
        }
    }
}
