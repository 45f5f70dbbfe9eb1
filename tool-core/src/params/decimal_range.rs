//! Regular expressions that match exactly the decimal numerals of an integer
//! range, for schemas that must state a range over strings: the keys of a
//! map with integer keys (`propertyNames`), and the seconds of a
//! `Duration`.
//!
//! A numeral is canonical: an optional `-`, then digits without leading
//! zeros (`0` alone is zero); no `+`, no `-0`. Each integer has exactly one
//! such numeral, so a pattern built here accepts one string per integer in
//! range and nothing else. The output uses only `[0-9]`-style classes,
//! `(?:...)` groups, `|` and counted repetition, which ECMA-262 and the
//! `regex` crate read alike; prefix sharing keeps it short (`u64::MAX`
//! takes 334 characters, anchors included).

/// An alternation, without anchors or an enclosing group, matching exactly
/// the canonical numerals of the integers in `min..=max`. Empty if the
/// range is.
pub(crate) fn decimal_range(min: i128, max: i128) -> String {
    let mut pieces = Vec::new();
    if min <= max.min(-1) {
        // Negative numbers: `-` then the magnitudes, from the smallest.
        let (from, to) = (max.min(-1).unsigned_abs(), min.unsigned_abs());
        pieces.push(format!("-{}", group(&unsigned_range(from, to).join("|"))));
    }
    if max >= 0 && min <= max {
        pieces.extend(unsigned_range(
            min.max(0).unsigned_abs(),
            max.unsigned_abs(),
        ));
    }
    pieces.join("|")
}

/// `^(?:...)$` around [`decimal_range`] for each of `ranges`, joined: a
/// whole-string `pattern` for JSON Schema.
pub(crate) fn anchored(ranges: &[(i128, i128)]) -> String {
    let alternatives: Vec<String> = ranges
        .iter()
        .map(|&(min, max)| decimal_range(min, max))
        .filter(|alternation| !alternation.is_empty())
        .collect();
    format!("^(?:{})$", alternatives.join("|"))
}

/// The canonical numerals of `lo..=hi`, as alternatives: one per numeral
/// length, with runs of lengths that are complete (every numeral of that
/// length) written as one.
fn unsigned_range(lo: u128, hi: u128) -> Vec<String> {
    let mut pieces = Vec::new();
    let (shortest, longest) = (length(lo), length(hi));
    let mut length_now = shortest;
    while length_now <= longest {
        let first = if length_now == 1 {
            0
        } else {
            10u128.pow(length_now - 1)
        };
        let last = largest_of_length(length_now);
        let (from, to) = (lo.max(first), hi.min(last));
        // Lengths from here on that hold every numeral of their length
        // (for length 1: at least 1..=9) are one piece.
        let complete = |n: u32| {
            let first = if n == 1 { 1 } else { 10u128.pow(n - 1) };
            lo <= first && hi >= largest_of_length(n)
        };
        let mut run_end = length_now;
        while run_end < longest && complete(run_end) && complete(run_end + 1) {
            run_end += 1;
        }
        if run_end > length_now {
            if length_now == 1 && from == 0 {
                pieces.push("0".to_owned());
            }
            pieces.push(format!(
                "[1-9]{}",
                repeat_digit(length_now - 1, run_end - 1)
            ));
            length_now = run_end + 1;
            continue;
        }
        pieces.push(same_length(
            format!("{from:0width$}", width = length_now as usize).as_bytes(),
            format!("{to:0width$}", width = length_now as usize).as_bytes(),
        ));
        length_now += 1;
    }
    pieces
}

/// The largest number of `n` digits (`u128::MAX` past its 39 digits).
fn largest_of_length(n: u32) -> u128 {
    10u128.checked_pow(n).map_or(u128::MAX, |power| power - 1)
}

/// How many digits `n` has in decimal (1 for zero).
fn length(n: u128) -> u32 {
    n.checked_ilog10().map_or(1, |log| log + 1)
}

