//! What a failed call means for the agent loop, as results carry it.

use serde::{Deserialize, Serialize};

/// What a failed call means for the agent loop. A result that failed says
/// which in [`ToolResultMessage::failure_kind`](crate::ToolResultMessage::failure_kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The arguments or the request were wrong, and the model should try
    /// again: the message is for the model. Bad arguments, an unknown tool,
    /// and any error a tool returns without saying otherwise are retry
    /// failures.
    Retry,
    /// Do not call this tool again in this turn; the message says why.
    Fatal,
    /// Something broke inside the tool: the message is for the logs. The
    /// model reads a generic text with a short reference; the full message
    /// goes to the after hook and to `tracing`.
    Internal,
    /// A person or a policy refused the call, and it did not run (an
    /// approval denied, a before hook's
    /// [`Block`](crate::executor::HookDecision::Block)): the message is the
    /// reason, for the model. Not a mistake to correct: a
    /// [`RetryBudget`](crate::executor::RetryBudget) neither counts it nor
    /// resets on it.
    Denied,
    /// The call may or may not have run: a person approved it, and what was
    /// running it (a resume of a suspended batch, a retry of an MCP call)
    /// stopped before it answered (its future dropped, its process gone).
    /// It is never run again from the same approval; the model reads that
    /// it should check whether it took effect. Not counted by a
    /// [`RetryBudget`](crate::executor::RetryBudget).
    Interrupted,
}
