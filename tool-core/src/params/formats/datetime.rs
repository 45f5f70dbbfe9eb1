//! `date`, `time`, `date-time` and `duration`: RFC 3339 section 5.6
//! (`full-date`, `full-time`, `date-time`) with the value limits of section
//! 5.7, and the `duration` grammar of RFC 3339 Appendix A.
//!
//! ```text
//! date-fullyear   = 4DIGIT
//! date-month      = 2DIGIT  ; 01-12
//! date-mday       = 2DIGIT  ; 01-28, 01-29, 01-30, 01-31 based on month/year
//! time-hour       = 2DIGIT  ; 00-23
//! time-minute     = 2DIGIT  ; 00-59
//! time-second     = 2DIGIT  ; 00-58, 00-59, 00-60 based on leap second rules
//! time-secfrac    = "." 1*DIGIT
//! time-numoffset  = ("+" / "-") time-hour ":" time-minute
//! time-offset     = "Z" / time-numoffset
//! partial-time    = time-hour ":" time-minute ":" time-second [time-secfrac]
//! full-date       = date-fullyear "-" date-month "-" date-mday
//! full-time       = partial-time time-offset
//! date-time       = full-date "T" full-time
//! ```
//!
//! `T` and `Z` may be lowercase (the note under section 5.6). Digits are
//! ASCII only.
//!
//! Leap seconds: section 5.7 leaves "based on leap second rules" to the
//! reader; the `jsonschema` crate (and the JSON Schema test suite) takes
//! second 60 as valid only when the time, moved to UTC by its offset, is
//! 23:59 -- a leap second is always the last second of a UTC day -- without
//! looking at the date. We do the same.

/// The value of the ASCII digits `bytes`, or `None` if any byte is not one.
/// Callers pass at most four bytes.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0, |value, &byte| {
        byte.is_ascii_digit()
            .then(|| value * 10 + u32::from(byte - b'0'))
    })
}

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// RFC 3339 section 5.7: the last day of `month` (1-12) in `year`.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `full-date`: `YYYY-MM-DD`, a day that exists in the proleptic Gregorian
/// calendar (year 0000 included, and a leap year).
pub(super) fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&bytes[..4]),
        digits(&bytes[5..7]),
        digits(&bytes[8..]),
    ) else {
        return false;
    };
    (1..=12).contains(&month) && (1..=days_in_month(year, month)).contains(&day)
}

/// `full-time`: `HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`.
pub(super) fn is_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    // `partial-time` without its fraction is exactly eight bytes.
    let Some((clock, rest)) = bytes.split_at_checked(8) else {
        return false;
    };
    if clock[2] != b':' || clock[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(&clock[..2]),
        digits(&clock[3..5]),
        digits(&clock[6..]),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let offset = match rest {
        [b'.', fraction @ ..] => {
            let length = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
            if length == 0 {
                return false;
            }
            &fraction[length..]
        }
        _ => rest,
    };
    // The offset, in minutes east of UTC.
    let east = match offset {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(hours), Some(minutes)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if hours > 23 || minutes > 59 {
                return false;
            }
            let east = i64::from(hours * 60 + minutes);
            if *sign == b'+' { east } else { -east }
        }
        _ => return false,
    };
    if second == 60 {
        // A leap second is the last second of a UTC day (see the module
        // comment): local time minus the offset must be 23:59 UTC.
        let utc = (i64::from(hour * 60 + minute) - east).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// `date-time`: a `full-date`, `T` (or `t`), a `full-time`.
pub(super) fn is_date_time(text: &str) -> bool {
    // A valid date is ten ASCII bytes, so byte 10 is a character boundary
    // whenever it is the separator.
    match text.as_bytes().get(10) {
        Some(b'T' | b't') => is_date(&text[..10]) && is_time(&text[11..]),
        _ => false,
    }
}

/// RFC 3339 Appendix A:
///
/// ```text
/// dur-second = 1*DIGIT "S"
/// dur-minute = 1*DIGIT "M" [dur-second]
/// dur-hour   = 1*DIGIT "H" [dur-minute]
/// dur-time   = "T" (dur-hour / dur-minute / dur-second)
/// dur-day    = 1*DIGIT "D"
/// dur-week   = 1*DIGIT "W"
/// dur-month  = 1*DIGIT "M" [dur-day]
/// dur-year   = 1*DIGIT "Y" [dur-month]
/// dur-date   = (dur-day / dur-month / dur-year) [dur-time]
/// duration   = "P" (dur-date / dur-time / dur-week)
/// ```
///
/// So the date part's units are a non-empty run of consecutive units of
/// `YMD` (`P1Y2D` skips `M`: invalid), the time part's of `HMS`, and a week
/// stands alone. Only uppercase designators, as the ABNF's quoted strings
/// are taken case-sensitively by `jsonschema` (RFC 5234 would make them
/// case-insensitive: `p1d` is valid ABNF; `jsonschema` rejects it, so do we).
pub(super) fn is_duration(text: &str) -> bool {
    let Some(body) = text.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match body.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (body, None),
    };
    let Some(date_units) = units(date) else {
        return false;
    };
    if date_units == "W" {
        return time.is_none();
    }
    let date_ok = date_units.is_empty() || is_run_of("YMD", &date_units);
    match time {
        None => date_ok && !date_units.is_empty(),
        Some(time) => date_ok && units(time).is_some_and(|units| is_run_of("HMS", &units)),
    }
}

