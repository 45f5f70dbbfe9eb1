//! Each provider's rule for tool names. A name that breaks one is reported
//! (the provider would refuse the whole request), not rewritten: a renamed
//! tool would no longer match the calls the model makes.

use super::diagnostic::Report;

/// A provider's tool-name rule: allowed characters and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    /// The provider, as messages name it.
    pub provider: &'static str,
    /// Longest name allowed, in characters.
    pub max_len: usize,
    /// Characters allowed besides ASCII letters and digits.
    pub extra: &'static [char],
    /// Whether the name must start with a letter or `_`.
    pub letter_first: bool,
}

impl NameRule {
    /// OpenAI (Chat Completions and Responses): `^[a-zA-Z0-9_-]{1,64}$`.
    pub const OPENAI: NameRule = NameRule {
        provider: "OpenAI",
        max_len: 64,
        extra: &['_', '-'],
        letter_first: false,
    };
    /// Anthropic: `^[a-zA-Z0-9_-]{1,64}$`, as the Messages API's tool
    /// `name` says (<https://docs.anthropic.com/en/api/messages>, checked
    /// 2026-12-02; it allowed 128 before).
    pub const ANTHROPIC: NameRule = NameRule {
        provider: "Anthropic",
        max_len: 64,
        extra: &['_', '-'],
        letter_first: false,
    };
    /// Gemini: letters, digits, `_`, `.`, `:`, `-`, at most 64, starting with a
    /// letter or `_` (`FunctionDeclaration.name`,
    /// <https://ai.google.dev/api/caching#FunctionDeclaration>, checked
    /// 2026-12-02).
    pub const GEMINI: NameRule = NameRule {
        provider: "Gemini",
        max_len: 64,
        extra: &['_', '.', ':', '-'],
        letter_first: true,
    };
    /// MCP (2025-11-25): letters, digits, `_`, `-`, `.`, 1 to 128.
    pub const MCP: NameRule = NameRule {
        provider: "MCP",
        max_len: 128,
        extra: &['_', '-', '.'],
        letter_first: false,
    };

    /// Why `name` breaks the rule, if it does.
    pub fn check(&self, name: &str) -> Option<String> {
        let length = name.chars().count();
        if length == 0 {
            return Some(format!(
                "{} needs a tool name of at least one character",
                self.provider
            ));
        }
        if length > self.max_len {
            return Some(format!(
                "{} allows tool names of at most {} characters; this one has {length}",
                self.provider, self.max_len
            ));
        }
        if let Some(bad) = name
            .chars()
            .find(|c| !c.is_ascii_alphanumeric() && !self.extra.contains(c))
        {
            let extra: String = self.extra.iter().collect();
            return Some(format!(
                "{} allows only ASCII letters, digits and `{extra}` in tool names, not {bad:?}",
                self.provider
            ));
        }
        if self.letter_first && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return Some(format!(
                "{} tool names must start with a letter or `_`",
                self.provider
            ));
        }
        None
    }

    /// A name close to `name` that every rule of `rules` accepts: each
    /// character some rule refuses becomes `_`, a leading `_` is added
    /// where a rule wants a letter first, and the name is cut to the
    /// shortest limit.
    ///
    /// ```
    /// use tool_core::providers::NameRule;
    ///
    /// let rules = [NameRule::MCP, NameRule::OPENAI, NameRule::GEMINI];
    /// assert_eq!(NameRule::suggest(&rules, "files.read"), "files_read");
    /// assert_eq!(NameRule::suggest(&rules, "1st pass"), "_1st_pass");
    /// assert_eq!(NameRule::suggest(&rules, &"a".repeat(100)).len(), 64);
    /// ```
    pub fn suggest(rules: &[NameRule], name: &str) -> String {
        let allowed =
            |c: char| c.is_ascii_alphanumeric() || rules.iter().all(|rule| rule.extra.contains(&c));
        let mut suggestion: String = name
            .chars()
            .map(|c| if allowed(c) { c } else { '_' })
            .collect();
        let letter_first = rules.iter().any(|rule| rule.letter_first);
        if suggestion.is_empty()
            || (letter_first
                && !suggestion.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        {
            suggestion.insert(0, '_');
        }
        if let Some(limit) = rules.iter().map(|rule| rule.max_len).min() {
            // Every character is ASCII now: one byte each.
            suggestion.truncate(limit);
        }
        suggestion
    }

    pub(crate) fn report(&self, name: &str, report: &mut Report<'_>) {
        if let Some(problem) = self.check(name) {
            report.push("", format!("name refused: {problem}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_differ_by_provider() {
        assert_eq!(NameRule::OPENAI.check("read_file"), None);
        assert!(NameRule::OPENAI.check("read.file").is_some());
        assert_eq!(NameRule::MCP.check("fs.read"), None);
        assert_eq!(NameRule::GEMINI.check("ns:read"), None);
        assert!(NameRule::GEMINI.check("1read").is_some());
        assert!(NameRule::OPENAI.check(&"a".repeat(65)).is_some());
        assert_eq!(NameRule::ANTHROPIC.check(&"a".repeat(64)), None);
        assert!(NameRule::ANTHROPIC.check(&"a".repeat(65)).is_some());
        assert!(NameRule::ANTHROPIC.check("").is_some());
    }
}
