//! Approvals inside code: the journal a run suspends with, and its replay
//! when the run is resumed.
//!
//! A script that reaches a call needing a person's approval (which only a
//! suspension can get) stops; the `run_code` call suspends itself
//! ([`ToolContext::suspend`](tool_core::ToolContext::suspend)) with a
//! [`Journal`] of the calls the script made before that one, in the order
//! it made them, with their answers, and the order those answers reached
//! the script. The journal is sealed in the batch's suspension with the
//! rest: no one holding it can read or change it.
//!
//! When the batch is resumed, the script runs again from the start. Each
//! call it makes is matched, in order, against the journal: the same tool
//! and the same arguments (by the SHA-256 of their canonical JSON) get the
//! recorded answer, without running; the answers reach the script in the
//! order they did the first time, so it makes the same calls in the same
//! order again. The call that waited then runs as the person decided, and
//! the calls after it run as any call (and may suspend the run again, with
//! a longer journal). A call that is not the recorded one at its place, or
//! a script that ends before making the call that waited, is refused:
//! nothing of that run runs.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_core::approval::{InnerDecision, arguments_sha256};

/// The journal's format; a journal of another is refused, not misread.
const VERSION: u32 = 1;

/// How many bytes of a call's arguments a refusal shows.
const SHOWN_BYTES: usize = 200;

/// A call the script made, as the journal keeps it: its tool, and its
/// arguments' digest (what a replayed call must match) and first bytes
/// (what a refusal shows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Made {
    pub tool: String,
    pub sha256: String,
    pub shown: String,
}

impl Made {
    pub(crate) fn new(tool: &str, arguments: &Value) -> Self {
        let text = arguments.to_string();
        let shown = if text.len() <= SHOWN_BYTES {
            text
        } else {
            let mut end = SHOWN_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}… ({} bytes in all)", &text[..end], text.len())
        };
        Made {
            tool: tool.to_owned(),
            sha256: arguments_sha256(arguments),
            shown,
        }
    }

    fn matches(&self, other: &Made) -> bool {
        self.tool == other.tool && self.sha256 == other.sha256
    }
}

impl std::fmt::Display for Made {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(out, "tools.{}({})", self.tool, self.shown)
    }
}

/// A call's answer as the script received it: `Ok(JSON text)` resolved
/// its promise, `Err(message)` rejected it.
pub(crate) type Answer = Result<String, String>;

/// One answered call of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Entry {
    pub call: Made,
    pub answer: Answer,
}

/// What a suspended run seals: the calls made before the one that waits
/// (each answered; call `n` of the script is `calls[n - 1]`), the order
/// their answers reached the script, and the call that waits (the next
/// one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Journal {
    pub version: u32,
    pub calls: Vec<Entry>,
    /// The calls (by index) whose answers reached the script, in the
    /// order they did; the others finished after the script stopped.
    pub delivered: Vec<u32>,
    pub waiting: Made,
}

impl Journal {
    pub(crate) fn new(calls: Vec<Entry>, delivered: Vec<u32>, waiting: Made) -> Self {
        Journal {
            version: VERSION,
            calls,
            delivered,
            waiting,
        }
    }

    /// The journal a resumed call suspended with.
    pub(crate) fn read(state: &Value) -> Result<Self, String> {
        let journal: Journal = serde_json::from_value(state.clone())
            .map_err(|error| format!("its state is not a run's journal: {error}"))?;
        if journal.version != VERSION {
            return Err(format!(
                "its journal is of format {}, this version reads format {VERSION}",
                journal.version
            ));
        }
        Ok(journal)
    }
}

/// What becomes of a call the script makes while it is replayed.
pub(crate) enum Replayed {
    /// It is the recorded call at its place: its answer is replayed.
    Recorded,
    /// It is the call that waited: it runs as the person decided.
    Decided(InnerDecision),
    /// It differs from the recorded one: the run is refused.
    Diverged(String),
    /// It comes after the call that waited: it runs as any call.
    Past,
}

/// A resumed run's replay of its journal.
pub(crate) struct Replay {
    journal: Journal,
    /// The decision for the call that waited, until that call is made.
    decision: Option<InnerDecision>,
    /// The order recorded answers are given in: as they reached the
    /// script the first time, then the others by call.
    order: Vec<u32>,
    /// How many of `order` were given.
    given: usize,
    /// How many calls the script has made in this run.
    made: usize,
}

impl Replay {
    pub(crate) fn new(journal: Journal, decision: InnerDecision) -> Self {
        let recorded = u32::try_from(journal.calls.len()).unwrap_or(u32::MAX);
        let mut order: Vec<u32> = Vec::with_capacity(journal.calls.len());
        for &index in &journal.delivered {
            if index < recorded && !order.contains(&index) {
                order.push(index);
            }
        }
        for index in 0..recorded {
            if !order.contains(&index) {
                order.push(index);
            }
        }
        Replay {
            journal,
            decision: Some(decision),
            order,
            given: 0,
            made: 0,
        }
    }

