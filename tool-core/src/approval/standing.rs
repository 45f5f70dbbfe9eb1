//! Decisions that stand for the rest of a run: a person who says "always
//! allow `read`" or "never run `delete`" is not asked about that tool
//! again (the OpenAI Agents SDK's `always_approve` / `always_reject`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// What stands for every later call of one tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "camelCase", deny_unknown_fields)]
pub enum Standing {
    /// Run its calls without asking.
    Approve,
    /// Deny its calls without asking, with the person's reason.
    Deny {
        /// Why, in words for the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

/// The standing decisions of a run, by tool name. Clones share them: the
/// [`Approvals`](super::Approvals) of a run hold one, a
/// [`Decision::AlwaysApprove`](super::Decision::AlwaysApprove) or
/// [`AlwaysDeny`](super::Decision::AlwaysDeny) adds to it, and every later
/// call of that tool under those approvals is decided by it. A suspended
/// batch carries them in its sealed state, so its resumes honour them
/// whatever options they are given; to carry them into the next batches of
/// a run served by fresh options per request (a web handler), store them
/// with the conversation (they serialize as `{"tool": {"decision":
/// "approve"}}`) and give them back with
/// [`Approvals::with_standing`](super::Approvals::with_standing).
///
/// ```
/// use tool_core::approval::{Standing, StandingDecisions};
///
/// let standing = StandingDecisions::new();
/// standing.set("read", Standing::Approve);
/// let stored = serde_json::to_string(&standing).unwrap();
/// assert_eq!(stored, r#"{"read":{"decision":"approve"}}"#);
/// let again: StandingDecisions = serde_json::from_str(&stored).unwrap();
/// assert_eq!(again.get("read"), Some(Standing::Approve));
/// ```
#[derive(Clone, Default)]
pub struct StandingDecisions {
    by_tool: Arc<Mutex<BTreeMap<String, Standing>>>,
}

impl StandingDecisions {
    /// None yet.
    pub fn new() -> Self {
        StandingDecisions::default()
    }

    /// What stands for `tool`, if anything.
    pub fn get(&self, tool: &str) -> Option<Standing> {
        self.lock().get(tool).cloned()
    }

    /// Makes `standing` stand for every later call of `tool`.
    pub fn set(&self, tool: impl Into<String>, standing: Standing) {
        self.lock().insert(tool.into(), standing);
    }

    /// Every standing decision, by tool.
    pub fn snapshot(&self) -> BTreeMap<String, Standing> {
        self.lock().clone()
    }

    /// Adds `others`, keeping this one's decision where both have one.
    #[cfg(feature = "approval-state")]
    pub(crate) fn adopt(&self, others: &BTreeMap<String, Standing>) {
        let mut mine = self.lock();
        for (tool, standing) in others {
            mine.entry(tool.clone()).or_insert_with(|| standing.clone());
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Standing>> {
        self.by_tool.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl From<BTreeMap<String, Standing>> for StandingDecisions {
    fn from(by_tool: BTreeMap<String, Standing>) -> Self {
        StandingDecisions {
            by_tool: Arc::new(Mutex::new(by_tool)),
        }
    }
}

impl fmt::Debug for StandingDecisions {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_map().entries(self.snapshot()).finish()
    }
}

impl Serialize for StandingDecisions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.snapshot().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for StandingDecisions {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::deserialize(deserializer).map(StandingDecisions::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "approval-state")]
    fn clones_share_and_adopt_keeps_the_newer() {
        let standing = StandingDecisions::new();
        let shared = standing.clone();
        shared.set("write", Standing::Deny { reason: None });
        assert_eq!(standing.get("write"), Some(Standing::Deny { reason: None }));
        let carried = BTreeMap::from([
            ("write".to_owned(), Standing::Approve),
            ("read".to_owned(), Standing::Approve),
        ]);
        standing.adopt(&carried);
        assert_eq!(standing.get("write"), Some(Standing::Deny { reason: None }));
        assert_eq!(standing.get("read"), Some(Standing::Approve));
    }

    #[test]
    fn a_denial_keeps_its_reason_on_the_wire() {
        let standing = StandingDecisions::new();
        standing.set(
            "delete",
            Standing::Deny {
                reason: Some("never".into()),
            },
        );
        assert_eq!(
            serde_json::to_string(&standing).unwrap(),
            r#"{"delete":{"decision":"deny","reason":"never"}}"#
        );
    }
}
