//! `hostname`: a host name of RFC 1123 section 2.1 (RFC 952 as relaxed to
//! let a label start with a digit), whose labels may be IDNA A-labels
//! (RFC 5890 section 2.3.2.1): `xn--` and the Punycode (RFC 3492) encoding
//! of a U-label, which is checked against RFC 5891 section 4.2.3 and the
//! code point rules of RFC 5892.
//!
//! ```text
//! hostname = label *("." label)        ; at most 253 octets
//! label    = let-dig [*61(ldh) let-dig] ; 1 to 63 octets
//! ldh      = let-dig / "-"
//! ```
//!
//! A label with `--` in its third and fourth positions is reserved
//! (RFC 5891 section 4.2.3.1) unless it is an A-label.
//!
//! Where the `jsonschema` crate departs from these RFCs we follow it (our
//! guarantee is agreement with it); each place is marked "jsonschema:".
//! In short, it is looser than IDNA2008 on U-labels:
//! - a code point is judged by its general category and the exceptions
//!   alone (RFC 5892 section 2.1/2.6): the Unstable rule is not applied
//!   (NFKC case folding, so uppercase letters pass), nor the
//!   IgnorableProperties/IgnorableBlocks/OldHangulJamo ones; and anything
//!   in the Hiragana, Katakana or CJK Unified Ideographs blocks passes,
//!   unassigned or punctuation code points included;
//! - ZERO WIDTH NON-JOINER is always accepted, ZERO WIDTH JOINER after a
//!   fixed list of viramas, and "Greek", "Hebrew", "Hiragana, Katakana or
//!   Han" in the contextual rules are Unicode blocks, not scripts;
//! - NFC, the hyphen rules of RFC 5891 section 4.2.3.1 on the decoded
//!   label, the Bidi rule (RFC 5893) and the round trip of the decoded
//!   label back to the same A-label are not checked.
//!
//! It is stricter in two places: a trailing dot (a fully qualified name,
//! RFC 1034 section 3.1) is refused, and the `xn--` prefix must be
//! lowercase.

use unicode_general_category::{GeneralCategory, get_general_category};

/// RFC 1034 section 3.1: at most 255 octets on the wire, which is 253
/// characters of dotted text.
const MAX_NAME: usize = 253;
/// RFC 1034 section 3.1 / RFC 1123 section 2.1: 63 octets per label.
const MAX_LABEL: usize = 63;

/// `hostname`: `api.example.com`, `xn--bcher-kva.example`.
pub(super) fn is_hostname(text: &str) -> bool {
    // jsonschema: a trailing dot (the root label of an absolute name,
    // RFC 1034 section 3.1) is not accepted, nor is an empty name.
    if text.is_empty() || text.len() > MAX_NAME {
        return false;
    }
    text.split('.').all(is_label)
}

/// One label: letters, digits and hyphens, not starting or ending with a
/// hyphen; `??--` only as a valid A-label.
fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    if bytes.len() > MAX_LABEL
        || *first == b'-'
        || *last == b'-'
        || !bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
    {
        return false;
    }
    if bytes.get(2..4) != Some(b"--") {
        return true;
    }
    // jsonschema: only a lowercase `xn--` is taken as the ACE prefix
    // (RFC 5890 section 2.3.2.1 makes it case-insensitive); `XN--` labels
    // are reserved ones, hence invalid.
    match label.strip_prefix("xn--") {
        Some(encoded) => punycode_decode(encoded).is_some_and(|decoded| is_u_label(&decoded)),
        None => false,
    }
}

// RFC 3492 section 5: the parameter values for IDNA.
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// RFC 3492 section 6.1.
fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

/// RFC 3492 section 5: the value of a basic code point as a digit (either
/// case), or `None` for one that is no digit.
fn digit_value(byte: u8) -> Option<u32> {
    match byte {
        b'a'..=b'z' => Some(u32::from(byte - b'a')),
        b'A'..=b'Z' => Some(u32::from(byte - b'A')),
        b'0'..=b'9' => Some(u32::from(byte - b'0') + 26),
        _ => None,
    }
}

