//! Approvals that wait for a person: a tool that needs approval
//! (`#[tool(needs_approval)]`, or picked by an [`ApprovalPolicy`]) never
//! runs unasked.
//!
//! Two ways to ask, both set with
//! [`RunOptions::with_approvals`](crate::RunOptions::with_approvals):
//!
//! - **Suspend** ([`Approvals::suspend`]): [`execute_batch`](crate::execute_batch)
//!   runs the calls that need no approval and returns a signed
//!   [`Suspension`] holding their results and the calls that wait. The
//!   application stores it (a database row, a hidden form field), shows the
//!   pending calls to a person, and later, in this process or another one
//!   with the same key, calls [`resume_batch`](crate::resume_batch) with a
//!   [`Decision`] per call. Some calls may be decided now and others later:
//!   each resume returns the batch complete, or a new suspension for the
//!   rest. Every call gets exactly one result, in call order.
//! - **Ask** ([`Approvals::ask`]): a function answers while the call waits
//!   (a terminal prompt; an MCP client asked through elicitation).
//!
//! The web-app shape:
//!
//! ```
//! use tool_core::approval::{ApprovalKey, Approvals, Decision};
//! use tool_core::{execute_batch, resume_batch, tool, BatchOutcome, ExecutionMode, RunOptions, ToolCall, ToolRegistry};
//! use serde_json::json;
//!
//! /// Delete a file
//! #[tool(destructive, needs_approval)]
//! async fn delete(path: String) -> String {
//!     format!("deleted {path}")
//! }
//!
//! /// Show a file's size
//! #[tool(read_only)]
//! async fn size(path: String) -> String {
//!     format!("{path}: 3 bytes")
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let mut tools = ToolRegistry::new();
//! tools.register(DeleteTool).unwrap();
//! tools.register(SizeTool).unwrap();
//! let key = ApprovalKey::new(*b"a secret of 32 bytes or more!!!!").unwrap();
//! let options = RunOptions::new().with_approvals(Approvals::suspend(key));
//! let calls = [
//!     ToolCall::new("c1", "size", json!({"path": "a.txt"})),
//!     ToolCall::new("c2", "delete", json!({"path": "a.txt"})),
//! ];
//!
//! // 1. Suspend: `size` ran, `delete` waits.
//! let BatchOutcome::Suspended(suspension) =
//!     execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await
//! else { unreachable!() };
//! let waiting: Vec<_> = suspension.pending().map(|call| call.question.clone()).collect();
//! assert_eq!(waiting, ["Allow delete (Delete a file; may destroy data) to run with:\n  path: \"a.txt\"\n?"]);
//!
//! // 2. Store it; show the question; a person clicks "approve".
//! let stored = serde_json::to_string(&suspension).unwrap();
//!
//! // 3. Resume (after a restart too: the key is all it needs).
//! let suspension = serde_json::from_str(&stored).unwrap();
//! let decisions = [("c2", Decision::Approve)];
//! let BatchOutcome::Complete(results) =
//!     resume_batch(&suspension, decisions, &tools, options.clone(), ExecutionMode::Parallel).await.unwrap()
//! else { unreachable!() };
//! let texts: Vec<_> = results.iter().map(|r| r.content[0].as_text().unwrap()).collect();
//! assert_eq!(texts, ["a.txt: 3 bytes", "deleted a.txt"]);
//!
//! // The same state cannot run the call twice.
//! let again = resume_batch(&suspension, [("c2", Decision::Approve)], &tools, options, ExecutionMode::Parallel).await;
//! assert!(again.is_err());
//! # });
//! ```

mod error;
mod key;
mod ledger;
mod policy;
mod request;
mod suspension;

pub use error::ResumeError;
pub use key::{ApprovalKey, KeyTooShort};
pub use ledger::{ClaimFuture, MemoryLedger, SuspensionLedger};
pub use policy::{ApprovalPolicy, Approvals, DEFAULT_SUSPENSION_TTL};
pub use request::{ApprovalRequest, Decision};
pub use suspension::Suspension;

pub(crate) use policy::Asking;
pub(crate) use request::shown;
pub(crate) use suspension::{Slot, State};

impl Approvals {
    /// Checks that `suspension` is one these approvals signed and that it
    /// has not expired, without resuming it: do it before showing a
    /// suspension read from a client to a person.
    pub fn verify(&self, suspension: &Suspension) -> Result<(), ResumeError> {
        match &self.asking {
            Asking::Suspend { key, .. } => suspension.open(key).map(|_| ()),
            Asking::Ask(_) => Err(ResumeError::NoKey),
        }
    }
}
