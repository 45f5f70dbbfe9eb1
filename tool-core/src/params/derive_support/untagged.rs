//! `#[param(untagged)]`: each variant is tried in order and the first that
//! parses wins. When none does, the model is told which were tried and the
//! problems of the one that got furthest (whose shallowest problem lies
//! deepest: it matched the value's outer shape; then the one missing the
//! fewest required fields; then the one with the fewest problems).

use super::objects::MAX_NESTING;
use crate::params::MAX_UNTAGGED_ATTEMPTS;
use crate::params::describe::quoted;
use crate::params::{ParamPath, ParseContext};

/// The tries of one untagged value.
pub struct Untagged<'p, 'e> {
    path: &'p ParamPath<'p>,
    errors: &'e mut ParseContext,
    closest: Option<(usize, ParseContext)>,
    over_budget: bool,
}

impl<'p, 'e> Untagged<'p, 'e> {
    /// Starts trying variants for the value at `path`.
    pub fn new(path: &'p ParamPath<'p>, errors: &'e mut ParseContext) -> Self {
        Untagged {
            path,
            errors,
            closest: None,
            over_budget: false,
        }
    }

    /// Tries variant number `index` with `parse`, which reports into a
    /// collector of its own; the value if it parsed cleanly.
    pub fn attempt<T>(
        &mut self,
        index: usize,
        parse: impl FnOnce(&mut ParseContext) -> Option<T>,
    ) -> Option<T> {
        if self.over_budget
            || self.errors.attempts() >= MAX_UNTAGGED_ATTEMPTS
            || self.errors.nesting() >= MAX_NESTING
        {
            self.over_budget = true;
            return None;
        }
        let mut attempt = self.errors.for_attempt();
        let parsed = parse(&mut attempt);
        self.errors.count_attempts_of(&attempt);
        match parsed {
            Some(parsed) if attempt.is_empty() => Some(parsed),
            _ => {
                if attempt.is_empty() {
                    // Only over the budget does a failed try leave no problem.
                    self.over_budget = true;
                } else if self
                    .closest
                    .as_ref()
                    .is_none_or(|(_, best)| closer(&attempt, best))
                {
                    self.closest = Some((index, attempt));
                }
                None
            }
        }
    }

    /// Reports that no variant of `names` parsed, with the problems of the
    /// closest one.
    #[cold]
    pub fn fail(self, names: &[&str]) {
        if self.over_budget {
            self.errors.push(
                self.path,
                format_args!(
                    "too many alternatives to try: untagged enums nest too deeply in these arguments (more than {MAX_UNTAGGED_ATTEMPTS} tries, or {MAX_NESTING} levels)"
                ),
            );
            return;
        }
        let tried = quoted(names);
        match self.closest {
            Some((index, problems)) => {
                self.errors.push(
                    self.path,
                    format_args!(
                        "matches none of the variants {tried} (tried in order); the closest, \"{}\", has these problems:",
                        names.get(index).copied().unwrap_or_default()
                    ),
                );
                self.errors.append(problems);
            }
            None => self.errors.push(
                self.path,
                format_args!("matches none of the variants {tried}"),
            ),
        }
    }
}

/// Whether try `a` got further than try `b`: its problems lie deeper,
/// fewer of them are absent fields, then fewer of them in all.
fn closer(a: &ParseContext, b: &ParseContext) -> bool {
    let rank = |e: &ParseContext| {
        (
            e.shallowest_depth(),
            std::cmp::Reverse(e.missing_fields()),
            std::cmp::Reverse(e.count()),
        )
    };
    rank(a) > rank(b)
}
