//! One pass over an ECMA-262 pattern, before it is translated: what parse
//! cannot run (look-around, backreferences) and what ECMA-262 does not
//! allow (an unknown escape, a lone brace, a quantifier with nothing to
//! repeat) is refused naming the construct and its byte; the few legal
//! forms the translation does not take (`[^]`, `[]`, `\0`, `[\b]`, a
//! surrogate pair) are rewritten into ones it does.
//!
//! The grammar is ECMA-262's `Pattern` under the `u` flag ("Regular
//! expressions SHOULD be built with the "u" flag", JSON Schema 2020-12 core,
//! section 6.4,
//! <https://json-schema.org/draft/2020-12/json-schema-core#name-regular-expressions>),
//! widened as `jsonschema_regex::is_valid_ecma_regex` widens it (a
//! backslash before any character that is not alphanumeric). That
//! function stays the final judge of validity; this pass only says where.

/// Any character: what ECMA-262's `[^]` matches.
const ANY: &str = r"[\x{0}-\x{10FFFF}]";
/// No character: ECMA-262's `[]`, a class that never matches. The regex
/// crate takes an empty class and compiles it to a dead end ("syntax:
/// permit empty character classes",
/// <https://github.com/rust-lang/regex/commit/5a770dc819eceb7b415e27075bce2435bde39f5f>);
/// `pattern::tests` checks it with the workspace's `regex`.
const NONE: &str = r"[^\x{0}-\x{10FFFF}]";

/// What the pattern read so far ends with, which decides whether a
/// quantifier may follow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Previous {
    /// The start of the pattern, of a group, or of an alternative.
    Nothing,
    Atom,
    Assertion,
    Quantifier,
}

struct Scanner<'a> {
    source: &'a str,
    position: usize,
    out: String,
    previous: Previous,
    /// The byte of each open `(`.
    groups: Vec<usize>,
    names: Vec<&'a str>,
}

