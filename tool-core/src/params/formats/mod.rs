//! `#[param(format = "...")]`: the string formats of JSON Schema that parse
//! enforces (format-assertion semantics), each checked as its RFC states it.

/// A string format parse enforces, named as JSON Schema's `format` keyword
/// names it.
///
/// ```
/// use tool_core::Format;
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