/// RFC 3492 section 6.2, decoding: the code points `input` (the part of an
/// A-label after `xn--`) encodes, or `None` where the decoder fails (a bad
/// digit, an unfinished number, an overflow of 32-bit arithmetic, a value
/// that is no Unicode scalar value).
fn punycode_decode(input: &str) -> Option<Vec<char>> {
    let input = input.as_bytes();
    // The basic code points are those before the last delimiter, when that
    // delimiter is not the first byte; the rest are digits.
    let (basic, mut digits) = match input.iter().rposition(|&b| b == b'-') {
        Some(delimiter) if delimiter > 0 => (&input[..delimiter], &input[delimiter + 1..]),
        _ => (&input[..0], input),
    };
    let mut output: Vec<char> = basic.iter().map(|&b| char::from(b)).collect();
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    while !digits.is_empty() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let (&byte, rest) = digits.split_first()?;
            digits = rest;
            let digit = digit_value(byte)?;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                T_MIN
            } else if k >= bias + T_MAX {
                T_MAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        // Labels are at most 63 octets, so the output length fits.
        let points = u32::try_from(output.len()).ok()? + 1;
        bias = adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        output.insert(usize::try_from(i).ok()?, char::from_u32(n)?);
        i += 1;
    }
    Some(output)
}

/// jsonschema: the code points it takes as viramas for the ZERO WIDTH
/// JOINER rule (RFC 5892 Appendix A.2 says: any code point whose
/// Canonical_Combining_Class is Virama). This is its table, a subset of
/// those code points.
#[rustfmt::skip]
const VIRAMAS: [char; 50] = [
    '\u{094D}', '\u{09CD}', '\u{0A4D}', '\u{0ACD}', '\u{0B4D}', '\u{0BCD}', '\u{0C4D}',
    '\u{0CCD}', '\u{0D4D}', '\u{0DCA}', '\u{0E3A}', '\u{0F84}', '\u{1039}', '\u{1714}',
    '\u{1734}', '\u{17D2}', '\u{1A60}', '\u{1B44}', '\u{1BAA}', '\u{1BF2}', '\u{1BF3}',
    '\u{2D7F}', '\u{A806}', '\u{A8C4}', '\u{A953}', '\u{ABED}', '\u{10A3F}', '\u{11046}',
    '\u{1107F}', '\u{110B9}', '\u{11133}', '\u{111C0}', '\u{11235}', '\u{112EA}', '\u{1134D}',
    '\u{11442}', '\u{114C2}', '\u{115BF}', '\u{1163F}', '\u{116B6}', '\u{1172B}', '\u{11839}',
    '\u{119E0}', '\u{11A34}', '\u{11A47}', '\u{11A99}', '\u{11C3F}', '\u{11D44}', '\u{11D45}',
    '\u{11D97}',
];

/// jsonschema: the blocks it reads as "Hiragana, Katakana or Han" for the
/// KATAKANA MIDDLE DOT rule (RFC 5892 Appendix A.7 names the scripts):
/// Hiragana, Katakana, and CJK Unified Ideographs. Code points in these
/// blocks are also accepted whatever their general category.
fn is_hiragana_katakana_han_block(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309F}' | '\u{30A0}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}')
}

/// RFC 5892 section 2.6, Exceptions (F): code points whose property is
/// fixed rather than derived from their general category.
enum Exception {
    /// PVALID whatever the category.
    Valid,
    /// DISALLOWED whatever the category.
    Disallowed,
    /// CONTEXTJ / CONTEXTO: valid where its rule in Appendix A holds.
    Contextual,
}

fn exception(c: char) -> Option<Exception> {
    match c {
        '\u{00DF}' | '\u{03C2}' | '\u{06FD}' | '\u{06FE}' | '\u{0F0B}' | '\u{3007}' => {
            Some(Exception::Valid)
        }
        '\u{0640}'
        | '\u{07FA}'
        | '\u{302E}'
        | '\u{302F}'
        | '\u{3031}'..='\u{3035}'
        | '\u{303B}' => Some(Exception::Disallowed),
        '\u{200C}'
        | '\u{200D}'
        | '\u{00B7}'
        | '\u{0375}'
        | '\u{05F3}'
        | '\u{05F4}'
        | '\u{30FB}'
        | '\u{0660}'..='\u{0669}'
        | '\u{06F0}'..='\u{06F9}' => Some(Exception::Contextual),
        _ => None,
    }
}

