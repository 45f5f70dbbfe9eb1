//! Every problem found in a call's arguments, each with its path, so a model
//! can fix all of them in its next turn instead of one per round trip.

use crate::params::ParamPath;
use std::fmt;

/// At most this many problems are kept; the rest are counted. Hostile input
/// (a million wrong elements) must not produce a million-line message.
pub const MAX_PROBLEMS: usize = 20;

/// One problem in the arguments: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamProblem {
    path: String,
    message: String,
    /// How deep below the root the path is: how far parsing got before it
    /// met this problem (the closest variant of an untagged enum is the one
    /// whose problems lie deepest).
    depth: usize,
    /// A required field was absent: the value did not even try to be this
    /// shape there (an untagged variant that misses fields is further from
    /// what the model meant than one whose fields are merely wrong).
    missing: bool,
}

impl ParamProblem {
    /// Where the problem is: `limit`, `items[2].name`, or `arguments` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was expected and what came: `expected integer >= 1, got 0`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParamProblem {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{}: {}", self.path, self.message)
    }
}

/// All problems found while parsing a tool's arguments.
///
/// It displays as one line per problem, path first:
///
/// ```
/// use tool_core::ToolParams;
/// use serde_json::json;
///
/// #[derive(ToolParams, Debug)]
/// struct Search {
///     query: String,
///     #[param(min = 1)]
///     limit: u32,
/// }
///
/// let error = Search::parse(&json!({"query": 7, "limit": 0})).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "query: expected string, got number\nlimit: expected integer >= 1, got 0"
/// );
/// assert_eq!(error.problems()[1].path(), "limit");
/// ```
#[derive(Clone, Debug, Default)]
pub struct ParamError {
    problems: Vec<ParamProblem>,
    omitted: usize,
    /// Variants of untagged enums tried so far in this parse, against
    /// [`MAX_UNTAGGED_ATTEMPTS`].
    attempts: u32,
    /// How many tries of untagged variants enclose this one: a variant that
    /// wraps its own enum (`Neg(Box<Expr>)`) tries again on the same value,
    /// with no deeper path to stop it.
    nesting: u32,
}

/// Two errors are equal when they report the same problems; how much work
/// finding them took does not count.
impl PartialEq for ParamError {
    fn eq(&self, other: &Self) -> bool {
        self.problems == other.problems && self.omitted == other.omitted
    }
}

impl Eq for ParamError {}

/// At most this many variants of untagged enums are tried in one parse.
/// Nested untagged enums whose variants all descend into the same value
/// would otherwise try exponentially many combinations on hostile input.
pub const MAX_UNTAGGED_ATTEMPTS: usize = 10_000;

impl ParamError {
    /// An empty collector; parsing pushes into it.
    #[inline]
    pub fn new() -> Self {
        ParamError::default()
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
    pub fn append(&mut self, other: ParamError) {
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
    pub(crate) fn for_attempt(&self) -> ParamError {
        ParamError {
            problems: Vec::new(),
            omitted: 0,
            attempts: self.attempts.saturating_add(1),
            nesting: self.nesting.saturating_add(1),
        }
    }

    /// How many tries of untagged variants enclose this collector's.
    pub(crate) fn nesting(&self) -> usize {
        self.nesting as usize
    }

    /// Variants of untagged enums tried so far.
    pub(crate) fn attempts(&self) -> usize {
        self.attempts as usize
    }

    /// Takes over the tally of tries `attempt` made.
    pub(crate) fn count_attempts_of(&mut self, attempt: &ParamError) {
        self.attempts = self.attempts.max(attempt.attempts);
    }

    /// The smallest depth of the problems kept, for ranking alternatives.
    pub(crate) fn shallowest_depth(&self) -> usize {
        self.problems.iter().map(|p| p.depth).min().unwrap_or(0)
    }

    /// How many of the problems kept are absent required fields.
    pub(crate) fn missing_fields(&self) -> usize {
        self.problems.iter().filter(|p| p.missing).count()
    }

    /// Records `expected <what>, got <JSON type of value>`.
    pub fn expected(&mut self, path: &ParamPath<'_>, what: &str, got: &serde_json::Value) {
        self.push(
            path,
            format_args!(
                "expected {what}, got {}",
                crate::params::describe::json_type(got)
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
}

impl fmt::Display for ParamError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                out.write_str("\n")?;
            }
            problem.fmt(out)?;
        }
        if self.omitted > 0 {
            write!(out, "\n... and {} more problems", self.omitted)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParamError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_bounded_number_of_problems_and_counts_the_rest() {
        let mut error = ParamError::new();
        let root = ParamPath::root();
        for i in 0..1000 {
            error.push(&root.index(i), "expected string, got number");
        }
        assert_eq!(error.problems().len(), MAX_PROBLEMS);
        assert_eq!(error.count(), 1000);
        let text = error.to_string();
        assert_eq!(text.lines().count(), MAX_PROBLEMS + 1);
        assert!(text.ends_with("... and 980 more problems"));
    }
}
