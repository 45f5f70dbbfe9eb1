//! The state parsing carries down a call's arguments: the problems found
//! and the budgets that keep untagged enums from searching forever.

use super::error::{MAX_PROBLEMS, ParamError, ParamProblem};
use crate::params::ParamPath;
use std::fmt;

/// What parsing carries down the value: the problems found so far (each
/// with its path, at most [`MAX_PROBLEMS`] kept) and the search budgets of
/// untagged enums. A hand-written [`ParamValue`](super::ParamValue) pushes
/// its problems here and passes it on to the values it contains;
/// [`finish`](Self::finish) turns it into the [`ParamError`] callers see.
///
/// ```
/// use serde_json::{Value, json};
/// use tool_core::params::{ParamPath, ParamValue, ParseContext};
///
/// /// An even number.
/// struct Even(u64);
///
/// impl ParamValue for Even {
///     fn schema() -> Value {
///         json!({"type": "integer", "minimum": 0, "multipleOf": 2})
///     }
///     fn parse_value(value: &Value, path: &ParamPath<'_>, cx: &mut ParseContext) -> Option<Self> {
///         let n = u64::parse_value(value, path, cx)?;
///         if n % 2 == 1 {
///             cx.push(path, format_args!("expected an even number, got {n}"));
///             return None;
///         }
///         Some(Even(n))
///     }
///     fn to_json(&self) -> Value {
///         json!(self.0)
///     }
/// }
///
/// let mut cx = ParseContext::new();
/// assert!(Even::parse_value(&json!(3), &ParamPath::root(), &mut cx).is_none());
/// assert_eq!(cx.finish().unwrap_err().to_string(), "arguments: expected an even number, got 3");
/// ```

#[derive(Clone, Debug, Default)]
pub struct ParseContext {
    problems: Vec<ParamProblem>,
    omitted: usize,
    /// Variants of untagged enums tried so far in this parse, against
    /// [`MAX_UNTAGGED_ATTEMPTS`].
    attempts: u32,
    /// How many tries of untagged variants enclose this one: a variant that
    /// wraps its own enum (`Neg(Box<Expr>)`) tries again on the same value,
    /// with no deeper path to stop it.
    nesting: u32,
    /// Every object refuses keys it does not declare, as its closed schema
    /// does: set while an untagged enum looks for the variant that takes
    /// the value as sent (see `Untagged`).
    closed: bool,
    /// Some object here refused an undeclared key: only then can parse
    /// with undeclared keys dropped end otherwise than parse as sent.
    undeclared: bool,
}

/// At most this many variants of untagged enums are tried in one parse.
/// Nested untagged enums whose variants all descend into the same value
/// would otherwise try exponentially many combinations on hostile input.
pub const MAX_UNTAGGED_ATTEMPTS: usize = 10_000;

impl ParseContext {
    /// An empty collector; parsing pushes into it.
    #[inline]
    pub fn new() -> Self {
        ParseContext::default()
    }

    /// Records a problem at `path`. Past [`MAX_PROBLEMS`] the problem is only
    /// counted, and neither the path nor the message is rendered.
    pub fn push(&mut self, path: &ParamPath<'_>, message: impl fmt::Display) {
        self.record(path, message, false);
    }

    /// Records that the required field at `path` is absent.
    pub(crate) fn push_missing(&mut self, path: &ParamPath<'_>, message: impl fmt::Display) {
        self.record(path, message, true);
    }

    fn record(&mut self, path: &ParamPath<'_>, message: impl fmt::Display, missing: bool) {
        if self.problems.len() >= MAX_PROBLEMS {
            self.omitted += 1;
            return;
        }
        self.problems.push(ParamProblem {
            path: path.to_string(),
            message: message.to_string(),
            depth: path.depth(),
            missing,
        });
    }

    /// Moves every problem of `other` into this collector (past
    /// [`MAX_PROBLEMS`], only counted), and its tally of attempts.
    pub fn append(&mut self, other: ParseContext) {
        for problem in other.problems {
            if self.problems.len() >= MAX_PROBLEMS {
                self.omitted += 1;
            } else {
                self.problems.push(problem);
            }
        }
        self.omitted += other.omitted;
        self.attempts = self.attempts.max(other.attempts);
    }

