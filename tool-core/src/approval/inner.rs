//! What a tool that runs other tools (a code mode) gets back when the call
//! it suspended for one of its inner calls is resumed: the state it
//! suspended with, and the person's decision for that inner call.

use super::request::ApprovalRequest;
use crate::model::{ToolCall, ToolResultMessage};
use serde_json::Value;

/// A call that suspended itself ([`ToolContext::suspend`](crate::ToolContext::suspend)),
/// resumed: read it with [`ToolContext::resumed`](crate::ToolContext::resumed).
/// The call runs again from the start, with this.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Resumed {
    /// The state the tool suspended with, as it gave it: it was sealed
    /// with the rest of the suspension, so no one changed a byte of it.
    pub state: Value,
    /// The inner call that waited, as the person was asked about it.
    pub request: ApprovalRequest,
    /// What became of that inner call.
    pub decision: InnerDecision,
}

/// The person's decision for the inner call a tool suspended for.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum InnerDecision {
    /// Approved: run this call (its arguments a person's edit, if they
    /// edited them) through the executor with the call's own options
    /// ([`ToolContext::run_options`](crate::ToolContext::run_options)); it
    /// is not asked about again.
    Run(ToolCall),
    /// Not to run: this is its result (a person denied it, answered it
    /// with a result of their own, or no one approved it).
    Answered(ToolResultMessage),
}
