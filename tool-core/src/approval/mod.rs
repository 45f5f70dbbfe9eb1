//! Approvals that wait for a person: a tool that needs approval
//! (`#[tool(needs_approval)]`, or picked by an [`ApprovalPolicy`]) never
//! runs unasked, and an approval runs its call at most once.
//!
//! Two ways to ask, both set with
//! [`RunOptions::with_approvals`](crate::RunOptions::with_approvals):
//!
//! - **Suspend** ([`Approvals::suspend`]): [`execute_batch`](crate::execute_batch)
//!   runs the calls that need no approval and returns a sealed
//!   [`Suspension`] holding their results and the calls that wait. The
//!   application stores it (a database row, a hidden form field), shows the
//!   pending calls to a person, and later, in this process or another one
//!   with the same key and ledger, calls [`resume_batch`](crate::resume_batch)
//!   with a [`Decision`] per call. Some calls may be decided now and others
//!   later: each resume returns the batch complete, or a new suspension for
//!   the rest. A suspension that will never be decided is
//!   [closed](Suspension::close). Every call gets exactly one result, in
//!   call order.
//! - **Ask** ([`Approvals::ask`]): a function answers while the call waits
//!   (a terminal prompt; an MCP client asked through elicitation).
//!
//! The web-app shape, each step a request of its own (the options built
//! afresh each time, as a handler does):
//!
//! ```
//! # #[cfg(feature = "approval-state")] {
//! use tool_core::approval::{ApprovalKey, Approvals, Decision, SealedSuspension};
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
//! let options = || RunOptions::new().with_approvals(Approvals::suspend(key.clone()));
//! let calls = [
//!     ToolCall::new("c1", "size", json!({"path": "a.txt"})),
//!     ToolCall::new("c2", "delete", json!({"path": "a.txt"})),
//! ];
//!
//! // 1. Suspend: `size` ran, `delete` waits.
//! let BatchOutcome::Suspended(suspension) =
//!     execute_batch(&calls, &tools, options(), ExecutionMode::Parallel).await
//! else { unreachable!() };
//! let waiting: Vec<_> = suspension.pending().map(|call| call.question.clone()).collect();
//! assert_eq!(waiting, ["Allow delete (Delete a file; may destroy data) to run with:\n  path: \"a.txt\"\n?"]);
//!
//! // 2. Store it (sealed: nobody can read or change it); show the question.
//! let stored = serde_json::to_string(&suspension).unwrap();
//!
//! // 3. A person clicks "approve": read it back, open it, resume.
//! let sealed: SealedSuspension = serde_json::from_str(&stored).unwrap();
//! let approvals = Approvals::suspend(key.clone());
//! let suspension = approvals.open(&sealed).unwrap();
//! let decisions = [("c2", Decision::Approve)];
//! let BatchOutcome::Complete(results) =
//!     resume_batch(&suspension, decisions, &tools, options(), ExecutionMode::Parallel).await.unwrap()
//! else { unreachable!() };
//! let texts: Vec<_> = results.iter().map(|r| r.content[0].as_text().unwrap()).collect();
//! assert_eq!(texts, ["a.txt: 3 bytes", "deleted a.txt"]);
//!
//! // The same state replayed by another request does not run the call again.
//! let again = resume_batch(&suspension, [("c2", Decision::Approve)], &tools, options(), ExecutionMode::Parallel).await;
//! assert!(again.is_err());
//! # });
//! # }
//! ```
//!
//! # Tools that run tools
//!
//! A tool that runs other tools ([`Tool::runs_tools`](crate::Tool::runs_tools):
//! a code mode, an agent as a tool) can suspend its own call for one of
//! its inner calls: [`ToolContext::would_suspend`](crate::ToolContext::would_suspend)
//! says when an inner call waits for a person, [`ToolContext::suspend`](crate::ToolContext::suspend)
//! makes the outer call a pending call of the batch, with a state of the
//! tool's own sealed in the suspension, and when it is resumed the call
//! runs again with [`ToolContext::resumed`](crate::ToolContext::resumed):
//! that state and the decision for the inner call ([`Resumed`]). The
//! pending call is the inner one ([`Suspension::pending`]), decided by the
//! inner call's id. `tool-code`'s `run_code` suspends this way, replaying
//! the calls its script already made.
//!
//! # What holds where
//!
//! - **One process**: a state resumes at most once, whoever builds the
//!   options: the default ledger ([`MemoryLedger::for_key`]) is shared by
//!   everything in the process holding the same key. A resume dropped
//!   before its calls answer (a client gone, a handler's timeout) leaves
//!   them to the next resume of that state, which answers them
//!   `interrupted` at once.
//! - **Several processes, one machine or many**: the same holds when they
//!   share the key and a [`SuspensionLedger`] in a store they all reach
//!   (`tool-redis`'s ledger on Redis); a resume whose process dies is known
//!   gone when its lease runs out ([`DEFAULT_RESUME_LEASE`]), and the next
//!   resume then answers its calls `interrupted`. With only the key shared,
//!   each process remembers its own resumes: a state replayed to another
//!   process runs again there.

// Without `tracing`, the values only events and spans read go unread.
#![cfg_attr(not(feature = "tracing"), allow(unused_variables, unused_imports))]

pub(crate) mod answers;
mod digest;
mod policy;
mod request;
mod standing;

pub use digest::arguments_sha256;
pub use policy::{ApprovalPolicy, Approvals};
pub use request::{ApprovalRequest, Decision, QUESTION_ARGUMENT_BYTES};
pub use standing::{Standing, StandingDecisions};

pub(crate) use answers::check_result;
pub(crate) use policy::Asking;
pub(crate) use request::shown;

cfg_feature!("approval-state" =>
    mod close;
    mod error;
    mod inner;
    mod key;
    mod lease;
    mod ledger;
    mod suspension;

    pub use close::RECORD_RETENTION;
    pub use error::ResumeError;
    pub use inner::{InnerDecision, Resumed};
    pub use key::{ApprovalKey, KeyTooShort};
    pub use lease::Lease;
    pub use ledger::{Claim, Claimed, LedgerFuture, MemoryLedger, SuspensionLedger};
    pub use policy::{DEFAULT_RESUME_LEASE, DEFAULT_SUSPENSION_TTL};
    pub use suspension::{SealedSuspension, Suspension};
);

#[cfg(feature = "approval-state")]
pub(crate) use suspension::{Resolved, SUSPENSION_FORMAT, Slot, State, random_id};