/// The pattern with the rewrites applied, or why it is refused.
pub(super) fn scan(source: &str) -> Result<String, String> {
    let mut scanner = Scanner {
        source,
        position: 0,
        out: String::with_capacity(source.len()),
        previous: Previous::Nothing,
        groups: Vec::new(),
        names: Vec::new(),
    };
    scanner.pattern()?;
    Ok(scanner.out)
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn rest(&self) -> &'a str {
        &self.source[self.position..]
    }

    /// Copies the next character to the output.
    fn copy(&mut self) {
        if let Some(c) = self.peek() {
            self.out.push(c);
            self.position += c.len_utf8();
        }
    }

    /// Copies `text`, which the source holds at the current position.
    fn copy_str(&mut self, text: &str) {
        self.out.push_str(text);
        self.position += text.len();
    }

    fn pattern(&mut self) -> Result<(), String> {
        while let Some(c) = self.peek() {
            let at = self.position;
            match c {
                '\\' => self.previous = self.escape(false)?,
                '[' => {
                    self.class()?;
                    self.previous = Previous::Atom;
                }
                '(' => self.open_group()?,
                ')' => {
                    if self.groups.pop().is_none() {
                        return Err(format!(
                            "`)` at byte {at} closes no group: escape it as `\\)` to match a parenthesis"
                        ));
                    }
                    self.copy();
                    self.previous = Previous::Atom;
                }
                '*' | '+' | '?' => self.quantifier(at, c.len_utf8())?,
                '{' => match braced_quantifier(self.rest()) {
                    Some(Ok(length)) => self.quantifier(at, length)?,
                    Some(Err(())) => {
                        let text = &self.rest()[..self.rest().find('}').map_or(1, |end| end + 1)];
                        return Err(format!(
                            "repetition `{text}` at byte {at} has its bounds out of order: the smaller comes first"
                        ));
                    }
                    None => {
                        return Err(format!(
                            "`{{` at byte {at} starts no repetition (`{{n}}`, `{{n,}}` or `{{n,m}}`): escape it as `\\{{` to match a brace"
                        ));
                    }
                },
                '}' | ']' => {
                    return Err(format!(
                        "`{c}` at byte {at} closes nothing: escape it as `\\{c}` to match it"
                    ));
                }
                '|' => {
                    self.copy();
                    self.previous = Previous::Nothing;
                }
                '^' | '$' => {
                    self.copy();
                    self.previous = Previous::Assertion;
                }
                _ => {
                    self.copy();
                    self.previous = Previous::Atom;
                }
            }
        }
        match self.groups.last() {
            Some(open) => Err(format!(
                "the group `(` at byte {open} is never closed: add its `)`"
            )),
            None => Ok(()),
        }
    }

    /// A quantifier of `length` bytes at `at` (`*`, `{2,5}`), and the `?`
    /// that makes it lazy.
    fn quantifier(&mut self, at: usize, length: usize) -> Result<(), String> {
        let text = &self.rest()[..length];
        match self.previous {
            Previous::Nothing | Previous::Assertion => {
                return Err(format!(
                    "nothing to repeat: `{text}` at byte {at} follows no character or group; escape it as `\\{}` to match it",
                    &text[..1]
                ));
            }
            Previous::Quantifier => {
                return Err(format!(
                    "`{text}` at byte {at} repeats a quantifier, which ECMA-262 does not allow: group what it repeats, as in `(?:a+){text}`"
                ));
            }
            Previous::Atom => {}
        }
        self.copy_str(text);
        if self.peek() == Some('?') {
            self.copy();
        }
        self.previous = Previous::Quantifier;
        Ok(())
    }

    fn open_group(&mut self) -> Result<(), String> {
        let at = self.position;
        let rest = self.rest();
        const LOOK_AROUND: [(&str, &str); 4] = [
            ("(?=", "look-ahead"),
            ("(?!", "negative look-ahead"),
            ("(?<=", "look-behind"),
            ("(?<!", "negative look-behind"),
        ];
        if let Some((text, name)) = LOOK_AROUND.iter().find(|(text, _)| rest.starts_with(text)) {
            return Err(format!(
                "{name} `{text}` at byte {at} is not supported: parse matches patterns in time linear in the string (the regex crate), so no string a model sends can make it backtrack, and look-around needs backtracking; write the pattern without it, or check the rest in the tool"
            ));
        }
        if let Some(after) = rest.strip_prefix("(?<") {
            let Some(end) = after.find('>') else {
                return Err(format!(
                    "the group name after `(?<` at byte {at} has no closing `>`"
                ));
            };
            let name = &after[..end];
            if self.names.contains(&name) {
                return Err(format!(
                    "the group name `{name}` at byte {at} is used twice: the regex crate takes each name once, so rename one"
                ));
            }
            self.names.push(name);
            self.copy_str(&rest[..end + 4]);
        } else if let Some(after) = rest.strip_prefix("(?") {
            // `(?:`, or ES2025 modifiers: `(?i:`, `(?-i:`, `(?i-s:`.
            let flags = after
                .find(|c: char| !matches!(c, 'i' | 'm' | 's' | '-'))
                .filter(|&end| after[end..].starts_with(':'));
            let Some(end) = flags else {
                let shown: String = rest.chars().take(3).collect();
                return Err(format!(
                    "group syntax `{shown}` at byte {at} is not ECMA-262: write `(?<name>...)` for a named group, `(?:...)` for a plain one"
                ));
            };
            self.copy_str(&rest[..end + 3]);
        } else {
            self.copy();
        }
        self.groups.push(at);
        self.previous = Previous::Nothing;
        Ok(())
    }

    /// A class, from its `[` to its `]`.
    fn class(&mut self) -> Result<(), String> {
        let open = self.position;
        for (written, rewritten) in [("[^]", ANY), ("[]", NONE)] {
            if self.rest().starts_with(written) {
                self.out.push_str(rewritten);
                self.position += written.len();
                return Ok(());
            }
        }
        self.copy();
        if self.peek() == Some('^') {
            self.copy();
        }
        loop {
            match self.peek() {
                None => {
                    return Err(format!(
                        "the class `[` at byte {open} is never closed: add its `]`, or escape it as `\\[` to match a bracket"
                    ));
                }
                Some(']') => {
                    self.copy();
                    return Ok(());
                }
                Some('\\') => {
                    self.escape(true)?;
                }
                Some(_) => self.copy(),
            }
        }
    }

    /// The escape at the current `\`, copied or rewritten; whether it is an
    /// atom or an assertion (`\b`).
    fn escape(&mut self, in_class: bool) -> Result<Previous, String> {
        let at = self.position;
        let rest = &self.rest()[1..];
        let Some(letter) = rest.chars().next() else {
            return Err(format!("a trailing `\\` at byte {at} escapes nothing"));
        };
        let unsupported = |hint: &str| {
            let escape = &self.rest()[..1 + letter.len_utf8()];
            Err(format!(
                "unsupported escape `{escape}` at byte {at}: {hint}"
            ))
        };
        match letter {
            '1'..='9' => {
                let digits = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let escape = &self.rest()[..=digits];
                if in_class {
                    return Err(format!(
                        "`{escape}` at byte {at} inside a class is not ECMA-262 under the `u` flag: write the character as `\\x..`"
                    ));
                }
                Err(backreference(escape, at))
            }
            '0' if rest[1..].starts_with(|c: char| c.is_ascii_digit()) => unsupported(
                "octal escapes are not ECMA-262 under the `u` flag; write `\\x..` with two hex digits",
            ),
            '0' => {
                // NUL; the regex crate reads `\0` as octal, which it refuses.
                self.out.push_str(r"\x00");
                self.position += 2;
                Ok(Previous::Atom)
            }
            'k' if !in_class && rest[1..].starts_with('<') => {
                let end = rest.find('>').map_or(rest.len(), |end| end + 1);
                Err(backreference(&self.rest()[..=end], at))
            }
            'b' if in_class => {
                // Backspace, inside a class; the regex crate has no `[\b]`.
                self.out.push_str(r"\x08");
                self.position += 2;
                Ok(Previous::Atom)
            }
            'B' if in_class => unsupported("`\\B` means nothing inside a class `[...]`"),
            'b' | 'B' => {
                self.copy_str(&self.rest()[..2]);
                Ok(Previous::Assertion)
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'f' | 'n' | 'r' | 't' | 'v' => {
                self.copy_str(&self.rest()[..2]);
                Ok(Previous::Atom)
            }
            'c' if rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()) => {
                self.copy_str(&self.rest()[..3]);
                Ok(Previous::Atom)
            }
            'c' => unsupported("`\\c` takes a letter, as in `\\cJ` (a line feed)"),
            'x' if rest.get(1..3).is_some_and(is_hex) => {
                self.copy_str(&self.rest()[..4]);
                Ok(Previous::Atom)
            }
            'x' => unsupported("`\\x` takes two hex digits, as in `\\x41`"),
            'u' => self.unicode_escape(at),
            'p' | 'P' => self.property(at, letter),
            'A' | 'z' | 'Z' => unsupported(
                "ECMA-262 has no such escape; `^` and `$` anchor a pattern at the start and the end",
            ),
            c if c.is_ascii_alphanumeric() => unsupported(
                "ECMA-262 has no such escape; to match the character itself, write it without `\\`",
            ),
            _ => {
                // An escaped punctuation character matches itself.
                self.copy_str(&self.rest()[..1 + letter.len_utf8()]);
                Ok(Previous::Atom)
            }
        }
    }

    /// `\uHHHH` or `\u{H...}` at `at`; a surrogate pair becomes the one
    /// character it spells.
    fn unicode_escape(&mut self, at: usize) -> Result<Previous, String> {
        let rest = self.rest();
        if let Some(braced) = rest.strip_prefix(r"\u{") {
            let digits = braced.find('}').map(|end| &braced[..end]);
            let value = digits
                .filter(|digits| !digits.is_empty() && is_hex(digits))
                .and_then(|digits| u32::from_str_radix(digits, 16).ok());
            let escape = digits.map_or("", |digits| &rest[..digits.len() + 4]);
            return match value {
                Some(value) if char::from_u32(value).is_some() => {
                    self.copy_str(escape);
                    Ok(Previous::Atom)
                }
                Some(0xD800..=0xDFFF) => Err(lone_surrogate(escape, at)),
                _ => Err(format!(
                    "unsupported escape `\\u` at byte {at}: `\\u{{...}}` takes the hex digits of a code point up to 10FFFF, as in `\\u{{1F600}}`"
                )),
            };
        }
        let Some(high) = four_hex(&rest[2..]) else {
            return Err(format!(
                "unsupported escape `\\u` at byte {at}: `\\u` takes four hex digits or braces, as in `\\u0041` or `\\u{{1F600}}`"
            ));
        };
        if !(0xD800..=0xDFFF).contains(&high) {
            self.copy_str(&rest[..6]);
            return Ok(Previous::Atom);
        }
        let low = rest[6..]
            .strip_prefix(r"\u")
            .and_then(four_hex)
            .filter(|low| (0xDC00..=0xDFFF).contains(low));
        match low {
            Some(low) if high < 0xDC00 => {
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                self.out.push_str(&format!(r"\x{{{value:X}}}"));
                self.position += 12;
                Ok(Previous::Atom)
            }
            _ => Err(lone_surrogate(&rest[..6], at)),
        }
    }

    /// `\p{...}` or `\P{...}` at `at`, which the regex crate must know.
    fn property(&mut self, at: usize, letter: char) -> Result<Previous, String> {
        let rest = self.rest();
        let end = rest
            .strip_prefix(['\\'])
            .and_then(|rest| rest[1..].strip_prefix('{'))
            .and_then(|inner| inner.find('}'))
            .map(|end| end + 4);
        let Some(end) = end else {
            return Err(format!(
                "unsupported escape `\\{letter}` at byte {at}: `\\{letter}` takes a Unicode property in braces, as in `\\{letter}{{L}}`"
            ));
        };
        let escape = &rest[..end];
        if let Err(error) = regex_syntax::Parser::new().parse(escape) {
            let reason = match &error {
                regex_syntax::Error::Parse(error) => error.kind().to_string(),
                regex_syntax::Error::Translate(error) => error.kind().to_string(),
                other => other.to_string(),
            };
            return Err(format!(
                "the Unicode property `{escape}` at byte {at} is unknown to the regex crate ({reason})"
            ));
        }
        self.copy_str(escape);
        Ok(Previous::Atom)
    }
}

