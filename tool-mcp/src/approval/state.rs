//! The `requestState` of an approval asked on the 2026-07-28 revision: what
//! lets the retry that carries the person's answer run the call, and
//! nothing else.
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
//! **Signed, not stored.** The state is sealed with HMAC-SHA256 by rmcp's
//! `RequestStateCodec` (`rs1.<body>.<tag>`), its associated data the tool's
//! name and the call's arguments (in a canonical form: object keys sorted),
//! its body a random 16-byte nonce and the expiry. On 2026-07-28 there are
//! no sessions, so the retry may reach any process behind a balancer:
//! state kept in one process's memory, keyed by an unguessable id, would
//! be unknown to the others, and a signed state is verified by any process
//! given the same key (`McpServer::with_approval_key`). So a client cannot
//! forge an approval the server did not ask for, nor keep the approval and
//! change the arguments or the tool (the tag no longer verifies), nor use
//! it after the expiry. What no state can prove is that a person, not the
//! client's code, answered: MCP leaves that to the client.
//!
//! **Used once, per process.** An accepted state runs the call once: its
//! nonce is remembered until the state expires, and a second retry with it
//! is refused. A retry of the same state that reaches another process
//! behind a round-robin balancer is not seen there; a deployment that
//! needs single use across processes must route the retry to the same one.

use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde_json::Value;
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The random part of a state: what makes each one single-use.
type Nonce = [u8; 16];

/// Seals and opens approval states, and remembers those used. One per
/// server, shared by its clones (the HTTP transport makes one per
/// session or request).
pub(crate) struct ApprovalStates {
    /// `None` when the system gave no randomness for a key: then no state
    /// can be made, and each approval asked this way is refused.
    codec: Option<RequestStateCodec>,
    /// How long a person has to answer.
    ttl: Duration,
    used: Mutex<Used>,
}

/// The nonces of states already used, until their states expire.
#[derive(Default)]
struct Used {
    nonces: HashSet<Nonce>,
    /// The same nonces, oldest first, with when each may be forgotten.
    by_expiry: VecDeque<(Instant, Nonce)>,
}

/// Why a state was refused; each names what the client should do.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The server has no key (the system gave no randomness).
    NoKey,
    /// The tag does not verify for this tool and these arguments.
    NotIssued,
    /// Verified, but older than the time a person has to answer.
    Expired,
    /// Verified, but an earlier retry already ran the call with it.
    AlreadyUsed,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::NoKey => {
                "the server cannot sign approval requests: the system gave it no random key"
            }
            Refused::NotIssued => {
                "requestState does not verify: this server did not ask for approval of this \
                 tool with these arguments (the state was altered, the arguments or the tool \
                 changed since the person was asked, or another server process with another \
                 approval key asked); call the tool again without requestState to be asked anew"
            }
            Refused::Expired => {
                "requestState has expired: the person's answer came too late; call the tool \
                 again without requestState to be asked anew"
            }
            Refused::AlreadyUsed => {
                "requestState was already used: this approval ran the call once; call the \
                 tool again without requestState to be asked anew"
            }
        })
    }
}

/// A state that verified: its nonce, to be used once.
#[derive(Debug)]
pub(crate) struct Verified(Nonce);

impl ApprovalStates {
    /// States signed with a random key of this process: only this process
    /// verifies them.
    pub(crate) fn with_random_key(ttl: Duration) -> Self {
        let mut key = [0u8; 32];
        match getrandom::fill(&mut key) {
            Ok(()) => Self::with_key(key, ttl),
            Err(error) => {
                tracing::error!(
                    "no random key for approval requests ({error}); calls that need approval \
                     on 2026-07-28 will be refused"
                );
                ApprovalStates {
                    codec: None,
                    ttl,
                    used: Mutex::default(),
                }
            }
        }
    }

    /// States signed with `key`: every process given it verifies them.
    pub(crate) fn with_key(key: [u8; 32], ttl: Duration) -> Self {
        // 32 bytes is the codec's minimum, so it always takes the key.
        let codec = RequestStateCodec::try_new(key.to_vec()).ok();
        ApprovalStates {
            codec,
            ttl,
            used: Mutex::default(),
        }
    }

    /// The same key, with another time to answer (and no state used yet).
    pub(crate) fn with_ttl(&self, ttl: Duration) -> Self {
        ApprovalStates {
            codec: self.codec.clone(),
            ttl,
            used: Mutex::default(),
        }
    }

    /// How long a person has to answer.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// A new state for asking about `tool` called with `arguments`.
    pub(crate) fn seal(&self, tool: &str, arguments: &Value) -> Result<String, Refused> {
        let codec = self.codec.as_ref().ok_or(Refused::NoKey)?;
        let mut nonce: Nonce = [0; 16];
        getrandom::fill(&mut nonce).map_err(|_| Refused::NoKey)?;
        let bound = bound_to(tool, arguments);
        let options = SealOptions::new().associated_data(&bound).ttl(self.ttl);
        Ok(codec.seal_with(&nonce, &options))
    }

    /// Checks that `state` was sealed by [`seal`](Self::seal) for `tool`
    /// and `arguments`, and has not expired. It is not yet used: see
    /// [`use_once`](Self::use_once).
    pub(crate) fn verify(
        &self,
        state: &str,
        tool: &str,
        arguments: &Value,
    ) -> Result<Verified, Refused> {
        let codec = self.codec.as_ref().ok_or(Refused::NoKey)?;
        let opened =
            codec
                .open_with(state, &bound_to(tool, arguments))
                .map_err(|error| match error {
                    RequestStateError::Expired => Refused::Expired,
                    _ => Refused::NotIssued,
                })?;
        let nonce = Nonce::try_from(opened.as_slice()).map_err(|_| Refused::NotIssued)?;
        Ok(Verified(nonce))
    }