/// The digit strings of one length from `a` to `b` (`a <= b`, same length).
fn same_length(a: &[u8], b: &[u8]) -> String {
    let (Some((&da, a_rest)), Some((&db, b_rest))) = (a.split_first(), b.split_first()) else {
        return String::new();
    };
    if da == db {
        return format!("{}{}", char::from(da), group(&same_length(a_rest, b_rest)));
    }
    let rest = a_rest.len() as u32;
    let mut pieces = Vec::new();
    // The lowest first digit, unless every tail from `a_rest` up is taken.
    let low = if a_rest.iter().all(|&d| d == b'0') {
        da
    } else {
        let nines = vec![b'9'; a_rest.len()];
        pieces.push(format!(
            "{}{}",
            char::from(da),
            group(&same_length(a_rest, &nines))
        ));
        da + 1
    };
    // The highest first digit, unless every tail up to `b_rest` is taken.
    let (high, last) = if b_rest.iter().all(|&d| d == b'9') {
        (db, None)
    } else {
        let zeros = vec![b'0'; b_rest.len()];
        let last = format!("{}{}", char::from(db), group(&same_length(&zeros, b_rest)));
        (db - 1, Some(last))
    };
    if low <= high {
        pieces.push(format!(
            "{}{}",
            digit_class(low, high),
            repeat_digit(rest, rest)
        ));
    }
    pieces.extend(last);
    pieces.join("|")
}

/// `x` as one unit to follow a prefix: grouped if it is an alternation
/// (a `|` outside every group).
fn group(x: &str) -> String {
    let mut depth = 0usize;
    let alternation = x.bytes().any(|b| {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        b == b'|' && depth == 0
    });
    if alternation {
        format!("(?:{x})")
    } else {
        x.to_owned()
    }
}

/// The digits `low..=high` as a class: `5`, `[45]`, `[0-7]`.
fn digit_class(low: u8, high: u8) -> String {
    match high - low {
        0 => char::from(low).to_string(),
        1 => format!("[{}{}]", char::from(low), char::from(high)),
        _ => format!("[{}-{}]", char::from(low), char::from(high)),
    }
}