fn backreference(escape: &str, at: usize) -> String {
    format!(
        "backreference `{escape}` at byte {at} is not supported: parse matches patterns in time linear in the string (the regex crate), so no string a model sends can make it backtrack, and a backreference needs backtracking; write the pattern without it, or check the rest in the tool"
    )
}

fn lone_surrogate(escape: &str, at: usize) -> String {
    format!(
        "the surrogate `{escape}` at byte {at} is half of a UTF-16 pair and matches no character on its own: write the character as `\\u{{...}}` with its code point, or as the pair `\\uD83D\\uDE00`"
    )
}

fn is_hex(digits: &str) -> bool {
    digits.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// The value of four hex digits at the start of `text`.
fn four_hex(text: &str) -> Option<u32> {
    let digits = text.get(..4)?;
    is_hex(digits)
        .then(|| u32::from_str_radix(digits, 16).ok())
        .flatten()
}

/// The byte length of `{n}`, `{n,}` or `{n,m}` at the start of `text`;
/// `Err` when `n > m`; `None` when `text` starts no such repetition.
fn braced_quantifier(text: &str) -> Option<Result<usize, ()>> {
    let inner = &text[1..text.find('}')?];
    let (low, high) = match inner.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (inner, None),
    };
    fn number(digits: &str) -> Option<&str> {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
    }
    let low = number(low)?;
    let in_order = match high {
        None | Some("") => true,
        Some(high) => {
            let high = number(high)?;
            let (low, high) = (low.trim_start_matches('0'), high.trim_start_matches('0'));
            (low.len(), low) <= (high.len(), high)
        }
    };
    Some(if in_order {
        Ok(inner.len() + 2)
    } else {
        Err(())
    })
}

