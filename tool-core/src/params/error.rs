//! Every problem found in a call's arguments, each with its path, so a model
//! can fix all of them in its next turn instead of one per round trip.

use std::fmt;

/// At most this many problems are kept; the rest are counted. Hostile input
/// (a million wrong elements) must not produce a million-line message.
pub const MAX_PROBLEMS: usize = 20;

/// One problem in the arguments: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamProblem {
    pub(crate) path: String,
    pub(crate) message: String,
    /// How deep below the root the path is: how far parsing got before it
    /// met this problem (the closest variant of an untagged enum is the one
    /// whose problems lie deepest).
    pub(crate) depth: usize,
    /// A required field was absent: the value did not even try to be this
    /// shape there (an untagged variant that misses fields is further from
    /// what the model meant than one whose fields are merely wrong).
    pub(crate) missing: bool,
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

/// Every problem found in a tool's arguments, each with its path: what
/// [`ToolParams::parse`](super::ToolParams::parse) returns and what the
/// model is shown.
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
///     "query: expected string, got number 7\nlimit: expected integer >= 1, got 0"
/// );
/// assert_eq!(error.problems()[1].path(), "limit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    pub(crate) problems: Vec<ParamProblem>,
    pub(crate) omitted: usize,
}

impl ParamError {
    /// The problems kept, in the order they were found.
    pub fn problems(&self) -> &[ParamProblem] {
        &self.problems
    }

    /// How many problems were found in all, including those not kept.
    #[inline]
    pub fn count(&self) -> usize {
        self.problems.len() + self.omitted
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
