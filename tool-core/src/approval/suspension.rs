//! A suspended batch: every call's slot in call order (answered, waiting
//! for a decision, or waiting for its turn), sealed with the application's
//! key.

use super::error::ResumeError;
use super::key::ApprovalKey;
use super::policy::{Approvals, Asking};
use super::request::ApprovalRequest;
use super::standing::Standing;
use crate::model::Repair;
use crate::model::{ToolCall, ToolResultMessage, now_millis};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The state's format; a state of another is refused, not misread.
pub(crate) const SUSPENSION_FORMAT: u32 = 2;
const VERSION: u32 = SUSPENSION_FORMAT;
/// How a sealed state starts, so one of another format is told apart
/// before it is opened.
const PREFIX: &str = "v2.";
/// What the seal binds besides the state, so that a text sealed with the
/// same key for anything else never opens as a suspension.
const CONTEXT: &[u8] = b"tool-core suspension v2";

/// The state a suspension carries (what is sealed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct State {
    pub version: u32,
    /// The batch's id, fixed when it first suspends: approval ids are made
    /// from it, so a call's approval id stays the same in every state.
    pub batch: String,
    /// This state's id, unique per state: the ledger records its resume.
    pub id: String,
    /// Milliseconds since the Unix epoch after which it is not resumed;
    /// fixed when the batch first suspends.
    pub expires_at: u64,
    /// The run's standing decisions, by tool.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub standing: BTreeMap<String, Standing>,
    /// One slot per call of the batch, in call order.
    pub calls: Vec<Slot>,
}

/// One call of the batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase", deny_unknown_fields)]
#[allow(
    clippy::large_enum_variant,
    reason = "a batch has a few slots, each built once per suspend or resume"
)]
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
    /// Approved (the call as it will run), waiting for its turn: in
    /// sequential mode, for a call before it to be decided.
    Approved {
        call: ToolCall,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        repairs: Vec<Repair>,
    },
    /// Needs no approval, waiting for its turn (sequential mode).
    Held { call: ToolCall },
    /// A call of a tool that runs tools (a code mode) that suspended
    /// itself: one of its inner calls waits for a decision (`request`,
    /// named by the inner call's id), and the tool resumes from `state`,
    /// its own, sealed with the rest. `decided` once a decision came while
    /// a call before it still waits (sequential mode).
    Suspended {
        call: ToolCall,
        request: ApprovalRequest,
        state: serde_json::Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decided: Option<Resolved>,
    },
}

/// A decision for the inner call of a [`Slot::Suspended`], resolved
/// against its tool (edited arguments parsed, a given result checked).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "camelCase", deny_unknown_fields)]
pub(crate) enum Resolved {
    /// Run the inner call as given (a person may have edited its
    /// arguments), with the repairs to put on its result.
    Run {
        call: ToolCall,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        repairs: Vec<Repair>,
    },
    Denied {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Unanswered {
        reason: String,
    },
    Responded {
        result: serde_json::Value,
        structured: bool,
    },
}

impl Slot {
    /// Whether the call still waits for something.
    pub(crate) fn waits(&self) -> bool {
        !matches!(self, Slot::Answered { .. })
    }