#[cfg(test)]
mod tests {
    use super::scan;

    fn refused(pattern: &str) -> String {
        scan(pattern).expect_err(pattern)
    }

    #[test]
    fn rewrites_the_legal_forms_the_translation_does_not_take() {
        assert_eq!(scan("^[^]*$").unwrap(), r"^[\x{0}-\x{10FFFF}]*$");
        assert_eq!(scan("a[]b").unwrap(), r"a[^\x{0}-\x{10FFFF}]b");
        assert_eq!(scan(r"a\0b").unwrap(), r"a\x00b");
        assert_eq!(scan(r"[\b\0]").unwrap(), r"[\x08\x00]");
        assert_eq!(scan(r"\uD83D\uDE00").unwrap(), r"\x{1F600}");
        // `[^]` and `[]` only at a class's start; an escaped bracket is a
        // character.
        assert_eq!(
            scan(r"[a^]\[]").unwrap_err(),
            "`]` at byte 6 closes nothing: escape it as `\\]` to match it"
        );
        assert_eq!(scan(r"[\]]").unwrap(), r"[\]]");
    }

    #[test]
    fn keeps_what_the_translation_takes() {
        for pattern in [
            "^[a-z0-9-]+$",
            r"^\d{3}-\d+$",
            r"(?<year>\d{4})-(?:\d\d)",
            r"a{2,}b{0,1}?c*?",
            r"\p{L}\P{Lu}\u0041\u{1F600}\x41\cJ\/\.",
            r"(?i:abc)|(?-i:d)",
            r"[\w.-]+@[^\s@]+",
            r"\bword\B",
        ] {
            assert_eq!(scan(pattern).unwrap(), pattern);
        }
    }