    /// Call `ticket` (0-based) of the script, `made`: what becomes of it.
    pub(crate) fn check(&mut self, ticket: u32, made: &Made) -> Replayed {
        let index = ticket as usize;
        let recorded = self.journal.calls.len();
        if index > recorded {
            return Replayed::Past;
        }
        let expected = if index < recorded {
            &self.journal.calls[index].call
        } else {
            &self.journal.waiting
        };
        if !expected.matches(made) {
            return Replayed::Diverged(format!(
                "the script made other calls when it ran again after its approval, so nothing \
                 of this run ran: its call {} was {expected} before, and is {made} now. A script \
                 must make the same calls in the same order each time it runs; make this a new \
                 run_code call",
                index + 1
            ));
        }
        self.made = index + 1;
        if index < recorded {
            return Replayed::Recorded;
        }
        match self.decision.take() {
            Some(decision) => Replayed::Decided(decision),
            // Never: each call is checked once.
            None => Replayed::Past,
        }
    }

    /// The next recorded answer the script may be given (its call is
    /// made), taken.
    pub(crate) fn next_answer(&mut self) -> Option<(u32, Answer)> {
        let &ticket = self.order.get(self.given)?;
        if ticket as usize >= self.made {
            return None;
        }
        self.given += 1;
        let answer = self.journal.calls[ticket as usize].answer.clone();
        Some((ticket, answer))
    }

    /// Why a script that ended now did not replay its journal, if it did
    /// not reach the call that waited.
    pub(crate) fn unfinished(&self) -> Option<String> {
        let recorded = self.journal.calls.len();
        if self.made > recorded {
            return None;
        }
        Some(format!(
            "the script ended after {} of the {} calls it made before its approval when it ran \
             again, so nothing of this run ran: it never made its call {}, {}, which was \
             waiting for the approval. A script must make the same calls in the same order \
             each time it runs; make this a new run_code call",
            self.made,
            recorded + 1,
            recorded + 1,
            self.journal.waiting
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_core::{ToolCall, ToolResultMessage};

    fn journal() -> Journal {
        let entry = |tool: &str, n: u32, answer: Answer| Entry {
            call: Made::new(tool, &json!({ "n": n })),
            answer,
        };
        Journal::new(
            vec![
                entry("a", 1, Ok("1".into())),
                entry("b", 2, Err("no".into())),
            ],
            vec![1],
            Made::new("pay", &json!({ "euros": 5 })),
        )
    }

    fn denied() -> InnerDecision {
        let call = ToolCall::new("r.3", "pay", json!({}));
        InnerDecision::Answered(ToolResultMessage::failure(&call, "denied"))
    }

    #[test]
    fn answers_come_back_in_their_first_order_once_their_calls_are_made() {
        let mut replay = Replay::new(journal(), denied());
        assert!(matches!(
            replay.check(0, &Made::new("a", &json!({ "n": 1 }))),
            Replayed::Recorded
        ));
        // Call 2's answer came first, but call 2 is not made yet.
        assert_eq!(replay.next_answer(), None);
        assert!(matches!(
            replay.check(1, &Made::new("b", &json!({ "n": 2 }))),
            Replayed::Recorded
        ));
        assert_eq!(replay.next_answer(), Some((1, Err("no".into()))));
        assert_eq!(replay.next_answer(), Some((0, Ok("1".into()))));
        assert_eq!(replay.next_answer(), None);
        assert!(replay.unfinished().is_some());
        assert!(matches!(
            replay.check(2, &Made::new("pay", &json!({ "euros": 5 }))),
            Replayed::Decided(_)
        ));
        assert!(replay.unfinished().is_none());
        assert!(matches!(
            replay.check(3, &Made::new("x", &json!({}))),
            Replayed::Past
        ));
    }

    #[test]
    fn another_call_at_a_place_is_refused_naming_both() {
        let mut replay = Replay::new(journal(), denied());
        let Replayed::Diverged(why) = replay.check(0, &Made::new("a", &json!({ "n": 9 }))) else {
            panic!("diverged")
        };
        assert!(
            why.contains(r#"its call 1 was tools.a({"n":1}) before, and is tools.a({"n":9}) now"#),
            "{why}"
        );
    }

    #[test]
    fn the_journal_round_trips_and_keys_order_does_not_matter() {
        let journal = journal();
        let state = serde_json::to_value(&journal).unwrap();
        assert_eq!(Journal::read(&state).unwrap(), journal);
        assert!(
            Made::new("t", &json!({"a": 1, "b": 2}))
                .matches(&Made::new("t", &json!({"b": 2, "a": 1})))
        );
        assert!(Journal::read(&json!({"version": 2})).is_err());
    }
}
