//! `pattern = "..."`: JSON Schema's meaning, an ECMA-262 regular expression
//! found anywhere in the string unless anchored.
//!
//! The derive translates the pattern to the `regex` crate's syntax at
//! compile time (with `jsonschema-regex`, the translation the `jsonschema`
//! validator uses, so both read a pattern alike), compiles it there to
//! refuse what cannot run, and hands both forms here: the schema shows the
//! pattern as written, parse matches with the translation, compiled once
//! per process on first use. `regex` matches in time linear in the string,
//! so no string a model sends can make a pattern backtrack for long;
//! patterns that need backtracking (look-around, backreferences) are
//! refused by the derive.

use crate::params::describe::{Excerpt, StrExcerpt};
use crate::params::{ParamPath, ParseContext};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// A pattern as written, its translation, and its compiled form once
/// built. The derive puts each in a `static`, so it is compiled once per
/// process, not per call.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    translated: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// A pattern as written (`source`, ECMA-262) and in the `regex` crate's
    /// syntax (`translated`, which the derive made and compiled), compiled
    /// on first use.
    pub const fn new(source: &'static str, translated: &'static str) -> Self {
        Pattern {
            source,
            translated,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as written (ECMA-262), which the schema shows.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled pattern, or why it could not be compiled (the derive
    /// compiled the same translation with the same `regex` crate, so this
    /// is only for a hand-built one).
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| Regex::new(self.translated).map_err(|error| error.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Reports `text` (sent as `value`) if the pattern is not found in it;
    /// true if it did.
    pub(super) fn check(
        &self,
        text: &str,
        value: &Value,
        path: &ParamPath<'_>,
        errors: &mut ParseContext,
    ) -> bool {
        match self.regex() {
            Ok(regex) if regex.is_match(text) => false,
            Ok(_) => {
                errors.push(
                    path,
                    format_args!(
                        "expected a string matching {}, got {}",
                        StrExcerpt(self.source),
                        Excerpt(value)
                    ),
                );
                true
            }
            Err(reason) => {
                errors.push(path, format_args!("cannot check the pattern: {reason}"));
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static BRANCH: Pattern = Pattern::new("^[a-z0-9-]+$", "^[a-z0-9-]+$");
    static DIGIT: Pattern = Pattern::new(r"\d", "[0-9]");

    #[test]
    fn matches_anywhere_unless_anchored() {
        let mut errors = ParseContext::new();
        let path = ParamPath::root();
        assert!(!DIGIT.check("abc1", &json!("abc1"), &path, &mut errors));
        assert!(!BRANCH.check("feature-x", &json!("feature-x"), &path, &mut errors));
        assert!(BRANCH.check("Feature/X", &json!("Feature/X"), &path, &mut errors));
        assert_eq!(
            errors.into_error().to_string(),
            "arguments: expected a string matching \"^[a-z0-9-]+$\", got \"Feature/X\""
        );
    }

    #[test]
    fn a_bad_pattern_is_reported_not_panicked() {
        static BAD: Pattern = Pattern::new("(", "(");
        let mut errors = ParseContext::new();
        assert!(BAD.check("x", &json!("x"), &ParamPath::root(), &mut errors));
        assert!(
            errors
                .into_error()
                .to_string()
                .starts_with("arguments: cannot check the pattern")
        );
    }
}