/// `[0-9]` repeated `min..=max` times: ``, `[0-9]`, `[0-9]?`, `[0-9]{3}`,
/// `[0-9]{1,4}`.
fn repeat_digit(min: u32, max: u32) -> String {
    match (min, max) {
        (_, 0) => String::new(),
        (1, 1) => "[0-9]".to_owned(),
        (0, 1) => "[0-9]?".to_owned(),
        (min, max) if min == max => format!("[0-9]{{{min}}}"),
        (min, max) => format!("[0-9]{{{min},{max}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern as the `jsonschema` validator compiles it: translated
    /// from ECMA-262 by `jsonschema-regex`, then the `regex` crate.
    fn compile_pattern(pattern: &str) -> Result<regex::Regex, String> {
        let translated = jsonschema_regex::to_rust_regex(pattern)
            .map_err(|()| format!("not ECMA-262: {pattern}"))?;
        regex::Regex::new(&translated).map_err(|error| error.to_string())
    }

    /// Whether `text` is the canonical numeral of an integer in `min..=max`,
    /// decided without any pattern.
    fn canonical_in(text: &str, min: i128, max: i128) -> bool {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && text != "-0";
        canonical && text.parse::<i128>().is_ok_and(|n| (min..=max).contains(&n))
    }

    /// The numbers worth trying for a range: every bound, each power of ten
    /// and its neighbours, near zero; and the non-canonical spellings of
    /// some of them.
    fn probes(min: i128, max: i128) -> Vec<String> {
        let mut numbers: Vec<i128> = Vec::new();
        for center in [min, max, 0] {
            numbers.extend((-3..=3).filter_map(|d| center.checked_add(d)));
        }
        for exponent in 0..=39u32 {
            let Some(power) = 10i128.checked_pow(exponent) else {
                break;
            };
            for n in [power - 1, power, power + 1] {
                numbers.extend([n, -n]);
            }
        }
        for bound in [min, max] {
            // Each digit of the bound one up and one down.
            let text = bound.unsigned_abs().to_string();
            for at in 0..text.len() {
                for step in [-1i32, 1] {
                    let mut digits = text.clone().into_bytes();
                    let digit = i32::from(digits[at] - b'0') + step;
                    if (0..=9).contains(&digit) {
                        digits[at] = b'0' + digit as u8;
                        let changed: u128 = String::from_utf8(digits).unwrap().parse().unwrap();
                        let changed = i128::try_from(changed).unwrap_or(i128::MAX);
                        numbers.push(if bound < 0 { -changed } else { changed });
                    }
                }
            }
        }
        let mut texts: Vec<String> = numbers.iter().map(i128::to_string).collect();
        for n in [0, 1, 7, max, min] {
            texts.extend([
                format!("+{n}"),
                format!("0{n}"),
                format!("00{n}"),
                format!("-0{}", n.unsigned_abs()),
                format!("{n} "),
                format!(" {n}"),
                format!("{n}.0"),
                format!("{n}a"),
            ]);
        }
        texts.extend(["", "-", "-0", "+0", "00", "1e3", "٣", "１", "0x1", "--1"].map(String::from));
        texts
    }

    fn check_range(min: i128, max: i128) {
        let pattern = anchored(&[(min, max)]);
        let regex = compile_pattern(&pattern).unwrap();
        for text in probes(min, max) {
            assert_eq!(
                regex.is_match(&text),
                canonical_in(&text, min, max),
                "{text:?} in {min}..={max}, pattern {pattern}"
            );
        }
    }

    #[test]
    fn u8_is_the_textbook_pattern() {
        assert_eq!(
            anchored(&[(0, 255)]),
            "^(?:0|[1-9][0-9]?|1[0-9]{2}|2(?:[0-4][0-9]|5[0-5]))$"
        );
        assert_eq!(anchored(&[(1, 9)]), "^(?:[1-9])$");
        assert_eq!(
            anchored(&[(-128, -1), (1, 127)]),
            "^(?:-(?:[1-9][0-9]?|1(?:[01][0-9]|2[0-8]))|[1-9][0-9]?|1(?:[01][0-9]|2[0-7]))$"
        );
    }

    #[test]
    fn small_ranges_match_every_value_exactly() {
        for (min, max) in [
            (0, 255),
            (-128, 127),
            (1, 255),
            (-32768, 32767),
            (0, 65535),
            (0, 0),
            (5, 5),
            (-7, -7),
            (10, 99),
            (9, 10),
            (0, 9),
            (37, 4012),
            (-4012, -37),
        ] {
            let regex = compile_pattern(&anchored(&[(min, max)])).unwrap();
            for n in min - 1100..=max + 1100 {
                assert_eq!(
                    regex.is_match(&n.to_string()),
                    (min..=max).contains(&n),
                    "{n}"
                );
            }
            check_range(min, max);
        }
    }

    #[test]
    fn every_integer_type_matches_exactly_near_its_bounds() {
        let ranges = [
            (i128::from(i8::MIN), i128::from(i8::MAX)),
            (i128::from(i16::MIN), i128::from(i16::MAX)),
            (i128::from(i32::MIN), i128::from(i32::MAX)),
            (i128::from(i64::MIN), i128::from(i64::MAX)),
            (0, i128::from(u8::MAX)),
            (0, i128::from(u16::MAX)),
            (0, i128::from(u32::MAX)),
            (0, i128::from(u64::MAX)),
            (1, i128::from(u64::MAX)),
            (i128::MIN + 1, i128::MAX),
        ];
        for (min, max) in ranges {
            check_range(min, max);
        }
    }

    #[test]
    fn two_ranges_leave_out_the_gap() {
        let pattern = anchored(&[(i128::from(i64::MIN), -1), (1, i128::from(i64::MAX))]);
        let regex = compile_pattern(&pattern).unwrap();
        for text in probes(i128::from(i64::MIN), i128::from(i64::MAX)) {
            let expected =
                text != "0" && canonical_in(&text, i128::from(i64::MIN), i128::from(i64::MAX));
            assert_eq!(regex.is_match(&text), expected, "{text:?}");
        }
    }

    #[test]
    fn patterns_are_short() {
        let widest = anchored(&[(0, i128::from(u64::MAX))]);
        assert_eq!(widest.len(), 334, "{widest}");
    }
}
