//! `pattern = "..."`: JSON Schema's meaning, an ECMA-262 regular expression
//! found anywhere in the string unless anchored.
//!
//! The pattern is translated to the `regex` crate's syntax by the
//! `jsonschema-regex` crate (the translation the `jsonschema` validator
//! uses, so both read a pattern alike) and compiled once per process, on
//! first use. `regex` matches in time linear in the string, so no string a
//! model sends can make a pattern backtrack for long; patterns that need
//! backtracking (look-around, backreferences) are refused at compile time
//! by the derive.

use crate::params::describe::{Excerpt, StrExcerpt};
use crate::params::{ParamPath, ParseContext};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// A pattern as written, and its compiled form once built. The derive puts
/// each in a `static`, so it is compiled once per process, not per call.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// A pattern, compiled on first use.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as written (ECMA-262).
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled pattern, or why it could not be compiled (the derive
    /// checks patterns at compile time, so this is only for hand-built ones).
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| compile(self.source))
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

/// Translates an ECMA-262 pattern and compiles it.
pub(super) fn compile(source: &str) -> Result<Regex, String> {
    let translated = jsonschema_regex::to_rust_regex(source).map_err(|()| {
        format!(
            "{} is not a supported ECMA-262 regular expression",
            StrExcerpt(source)
        )
    })?;
    Regex::new(&translated).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static BRANCH: Pattern = Pattern::new("^[a-z0-9-]+$");
    static DIGIT: Pattern = Pattern::new(r"\d");

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
    fn reads_ecma_classes_as_ecma_does() {
        // ECMA-262's `\d` is ASCII digits only.
        let digits = compile(r"^\d+$").unwrap();
        assert!(digits.is_match("123"));
        assert!(!digits.is_match("١٢٣"));
    }

    #[test]
    fn a_bad_pattern_is_reported_not_panicked() {
        static BAD: Pattern = Pattern::new("(");
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
