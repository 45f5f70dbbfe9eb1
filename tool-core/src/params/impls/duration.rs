//! `std::time::Duration`: an ISO 8601 duration string in the fixed-length
//! units, `{"type":"string","format":"duration","pattern":...}`.
//!
//! - Units: weeks, days, hours, minutes and seconds (`P2W`, `P1DT12H`,
//!   `PT90M`, `PT1H30M`), as RFC 3339 Appendix A writes them (the `format`
//!   check). A day is 86,400 seconds and a week 7 days: a `Duration` is a
//!   span of time, not a calendar step, so leap seconds and daylight saving
//!   do not enter. Years and months have no fixed length and are refused
//!   (`P1M` is one month, not one minute).
//! - Whole numbers only: the `duration` format has no fractions (the
//!   `jsonschema` crate refuses `PT1.5S`, and parse agrees with it), so a
//!   parsed `Duration` is whole seconds. `to_json` rounds a sub-second part
//!   up (`1.2 s` is written `PT2S`), so a non-zero `Duration` is never
//!   written `PT0S`; that is the one place its round trip is not exact.
//! - Size: every number has at most 13 digits (leading zeros aside),
//!   except seconds written alone (`PT…S`), which go up to
//!   18,446,744,073,709,551,615, the most a `Duration`'s seconds hold. So no
//!   duration the schema admits overflows, and every whole-second
//!   `Duration` has a form the schema admits. The `pattern` states all of
//!   this (and the unit order of the format), so a provider that drops
//!   `format` still shows the model the whole rule.
//!
//! `to_json` writes days then the time units from the first non-zero one to
//! the last (`P1DT2H0M5S`, `PT30M`, `PT0S`), and seconds alone for spans of
//! 10^13 days or more.

use super::scalars::expected;
use crate::params::Format;
use crate::params::constraints::report_format;
use crate::params::decimal_range::decimal_range;
use crate::params::describe::Excerpt;
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::time::Duration;

/// Digits a number may have, leading zeros aside, except seconds alone:
/// ten trillion days and the rest still fit a `Duration` together.
const MAX_DIGITS: usize = 13;

const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;
const WEEK: u64 = 7 * DAY;

/// The schema's `pattern`: exactly the strings [`read`] accepts.
fn pattern() -> String {
    let n = format!("0*[0-9]{{1,{MAX_DIGITS}}}");
    let lone_seconds = format!("0*(?:{})", decimal_range(0, i128::from(u64::MAX)));
    // Consecutive time units, at least one: H[M[S]], M[S], S.
    let time = |seconds: &str| format!("{n}H(?:{n}M(?:{n}S)?)?|{n}M(?:{n}S)?|{seconds}S");
    format!(
        "^P(?:{n}W|{n}D(?:T(?:{}))?|T(?:{}))$",
        time(&n),
        time(&lone_seconds)
    )
}

/// Why a string in the `duration` format is not a `Duration`.
enum Refusal {
    /// A year or month unit.
    Calendar,
    /// A number past its limit.
    TooLarge,
}

/// The whole seconds of a string in the `duration` format, or why it is
/// none.
fn read(text: &str) -> Result<u64, Refusal> {
    // The format check passed: `P`, then components `<digits><unit>`, with
    // at most one `T` between the date and time units.
    let body = &text[1..];
    let (date, time) = body.split_once('T').unwrap_or((body, ""));
    let lone_seconds = date.is_empty() && is_one_component(time, b'S');
    let mut total: u64 = 0;
    for (part, in_time) in [(date, false), (time, true)] {
        let mut rest = part;
        while !rest.is_empty() {
            let length = rest.bytes().take_while(u8::is_ascii_digit).count();
            let (digits, tail) = rest.split_at(length);
            let Some(&unit) = tail.as_bytes().first() else {
                break;
            };
            rest = &tail[1..];
            let unit_seconds = match (unit, in_time) {
                (b'W', false) => WEEK,
                (b'D', false) => DAY,
                (b'H', true) => HOUR,
                (b'M', true) => MINUTE,
                (b'S', true) => 1,
                _ => return Err(Refusal::Calendar),
            };
            let significant = digits.trim_start_matches('0');
            if significant.len() > MAX_DIGITS && !lone_seconds {
                return Err(Refusal::TooLarge);
            }
            let number: u64 = if significant.is_empty() {
                0
            } else {
                significant.parse().map_err(|_| Refusal::TooLarge)?
            };
            // Within the limits this cannot overflow; checked all the same.
            total = number
                .checked_mul(unit_seconds)
                .and_then(|seconds| total.checked_add(seconds))
                .ok_or(Refusal::TooLarge)?;
        }
    }
    Ok(total)
}

