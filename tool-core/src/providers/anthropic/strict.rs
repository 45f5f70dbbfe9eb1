//! Anthropic's strict tool use, as [`Rules`] for the shared converter.
//!
//! `"strict": true` on a tool definition holds the model's `input` to its
//! `input_schema` by grammar-constrained sampling
//! (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use>),
//! for a subset of JSON Schema shared with JSON outputs ("JSON Schema
//! limitations",
//! <https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations>):
//!
//! - supported: every basic type; `enum` of strings, numbers, booleans or
//!   nulls; `const`; `anyOf`, and `allOf` but not with `$ref`; `$ref`,
//!   `$defs` and `definitions`, local only; `default`; `required` and
//!   `additionalProperties`, which "must be set to `false` for objects";
//!   the string formats of [`FORMATS`]; `minItems`, "only values 0 and 1";
//!   `pattern`, in a subset of regular expressions;
//! - not supported: "Recursive schemas"; "Numerical constraints (such as
//!   `minimum`, `maximum`, `multipleOf`)"; "String constraints
//!   (`minLength`, `maxLength`)"; "Array constraints beyond `minItems` of 0
//!   or 1"; "`additionalProperties` set to anything other than `false`".
//!   Patterns: "Backreferences to groups", "Lookahead/lookbehind
//!   assertions", "Word boundaries: `\b`, `\B`" (and "complex `{n,m}`
//!   quantifiers with large ranges", which names no bound: not checked).
//!
//! A schema using what is not supported is refused with HTTP 400, so this
//! drops it (each said in a diagnostic; parse still enforces it). Optional
//! properties are taken as they are: unlike OpenAI's, this strict mode
//! does not want every property required (the optional ones count against
//! a limit instead, [`super::limits`]). Not on either list, so dropped:
//! `oneOf` (written as `anyOf`, as the SDKs do), `prefixItems` (a tuple
//! written as an array), `uniqueItems`, `examples`, `deprecated`,
//! `minProperties`/`maxProperties`, `$schema`. A value of any type (`{}`)
//! cannot be strict: Anthropic's SDKs refuse a schema with none of `type`,
//! `enum`, `anyOf`, `oneOf` or `allOf` ("Schema must have a 'type', 'enum',
//! 'anyOf', 'oneOf', or 'allOf' field.", `transform_schema` in
//! anthropics/anthropic-sdk-python, `src/anthropic/lib/_parse/_transform.py`),
//! and neither can a map, nor a recursive type.

use crate::providers::strict::Rules;

/// The string formats strict mode accepts; any other is dropped.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Anthropic's strict tool use.
pub(super) const RULES: Rules = Rules {
    kept: &[
        "type",
        "title",
        "description",
        "enum",
        "const",
        "default",
        "pattern",
        "minItems",
        "$ref",
    ],
    formats: FORMATS,
    every_property_required: false,
    min_items_at_most: Some(1),
    recursion: false,
    ref_alone: None,
    typed: "strict mode wants a type in every schema: Anthropic's SDKs refuse one without (\"Schema must have a 'type'\")",
    pattern: refused_pattern_features,
};

/// The features of an ECMA-262 `pattern` that strict mode refuses, by
/// name: backreferences (`\1`, `\k<name>`), lookahead and lookbehind
/// (`(?=`, `(?!`, `(?<=`, `(?<!`), word boundaries (`\b`, `\B`, outside a
/// character class, where `[\b]` is a backspace).
fn refused_pattern_features(pattern: &str) -> Vec<&'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut found = Vec::new();
    let mut in_class = false;
    let mut index = 0;
    while index < chars.len() {
        let next = |offset: usize| chars.get(index + offset).copied();
        match chars[index] {
            '\\' => {
                match next(1) {
                    Some('b' | 'B') if !in_class => found.push("a word boundary"),
                    Some('1'..='9') if !in_class => found.push("a backreference"),
                    Some('k') if !in_class && next(2) == Some('<') => found.push("a backreference"),
                    _ => {}
                }
                // The escaped character, whatever it is, is not an escape.
                index += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class && next(1) == Some('?') => match (next(2), next(3)) {
                (Some('=' | '!'), _) => found.push("a lookahead"),
                (Some('<'), Some('=' | '!')) => found.push("a lookbehind"),
                _ => {}
            },
            _ => {}
        }
        index += 1;
    }
    found.sort_unstable();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::refused_pattern_features;

    #[test]
    fn plain_patterns_are_taken() {
        for pattern in [
            "^[a-z]+$",
            "@example\\.com$",
            "^\\d{3}-\\d{4}$",
            "[\\b]",
            "\\\\b",
            "(?:ab)+",
            "(?<year>\\d{4})",
        ] {
            assert_eq!(
                refused_pattern_features(pattern),
                Vec::<&str>::new(),
                "{pattern}"
            );
        }
    }

    #[test]
    fn refused_features_are_named() {
        let cases: [(&str, &[&str]); 6] = [
            ("\\bword\\b", &["a word boundary"]),
            ("(a)\\1", &["a backreference"]),
            ("(?<x>a)\\k<x>", &["a backreference"]),
            ("^(?=.*\\d)", &["a lookahead"]),
            ("(?<!a)b", &["a lookbehind"]),
            ("(?!x)\\B", &["a lookahead", "a word boundary"]),
        ];
        for (pattern, expected) in cases {
            assert_eq!(refused_pattern_features(pattern), expected, "{pattern}");
        }
    }
}