    /// The call, as far as the slot knows it (an answered one's name).
    pub(crate) fn call(&self) -> ToolCall {
        match self {
            Slot::Answered { result } => ToolCall::new(
                &result.tool_call_id,
                &result.tool_name,
                serde_json::Value::Null,
            ),
            Slot::Pending { request, .. } => ToolCall::new(
                &request.tool_call_id,
                &request.tool_name,
                request.arguments.clone(),
            ),
            Slot::Approved { call, .. } | Slot::Held { call } | Slot::Suspended { call, .. } => {
                call.clone()
            }
        }
    }
}

/// A batch waiting for a person, opened: the results it has, the calls
/// that wait for a decision, and its sealed form to store. It serializes
/// (serde) as its [`SealedSuspension`]: a string that only the key that
/// made it opens, so whoever holds it between suspend and resume (a
/// browser, a queue, a database row) can neither read the calls' arguments
/// and results nor change a byte of it. Read one back as a
/// `SealedSuspension` and open it with [`Approvals::open`].
#[derive(Clone, Debug, PartialEq)]
pub struct Suspension {
    pub(crate) state: State,
    sealed: SealedSuspension,
}

/// A suspension as stored and sent: `"v2.<base64url>"`, its state encrypted
/// and authenticated with XChaCha20-Poly1305 under a key derived from the
/// application's [`ApprovalKey`]. Open it with [`Approvals::open`].
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SealedSuspension(String);

impl SealedSuspension {
    /// The sealed text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for SealedSuspension {
    fn from(text: String) -> Self {
        SealedSuspension(text)
    }
}

impl fmt::Debug for SealedSuspension {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "SealedSuspension({} bytes)", self.0.len())
    }
}

impl Suspension {
    /// Seals `state` with `key`; `None` when the system gives no
    /// randomness for the nonce.
    pub(crate) fn seal(state: State, key: &ApprovalKey) -> Option<Self> {
        // A state of strings, numbers and JSON values always serializes.
        let text = serde_json::to_vec(&state).ok()?;
        let sealed = key.seal(&text, CONTEXT)?;
        let sealed = SealedSuspension(format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(sealed)));
        Some(Suspension { state, sealed })
    }

    /// The state of `sealed`, if `key` sealed it (expired or not).
    pub(crate) fn open(sealed: &SealedSuspension, key: &ApprovalKey) -> Result<Self, ResumeError> {
        let Some(body) = sealed.0.strip_prefix(PREFIX) else {
            return Err(ResumeError::Malformed(
                "a sealed suspension starts with \"v2.\"; this one is of another format or not one"
                    .to_owned(),
            ));
        };
        let bytes = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| ResumeError::Forged)?;
        let text = key.open(&bytes, CONTEXT).ok_or(ResumeError::Forged)?;
        let state: State = serde_json::from_slice(&text)
            .map_err(|error| ResumeError::Malformed(format!("its state: {error}")))?;
        if state.version != VERSION {
            return Err(ResumeError::Malformed(format!(
                "a state of format {}, this version reads format {VERSION}",
                state.version
            )));
        }
        Ok(Suspension {
            state,
            sealed: sealed.clone(),
        })
    }

    /// Its state's id, unique per state (each resume that leaves calls
    /// waiting makes a new one).
    pub fn id(&self) -> &str {
        &self.state.id
    }

    /// When it stops being resumed, in milliseconds since the Unix epoch:
    /// fixed when the batch first suspended.
    pub fn expires_at_ms(&self) -> u64 {
        self.state.expires_at
    }

    /// Whether it is past its expiry (it can then only be
    /// [closed](Self::close)).
    pub fn is_expired(&self) -> bool {
        now_millis() > self.state.expires_at
    }

    /// The calls waiting for a person's decision, in call order. A call
    /// of a tool that runs tools (`run_code`) and suspended itself is
    /// here as the inner call that waits: its tool, its arguments, and its
    /// own id (`<the outer call's id>.<n>`), by which it is decided.
    pub fn pending(&self) -> impl Iterator<Item = &ApprovalRequest> {
        self.state.calls.iter().filter_map(|slot| match slot {
            Slot::Pending { request, .. }
            | Slot::Suspended {
                request,
                decided: None,
                ..
            } => Some(request),
            _ => None,
        })
    }

    /// The results the batch has so far, in call order.
    pub fn answered(&self) -> impl Iterator<Item = &ToolResultMessage> {
        self.state.calls.iter().filter_map(|slot| match slot {
            Slot::Answered { result } => Some(result),
            _ => None,
        })
    }

    /// The ids of the calls that wait for their turn (sequential mode: a
    /// call before them is still undecided), in call order.
    pub fn waiting_for_turn(&self) -> impl Iterator<Item = &str> {
        self.state.calls.iter().filter_map(|slot| match slot {
            Slot::Approved { call, .. }
            | Slot::Held { call }
            | Slot::Suspended {
                call,
                decided: Some(_),
                ..
            } => Some(call.id.as_str()),
            _ => None,
        })
    }

    /// The run's standing decisions it carries, by tool.
    pub fn standing(&self) -> &BTreeMap<String, Standing> {
        &self.state.standing
    }

    /// What to store or send.
    pub fn sealed(&self) -> &SealedSuspension {
        &self.sealed
    }
}

