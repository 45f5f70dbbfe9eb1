//! A suspended batch: every call's slot in call order (answered, or
//! waiting for a decision), sealed with the application's key.

use super::error::ResumeError;
use super::key::ApprovalKey;
use super::request::ApprovalRequest;
use crate::message::{ToolResultMessage, now_millis};
use crate::repair::Repair;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The state's format; a state of another is refused, not misread.
const VERSION: u32 = 1;
/// What the signature covers before the state, so a signature made with
/// the same key for something else is never a suspension's.
const DOMAIN: &[u8] = b"tool-core suspension v1\n";

/// The state a suspension carries (what is signed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct State {
    pub version: u32,
    /// Unique per suspension: a ledger remembers it once resumed.
    pub id: String,
    /// Milliseconds since the Unix epoch after which it is refused.
    pub expires_at: u64,
    /// One slot per call of the batch, in call order.
    pub calls: Vec<Slot>,
}

/// One call of the batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum Slot {
    /// Answered already (it needed no approval, or was decided).
    Answered { result: ToolResultMessage },
    /// Waiting for a decision, with the repairs made to its arguments
    /// (they go on its result when it runs).
    Pending {
        request: ApprovalRequest,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        repairs: Vec<Repair>,
    },
}

/// A batch waiting for a person: the results it has, the calls that wait
/// for a decision, signed so that only the application that made it can
/// resume it ([`resume_batch`](crate::resume_batch)). It serializes (serde)
/// as `{"state": "<the state as JSON text>", "signature": "<base64url>"}`:
/// store it, send it to a browser, read it back after a restart. The state
/// is readable by whoever holds it (do not put secrets in a tool's
/// arguments); changing a byte of it, or signing it with another key, makes
/// [`resume_batch`](crate::resume_batch) refuse it.
#[derive(Clone, Debug, PartialEq)]
pub struct Suspension {
    state: State,
    sealed: Sealed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sealed {
    state: String,
    signature: String,
}

impl Suspension {
    /// Seals `calls` (at least one pending) with `key`, valid for `ttl`.
    pub(crate) fn seal(calls: Vec<Slot>, key: &ApprovalKey, ttl: Duration) -> Self {
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        let state = State {
            version: VERSION,
            id: unique_id(),
            expires_at: now_millis().saturating_add(ttl_ms),
            calls,
        };
        // A state of strings, numbers and JSON values always serializes.
        let text = serde_json::to_string(&state).unwrap_or_default();
        let signature = URL_SAFE_NO_PAD.encode(key.sign(&signed_bytes(&text)));
        Suspension {
            state,
            sealed: Sealed {
                state: text,
                signature,
            },
        }
    }

    /// The state, if `key` signed it and it has not expired.
    pub(crate) fn open(&self, key: &ApprovalKey) -> Result<&State, ResumeError> {
        let signature = URL_SAFE_NO_PAD
            .decode(&self.sealed.signature)
            .map_err(|_| ResumeError::Forged)?;
        if !key.verify(&signed_bytes(&self.sealed.state), &signature) {
            return Err(ResumeError::Forged);
        }
        if self.state.version != VERSION {
            return Err(ResumeError::Malformed(format!(
                "a state of format {}, this version reads format {VERSION}",
                self.state.version
            )));
        }
        if now_millis() > self.state.expires_at {
            return Err(ResumeError::Expired {
                expired_at_ms: self.state.expires_at,
            });
        }
        Ok(&self.state)
    }

    /// Its id, unique per suspension (each resume makes a new one).
    pub fn id(&self) -> &str {
        &self.state.id
    }

    /// When it stops being accepted, in milliseconds since the Unix epoch.
    pub fn expires_at_ms(&self) -> u64 {
        self.state.expires_at
    }

    /// The calls waiting for a decision, in call order. Read from a
    /// suspension you deserialized, they are what its holder sent until
    /// [`resume_batch`](crate::resume_batch) checks the signature; check it
    /// first with [`Approvals::verify`](crate::approval::Approvals::verify)
    /// before showing them to a person.
    pub fn pending(&self) -> impl Iterator<Item = &ApprovalRequest> {
        self.state.calls.iter().filter_map(|slot| match slot {
            Slot::Pending { request, .. } => Some(request),
            Slot::Answered { .. } => None,
        })
    }

    /// The results the batch has so far, in call order.
    pub fn answered(&self) -> impl Iterator<Item = &ToolResultMessage> {
        self.state.calls.iter().filter_map(|slot| match slot {
            Slot::Answered { result } => Some(result),
            Slot::Pending { .. } => None,
        })
    }
}

impl Serialize for Suspension {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.sealed.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Suspension {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let sealed = Sealed::deserialize(deserializer)?;
        let state = serde_json::from_str(&sealed.state)
            .map_err(|error| D::Error::custom(format!("a suspension's state: {error}")))?;
        Ok(Suspension { state, sealed })
    }
}

fn signed_bytes(state: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(DOMAIN.len() + state.len());
    bytes.extend_from_slice(DOMAIN);
    bytes.extend_from_slice(state.as_bytes());
    bytes
}

/// 128 bits unique to this suspension: two hashes seeded from the
/// operating system's randomness (std's `RandomState`) over a process-wide
/// counter and the time. Not a secret (the signature protects the state),
/// only never the same twice.
fn unique_id() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    let now = now_millis();
    let high = RandomState::new().hash_one((count, now, 1u8));
    let low = RandomState::new().hash_one((count, now, 2u8));
    format!("{high:016x}{low:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolCall;
    use serde_json::json;

    fn key(byte: u8) -> ApprovalKey {
        ApprovalKey::new(vec![byte; 32]).unwrap()
    }

    fn sealed(ttl: Duration) -> Suspension {
        let done = ToolResultMessage::failure(&ToolCall::new("c1", "echo", json!({})), "no");
        let request = ApprovalRequest::new(
            "c2",
            "write",
            "Write",
            &Default::default(),
            json!({"path": "a"}),
        );
        let calls = vec![
            Slot::Answered { result: done },
            Slot::Pending {
                request,
                repairs: Vec::new(),
            },
        ];
        Suspension::seal(calls, &key(1), ttl)
    }

    #[test]
    fn a_suspension_round_trips_through_json_and_opens_with_its_key() {
        let suspension = sealed(Duration::from_secs(60));
        let text = serde_json::to_string(&suspension).unwrap();
        let read: Suspension = serde_json::from_str(&text).unwrap();
        assert_eq!(read, suspension);
        assert!(read.open(&key(1)).is_ok());
        assert_eq!(read.pending().count(), 1);
        assert_eq!(read.answered().count(), 1);
        assert_eq!(read.open(&key(2)), Err(ResumeError::Forged));
    }

    #[test]
    fn a_changed_state_is_refused() {
        let suspension = sealed(Duration::from_secs(60));
        let wire = serde_json::to_value(&suspension).unwrap();
        let state = wire["state"].as_str().unwrap();
        let edited = state.replace(r#""path":"a""#, r#""path":"/etc/passwd""#);
        assert_ne!(edited, state);
        let forged = json!({"state": edited, "signature": wire["signature"]});
        let read: Suspension = serde_json::from_value(forged).unwrap();
        assert_eq!(read.open(&key(1)), Err(ResumeError::Forged));
    }

    #[test]
    fn an_expired_state_is_refused() {
        let suspension = sealed(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        assert!(matches!(
            suspension.open(&key(1)),
            Err(ResumeError::Expired { .. })
        ));
    }

    #[test]
    fn ids_differ() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| unique_id()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
