//! Approval of served calls: a call that needs a person's approval
//! (`#[tool(needs_approval)]`, or the call options' approval policy) asks
//! the client before it runs, in the way the client's protocol revision
//! has for it.
//!
//! - Before 2026-07-28, in a session: `elicitation/create`, sent while the
//!   call waits ([`ask`]).
//! - On 2026-07-28: an `InputRequiredResult` with the question, then the
//!   client's retry with the answer and the sealed `requestState`
//!   ([`mrtr`], [`state`]).
//!
//! Accept runs the call; decline is a person's denial; cancel, no answer,
//! or a client that cannot be asked is a `denied` tool error saying no one
//! approved it; nothing runs. The question is tool-core's
//! ([`ApprovalRequest::question`]): the tool, what it does, the arguments in
//! full up to a size, then their SHA-256, which the approval is bound to.
//!
//! [`Asking`] is how one call asks: the asker the executor is given, by
//! [`Asking::into_approvals`].

pub(crate) mod ask;
pub(crate) mod mrtr;
pub(crate) mod state;

use rmcp::ErrorData;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::oneshot;
use tool_core::approval::{ApprovalRequest, Approvals, Decision, Lease};

/// What a call hands its handler instead of an answer.
#[derive(Debug)]
pub(crate) enum Handed {
    /// Ask the client: answer the call with an `InputRequiredResult` for
    /// this question (2026-07-28, first round, or a retry without the
    /// answer).
    Ask(ApprovalRequest),
    /// A retry's state or answer is refused: a JSON-RPC error.
    Refused(ErrorData),
    /// A retry whose earlier run with the same state was lost: answer the
    /// call `interrupted`.
    Interrupted,
}

/// Where what a call hands over arrives.
pub(crate) type HandedOver = oneshot::Receiver<Handed>;

/// The lease a 2026-07-28 retry holds on its state while the approved call
/// runs: taken by the asker, renewed and finished by the handler.
pub(crate) type HeldLease = Arc<Mutex<Option<Arc<Lease>>>>;

/// How one call's approval is asked: what the executor's asker does when
/// the call needs approval.
pub(crate) enum Asking {
    /// Ask the person now, by `elicitation/create`.
    Elicit(ask::Elicit),
    /// 2026-07-28: hand the question over (the handler answers the call
    /// with an `InputRequiredResult` and drops it unrun), or read a
    /// retry's answer.
    Mrtr(mrtr::Mrtr),
    /// Already decided: the reason no one can be asked.
    Decided(Decision),
}

impl Asking {
    /// The approvals a served call runs with: this asker, and the policy
    /// and standing decisions of the server's own call options
    /// (`configured`, suspending approvals), so the calls they pick need
    /// approval here too (the tools marked `needs_approval` always do).
    /// What was decided is kept in `decided`, for the call's audit line.
    pub(crate) fn into_approvals(
        self,
        configured: Option<&Approvals>,
        decided: Decided,
    ) -> Approvals {
        let asking = Arc::new(self);
        let approvals = Approvals::ask(move |request| {
            let asking = Arc::clone(&asking);
            let decided = Arc::clone(&decided);
            async move {
                let decision = asking.ask(request).await;
                let _ = decided.set(decision_name(&decision));
                decision
            }
        });
        match configured {
            Some(configured) => approvals
                .with_policy(configured.policy().clone())
                .with_standing(configured.standing().clone()),
            None => approvals,
        }
    }

    /// The asker's answer to `request`.
    async fn ask(&self, request: ApprovalRequest) -> Decision {
        match self {
            Asking::Elicit(elicit) => elicit.ask(request).await,
            Asking::Mrtr(mrtr) => mrtr.ask(request).await,
            Asking::Decided(decision) => decision.clone(),
        }
    }
}

/// Where a call's approval decision is kept once made: `approved`,
/// `approved_edited`, `denied`, `responded` or `unanswered`.
pub(crate) type Decided = Arc<std::sync::OnceLock<&'static str>>;

/// A decision as the audit line names it.
fn decision_name(decision: &Decision) -> &'static str {
    match decision {
        Decision::Approve | Decision::AlwaysApprove => "approved",
        Decision::ApproveWith { .. } => "approved_edited",
        Decision::Deny { .. } | Decision::AlwaysDeny { .. } => "denied",
        Decision::Respond { .. } => "responded",
        Decision::Unanswered { .. } => "unanswered",
        _ => "decided",
    }
}

/// Hands `handed` to the call's handler, then waits forever: the handler
/// answers the call and drops it (or is gone, and the call with it). A
/// call hands over once; a second time it is denied.
pub(crate) async fn hand_over(
    sender: &Mutex<Option<oneshot::Sender<Handed>>>,
    handed: Handed,
) -> Decision {
    let sender = sender.lock().unwrap_or_else(PoisonError::into_inner).take();
    match sender {
        Some(sender) => {
            let _ = sender.send(handed);
            std::future::pending().await
        }
        // A call asks once; a second question is not expected.
        None => Decision::unanswered("this call asked for approval twice"),
    }
}