    /// Marks a verified state used; refused when it already was.
    pub(crate) fn use_once(&self, verified: Verified) -> Result<(), Refused> {
        let now = Instant::now();
        let mut used = self
            .used
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while used
            .by_expiry
            .front()
            .is_some_and(|(forget_at, _)| *forget_at <= now)
        {
            if let Some((_, nonce)) = used.by_expiry.pop_front() {
                used.nonces.remove(&nonce);
            }
        }
        if !used.nonces.insert(verified.0) {
            return Err(Refused::AlreadyUsed);
        }
        // The state expires at most `ttl` after it was sealed, which was
        // before now: remembered that long, it cannot come back verified.
        used.by_expiry.push_back((now + self.ttl, verified.0));
        Ok(())
    }
}

/// What a state is bound to: the tool's name and the arguments, as bytes
/// that differ whenever either does (the name's length first, so no
/// split of one text can pass for another).
fn bound_to(tool: &str, arguments: &Value) -> Vec<u8> {
    let mut bound = b"tool-mcp approval v1\0".to_vec();
    bound.extend_from_slice(&(tool.len() as u64).to_be_bytes());
    bound.extend_from_slice(tool.as_bytes());
    // A Value always serializes.
    let canonical = serde_json::to_vec(&canonical(arguments)).unwrap_or_default();
    bound.extend_from_slice(&canonical);
    bound
}

/// `value` with every object's keys sorted: the same arguments sent again
/// in another key order are the same arguments.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), canonical(value)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn states() -> ApprovalStates {
        ApprovalStates::with_key([7; 32], Duration::from_secs(600))
    }

    #[test]
    fn a_state_verifies_for_its_tool_and_arguments_once() {
        let states = states();
        let arguments = json!({"path": "a.txt", "content": "x"});
        let state = states.seal("write", &arguments).unwrap();
        let verified = states.verify(&state, "write", &arguments).unwrap();
        states.use_once(verified).unwrap();
        let again = states.verify(&state, "write", &arguments).unwrap();
        assert_eq!(states.use_once(again), Err(Refused::AlreadyUsed));
    }

    #[test]
    fn the_same_arguments_in_another_key_order_verify() {
        let states = states();
        let state = states
            .seal("write", &json!({"path": "a", "content": {"b": 1, "a": 2}}))
            .unwrap();
        assert!(
            states
                .verify(
                    &state,
                    "write",
                    &json!({"content": {"a": 2, "b": 1}, "path": "a"})
                )
                .is_ok()
        );
    }

    #[test]
    fn other_arguments_another_tool_or_an_altered_state_do_not_verify() {
        let states = states();
        let arguments = json!({"path": "a.txt"});
        let state = states.seal("write", &arguments).unwrap();
        for (state, tool, arguments) in [
            (state.clone(), "write", json!({"path": "b.txt"})),
            (state.clone(), "write", json!({"path": "a.txt", "more": 1})),
            (state.clone(), "delete", arguments.clone()),
            (format!("{state}x"), "write", arguments.clone()),
            (
                state.replacen("rs1.", "rs1.A", 1),
                "write",
                arguments.clone(),
            ),
            ("rs1.AAAA.BBBB".to_owned(), "write", arguments.clone()),
            (String::new(), "write", arguments.clone()),
        ] {
            assert_eq!(
                states.verify(&state, tool, &arguments).unwrap_err(),
                Refused::NotIssued,
                "{state} {tool} {arguments}"
            );
        }
    }

    #[test]
    fn another_key_does_not_verify() {
        let arguments = json!({"path": "a.txt"});
        let state = states().seal("write", &arguments).unwrap();
        let other = ApprovalStates::with_key([8; 32], Duration::from_secs(600));
        assert_eq!(
            other.verify(&state, "write", &arguments).unwrap_err(),
            Refused::NotIssued
        );
        let random = ApprovalStates::with_random_key(Duration::from_secs(600));
        assert_eq!(
            random.verify(&state, "write", &arguments).unwrap_err(),
            Refused::NotIssued
        );
    }

    #[test]
    fn an_expired_state_is_refused_as_expired() {
        let states = ApprovalStates::with_key([7; 32], Duration::from_millis(1));
        let arguments = json!({});
        let state = states.seal("write", &arguments).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            states.verify(&state, "write", &arguments).unwrap_err(),
            Refused::Expired
        );
    }

    #[test]
    fn each_state_is_new() {
        let states = states();
        let first = states.seal("write", &json!({})).unwrap();
        let second = states.seal("write", &json!({})).unwrap();
        assert_ne!(first, second);
    }

    #[test]
    fn used_nonces_are_forgotten_once_their_states_expired() {
        let states = ApprovalStates::with_key([7; 32], Duration::from_millis(5));
        for _ in 0..3 {
            let state = states.seal("write", &json!({})).unwrap();
            let verified = states.verify(&state, "write", &json!({})).unwrap();
            states.use_once(verified).unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
        let state = states.seal("write", &json!({})).unwrap();
        let verified = states.verify(&state, "write", &json!({})).unwrap();
        states.use_once(verified).unwrap();
        let used = states.used.lock().unwrap();
        assert_eq!(used.nonces.len(), 1);
        assert_eq!(used.by_expiry.len(), 1);
    }
}