/// RFC 5892 section 2.1 (LetterDigits): PVALID by general category.
fn is_letter_digit(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::UppercaseLetter
            | GeneralCategory::LowercaseLetter
            | GeneralCategory::TitlecaseLetter
            | GeneralCategory::ModifierLetter
            | GeneralCategory::OtherLetter
            | GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::DecimalNumber
    )
}

/// Whether the decoded A-label `label` is a U-label as jsonschema checks it:
/// RFC 5891 section 4.2.3.2 (no leading combining mark) and the RFC 5892
/// property of each code point, with the contextual rules of Appendix A.
fn is_u_label(label: &[char]) -> bool {
    let starts_with_mark = label.first().is_some_and(|&c| {
        matches!(
            get_general_category(c),
            GeneralCategory::NonspacingMark
                | GeneralCategory::SpacingMark
                | GeneralCategory::EnclosingMark
        )
    });
    if starts_with_mark {
        return false;
    }
    let mut katakana_middle_dot = false;
    let mut hiragana_katakana_han = false;
    let mut arabic_indic_digits = false;
    let mut extended_arabic_indic_digits = false;
    for (index, &c) in label.iter().enumerate() {
        let before = index.checked_sub(1).map(|before| label[before]);
        let after = label.get(index + 1).copied();
        // Only the basic code points before the delimiter decode to ASCII,
        // and those are letters, digits and hyphens.
        if c.is_ascii() {
            continue;
        }
        if is_hiragana_katakana_han_block(c) && c != '\u{30FB}' {
            hiragana_katakana_han = true;
            continue;
        }
        let valid = match exception(c) {
            Some(Exception::Valid) => true,
            Some(Exception::Disallowed) => false,
            Some(Exception::Contextual) => match c {
                // A.1 ZERO WIDTH NON-JOINER. jsonschema: always accepted
                // (the RFC wants a virama before it, or a joining context).
                '\u{200C}' => true,
                // A.2 ZERO WIDTH JOINER: after a virama.
                '\u{200D}' => before.is_some_and(|before| VIRAMAS.contains(&before)),
                // A.3 MIDDLE DOT: between two `l`.
                '\u{00B7}' => before == Some('l') && after == Some('l'),
                // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
                // jsonschema: "Greek" is the Greek and Coptic block.
                '\u{0375}' => after.is_some_and(|after| ('\u{0370}'..='\u{03FF}').contains(&after)),
                // A.5, A.6 HEBREW PUNCTUATION GERESH and GERSHAYIM: after
                // Hebrew. jsonschema: "Hebrew" is the Hebrew block.
                '\u{05F3}' | '\u{05F4}' => {
                    before.is_some_and(|before| ('\u{0590}'..='\u{05FF}').contains(&before))
                }
                // A.7 KATAKANA MIDDLE DOT: checked over the whole label.
                '\u{30FB}' => {
                    katakana_middle_dot = true;
                    true
                }
                // A.8, A.9 ARABIC-INDIC and EXTENDED ARABIC-INDIC DIGITS:
                // not both kinds in one label, checked over the whole label.
                '\u{0660}'..='\u{0669}' => {
                    arabic_indic_digits = true;
                    true
                }
                _ => {
                    extended_arabic_indic_digits = true;
                    true
                }
            },
            None => is_letter_digit(c),
        };
        if !valid {
            return false;
        }
    }
    // A.7: a katakana middle dot needs Hiragana, Katakana or Han beside it;
    // A.8, A.9: one kind of Arabic-Indic digits only.
    (!katakana_middle_dot || hiragana_katakana_han)
        && !(arabic_indic_digits && extended_arabic_indic_digits)
}

#[cfg(test)]
mod tests {
    use super::{is_hostname, punycode_decode};

    #[test]
    fn ascii_host_names() {
        let label63 = "a".repeat(63);
        let longest = format!("{label63}.{label63}.{label63}.{}", "a".repeat(61));
        assert_eq!(longest.len(), 253);
        for valid in [
            "api.example.com",
            "www.example.com",
            "a",
            "localhost",
            "1host",
            "123.com",
            "255.255.255.255",
            "c--n.com",
            "a-b",
            "EXAMPLE.COM",
            label63.as_str(),
            longest.as_str(),
        ] {
            assert!(is_hostname(valid), "{valid}");
        }
        let label64 = "a".repeat(64);
        let too_long = format!("{longest}a");
        for invalid in [
            "",
            ".",
            "example.com.",
            ".example.com",
            "a..b",
            "-a",
            "a-",
            "a.-b",
            "a-.b",
            "-a-host-name-that-starts-with--",
            "not_a_valid_host_name",
            "host name",
            "exa%41mple.com",
            "é.com",
            "ab--c",
            "xn--",
            "XN--bcher-kva",
            "Xn--bcher-kva",
            label64.as_str(),
            too_long.as_str(),
        ] {
            assert!(!is_hostname(invalid), "{invalid}");
        }
    }

