//! Closing a suspension that will never be decided (the person left, the
//! conversation ended) or has expired: every call still waiting gets its
//! paired result without anything running, so the transcript can be
//! completed.

use super::answers;
use super::error::ResumeError;
use super::lease::Lease;
use super::ledger::Claimed;
use super::policy::{Approvals, Asking};
use super::suspension::{Slot, Suspension};
use crate::model::{ToolResultMessage, now_millis};
use std::time::Duration;

/// How long past a suspension's expiry the ledger keeps the record of its
/// resumes: a suspension closed within that time learns which of its
/// calls a lost resume may have run. One closed later is answered as if
/// every waiting call may have (`interrupted`): the ledger can no longer
/// tell.
pub const RECORD_RETENTION: Duration = Duration::from_secs(7 * 24 * 60 * 60);

impl Suspension {
    /// Answers every call still waiting without running anything, expired
    /// or not: `denied` with "its approval was closed without a decision"
    /// and `reason` (for the model), or `interrupted` for a call that a
    /// resume of this state started and never finished (it may have run).
    /// Returns the batch's results, one per call, in call order.
    ///
    /// The ledger of `approvals` records the close as it records a resume:
    /// the state cannot be resumed or closed again (refused like a second
    /// resume), and a resume running now makes it wait
    /// ([`ResumeError::InProgress`]).
    ///
    /// ```
    /// use tool_core::approval::{ApprovalKey, Approvals};
    /// use tool_core::{execute_batch, tool, BatchOutcome, ExecutionMode, RunOptions, ToolCall, ToolRegistry};
    /// use serde_json::json;
    ///
    /// /// Delete a file
    /// #[tool(needs_approval)]
    /// async fn delete(path: String) -> String { format!("deleted {path}") }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let mut tools = ToolRegistry::new();
    /// tools.register(DeleteTool).unwrap();
    /// let approvals = Approvals::suspend(ApprovalKey::new(*b"a secret of 32 bytes or more!!!!").unwrap());
    /// let options = RunOptions::new().with_approvals(approvals.clone());
    /// let call = ToolCall::new("c1", "delete", json!({"path": "a.txt"}));
    /// let BatchOutcome::Suspended(suspension) = execute_batch(&[call], &tools, options, ExecutionMode::Parallel).await
    /// else { unreachable!() };
    ///
    /// let results = suspension.close(&approvals, "the user left").await.unwrap();
    /// assert_eq!(results[0].tool_call_id, "c1");
    /// assert_eq!(
    ///     results[0].content[0].as_text(),
    ///     Some("This call did not run: its approval was closed without a decision (the user left).")
    /// );
    /// assert!(suspension.close(&approvals, "again").await.is_err());
    /// # });
    /// ```
    pub async fn close(
        &self,
        approvals: &Approvals,
        reason: &str,
    ) -> Result<Vec<ToolResultMessage>, ResumeError> {
        let Asking::Suspend {
            key, ledger, lease, ..
        } = &approvals.asking
        else {
            return Err(ResumeError::NoKey);
        };
        let state = Suspension::open(self.sealed(), key)?.state;
        let retention = u64::try_from(RECORD_RETENTION.as_millis()).unwrap_or(u64::MAX);
        let keep_until = state.expires_at.saturating_add(retention);
        let forgotten = now_millis() > keep_until;
        let (claimed, held) = Lease::claim(ledger.clone(), &state.id, &[], *lease, keep_until)
            .await
            .map_err(ResumeError::Ledger)?;
        let interrupted = match claimed {
            Claimed::Finished => return Err(ResumeError::AlreadyResumed { id: state.id }),
            Claimed::Busy { lease_until_ms } => {
                return Err(ResumeError::InProgress {
                    id: state.id,
                    lease_until_ms,
                });
            }
            Claimed::TakenOver { interrupted } => interrupted,
            _ => Vec::new(),
        };
        let results = state
            .calls
            .into_iter()
            .map(|slot| match slot {
                Slot::Answered { result } => result,
                waiting => {
                    let call = waiting.call();
                    if forgotten || interrupted.contains(&call.id) {
                        answers::interrupted(&call)
                    } else {
                        answers::closed(&call, reason)
                    }
                }
            })
            .collect();
        if let Some(held) = held
            && let Err(problem) = held.finish().await
        {
            crate::trace::warn!(id = %state.id, %problem, "the approval ledger could not record a close finished");
        }
        crate::trace::info!(id = %state.id, %reason, "a suspension was closed");
        Ok(results)
    }
}
