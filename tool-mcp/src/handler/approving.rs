//! How a served call asks for approval, and what its handler does while it
//! runs: wait for its answer or for what it hands over, renew the lease an
//! accepted 2026-07-28 retry holds, and record that retry finished once the
//! call is answered.

use super::McpServer;
use crate::approval::mrtr::{Mrtr, Retry};
use crate::approval::{Asking, Handed, HandedOver, HeldLease, ask};
use rmcp::model::{InputResponses, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use std::sync::{Mutex, PoisonError};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tool_core::ToolResultMessage;
use tool_core::approval::DEFAULT_RESUME_LEASE;

/// A call that may hand its question over (2026-07-28), and the lease an
/// accepted retry holds.
pub(super) struct Waiting {
    handed: HandedOver,
    lease: HeldLease,
}

/// How a call ends: with its result, or with what it handed over.
pub(super) enum Ended {
    Answered(ToolResultMessage),
    Handed(Handed),
}

impl McpServer {
    /// How this call asks for approval, should it need it, from the
    /// client's revision and capabilities and, for a 2026-07-28 retry, the
    /// state and answer it carries (checked when the executor asks, against
    /// the arguments as they will run). With what to wait on when the call
    /// may hand something over (2026-07-28).
    pub(super) fn asking(
        &self,
        tool: &str,
        request_state: Option<&str>,
        input_responses: Option<&InputResponses>,
        context: &RequestContext<RoleServer>,
        caller: String,
    ) -> (Asking, Option<Waiting>) {
        let revision = context.protocol_version();
        let capabilities = context.client_capabilities();
        let can_ask = ask::can_ask(capabilities.as_ref());
        if revision
            .as_ref()
            .is_some_and(|revision| *revision >= ProtocolVersion::V_2026_07_28)
        {
            let (sender, handed) = oneshot::channel();
            let lease = HeldLease::default();
            let asker = Mrtr {
                handed: Mutex::new(Some(sender)),
                retry: request_state.map(|state| Retry {
                    state: state.to_owned(),
                    responses: input_responses.cloned(),
                }),
                can_ask,
                tool: tool.to_owned(),
                caller,
                states: self.approvals.clone(),
                lease: lease.clone(),
            };
            return (Asking::Mrtr(asker), Some(Waiting { handed, lease }));
        }
        // First: without a session the capabilities declared at
        // `initialize` are not known here, nor could an answer come back.
        if self.without_sessions {
            let revision = revision.map_or_else(|| "(unknown)".to_owned(), |r| r.to_string());
            return (
                Asking::Decided(ask::cannot_ask_without_session(tool, &revision)),
                None,
            );
        }
        if let Err(why) = can_ask {
            return (Asking::Decided(ask::cannot_ask(tool, why)), None);
        }
        let elicit = ask::Elicit {
            peer: context.peer.clone(),
            call: context.id.clone(),
            timeout: self.approvals.ttl(),
        };
        (Asking::Elicit(elicit), None)
    }
}

impl Waiting {
    /// Runs the call to its answer or to what it hands over, renewing the
    /// lease of an accepted retry while it runs, and records that retry
    /// finished once the call is answered to a client still there. When
    /// the request was cancelled first (the client cancelled it or went
    /// away: rmcp cancels its token rather than drop this future), nobody
    /// reads the answer, so the lease is released instead, as it is when
    /// this future is dropped: a later retry with the same state is
    /// answered `interrupted`.
    pub(super) async fn run(
        mut self,
        answered: impl Future<Output = ToolResultMessage>,
        request: &CancellationToken,
    ) -> Ended {
        tokio::pin!(answered);
        let ended = tokio::select! {
            result = &mut answered => Ended::Answered(result),
            Ok(handed) = &mut self.handed => Ended::Handed(handed),
            never = renew_while_held(&self.lease) => match never {},
        };
        if matches!(ended, Ended::Answered(_)) {
            if request.is_cancelled() {
                release(&self.lease);
            } else {
                finish(&self.lease).await;
            }
        }
        ended
    }
}

/// Renews the held lease every third of its length, for as long as it is
/// polled.
async fn renew_while_held(lease: &HeldLease) -> std::convert::Infallible {
    loop {
        tokio::time::sleep(DEFAULT_RESUME_LEASE / 3).await;
        let held = lease.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(held) = held {
            match held.renew().await {
                Ok(true) => {}
                Ok(false) => tracing::warn!(
                    "the approval ledger says this retry no longer holds its requestState"
                ),
                Err(problem) => {
                    tracing::warn!(%problem, "the approval ledger could not renew a retry's lease")
                }
            }
        }
    }
}

/// Records the held lease's run finished, if a retry took one.
async fn finish(lease: &HeldLease) {
    let held = lease.lock().unwrap_or_else(PoisonError::into_inner).take();
    let Some(held) = held else {
        return;
    };
    match std::sync::Arc::try_unwrap(held) {
        Ok(held) => {
            if let Err(problem) = held.finish().await {
                tracing::warn!(%problem, "the approval ledger could not record a retry finished; a replay of its requestState will be answered interrupted");
            }
        }
        Err(_) => {
            tracing::warn!("a retry's lease is still shared when its call ended; it is released")
        }
    }
}

/// Releases the held lease, if a retry took one: its answer reaches no
/// one, so its run counts as lost.
fn release(lease: &HeldLease) {
    let held = lease.lock().unwrap_or_else(PoisonError::into_inner).take();
    if held.is_some() {
        tracing::info!(
            "a retry's client went away before its answer: its requestState is released, and a later retry with it is answered interrupted"
        );
    }
}

/// A refusal handed over, as the call's JSON-RPC error.
pub(super) fn refused(error: ErrorData) -> ErrorData {
    tracing::debug!(message = %error.message, "a retry's requestState was refused");
    error
}