    #[test]
    fn a_labels() {
        for valid in [
            // RFC 3492 section 7.1 samples and common IDNs.
            "xn--4gbwdl.xn--wgbh1c",
            "xn--bcher-kva.example",
            "xn--nw2a.xn--j6w193g",
            "xn--ihqwcrb4cv8a8dqg056pqjye",
            "xn--Mnchen-3ya",
            // Middle dot between two `l`: "l·l".
            "xn--ll-0ea",
            // Uppercase U+00DC (jsonschema does not case-fold).
            "xn--wca",
        ] {
            assert!(is_hostname(valid), "{valid}");
        }
        for invalid in [
            // Decodes to U+0080, a control character.
            "xn--a",
            // RFC 3492 sample (A) ends in U+061F ARABIC QUESTION MARK (Po).
            "xn--egbpdaj6bu4bxfgehfvwxn",
            // A leading `-` in the payload is a digit, and no digit.
            "xn---abc",
            // Runs out in the middle of a number.
            "xn--bcher-kv",
            // Punycode digits that overflow.
            "xn--99999999999999",
            // Middle dot not between two `l`: "a·b".
            "xn--ab-0ea",
            // A label starting with a combining mark (U+0300).
            "xn--ksa",
            // KATAKANA MIDDLE DOT alone.
            "xn--vek",
            // A DISALLOWED exception: U+0640 ARABIC TATWEEL.
            "xn--chb",
            // A symbol (U+2603 SNOWMAN).
            "xn--n3h",
        ] {
            assert!(!is_hostname(invalid), "{invalid}");
        }
    }

    #[test]
    fn punycode_rfc3492_samples() {
        let decoded =
            |encoded| punycode_decode(encoded).map(|chars| chars.into_iter().collect::<String>());
        // 7.1 (A) Arabic (Egyptian), (B) Chinese (simplified).
        assert_eq!(
            decoded("egbpdaj6bu4bxfgehfvwxn").as_deref(),
            Some(
                "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}"
            )
        );
        assert_eq!(
            decoded("ihqwcrb4cv8a8dqg056pqjye").as_deref(),
            Some("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}")
        );
        // (L) 3<nen>B<gumi><kinpachi><sensei>: basic code points kept.
        assert_eq!(
            decoded("3B-ww4c5e180e575a65lsy2b").as_deref(),
            Some("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}")
        );
        assert_eq!(decoded("bcher-kva").as_deref(), Some("bücher"));
        assert_eq!(decoded("").as_deref(), Some(""));
        assert_eq!(decoded("-"), None);
        assert_eq!(decoded("a-é"), None);
        assert_eq!(decoded("zzzzzzzzzzzzzzzzz"), None);
    }

    #[test]
    fn contextual_rules() {
        // Encoded with Python's RFC 3492 codec; the decoded form is in the comment.
        for (encoded, valid) in [
            // U+0915 U+094D U+200D (ka, virama, ZWJ): ZWJ after a virama.
            ("xn--11b6iy14e", true),
            // U+0915 U+200D: ZWJ after no virama.
            ("xn--11b478i", false),
            // U+0661 U+06F1: both kinds of Arabic-Indic digits.
            ("xn--9hb20a", false),
            // U+30FB U+30A2: katakana middle dot with katakana.
            ("xn--cckyj", true),
            // U+03B1 U+0375 U+03B2: keraia followed by Greek.
            ("xn--wva3je", true),
            // U+0375 alone.
            ("xn--wva", false),
            // U+05D0 U+05F3: geresh after Hebrew.
            ("xn--4db4e", true),
            // U+05F3 alone.
            ("xn--4eb", false),
        ] {
            assert_eq!(is_hostname(encoded), valid, "{encoded}");
        }
    }
}
