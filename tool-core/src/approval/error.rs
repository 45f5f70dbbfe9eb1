//! Why a suspension could not be resumed or closed. Nothing ran when one
//! is returned: the state stays as it was, and can be resumed again with
//! the problem fixed (a decision for an unknown call, arguments that do
//! not parse) unless it is the state itself that is refused.

use std::fmt;

/// Why [`resume_batch`](crate::resume_batch) refused to resume.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResumeError {
    /// The run options (or the approvals) have no suspending
    /// [`Approvals`](super::Approvals), so there is no key to open the
    /// state with.
    NoKey,
    /// The state does not open: it was changed, or sealed with another
    /// key.
    Forged,
    /// The state is past its expiry.
    Expired {
        /// When it expired, in milliseconds since the Unix epoch.
        expired_at_ms: u64,
    },
    /// This state was resumed (or closed) already: each resume that leaves
    /// calls waiting returns a new one.
    AlreadyResumed {
        /// The state's id.
        id: String,
    },
    /// Another resume of this state is running (in this process or one
    /// sharing the ledger); try again after it finishes, or after
    /// `lease_until_ms` if its process is gone (its calls are then
    /// answered `interrupted`).
    InProgress {
        /// The state's id.
        id: String,
        /// When the running resume's lease ends unless renewed, in
        /// milliseconds since the Unix epoch.
        lease_until_ms: u64,
    },
    /// The resume decides nothing: no decision was given, and no standing
    /// decision applies to a waiting call.
    NoDecisions,
    /// A decision names a call that is not waiting in this state.
    NotPending {
        /// The id the decision gave.
        call_id: String,
    },
    /// Two decisions for one call.
    DecidedTwice {
        /// The call's id.
        call_id: String,
    },
    /// Edited arguments do not parse with the tool's parameters.
    Arguments {
        /// The call's id.
        call_id: String,
        /// What is wrong, as parse errors say it.
        problem: String,
    },
    /// A [`Respond`](super::Decision::Respond) result does not fit the
    /// tool's output schema.
    Result {
        /// The call's id.
        call_id: String,
        /// What is wrong, as parse errors say it.
        problem: String,
    },
    /// The tool of a pending call is no longer registered.
    UnknownTool {
        /// The call's id.
        call_id: String,
        /// The tool's name.
        tool: String,
    },
    /// The ledger of resumed states could not say whether this one was.
    Ledger(String),
    /// The state is not one this version reads.
    Malformed(String),
}

impl fmt::Display for ResumeError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::NoKey => out.write_str(
                "the run options have no suspending approvals (RunOptions::with_approvals(Approvals::suspend(key))), so the state cannot be checked",
            ),
            ResumeError::Forged => out.write_str(
                "the suspension does not open: it was changed, or sealed with another key",
            ),
            ResumeError::Expired { expired_at_ms } => {
                write!(out, "the suspension expired (at {expired_at_ms} ms since the epoch)")
            }
            ResumeError::AlreadyResumed { id } => {
                write!(
                    out,
                    "suspension {id} was resumed or closed already; resume the one its resume returned"
                )
            }
            ResumeError::InProgress { id, lease_until_ms } => write!(
                out,
                "suspension {id} is being resumed right now; try again when that resume finishes \
                 (or after {lease_until_ms} ms since the epoch, if what runs it is gone)"
            ),
            ResumeError::NoDecisions => out.write_str(
                "the resume decides nothing: give a decision for at least one waiting call",
            ),
            ResumeError::NotPending { call_id } => {
                write!(out, "call {call_id} is not waiting for a decision in this suspension")
            }
            ResumeError::DecidedTwice { call_id } => {
                write!(out, "call {call_id} was given two decisions")
            }
            ResumeError::Arguments { call_id, problem } => {
                write!(out, "the edited arguments of call {call_id} do not parse: {problem}")
            }
            ResumeError::Result { call_id, problem } => {
                write!(out, "the result given for call {call_id} does not fit its tool's output schema: {problem}")
            }
            ResumeError::UnknownTool { call_id, tool } => {
                write!(out, "call {call_id}'s tool {tool} is not registered")
            }
            ResumeError::Ledger(problem) => {
                write!(out, "the ledger of resumed suspensions failed: {problem}")
            }
            ResumeError::Malformed(problem) => write!(out, "not a suspension this version reads: {problem}"),
        }
    }
}

impl std::error::Error for ResumeError {}
