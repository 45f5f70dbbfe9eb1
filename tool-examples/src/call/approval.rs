//! Approvals on JSON lines: a call that needs a person's approval is
//! answered with an approval-request line carrying the sealed state; a
//! later decision line (with that state) resumes it, in this process or
//! another one given the same key and ledger, and is answered with the
//! call's result. A close line answers a call that will never be decided,
//! without running it. Every field is camelCase, as the rest of the wire
//! format.
//!
//! ```text
//! > {"id":"c1","name":"write","arguments":{"path":"notes.txt","content":"hi"}}
//! < {"type":"approvalRequest","approvalId":"..","toolCallId":"c1","toolName":"write","arguments":{..},"argumentsSha256":"..","annotations":{..},"question":"Allow write ...","expiresAt":..,"suspension":"v2.."}
//! > {"type":"approval","toolCallId":"c1","decision":"approve","suspension":"v2.."}
//! < {"role":"toolResult","toolCallId":"c1","toolName":"write","content":[..],"isError":false,..}
//! > {"type":"approvalClose","suspension":"v2..","reason":"the user left"}
//! < {"role":"toolResult","toolCallId":"c1",..,"isError":true,"failure":"denied",..}
//! ```

use serde::{Deserialize, Serialize};
use std::io::{self, Read};
use std::path::Path;
use tool_core::approval::{ApprovalKey, ApprovalRequest, Decision, SealedSuspension, Suspension};

/// The line a call that waits for approval is answered with: the request
/// a UI shows (its fields inline) and the sealed state to send back.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename = "approvalRequest", rename_all = "camelCase")]
pub struct RequestLine<'a> {
    /// The waiting call: approval id, call id, tool, arguments in full,
    /// their SHA-256, annotations, question, expiry.
    #[serde(flatten)]
    pub request: &'a ApprovalRequest,
    /// The sealed state to send back with the decision.
    pub suspension: &'a Suspension,
}

impl<'a> RequestLine<'a> {
    /// The line for `request`, waiting in `suspension`.
    pub fn new(request: &'a ApprovalRequest, suspension: &'a Suspension) -> Self {
        RequestLine {
            request,
            suspension,
        }
    }
}

/// A line about a waiting call: a decision, or a close.
#[derive(Debug)]
pub enum ApprovalLine {
    /// `{"type":"approval",..}`.
    Decide(DecisionLine),
    /// `{"type":"approvalClose",..}`.
    Close(CloseLine),
}

/// A decision line: `{"type":"approval","toolCallId":..,"decision":..,"suspension":..}`
/// (with `reason` for `deny` and `alwaysDeny`, `arguments` for
/// `approveWith`, `result` for `respond`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionLine {
    /// Always `"approval"`. A field rather than serde's `tag`: a flattened
    /// field is handed every key its struct does not take as a field, the
    /// tag included, and the decision refuses keys it does not know.
    #[serde(rename = "type")]
    pub kind: ApprovalLineType,
    /// The call decided.
    pub tool_call_id: String,
    /// The decision (its fields inline).
    #[serde(flatten)]
    pub decision: Decision,
    /// The sealed state the approval-request line carried.
    pub suspension: SealedSuspension,
}

/// A close line: `{"type":"approvalClose","suspension":..,"reason":..}`
/// (the reason optional): every call still waiting in the state is
/// answered without running.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloseLine {
    /// Always `"approvalClose"`.
    #[serde(rename = "type")]
    pub kind: CloseLineType,
    /// The sealed state the approval-request line carried.
    pub suspension: SealedSuspension,
    /// Why, in words for the model.
    #[serde(default)]
    pub reason: String,
}

/// The `type` of a decision line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalLineType {
    /// `"approval"`.
    Approval,
}

/// The `type` of a close line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CloseLineType {
    /// `"approvalClose"`.
    ApprovalClose,
}

/// The line answering a decision or close that could not be applied
/// (nothing ran; the call still waits, and may be decided again).
pub fn refused_line(call_id: Option<&str>, problem: &str) -> String {
    match call_id {
        Some(id) => {
            serde_json::json!({"type": "approvalError", "toolCallId": id, "error": problem})
        }
        None => serde_json::json!({"type": "approvalError", "error": problem}),
    }
    .to_string()
}

/// The key in `file` (its bytes, surrounding whitespace removed), or a new
/// random one for this process when there is no file.
pub fn load_key(file: Option<&Path>) -> io::Result<ApprovalKey> {
    let secret = match file {
        Some(file) => {
            let bytes = std::fs::read(file).map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("approval key file {}: {error}", file.display()),
                )
            })?;
            bytes.trim_ascii().to_vec()
        }
        None => {
            let mut bytes = vec![0; 32];
            std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
            bytes
        }
    };
    ApprovalKey::new(secret).map_err(|error| {
        let what = file.map_or("a random key".to_owned(), |file| {
            format!("approval key file {}", file.display())
        });
        io::Error::new(io::ErrorKind::InvalidInput, format!("{what}: {error}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_decision_line_reads_each_decision_inline() {
        let line = json!({
            "type": "approval",
            "toolCallId": "c1",
            "decision": "deny",
            "reason": "not that file",
            "suspension": "v2.AAAA"
        });
        let read: DecisionLine = serde_json::from_value(line).unwrap();
        assert_eq!(read.tool_call_id, "c1");
        assert_eq!(read.decision, Decision::deny("not that file"));
        let respond = json!({
            "type": "approval",
            "toolCallId": "c1",
            "decision": "respond",
            "result": "written by hand",
            "suspension": "v2.AAAA"
        });
        let read: DecisionLine = serde_json::from_value(respond).unwrap();
        assert_eq!(read.decision, Decision::respond("written by hand"));
    }

    #[test]
    fn a_close_line_reads_with_or_without_a_reason() {
        let read: CloseLine =
            serde_json::from_value(json!({"type": "approvalClose", "suspension": "v2.A"})).unwrap();
        assert_eq!(read.reason, "");
        let unknown = serde_json::from_value::<CloseLine>(
            json!({"type": "approvalClose", "suspension": "v2.A", "why": "x"}),
        )
        .unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `why`"),
            "{unknown}"
        );
    }

    #[test]
    fn a_short_key_file_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        std::fs::write(&path, "short\n").unwrap();
        let refused = load_key(Some(&path)).unwrap_err().to_string();
        assert!(refused.contains("approval key file"), "{refused}");
        assert!(
            refused.contains("at least 32 secret bytes, got 5"),
            "{refused}"
        );
        std::fs::write(&path, "k".repeat(40)).unwrap();
        assert!(load_key(Some(&path)).is_ok());
        assert!(load_key(None).is_ok());
    }
}