/// Whether `part` is one component `<digits><unit>`.
fn is_one_component(part: &str, unit: u8) -> bool {
    part.as_bytes().split_last().is_some_and(|(&last, digits)| {
        last == unit && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
    })
}

/// The canonical form of `seconds` (see the module comment).
fn write(seconds: u64) -> String {
    let days = seconds / DAY;
    if days >= 10u64.pow(MAX_DIGITS as u32) {
        return format!("PT{seconds}S");
    }
    let parts = [
        (seconds % DAY / HOUR, 'H'),
        (seconds % HOUR / MINUTE, 'M'),
        (seconds % MINUTE, 'S'),
    ];
    let mut text = String::from("P");
    if days > 0 {
        text.push_str(&format!("{days}D"));
    }
    let first = parts.iter().position(|&(n, _)| n > 0);
    let last = parts.iter().rposition(|&(n, _)| n > 0);
    match (first, last) {
        (Some(first), Some(last)) => {
            text.push('T');
            for &(n, unit) in &parts[first..=last] {
                text.push_str(&format!("{n}{unit}"));
            }
        }
        _ if days == 0 => text.push_str("T0S"),
        _ => {}
    }
    text
}

impl ParamValue for Duration {
    fn schema() -> Value {
        json!({"type": "string", "format": "duration", "pattern": pattern()})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let Value::String(text) = value else {
            return expected(path, "string", value, errors);
        };
        if !Format::Duration.is_valid(text) {
            report_format(Format::Duration, value, path, errors);
            return None;
        }
        match read(text) {
            Ok(seconds) => Some(Duration::from_secs(seconds)),
            Err(Refusal::Calendar) => {
                errors.push(
                    path,
                    format_args!(
                        "expected a duration in weeks, days, hours, minutes and seconds such as \"P1DT2H\", got {}: years and months have no fixed length",
                        Excerpt(value)
                    ),
                );
                None
            }
            Err(Refusal::TooLarge) => {
                errors.push(
                    path,
                    format_args!(
                        "expected a duration whose numbers have at most {MAX_DIGITS} digits (seconds alone at most {}), got {}",
                        u64::MAX,
                        Excerpt(value)
                    ),
                );
                None
            }
        }
    }