impl Serialize for Suspension {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.sealed.serialize(serializer)
    }
}

impl Approvals {
    /// Opens a suspension these approvals' key sealed, expired or not, to
    /// show its pending calls to a person, resume it, or close it. Refused
    /// when it was changed in any byte or sealed with another key
    /// ([`ResumeError::Forged`]), or is of another format.
    pub fn open(&self, sealed: &SealedSuspension) -> Result<Suspension, ResumeError> {
        match &self.asking {
            Asking::Suspend { key, .. } => Suspension::open(sealed, key),
            Asking::Ask(_) => Err(ResumeError::NoKey),
        }
    }
}

/// 128 random bits in hex: ids of batches, states and resumes. `None` when
/// the system gives no randomness.
pub(crate) fn random_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(byte: u8) -> ApprovalKey {
        ApprovalKey::new(vec![byte; 32]).unwrap()
    }

    fn state() -> State {
        let done =
            ToolResultMessage::failure(&ToolCall::new("c1", "echo", json!({})), "a secret result");
        let request = ApprovalRequest::new(
            "b.1".into(),
            "c2",
            "write",
            "Write",
            &Default::default(),
            json!({"path": "a"}),
        );
        State {
            version: VERSION,
            batch: "b".into(),
            id: random_id().unwrap(),
            expires_at: now_millis() + 60_000,
            standing: BTreeMap::new(),
            calls: vec![
                Slot::Answered { result: done },
                Slot::Pending {
                    request,
                    repairs: Vec::new(),
                },
                Slot::Held {
                    call: ToolCall::new("c3", "echo", json!({})),
                },
            ],
        }
    }

    #[test]
    fn a_suspension_round_trips_through_json_and_opens_with_its_key_only() {
        let suspension = Suspension::seal(state(), &key(1)).unwrap();
        let text = serde_json::to_string(&suspension).unwrap();
        assert!(text.starts_with("\"v2."), "{text}");
        assert!(
            !text.contains("secret"),
            "the state is not readable: {text}"
        );
        let sealed: SealedSuspension = serde_json::from_str(&text).unwrap();
        let opened = Suspension::open(&sealed, &key(1)).unwrap();
        assert_eq!(opened, suspension);
        assert_eq!(opened.pending().count(), 1);
        assert_eq!(opened.answered().count(), 1);
        assert_eq!(opened.waiting_for_turn().collect::<Vec<_>>(), ["c3"]);
        assert_eq!(Suspension::open(&sealed, &key(2)), Err(ResumeError::Forged));
    }

    #[test]
    fn a_changed_or_foreign_text_is_refused() {
        let sealed = Suspension::seal(state(), &key(1)).unwrap().sealed.0;
        let mut bytes = sealed.clone().into_bytes();
        let last = bytes.len() - 1;
        bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
        let changed = SealedSuspension(String::from_utf8(bytes).unwrap());
        assert_eq!(
            Suspension::open(&changed, &key(1)),
            Err(ResumeError::Forged)
        );
        let old = SealedSuspension(r#"{"state":"{}","signature":"x"}"#.into());
        assert!(matches!(
            Suspension::open(&old, &key(1)),
            Err(ResumeError::Malformed(_))
        ));
        let garbage = SealedSuspension("v2.!!".into());
        assert_eq!(
            Suspension::open(&garbage, &key(1)),
            Err(ResumeError::Forged)
        );
    }

    #[test]
    fn ids_differ() {
        let ids: std::collections::HashSet<String> =
            (0..1000).filter_map(|_| random_id()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
