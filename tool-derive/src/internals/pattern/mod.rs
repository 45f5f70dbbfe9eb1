//! `#[param(pattern = "...")]`: an ECMA-262 pattern (JSON Schema's syntax)
//! translated at compile time into the `regex` crate's syntax, which the
//! generated code hands to `tool_core` beside the pattern as written. A
//! pattern parse could not run is a compile error that names the construct
//! and its byte.
//!
//! The translation is `jsonschema-regex`'s (the one the `jsonschema`
//! validator uses, so both read a pattern alike: `\d` is ASCII digits, `.`
//! stops at every line terminator), after `scan` has rewritten the legal
//! forms it does not take. The result is compiled here with the `regex`
//! crate the runtime uses, so a pattern that passes cannot fail at run time.

mod scan;

use regex::Regex;

/// The pattern in the `regex` crate's syntax, or why parse cannot run it.
pub(crate) fn translate(ecma: &str) -> Result<String, String> {
    translate_and_compile(ecma).map(|(translated, _)| translated)
}

/// The compiled pattern, to check a literal (`default`, `example`, a
/// `one_of` value) against at compile time.
pub(crate) fn compile(ecma: &str) -> Result<Regex, String> {
    translate_and_compile(ecma).map(|(_, regex)| regex)
}

fn translate_and_compile(ecma: &str) -> Result<(String, Regex), String> {
    let rewritten = scan::scan(ecma)?;
    if !jsonschema_regex::is_valid_ecma_regex(ecma) {
        return Err(not_ecma(ecma));
    }
    let translated = jsonschema_regex::to_rust_regex(&rewritten)
        .map_err(|()| {
            let reason = syntax_error(&rewritten, ecma).unwrap_or_else(|| {
                "jsonschema-regex cannot translate it to the regex crate's syntax".to_owned()
            });
            format!("invalid regex: {reason}")
        })?
        .into_owned();
    let regex = Regex::new(&translated).map_err(|error| match error {
        regex::Error::CompiledTooBig(limit) => format!(
            "invalid regex: compiled, the pattern would be larger than the regex crate's limit of {limit} bytes; use smaller repetition counts"
        ),
        other => {
            let reason = syntax_error(&translated, ecma).unwrap_or_else(|| other.to_string());
            format!("invalid regex: {reason}")
        }
    })?;
    Ok((translated, regex))
}

/// A pattern `scan` let through that is still not ECMA-262: the regex
/// crate's reading of it usually says where.
fn not_ecma(ecma: &str) -> String {
    const NOT_ECMA: &str =
        "this is not a valid ECMA-262 regular expression (JSON Schema's pattern syntax)";
    match regex_syntax::ast::parse::Parser::new().parse(ecma) {
        Err(error) => format!(
            "{NOT_ECMA}: {} at byte {}",
            error.kind(),
            error.span().start.offset
        ),
        Ok(_) => NOT_ECMA.to_owned(),
    }
}

/// Why the regex crate refuses `pattern` (a form of `ecma`), with the
/// part it points at and, where `ecma` holds that part, its byte there.
fn syntax_error(pattern: &str, ecma: &str) -> Option<String> {
    let (kind, span) = match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(error)) => (error.kind().to_string(), *error.span()),
        Err(regex_syntax::Error::Translate(error)) => (error.kind().to_string(), *error.span()),
        _ => return None,
    };
    let part = pattern.get(span.start.offset..span.end.offset)?;
    Some(match ecma.find(part) {
        Some(at) if !part.is_empty() => format!("{kind}, at `{part}` (byte {at})"),
        _ => format!("{kind}, at `{part}`"),
    })
}

#[cfg(test)]
mod tests {
    use super::{compile, translate};

    #[test]
    fn any_and_no_character_classes_mean_what_ecma_262_says() {
        let any = compile("^[^]*$").unwrap();
        for text in ["", "a", "line\nbreak", "\u{2028}", "é😀"] {
            assert!(any.is_match(text), "{text:?}");
        }
        let none = compile("a[]|b").unwrap();
        assert!(none.is_match("b"));
        assert!(!none.is_match("a"));
        assert!(!compile("[]").unwrap().is_match("anything"));
        assert!(compile(r"^\0$").unwrap().is_match("\0"));
        assert!(compile(r"^[\b]$").unwrap().is_match("\u{8}"));
        assert!(compile(r"^\uD83D\uDE00$").unwrap().is_match("😀"));
    }

    #[test]
    fn reads_classes_as_ecma_262_does() {
        // ECMA-262's `\d` is ASCII digits, and `.` stops at `\r` too.
        let digits = compile(r"^\d+$").unwrap();
        assert!(digits.is_match("123"));
        assert!(!digits.is_match("١٢٣"));
        assert!(!compile("^.$").unwrap().is_match("\r"));
        assert_eq!(translate(r"\d").unwrap(), "[0-9]");
    }

    #[test]
    fn refusals_of_the_scan_come_through() {
        assert!(
            translate("(?=a)")
                .unwrap_err()
                .starts_with("look-ahead `(?=` at byte 0")
        );
    }

    #[test]
    fn a_pattern_ecma_262_refuses_says_where_when_the_regex_crate_can() {
        assert_eq!(
            translate("[z-a]").unwrap_err(),
            "this is not a valid ECMA-262 regular expression (JSON Schema's pattern syntax): invalid character class range, the start must be <= the end at byte 1"
        );
    }

    #[test]
    fn a_pattern_the_regex_crate_refuses_gives_its_reason() {
        assert_eq!(
            translate("(a{1000}){1000}").unwrap_err(),
            "invalid regex: compiled, the pattern would be larger than the regex crate's limit of 10485760 bytes; use smaller repetition counts"
        );
        assert_eq!(
            translate("(?<$x>a)").unwrap_err(),
            "invalid regex: invalid capture group character, at `$` (byte 3)"
        );
    }
}