    /// Whole seconds, a sub-second part rounded up (see the module
    /// comment); `Duration::MAX`, whose seconds are already `u64::MAX`, is
    /// written as those.
    fn to_json(&self) -> Value {
        let seconds = self
            .as_secs()
            .saturating_add(u64::from(self.subsec_nanos() > 0));
        Value::String(write(seconds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Duration, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("wait");
        Duration::parse_value(&json!(text), &path, &mut errors)
            .ok_or_else(|| errors.into_error().to_string())
    }

    fn regex() -> regex::Regex {
        let source = pattern();
        let translated = jsonschema_regex::to_rust_regex(&source).unwrap();
        regex::Regex::new(&translated).unwrap()
    }

    #[test]
    fn reads_the_fixed_units() {
        let cases = [
            ("PT0S", 0),
            ("P0D", 0),
            ("PT1S", 1),
            ("PT90M", 90 * 60),
            ("PT1H30M", 5400),
            ("PT36H", 36 * 3600),
            ("P1DT2H", 93_600),
            ("P2W", 14 * 86_400),
            ("P1DT1H1M1S", 90_061),
            ("P01D", 86_400),
            ("PT0001M", 60),
            (
                "P9999999999999DT23H59M59S",
                9_999_999_999_999 * 86_400 + 86_399,
            ),
            ("PT18446744073709551615S", u64::MAX),
            ("PT00018446744073709551615S", u64::MAX),
        ];
        for (text, seconds) in cases {
            assert_eq!(parse(text), Ok(Duration::from_secs(seconds)), "{text}");
        }
    }

    #[test]
    fn refuses_calendar_units_fractions_and_overflow() {
        assert_eq!(
            parse("P1M").unwrap_err(),
            "wait: expected a duration in weeks, days, hours, minutes and seconds such as \"P1DT2H\", got \"P1M\": years and months have no fixed length"
        );
        assert!(parse("P1Y2M3DT4H").unwrap_err().contains("no fixed length"));
        assert_eq!(
            parse("PT1.5S").unwrap_err(),
            "wait: expected duration string such as \"P1DT2H\", got \"PT1.5S\""
        );
        assert_eq!(
            parse("PT18446744073709551616S").unwrap_err(),
            "wait: expected a duration whose numbers have at most 13 digits (seconds alone at most 18446744073709551615), got \"PT18446744073709551616S\""
        );
        for too_large in [
            "P10000000000000D",
            "PT10000000000000M1S",
            "P1DT10000000000000S",
            "P10000000000000W",
            &format!("PT{}S", "9".repeat(10_000)),
        ] {
            assert!(
                parse(too_large).unwrap_err().contains("at most 13 digits"),
                "{too_large}"
            );
        }
        assert_eq!(
            parse("30").unwrap_err(),
            "wait: expected duration string such as \"P1DT2H\", got \"30\""
        );
    }

    #[test]
    fn the_pattern_is_exactly_what_parse_accepts() {
        let regex = regex();
        let mut texts: Vec<String> = [
            "",
            "P",
            "PT",
            "P1D",
            "PT1H",
            "P1W",
            "P1Y",
            "P1M",
            "P1Y2M",
            "P1M2D",
            "PT1M",
            "PT1H1S",
            "P1DT",
            "P1WT1H",
            "P1W1D",
            "PT1.5S",
            "PT1,5S",
            "p1d",
            "P1DT1H1M1S",
            "P1DT1M",
            "PT1S1M",
            "P0D",
            "PT0S",
            "P00000000000000000001D",
            "P-1D",
            "-P1D",
            "P1D ",
            "P1DT2H3M4S5S",
        ]
        .map(String::from)
        .to_vec();
        for unit in ["W", "D", "H", "M", "S"] {
            for digits in [12, 13, 14, 19, 20, 21] {
                for lead in ["1", "9"] {
                    let number = format!("{lead}{}", "0".repeat(digits - 1));
                    texts.push(format!("P{number}{unit}"));
                    texts.push(format!("PT{number}{unit}"));
                    texts.push(format!("P1DT{number}{unit}"));
                    texts.push(format!("PT1H{number}{unit}"));
                }
            }
        }
        for delta in [-2i128, -1, 0, 1, 2] {
            texts.push(format!("PT{}S", i128::from(u64::MAX) + delta));
            texts.push(format!("PT0{}S", i128::from(u64::MAX) + delta));
        }
        for text in &texts {
            let parsed = Format::Duration.is_valid(text) && read(text).is_ok();
            assert_eq!(parsed, regex.is_match(text), "{text:?}");
            assert_eq!(parsed, parse(text).is_ok(), "{text:?}");
            // The pattern alone implies the format.
            if regex.is_match(text) {
                assert!(Format::Duration.is_valid(text), "{text:?}");
            }
        }
    }

    #[test]
    fn writes_a_canonical_form_that_reads_back() {
        let regex = regex();
        let mut seconds: Vec<u64> = vec![
            0,
            1,
            59,
            60,
            61,
            3599,
            3600,
            3601,
            86_399,
            86_400,
            86_401,
            90_061,
            7 * 86_400,
            u64::MAX,
            u64::MAX - 1,
            10u64.pow(13) * DAY - 1,
            10u64.pow(13) * DAY,
        ];
        seconds.extend((0..64).map(|bit| 1u64 << bit));
        seconds.extend((0..64).map(|bit| (1u64 << bit) - 1));
        for n in seconds {
            let written = Duration::from_secs(n).to_json();
            let text = written.as_str().unwrap();
            assert!(regex.is_match(text), "{text}");
            assert_eq!(parse(text), Ok(Duration::from_secs(n)), "{text}");
        }
        assert_eq!(Duration::from_secs(90_061).to_json(), "P1DT1H1M1S");
        assert_eq!(Duration::from_secs(86_405).to_json(), "P1DT5S");
        assert_eq!(Duration::from_secs(86_400 + 7205).to_json(), "P1DT2H0M5S");
        assert_eq!(Duration::from_secs(2 * 86_400).to_json(), "P2D");
        assert_eq!(Duration::from_secs(3600).to_json(), "PT1H");
        assert_eq!(Duration::ZERO.to_json(), "PT0S");
        assert_eq!(Duration::from_millis(1200).to_json(), "PT2S");
        assert_eq!(Duration::from_nanos(1).to_json(), "PT1S");
        assert_eq!(Duration::MAX.to_json(), "PT18446744073709551615S");
    }
}