    #[test]
    fn look_around_is_named_with_its_byte() {
        assert!(
            refused("^(?=.*[0-9])[a-z]+$")
                .starts_with("look-ahead `(?=` at byte 1 is not supported")
        );
        assert!(
            refused("a(?!b)").starts_with("negative look-ahead `(?!` at byte 1 is not supported")
        );
        assert!(refused("(?<=a)b").starts_with("look-behind `(?<=` at byte 0 is not supported"));
        assert!(
            refused("x(?<!a)b")
                .starts_with("negative look-behind `(?<!` at byte 1 is not supported")
        );
    }

    #[test]
    fn backreferences_are_named_with_their_byte() {
        assert!(refused(r"^(a+)\1$").starts_with(r"backreference `\1` at byte 5 is not supported"));
        assert!(
            refused(r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10")
                .starts_with(r"backreference `\10` at byte 30")
        );
        assert!(
            refused(r"(?<q>')\k<q>")
                .starts_with(r"backreference `\k<q>` at byte 7 is not supported")
        );
    }

    #[test]
    fn unsupported_escapes_are_named_with_their_byte() {
        assert_eq!(
            refused(r"ab\c1"),
            "unsupported escape `\\c` at byte 2: `\\c` takes a letter, as in `\\cJ` (a line feed)"
        );
        assert_eq!(
            refused(r"\a"),
            "unsupported escape `\\a` at byte 0: ECMA-262 has no such escape; to match the character itself, write it without `\\`"
        );
        assert!(refused(r"^abc\z").starts_with(
            "unsupported escape `\\z` at byte 4: ECMA-262 has no such escape; `^` and `$` anchor"
        ));
        assert!(
            refused(r"\x4")
                .starts_with("unsupported escape `\\x` at byte 0: `\\x` takes two hex digits")
        );
        assert!(
            refused(r"\u12")
                .starts_with("unsupported escape `\\u` at byte 0: `\\u` takes four hex digits")
        );
        assert!(refused(r"\u{110000}").starts_with("unsupported escape `\\u` at byte 0"));
        assert!(refused(r"\pL").starts_with(
            "unsupported escape `\\p` at byte 0: `\\p` takes a Unicode property in braces"
        ));
        assert!(refused(r"a\01").starts_with("unsupported escape `\\0` at byte 1: octal escapes"));
        assert!(refused(r"[\B]").starts_with("unsupported escape `\\B` at byte 1"));
        assert!(refused(r"[\1]").starts_with("`\\1` at byte 1 inside a class is not ECMA-262"));
        assert_eq!(refused("ab\\"), "a trailing `\\` at byte 2 escapes nothing");
    }

    #[test]
    fn surrogates_alone_are_named_with_their_byte() {
        assert!(
            refused(r"x\uD83D")
                .starts_with("the surrogate `\\uD83D` at byte 1 is half of a UTF-16 pair")
        );
        assert!(refused(r"\uDE00\uD83D").starts_with("the surrogate `\\uDE00` at byte 0"));
        assert!(refused(r"\u{D800}").starts_with("the surrogate `\\u{D800}` at byte 0"));
    }

    #[test]
    fn unknown_properties_are_named_with_their_byte() {
        assert_eq!(
            refused(r"a\p{Klingon}"),
            "the Unicode property `\\p{Klingon}` at byte 1 is unknown to the regex crate (Unicode property not found)"
        );
    }

    #[test]
    fn group_mistakes_are_named_with_their_byte() {
        assert!(refused("(?P<n>a)").starts_with("group syntax `(?P` at byte 0 is not ECMA-262"));
        assert!(refused("a(?i)b").starts_with("group syntax `(?i` at byte 1 is not ECMA-262"));
        assert!(
            refused("(?<n>a)|(?<n>b)").starts_with("the group name `n` at byte 8 is used twice")
        );
        assert!(
            refused("(?<n").starts_with("the group name after `(?<` at byte 0 has no closing `>`")
        );
        assert!(refused("a(b").starts_with("the group `(` at byte 1 is never closed"));
        assert!(refused("ab)").starts_with("`)` at byte 2 closes no group"));
    }

    #[test]
    fn quantifier_mistakes_are_named_with_their_byte() {
        assert!(
            refused("*a")
                .starts_with("nothing to repeat: `*` at byte 0 follows no character or group")
        );
        assert!(refused("a|+").starts_with("nothing to repeat: `+` at byte 2"));
        assert!(refused("^*").starts_with("nothing to repeat: `*` at byte 1"));
        assert!(refused("a**").starts_with("`*` at byte 2 repeats a quantifier"));
        assert!(refused("a{2}{3}").starts_with("`{3}` at byte 4 repeats a quantifier"));
        assert!(
            refused("a{5,2}")
                .starts_with("repetition `{5,2}` at byte 1 has its bounds out of order")
        );
        assert!(refused("a{,3}").starts_with("`{` at byte 1 starts no repetition"));
        assert!(refused("a}").starts_with("`}` at byte 1 closes nothing"));
        assert!(refused("[a-z").starts_with("the class `[` at byte 0 is never closed"));
        assert_eq!(scan("a{10,010}?").unwrap(), "a{10,010}?");
    }
}
