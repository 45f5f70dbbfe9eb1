//! `#[param(untagged)]`: the variants are tried in order, in two passes.
//! The first takes the value as sent: every object refuses the keys it
//! does not declare, as the variant's closed schema does, so
//! `{"id": 5}` is `Get { id }`, not a `List { filter: None }` that drops
//! `id`. Only when no variant takes it so, the second pass takes the first
//! variant that parses with parse's usual leniency (undeclared keys
//! dropped). When none does, the model is told which were tried and the
//! problems of the one that got furthest in the second pass (whose
//! shallowest problem lies deepest: it matched the value's outer shape;
//! then the one missing the fewest required fields; then the one with the
//! fewest problems).

use super::objects::MAX_NESTING;
use crate::params::MAX_UNTAGGED_ATTEMPTS;
use crate::params::describe::quoted;
use crate::params::{ParamPath, ParseContext};

/// Which pass over the variants is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    NotStarted,
    /// Objects refuse undeclared keys.
    AsSent,
    /// Objects drop undeclared keys, unless their type denies them.
    Lenient,
    Done,
}

/// The tries of one untagged value.
#[derive(Debug)]
pub struct Untagged<'p, 'e> {
    path: &'p ParamPath<'p>,
    errors: &'e mut ParseContext,
    closest: Option<(usize, ParseContext)>,
    over_budget: bool,
    pass: Pass,
    /// Whether a try of the first pass refused an undeclared key.
    refused_undeclared: bool,
}

impl<'p, 'e> Untagged<'p, 'e> {
    /// Starts trying variants for the value at `path`.
    pub fn new(path: &'p ParamPath<'p>, errors: &'e mut ParseContext) -> Self {
        Untagged {
            path,
            errors,
            closest: None,
            over_budget: false,
            pass: Pass::NotStarted,
            refused_undeclared: false,
        }
    }

    /// Starts the next pass over the variants; false when both are done.
    /// The second pass can only end otherwise than the first when some
    /// object refused an undeclared key in it, and never inside another
    /// enum's first pass (objects are closed there already): else it is
    /// left out.
    pub fn next_pass(&mut self) -> bool {
        self.pass = match self.pass {
            Pass::NotStarted => Pass::AsSent,
            Pass::AsSent
                if self.refused_undeclared
                    && !self.errors.objects_closed()
                    && !self.over_budget =>
            {
                self.closest = None;
                Pass::Lenient
            }
            _ => Pass::Done,
        };
        self.pass != Pass::Done
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
        let mut attempt = self.errors.for_attempt(self.pass == Pass::AsSent);
        let parsed = parse(&mut attempt);
        self.refused_undeclared |= attempt.refused_undeclared_key();
        self.errors.count_attempts_of(&attempt);
        // The problems worth showing are those of the last pass: the first
        // one's are mostly keys the second one drops. The first pass is the
        // last when no try of it refuses an undeclared key, so its problems
        // are kept until one does (the second pass then starts afresh).
        let last_pass =
            self.pass == Pass::Lenient || self.errors.objects_closed() || !self.refused_undeclared;
        match parsed {
            Some(parsed) if attempt.is_empty() => Some(parsed),
            _ => {
                if attempt.is_empty() {
                    // Only over the budget does a failed try leave no problem.
                    self.over_budget = true;
                } else if last_pass
                    && self
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
