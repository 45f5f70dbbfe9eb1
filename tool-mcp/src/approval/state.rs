//! The `requestState` of an approval asked on the 2026-07-28 revision: what
//! lets the retry that carries the person's answer run the call, once,
//! for the caller that was asked, and nothing else.
//!
//! MCP 2026-07-28 answers a call that needs input with an
//! `InputRequiredResult`; the client asks, then sends the same call again
//! with the answers (`inputResponses`) and the `requestState` echoed
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>).
//! The spec makes the server treat that state as attacker-controlled: if it
//! influences what runs, its integrity MUST be protected and a state that
//! fails verification MUST be rejected; it SHOULD bind a short expiry and
//! the originating request, and single use MUST be enforced server-side
//! when it matters (same page, "Server Requirements").
//!
//! **Sealed, not stored.** The state is sealed with HMAC-SHA256 by rmcp's
//! `RequestStateCodec` (`rs1.<body>.<tag>`), its body a random 16-byte
//! nonce and the expiry, its associated data the tool's name, the SHA-256
//! of the exact arguments the person was shown (parsed: defaults filled in,
//! repairs applied; [`ApprovalRequest::arguments_sha256`]) and who asked
//! (the OAuth caller, when there is one). On 2026-07-28 there are no
//! sessions, so the retry may reach any process behind a balancer, and a
//! state sealed with the key they share (`McpServer::with_approval_key`) is
//! verified by any of them. So a client cannot forge an approval the server
//! did not ask for, nor keep the approval and change the arguments or the
//! tool, nor use another caller's (the tag no longer verifies), nor use it
//! after the expiry. What no state can prove is that a person, not the
//! client's code, answered: MCP leaves that to the client.
//!
//! **Used once, in the ledger.** An accepted state runs its call once: its
//! nonce is claimed in the server's approval ledger (tool-core's
//! [`SuspensionLedger`], the one place single use lives) before the call
//! runs, held while it runs, and recorded finished after; a second retry
//! with it is refused. A retry whose run was lost (the client went away
//! mid-call, the process died) is answered `interrupted`, never run again.
//! The default ledger is this process's memory, shared by every server in
//! it with the same key; processes behind a balancer share one in a store
//! (`McpServer::with_approval_ledger`), or a replay that reaches another
//! process runs again there.
//!
//! [`ApprovalRequest::arguments_sha256`]: tool_core::approval::ApprovalRequest::arguments_sha256
//! [`SuspensionLedger`]: tool_core::approval::SuspensionLedger

use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use std::sync::Arc;
use std::time::Duration;
use tool_core::approval::{Claimed, DEFAULT_RESUME_LEASE, Lease, MemoryLedger, SuspensionLedger};

/// The random part of a state: what makes each one single-use.
type Nonce = [u8; 16];

/// Seals and opens approval states, and records those used. One per
/// server, shared by its clones (the HTTP transport makes one per
/// session or request).
#[derive(Clone)]
pub(crate) struct ApprovalStates {
    /// `None` when the system gave no randomness for a key: then no state
    /// can be made, and each approval asked this way is refused.
    codec: Option<RequestStateCodec>,
    /// How long a person has to answer.
    ttl: Duration,
    /// Where used states are recorded.
    ledger: Arc<dyn SuspensionLedger>,
}

/// Why a state was refused; each names what the client should do.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The server has no key (the system gave no randomness).
    NoKey,
    /// The tag does not verify for this tool, these arguments and this
    /// caller.
    NotIssued,
    /// Verified, but older than the time a person has to answer.
    Expired,
    /// Verified, but an earlier retry already ran the call with it.
    AlreadyUsed,
    /// Verified, and a retry with it is running the call right now.
    InUse,
    /// The ledger could not tell whether it was used.
    Ledger(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::NoKey => {
                "the server cannot sign approval requests: the system gave it no random key"
            }
            Refused::NotIssued => {
                "requestState does not verify: this server did not ask this caller for approval \
                 of this tool with these arguments (the state was altered, the arguments or the \
                 tool changed since the person was asked, another caller sent it, or another \
                 server process with another approval key asked); call the tool again without \
                 requestState to be asked anew"
            }
            Refused::Expired => {
                "requestState has expired: the person's answer came too late; call the tool \
                 again without requestState to be asked anew"
            }
            Refused::AlreadyUsed => {
                "requestState was already used: this approval ran the call once; call the \
                 tool again without requestState to be asked anew"
            }
            Refused::InUse => {
                "requestState is being used: a retry with it is running the call now; it runs \
                 once"
            }
            Refused::Ledger(problem) => {
                return write!(
                    f,
                    "the approval ledger cannot tell whether this requestState was used ({problem}); \
                     the call did not run"
                );
            }
        })
    }
}

/// A state that verified: its nonce, to be used once.
#[derive(Debug)]
pub(crate) struct Verified(Nonce);

/// What using a verified state allows.
#[derive(Debug)]
pub(crate) enum Use {
    /// Run the call, holding the lease while it runs.
    Run(Lease),
    /// An earlier retry with this state started the call and never
    /// answered: answer it `interrupted` (then finish the lease).
    Interrupted(Lease),
}