/// The designators of `1*DIGIT unit` components concatenated, or `None` if
/// `text` is not a sequence of such components (a missing number, a number
/// without a designator, anything else). At most four are collected: more
/// can never be valid.
fn units(text: &str) -> Option<String> {
    let mut units = String::new();
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        let length = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (&unit, tail) = rest[length..].split_first()?;
        if length == 0
            || !matches!(unit, b'Y' | b'M' | b'W' | b'D' | b'H' | b'S')
            || units.len() == 4
        {
            return None;
        }
        units.push(char::from(unit));
        rest = tail;
    }
    Some(units)
}

/// Whether `units` is a non-empty run of consecutive designators of `order`.
fn is_run_of(order: &str, units: &str) -> bool {
    !units.is_empty() && order.contains(units)
}

#[cfg(test)]
mod tests {
    use super::{is_date, is_date_time, is_duration, is_time};

    #[test]
    fn dates() {
        for valid in [
            "2026-11-30",
            "1963-06-19",
            "0000-01-01",
            "9999-12-31",
            "2020-02-29",
            "2000-02-29",
            "0000-02-29",
            "2021-04-30",
            "2021-01-31",
        ] {
            assert!(is_date(valid), "{valid}");
        }
        for invalid in [
            "",
            "2021-02-29",
            "1900-02-29",
            "2100-02-29",
            "2021-04-31",
            "2021-13-01",
            "2021-00-10",
            "2021-01-00",
            "2021-1-01",
            "2021-01-1",
            "21-01-01",
            "+2021-01-01",
            "2021/01/01",
            "2021-01-01T",
            "2021-01-01 ",
            " 2021-01-01",
            "1963-06-1৪",
            "2020-06-3\u{0}",
            "２０２０-01-01",
        ] {
            assert!(!is_date(invalid), "{invalid}");
        }
    }

    #[test]
    fn times() {
        for valid in [
            "08:30:06Z",
            "08:30:06z",
            "23:20:50.52Z",
            "08:30:06.283185Z",
            "08:30:06+00:20",
            "08:30:06-08:00",
            "12:34:56-00:00",
            "00:00:00+23:59",
            "23:59:60Z",
            "23:59:60+00:00",
            "01:29:60+01:30",
            "23:29:60+23:30",
            "15:59:60-08:00",
            "00:29:60-23:30",
            "23:59:60.999Z",
        ] {
            assert!(is_time(valid), "{valid}");
        }
        for invalid in [
            "",
            "08:30:06",
            "12:00:00.52",
            "08:30:06.Z",
            "008:030:006Z",
            "8:3:6Z",
            "24:00:00Z",
            "00:60:00Z",
            "00:00:61Z",
            "22:59:60Z",
            "23:58:60Z",
            "23:59:60+01:00",
            "23:59:60-00:30",
            "01:02:03+24:00",
            "01:02:03+00:60",
            "01:02:03Z+00:30",
            "08:30:06 PST",
            "01:01:01,1111",
            "08:30:06+0130",
            "08:30:06+01",
            "08:30:06-8:000",
            "08:30:06Z\n",
            "08:30:06ZZ",
            "1২:00:00Z",
            "08:30:06#00:20",
            "08:30:06+01:00\u{e9}",
        ] {
            assert!(!is_time(invalid), "{invalid}");
        }
    }

    #[test]
    fn date_times() {
        for valid in [
            "2026-11-30T16:43:18Z",
            "1963-06-19t08:30:06.283185z",
            "1937-01-01T12:00:27.87+00:20",
            "1998-12-31T23:59:60Z",
            "1998-12-31T15:59:60.123-08:00",
            "2024-02-29T00:00:00+14:00",
            "1985-04-12T00:59:59.999999999999999Z",
        ] {
            assert!(is_date_time(valid), "{valid}");
        }
        for invalid in [
            "",
            "2026-11-30",
            "2026-11-30T",
            "2026-11-30 16:43:18Z",
            "2026-11-30T16:43",
            "2026-11-30T16:43:18",
            "2023-02-29T00:00:00Z",
            "1990-12-31T15:59:59-24:00",
            "1963-06-19T08:30:06.28123+01:00Z",
            "06/19/1963 08:30:06 PST",
            "2013-350T01:01:01",
            "1963-6-19T08:30:06.283185Z",
            "1963-06-1৪T00:00:00Z",
            "+11963-06-19T08:30:06.283185Z",
            "2026-11-30TT16:43:18Z",
            "2026-11-30é16:43:18Z",
        ] {
            assert!(!is_date_time(invalid), "{invalid}");
        }
    }

    #[test]
    fn durations() {
        for valid in [
            "P1DT2H",
            "P4DT12H30M5S",
            "P4Y",
            "P1Y2M",
            "P1Y2M3D",
            "P1M2D",
            "P0D",
            "PT0S",
            "PT1M",
            "PT36H",
            "PT1H30M",
            "PT1M2S",
            "P1Y2M3DT4H5M6S",
            "P2W",
            "P01D",
            "P999999999999999999999999999999D",
        ] {
            assert!(is_duration(valid), "{valid}");
        }
        for invalid in [
            "",
            "P",
            "PT",
            "P1YT",
            "T1H",
            "4DT12H30M5S",
            "PT1D",
            "P2D1Y",
            "P1D2H",
            "P2S",
            "P1Y2D",
            "PT1H2S",
            "P1Y2W",
            "P1WT1H",
            "P0Y1W",
            "P1W1D",
            "P1",
            "PT0.5S",
            "PT0,5S",
            "P-1D",
            "-P1D",
            "P1e2D",
            "p1d",
            "P1d",
            "P1D ",
            " P1D",
            "P1DT1HT1M",
            "P1Y1Y",
            "PT1S1S",
            "P1D1D1D1D1D",
            "P২Y",
            "PD",
            "PTS",
        ] {
            assert!(!is_duration(invalid), "{invalid}");
        }
    }
}
