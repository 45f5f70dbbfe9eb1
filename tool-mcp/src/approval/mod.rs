//! Approval of served calls: a call that needs a person's approval
//! (`#[tool(needs_approval)]`, or the call options' approval policy) asks
//! the client before it runs, in the way the client's protocol revision
//! has for it.
//!
//! - Before 2026-07-28, in a session: `elicitation/create`, sent while the
//!   call waits ([`ask`]).
//! - On 2026-07-28: an `InputRequiredResult` with the question, then the
//!   client's retry with the answer and the signed `requestState`
//!   ([`mrtr`], [`state`]).
//!
//! Accept runs the call; decline or cancel is a `denied` tool error and
//! nothing runs; a client that cannot be asked gets one saying why. The
//! question is tool-core's ([`ApprovalRequest::question`]): the tool, what
//! it does, each argument.
//!
//! [`Asking`] is how one call asks: the asker the executor is given, by
//! [`Asking::into_approvals`].

pub(crate) mod ask;
pub(crate) mod mrtr;
pub(crate) mod state;

use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;
use tool_core::approval::{ApprovalPolicy, ApprovalRequest, Approvals, Decision};

/// Where a call's question arrives when it is handed over.
pub(crate) type HandedOver = oneshot::Receiver<ApprovalRequest>;

/// How one call's approval is asked: what the executor's asker does when
/// the call needs approval.
pub(crate) enum Asking {
    /// Ask the person now, by `elicitation/create`.
    Elicit(ask::Elicit),
    /// Hand the request to the call's handler, which answers the call with
    /// an `InputRequiredResult` instead of running it (2026-07-28, first
    /// round). The asker then never returns: the handler drops the call.
    Handover(Mutex<Option<oneshot::Sender<ApprovalRequest>>>),
    /// Already decided: a 2026-07-28 retry's answer, or the reason no one
    /// can be asked.
    Decided(Decision),
}

impl Asking {
    /// A handover, and where the request arrives.
    pub(crate) fn handover() -> (Asking, HandedOver) {
        let (sender, receiver) = oneshot::channel();
        (Asking::Handover(Mutex::new(Some(sender))), receiver)
    }

    /// The approvals a served call runs with: this asker, and the policy
    /// of the server's own call options (`configured`, suspending
    /// approvals), so the tools they pick need approval here too (the
    /// tools marked `needs_approval` always do).
    pub(crate) fn into_approvals(self, configured: Option<&Approvals>) -> Approvals {
        let asking = Arc::new(self);
        let approvals = Approvals::ask(move |request| {
            let asking = Arc::clone(&asking);
            async move { asking.ask(request).await }
        });
        match configured {
            Some(configured) => {
                let configured = configured.clone();
                approvals.with_policy(ApprovalPolicy::when(move |tool| configured.requires(tool)))
            }
            None => approvals,
        }
    }

    /// The asker's answer to `request`.
    async fn ask(&self, request: ApprovalRequest) -> Decision {
        match self {
            Asking::Elicit(elicit) => elicit.ask(request).await,
            Asking::Handover(sender) => {
                let sender = sender
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .take();
                match sender {
                    Some(sender) => {
                        // The handler answers the call now and drops it
                        // (or is gone, and the call with it).
                        let _ = sender.send(request);
                        std::future::pending().await
                    }
                    // A call asks once; a second question is not expected.
                    None => Decision::deny("This call asked for approval twice; it did not run."),
                }
            }
            Asking::Decided(decision) => decision.clone(),
        }
    }
}