impl ApprovalStates {
    /// States signed with a random key of this process: only this process
    /// verifies them.
    pub(crate) fn with_random_key(ttl: Duration) -> Self {
        let mut key = [0u8; 32];
        match getrandom::fill(&mut key) {
            Ok(()) => Self::with_key(key, ttl, Arc::new(MemoryLedger::default())),
            Err(error) => {
                tracing::error!(
                    "no random key for approval requests ({error}); calls that need approval \
                     on 2026-07-28 will be refused"
                );
                ApprovalStates {
                    codec: None,
                    ttl,
                    ledger: Arc::new(MemoryLedger::default()),
                }
            }
        }
    }

    /// States signed with `key`, recorded in `ledger`: every process given
    /// both verifies them and uses each once.
    pub(crate) fn with_key(
        key: [u8; 32],
        ttl: Duration,
        ledger: Arc<dyn SuspensionLedger>,
    ) -> Self {
        // 32 bytes is the codec's minimum, so it always takes the key.
        let codec = RequestStateCodec::try_new(key.to_vec()).ok();
        ApprovalStates { codec, ttl, ledger }
    }

    /// The same key and ledger, with another time to answer.
    pub(crate) fn with_ttl(&self, ttl: Duration) -> Self {
        ApprovalStates {
            ttl,
            ..self.clone()
        }
    }

    /// The same key, recording in `ledger`.
    pub(crate) fn with_ledger(&self, ledger: Arc<dyn SuspensionLedger>) -> Self {
        ApprovalStates {
            ledger,
            ..self.clone()
        }
    }

    /// How long a person has to answer.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// A new state for asking `caller` about `tool` called with the
    /// arguments whose digest is `arguments_sha256`.
    pub(crate) fn seal(
        &self,
        tool: &str,
        arguments_sha256: &str,
        caller: &str,
    ) -> Result<String, Refused> {
        let codec = self.codec.as_ref().ok_or(Refused::NoKey)?;
        let mut nonce: Nonce = [0; 16];
        getrandom::fill(&mut nonce).map_err(|_| Refused::NoKey)?;
        let bound = bound_to(tool, arguments_sha256, caller);
        let options = SealOptions::new().associated_data(&bound).ttl(self.ttl);
        Ok(codec.seal_with(&nonce, &options))
    }

    /// Checks that `state` was sealed by [`seal`](Self::seal) for the same
    /// tool, arguments and caller, and has not expired. It is not yet used:
    /// see [`use_once`](Self::use_once).
    pub(crate) fn verify(
        &self,
        state: &str,
        tool: &str,
        arguments_sha256: &str,
        caller: &str,
    ) -> Result<Verified, Refused> {
        let codec = self.codec.as_ref().ok_or(Refused::NoKey)?;
        let opened = codec
            .open_with(state, &bound_to(tool, arguments_sha256, caller))
            .map_err(|error| match error {
                RequestStateError::Expired => Refused::Expired,
                _ => Refused::NotIssued,
            })?;
        let nonce = Nonce::try_from(opened.as_slice()).map_err(|_| Refused::NotIssued)?;
        Ok(Verified(nonce))
    }

    /// Claims a verified state for running call `call_id`; refused when a
    /// retry with it ran (or runs) already.
    pub(crate) async fn use_once(&self, verified: Verified, call_id: &str) -> Result<Use, Refused> {
        let id: String = verified
            .0
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let id = format!("mcp-request-state.{id}");
        // The state expires at most `ttl` after it was sealed, which was
        // before now: kept that long, it cannot come back verified.
        let keep_until = now_millis().saturating_add(millis(self.ttl));
        let (claimed, lease) = Lease::claim(
            Arc::clone(&self.ledger),
            &id,
            &[call_id.to_owned()],
            DEFAULT_RESUME_LEASE,
            keep_until,
        )
        .await
        .map_err(Refused::Ledger)?;
        match (claimed, lease) {
            (Claimed::Fresh, Some(lease)) => Ok(Use::Run(lease)),
            (Claimed::TakenOver { .. }, Some(lease)) => Ok(Use::Interrupted(lease)),
            (Claimed::Busy { .. }, _) => Err(Refused::InUse),
            (Claimed::Finished, _) => Err(Refused::AlreadyUsed),
            (other, _) => Err(Refused::Ledger(format!(
                "the ledger answered {other:?} without a claim"
            ))),
        }
    }
}

/// What a state is bound to: the tool's name, the arguments' digest and
/// the caller, as bytes that differ whenever any does (each text's length
/// first, so no split of one text can pass for another).
fn bound_to(tool: &str, arguments_sha256: &str, caller: &str) -> Vec<u8> {
    let mut bound = b"tool-mcp approval v2\0".to_vec();
    for part in [tool, arguments_sha256, caller] {
        bound.extend_from_slice(&(part.len() as u64).to_be_bytes());
        bound.extend_from_slice(part.as_bytes());
    }
    bound
}

fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, millis)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "0d5c4e0a1fb1a8f0b5f0f2f4c6b8c2d0e9f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9";

    fn states() -> ApprovalStates {
        ApprovalStates::with_key(
            [7; 32],
            Duration::from_secs(600),
            Arc::new(MemoryLedger::default()),
        )
    }

    #[tokio::test]
    async fn a_state_verifies_for_its_tool_arguments_and_caller_and_runs_once() {
        let states = states();
        let state = states.seal("write", DIGEST, "sub alice").unwrap();
        let verified = states.verify(&state, "write", DIGEST, "sub alice").unwrap();
        let Use::Run(lease) = states.use_once(verified, "1").await.unwrap() else {
            panic!("the first use runs");
        };
        let running = states.verify(&state, "write", DIGEST, "sub alice").unwrap();
        assert_eq!(
            states.use_once(running, "1").await.unwrap_err(),
            Refused::InUse
        );
        lease.finish().await.unwrap();
        let again = states.verify(&state, "write", DIGEST, "sub alice").unwrap();
        assert_eq!(
            states.use_once(again, "1").await.unwrap_err(),
            Refused::AlreadyUsed
        );
    }

    #[tokio::test]
    async fn a_lost_run_is_answered_interrupted_on_the_next_retry() {
        let states = states();
        let state = states.seal("write", DIGEST, "").unwrap();
        let verified = states.verify(&state, "write", DIGEST, "").unwrap();
        let lost = states.use_once(verified, "1").await.unwrap();
        drop(lost);
        let again = states.verify(&state, "write", DIGEST, "").unwrap();
        let Use::Interrupted(lease) = states.use_once(again, "1").await.unwrap() else {
            panic!("a dropped run is interrupted");
        };
        lease.finish().await.unwrap();
        let third = states.verify(&state, "write", DIGEST, "").unwrap();
        assert_eq!(
            states.use_once(third, "1").await.unwrap_err(),
            Refused::AlreadyUsed
        );
    }

    #[tokio::test]
    async fn servers_sharing_a_ledger_use_a_state_once_between_them() {
        let ledger: Arc<dyn SuspensionLedger> = Arc::new(MemoryLedger::default());
        let first =
            ApprovalStates::with_key([7; 32], Duration::from_secs(600), Arc::clone(&ledger));
        let second = ApprovalStates::with_key([7; 32], Duration::from_secs(600), ledger);
        let state = first.seal("write", DIGEST, "").unwrap();
        let Use::Run(lease) = first
            .use_once(first.verify(&state, "write", DIGEST, "").unwrap(), "1")
            .await
            .unwrap()
        else {
            panic!("runs");
        };
        lease.finish().await.unwrap();
        let replay = second.verify(&state, "write", DIGEST, "").unwrap();
        assert_eq!(
            second.use_once(replay, "1").await.unwrap_err(),
            Refused::AlreadyUsed
        );
    }

    #[test]
    fn other_arguments_another_tool_caller_or_an_altered_state_do_not_verify() {
        let states = states();
        let state = states.seal("write", DIGEST, "sub alice").unwrap();
        let other_digest = DIGEST.replace('0', "1");
        for (state, tool, digest, caller) in [
            (state.clone(), "write", other_digest.as_str(), "sub alice"),
            (state.clone(), "delete", DIGEST, "sub alice"),
            (state.clone(), "write", DIGEST, "sub mallory"),
            (state.clone(), "write", DIGEST, ""),
            (format!("{state}x"), "write", DIGEST, "sub alice"),
            (
                state.replacen("rs1.", "rs1.A", 1),
                "write",
                DIGEST,
                "sub alice",
            ),
            ("rs1.AAAA.BBBB".to_owned(), "write", DIGEST, "sub alice"),
            (String::new(), "write", DIGEST, "sub alice"),
        ] {
            assert_eq!(
                states.verify(&state, tool, digest, caller).unwrap_err(),
                Refused::NotIssued,
                "{state} {tool} {digest} {caller}"
            );
        }
    }

    #[test]
    fn another_key_does_not_verify() {
        let state = states().seal("write", DIGEST, "").unwrap();
        let other = ApprovalStates::with_key(
            [8; 32],
            Duration::from_secs(600),
            Arc::new(MemoryLedger::default()),
        );
        assert_eq!(
            other.verify(&state, "write", DIGEST, "").unwrap_err(),
            Refused::NotIssued
        );
        let random = ApprovalStates::with_random_key(Duration::from_secs(600));
        assert_eq!(
            random.verify(&state, "write", DIGEST, "").unwrap_err(),
            Refused::NotIssued
        );
    }

    #[test]
    fn an_expired_state_is_refused_as_expired() {
        let states = states().with_ttl(Duration::from_millis(1));
        let state = states.seal("write", DIGEST, "").unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            states.verify(&state, "write", DIGEST, "").unwrap_err(),
            Refused::Expired
        );
    }

    #[test]
    fn each_state_is_new() {
        let states = states();
        assert_ne!(
            states.seal("write", DIGEST, "").unwrap(),
            states.seal("write", DIGEST, "").unwrap()
        );
    }
}
