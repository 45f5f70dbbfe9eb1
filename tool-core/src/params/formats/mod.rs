//! `#[param(format = "...")]`: the string formats of JSON Schema that parse
//! enforces (format-assertion semantics), each checked as its RFC states it.
//!
//! One module per family: `datetime` (date, time, date-time, duration),
//! `email`, `hostname`, `ip` (ipv4, ipv6), `uri` and `uuid`. The
//! reference is the `jsonschema` crate (draft 2020-12, formats asserted):
//! where it departs from an RFC, these checks depart with it, and say so.

mod datetime;
mod email;
mod hostname;
mod ip;
mod uri;
mod uuid;

/// A string format parse enforces, named as JSON Schema's `format` keyword
/// names it.
///
/// ```
/// use tool_core::params::Format;
///
/// assert_eq!(Format::from_name("date-time"), Some(Format::DateTime));
/// assert!(Format::DateTime.is_valid("2026-11-30T16:43:18Z"));
/// assert!(!Format::DateTime.is_valid("2026-11-30 16:43"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// RFC 3339 `date-time`: `2026-11-30T16:43:18Z`.
    DateTime,
    /// RFC 3339 `full-date`: `2026-11-30`.
    Date,
    /// RFC 3339 `full-time`: `16:43:18+01:00`.
    Time,
    /// RFC 3339 Appendix A `duration`: `P1DT2H`.
    Duration,
    /// RFC 5321 `Mailbox`: `someone@example.com`.
    Email,
    /// RFC 1123 host name (with RFC 5890 A-labels): `api.example.com`.
    Hostname,
    /// RFC 2673 dotted-quad IPv4 address: `192.0.2.1`.
    Ipv4,
    /// RFC 4291 IPv6 address: `2001:db8::1`.
    Ipv6,
    /// RFC 4122 UUID, hyphenated: `123e4567-e89b-12d3-a456-426614174000`.
    Uuid,
    /// RFC 3986 absolute URI: `https://example.com/a?b#c`.
    Uri,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 10] = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::Hostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uuid,
        Format::Uri,
    ];

    /// The format's name as JSON Schema's `format` keyword spells it, e.g.
    /// `"date-time"`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
        }
    }

    /// The format [`name`](Format::name) names, or `None` for any other
    /// string. Names are case-sensitive, as JSON Schema's are.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Whether `text` is in this format.
    ///
    /// Agrees with the `jsonschema` crate (draft 2020-12, format assertion
    /// on) on every string, including where that validator departs from the
    /// RFC (each such place is commented in the format's module). Never
    /// panics, and takes time linear in `text.len()`.
    pub fn is_valid(self, text: &str) -> bool {
        match self {
            Format::DateTime => datetime::is_date_time(text),
            Format::Date => datetime::is_date(text),
            Format::Time => datetime::is_time(text),
            Format::Duration => datetime::is_duration(text),
            Format::Email => email::is_email(text),
            Format::Hostname => hostname::is_hostname(text),
            Format::Ipv4 => ip::is_ipv4(text),
            Format::Ipv6 => ip::is_ipv6(text),
            Format::Uuid => self::uuid::is_uuid(text),
            Format::Uri => uri::is_uri(text),
        }
    }

    /// A string in this format, for error messages (`expected a date-time,
    /// e.g. 2026-11-30T16:43:18Z`).
    pub const fn example(self) -> &'static str {
        match self {
            Format::DateTime => "2026-11-30T16:43:18Z",
            Format::Date => "2026-11-30",
            Format::Time => "16:43:18+01:00",
            Format::Duration => "P1DT2H",
            Format::Email => "someone@example.com",
            Format::Hostname => "api.example.com",
            Format::Ipv4 => "192.0.2.1",
            Format::Ipv6 => "2001:db8::1",
            Format::Uuid => "123e4567-e89b-12d3-a456-426614174000",
            Format::Uri => "https://example.com/a?b#c",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("Date-Time"), None);
        assert_eq!(Format::from_name("idn-email"), None);
        assert_eq!(Format::from_name(""), None);
    }

    #[test]
    fn examples_are_valid() {
        for format in Format::ALL {
            assert!(format.is_valid(format.example()), "{format:?}");
        }
    }

    #[test]
    fn empty_and_odd_strings_never_panic() {
        let odd = [
            "", "\u{0}", "é", "𝕏", "xn--", "[", "]", "@", "%", "P", "T", "::", "\u{200D}",
        ];
        for format in Format::ALL {
            for text in odd {
                let _ = format.is_valid(text);
                for (index, _) in format.example().char_indices() {
                    let mut mutated = format.example().to_owned();
                    mutated.insert_str(index, text);
                    let _ = format.is_valid(&mutated);
                }
            }
        }
    }

    #[test]
    fn huge_inputs_are_quick() {
        let huge = "9".repeat(1 << 20);
        for format in Format::ALL {
            for text in [
                huge.clone(),
                format!("{}{huge}", format.example()),
                format!("{huge}{}", format.example()),
            ] {
                let _ = format.is_valid(&text);
            }
        }
        assert!(Format::Duration.is_valid(&format!("P{huge}D")));
        assert!(Format::Time.is_valid(&format!("00:00:00.{huge}Z")));
        assert!(Format::Uri.is_valid(&format!("a:{huge}")));
    }
}