    /// A fresh collector for one try at an alternative (a variant of an
    /// untagged enum), carrying the tally of tries so far.
    pub(crate) fn for_attempt(&self, closed: bool) -> ParseContext {
        ParseContext {
            problems: Vec::new(),
            omitted: 0,
            attempts: self.attempts.saturating_add(1),
            nesting: self.nesting.saturating_add(1),
            closed: self.closed || closed,
            undeclared: false,
        }
    }

    /// Records that an object refused an undeclared key.
    #[cold]
    pub(crate) fn saw_undeclared_key(&mut self) {
        self.undeclared = true;
    }

    /// Whether an object refused an undeclared key, here or in a try
    /// counted into this collector.
    pub(crate) fn refused_undeclared_key(&self) -> bool {
        self.undeclared
    }

    /// Whether objects refuse the keys they do not declare, whatever their
    /// type says (see [`for_attempt`](Self::for_attempt)).
    #[inline]
    pub(crate) fn objects_closed(&self) -> bool {
        self.closed
    }

    /// How many tries of untagged variants enclose this collector's.
    pub(crate) fn nesting(&self) -> usize {
        self.nesting as usize
    }

    /// Variants of untagged enums tried so far.
    pub(crate) fn attempts(&self) -> usize {
        self.attempts as usize
    }

    /// Takes over the tally of tries `attempt` made, and whether it
    /// refused an undeclared key.
    pub(crate) fn count_attempts_of(&mut self, attempt: &ParseContext) {
        self.attempts = self.attempts.max(attempt.attempts);
        self.undeclared |= attempt.undeclared;
    }

    /// The smallest depth of the problems kept, for ranking alternatives.
    pub(crate) fn shallowest_depth(&self) -> usize {
        self.problems.iter().map(|p| p.depth).min().unwrap_or(0)
    }

    /// How many of the problems kept are absent required fields.
    pub(crate) fn missing_fields(&self) -> usize {
        self.problems.iter().filter(|p| p.missing).count()
    }

    /// Records `expected <what>, got <JSON type of value> <value>`: the
    /// value the model sent quoted after its type, cut after
    /// [`MAX_ECHO_CHARS`](crate::params::MAX_ECHO_CHARS) characters
    /// (`expected integer, got string "5"`; `null` alone), as
    /// [`Received`](crate::params::Received) writes it.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::params::{ParamPath, ParseContext};
    ///
    /// let mut cx = ParseContext::new();
    /// let root = ParamPath::root();
    /// cx.expected(&root.field("days"), "integer", &json!("5"));
    /// cx.expected(&root.field("name"), "string", &json!(null));
    /// assert_eq!(
    ///     cx.finish().unwrap_err().to_string(),
    ///     "days: expected integer, got string \"5\"\nname: expected string, got null"
    /// );
    /// ```
    pub fn expected(&mut self, path: &ParamPath<'_>, what: &str, got: &serde_json::Value) {
        self.push(
            path,
            format_args!(
                "expected {what}, got {}",
                crate::params::describe::Received(got)
            ),
        );
    }

    /// The problems kept, in the order they were found.
    pub fn problems(&self) -> &[ParamProblem] {
        &self.problems
    }

    /// How many problems were found in all, including those not kept.
    #[inline]
    pub fn count(&self) -> usize {
        self.problems.len() + self.omitted
    }

    /// True when nothing was wrong.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// `Ok` when nothing was wrong, else the problems found.
    #[inline]
    pub fn finish(self) -> Result<(), ParamError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.into_error())
        }
    }

    /// The problems found, as the error callers see.
    pub fn into_error(self) -> ParamError {
        ParamError {
            problems: self.problems,
            omitted: self.omitted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_bounded_number_of_problems_and_counts_the_rest() {
        let mut cx = ParseContext::new();
        let root = ParamPath::root();
        for i in 0..1000 {
            cx.push(&root.index(i), "expected string, got number 7");
        }
        let error = cx.into_error();
        assert_eq!(error.problems().len(), MAX_PROBLEMS);
        assert_eq!(error.count(), 1000);
        let text = error.to_string();
        assert_eq!(text.lines().count(), MAX_PROBLEMS + 1);
        assert!(text.ends_with("... and 980 more problems"));
    }
}
