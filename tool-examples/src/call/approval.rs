//! Approvals on JSON lines: a call that needs a person's approval is
//! answered with an approval-request line carrying the signed state; a
//! later decision line (with that state) resumes it, in this process or
//! another one given the same key, and is answered with the call's result.
//!
//! ```text
//! > {"id":"c1","name":"write","arguments":{"path":"notes.txt","content":"hi"}}
//! < {"type":"approvalRequest","toolCallId":"c1","toolName":"write","arguments":{..},"question":"Allow write ...","suspension":{"state":"..","signature":".."}}
//! > {"type":"approval","toolCallId":"c1","decision":"approve","suspension":{"state":"..","signature":".."}}
//! < {"role":"toolResult","toolCallId":"c1","toolName":"write","content":[..],"isError":false,..}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};
use tool_core::approval::{
    ApprovalKey, ApprovalRequest, ClaimFuture, Decision, Suspension, SuspensionLedger,
};

/// The line a call that waits for approval is answered with.
#[derive(Serialize)]
#[serde(tag = "type", rename = "approvalRequest", rename_all = "camelCase")]
pub struct RequestLine<'a> {
    /// The waiting call's id.
    pub tool_call_id: &'a str,
    /// Its tool.
    pub tool_name: &'a str,
    /// Its arguments, as they will run.
    pub arguments: &'a Value,
    /// What to ask a person.
    pub question: &'a str,
    /// The signed state to send back with the decision.
    pub suspension: &'a Suspension,
}

impl<'a> RequestLine<'a> {
    /// The line for `request`, waiting in `suspension`.
    pub fn new(request: &'a ApprovalRequest, suspension: &'a Suspension) -> Self {
        RequestLine {
            tool_call_id: &request.call_id,
            tool_name: &request.tool_name,
            arguments: &request.arguments,
            question: &request.question,
            suspension,
        }
    }
}

/// A decision line: `{"type":"approval","toolCallId":..,"decision":..,"suspension":..}`
/// (with `reason` for `deny`, `arguments` for `approve_with`).
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
    /// The state the approval-request line carried.
    pub suspension: Suspension,
}

/// The `type` of a decision line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalLineType {
    /// `"approval"`.
    Approval,
}

/// The line answering a decision that could not be applied (nothing ran;
/// the call still waits, and may be decided again).
pub fn refused_line(call_id: &str, problem: &str) -> String {
    serde_json::json!({"type": "approvalError", "toolCallId": call_id, "error": problem})
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

/// The suspensions resumed, as lines `ID EXPIRES_AT_MS` in a file that
/// every process resuming with the same key shares; a lock on the file
/// (`flock`) makes each claim whole, so two processes cannot both resume
/// one state.
#[derive(Debug)]
pub struct FileLedger {
    path: PathBuf,
}

impl FileLedger {
    /// The ledger kept in `path` (created when missing).
    pub fn open(path: &Path) -> io::Result<Self> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("approval ledger {}: {error}", path.display()),
                )
            })?;
        Ok(FileLedger {
            path: path.to_owned(),
        })
    }

    fn claim_now(&self, id: &str, expires_at_ms: u64) -> io::Result<bool> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(&self.path)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)?;
        file.rewind()?;
        for line in BufReader::new(&file).lines() {
            if line?.split(' ').next() == Some(id) {
                return Ok(false);
            }
        }
        writeln!(file, "{id} {expires_at_ms}")?;
        file.sync_data()?;
        Ok(true)
        // The lock goes with the file.
    }
}

impl SuspensionLedger for FileLedger {
    fn claim(&self, id: &str, expires_at_ms: u64) -> ClaimFuture<'_> {
        let claimed = self
            .claim_now(id, expires_at_ms)
            .map_err(|error| format!("{}: {error}", self.path.display()));
        Box::pin(std::future::ready(claimed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_decision_line_reads_each_decision_inline() {
        let key = ApprovalKey::new(vec![7; 32]).unwrap();
        let _ = key;
        let line = json!({
            "type": "approval",
            "toolCallId": "c1",
            "decision": "deny",
            "reason": "not that file",
            "suspension": {"state": "{\"version\":1,\"id\":\"x\",\"expiresAt\":1,\"calls\":[]}", "signature": "AA"}
        });
        let read: DecisionLine = serde_json::from_value(line).unwrap();
        assert_eq!(read.tool_call_id, "c1");
        assert_eq!(read.decision, Decision::deny("not that file"));
    }

    #[test]
    fn a_ledger_file_claims_an_id_once_across_handles() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger");
        let first = FileLedger::open(&path).unwrap();
        let second = FileLedger::open(&path).unwrap();
        assert!(first.claim_now("a", 10).unwrap());
        assert!(!second.claim_now("a", 10).unwrap());
        assert!(second.claim_now("b", 10).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a 10\nb 10\n");
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
