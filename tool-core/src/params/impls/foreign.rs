//! Field types of other crates, each behind a `tool-core` feature named
//! after its crate: `uuid::Uuid`, `url::Url`, `chrono::DateTime<Utc>` and
//! `chrono::NaiveDate`. Each is a string in a format; the format is checked
//! first (so parse accepts no more than the schema), then the crate parses.

#[cfg(any(feature = "uuid", feature = "url", feature = "chrono"))]
use crate::{
    params::Format,
    params::constraints::report_format,
    params::impls::scalars::expected,
    params::{ParamPath, ParamValue, ParseContext},
};
#[cfg(any(feature = "uuid", feature = "url", feature = "chrono"))]
use serde_json::{Value, json};

/// The string at `value` in `format`, or a reported problem.
#[cfg(any(feature = "uuid", feature = "url", feature = "chrono"))]
fn formatted<'v>(
    value: &'v Value,
    format: Format,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<&'v str> {
    let Value::String(text) = value else {
        return expected(path, "string", value, errors);
    };
    if format.is_valid(text) {
        Some(text)
    } else {
        report_format(format, value, path, errors);
        None
    }
}

/// A string the format accepts but the crate does not (a `url::Url` follows
/// the WHATWG URL standard, stricter than RFC 3986 in places).
#[cfg(any(feature = "uuid", feature = "url", feature = "chrono"))]
#[cold]
fn refused<T>(
    what: &str,
    reason: impl std::fmt::Display,
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<T> {
    errors.push(
        path,
        format_args!(
            "expected {what}, got {}: {reason}",
            crate::params::describe::Excerpt(value)
        ),
    );
    None
}

/// `{"type":"string","format":"uuid"}`, hyphenated (RFC 4122).
#[cfg(feature = "uuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "uuid")))]
impl ParamValue for uuid::Uuid {
    fn schema() -> Value {
        json!({"type": "string", "format": "uuid"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let text = formatted(value, Format::Uuid, path, errors)?;
        match uuid::Uuid::parse_str(text) {
            Ok(uuid) => Some(uuid),
            Err(error) => refused("a uuid", error, value, path, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.hyphenated().to_string())
    }
}

/// `{"type":"string","format":"uri"}`, then parsed as a WHATWG URL.
#[cfg(feature = "url")]
#[cfg_attr(docsrs, doc(cfg(feature = "url")))]
impl ParamValue for url::Url {
    fn schema() -> Value {
        json!({"type": "string", "format": "uri"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let text = formatted(value, Format::Uri, path, errors)?;
        match url::Url::parse(text) {
            Ok(url) => Some(url),
            Err(error) => refused("a URL", error, value, path, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }
}

/// `{"type":"string","format":"date-time"}`: an RFC 3339 date-time with any
/// offset, converted to UTC.
#[cfg(feature = "chrono")]
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
impl ParamValue for chrono::DateTime<chrono::Utc> {
    fn schema() -> Value {
        json!({"type": "string", "format": "date-time"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let text = formatted(value, Format::DateTime, path, errors)?;
        match chrono::DateTime::parse_from_rfc3339(text) {
            Ok(time) => Some(time.with_timezone(&chrono::Utc)),
            Err(error) => refused("a date-time", error, value, path, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
    }
}

/// `{"type":"string","format":"date"}`: an RFC 3339 full-date.
#[cfg(feature = "chrono")]
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
impl ParamValue for chrono::NaiveDate {
    fn schema() -> Value {
        json!({"type": "string", "format": "date"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let text = formatted(value, Format::Date, path, errors)?;
        match chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            Ok(date) => Some(date),
            Err(error) => refused("a date", error, value, path, errors),
        }
    }

    fn to_json(&self) -> Value {
        Value::String(self.format("%Y-%m-%d").to_string())
    }
}
