//! Reading the fields of a stream's events, with errors that say which
//! field of what was wrong. What an error names (`what`) is only written
//! out when there is an error: reading an event allocates nothing for it.

use crate::params::describe::{Excerpt, StrExcerpt, json_type};
use crate::providers::diagnostic::{AdapterError, AdapterErrorKind};
use serde_json::Value;
use std::fmt;

/// A part of what `outer` names: `<outer>'s <part>`, or
/// `<outer>'s <part>[<position>]` for an item of a list.
pub(crate) struct Within<'a> {
    pub(crate) outer: &'a dyn fmt::Display,
    pub(crate) part: &'static str,
    pub(crate) position: Option<usize>,
}

impl fmt::Display for Within<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{}'s {}", self.outer, self.part)?;
        match self.position {
            Some(position) => write!(out, "[{position}]"),
            None => Ok(()),
        }
    }
}

/// The value at `key` of an object. An event's objects have a handful of
/// keys: comparing each is cheaper than hashing the key, and an event is
/// read a few times per character streamed.
pub(crate) fn field<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(entries) if entries.len() <= 16 => entries
            .iter()
            .find_map(|(name, value)| (name == key).then_some(value)),
        _ => value.get(key),
    }
}

/// The non-negative integer at `key` (an index); `what` names the event.
pub(crate) fn index(
    value: &Value,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<usize, AdapterError> {
    match field(value, key) {
        Some(Value::Number(number)) => number
            .as_u64()
            .and_then(|index| usize::try_from(index).ok())
            .ok_or_else(|| {
                AdapterError::new(
                    AdapterErrorKind::WrongShape,
                    format!("{what}: `{key}` must be a non-negative integer, not {number}"),
                )
            }),
        Some(other) => Err(AdapterError::new(
            AdapterErrorKind::WrongShape,
            format!(
                "{what}: `{key}` must be a non-negative integer, not {}",
                json_type(other)
            ),
        )),
        None => Err(missing(what, key)),
    }
}

/// The string at `key`.
pub(crate) fn string<'a>(
    value: &'a Value,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<&'a str, AdapterError> {
    optional_string(value, key, what)?.ok_or_else(|| missing(what, key))
}

/// The string at `key`, or `None` when it is missing or `null`.
pub(crate) fn optional_string<'a>(
    value: &'a Value,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<Option<&'a str>, AdapterError> {
    optional(value, key, what, "a string", Value::as_str)
}

/// The object at `key`.
pub(crate) fn object<'a>(
    value: &'a Value,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<&'a Value, AdapterError> {
    optional_object(value, key, what)?.ok_or_else(|| missing(what, key))
}

/// The object at `key`, or `None` when it is missing or `null`.
pub(crate) fn optional_object<'a>(
    value: &'a Value,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<Option<&'a Value>, AdapterError> {
    optional(value, key, what, "an object", |object| {
        object.is_object().then_some(object)
    })
}

/// The value at `key` as `read` takes it, `None` when it is missing or
/// `null`, and an error naming `kind` when it is of another type.
fn optional<'a, T>(
    value: &'a Value,
    key: &str,
    what: &dyn fmt::Display,
    kind: &str,
    read: impl FnOnce(&'a Value) -> Option<T>,
) -> Result<Option<T>, AdapterError> {
    match field(value, key) {
        None | Some(Value::Null) => Ok(None),
        Some(found) => read(found).map(Some).ok_or_else(|| {
            AdapterError::new(
                AdapterErrorKind::WrongShape,
                format!("{what}: `{key}` must be {kind}, not {}", json_type(found)),
            )
        }),
    }
}

/// An event's `type` (`what`: "a Messages stream event").
pub(crate) fn event_type<'a>(event: &'a Value, what: &str) -> Result<&'a str, AdapterError> {
    if !event.is_object() {
        return Err(AdapterError::new(
            AdapterErrorKind::WrongShape,
            format!("{what}: must be an object, not {}", json_type(event)),
        ));
    }
    string(event, "type", &what)
}

/// The error a stream reported in place of what it was sending:
/// Anthropic's `{"type":"overloaded_error","message":"Overloaded"}`,
/// OpenAI's `{"code":"server_error","message":".."}` (Responses, whose
/// `type` is the event's) or `{"type":"server_error","message":".."}`.
pub(crate) fn reported(error: Option<&Value>) -> AdapterError {
    let field = |key| {
        error
            .and_then(|error| error.get(key))
            .and_then(Value::as_str)
    };
    match (field("code").or(field("type")), field("message")) {
        (Some(kind), Some(message)) => AdapterError::new(
            AdapterErrorKind::Reported,
            format!("the stream reported an error: {kind}: {message}"),
        ),
        (None, Some(message)) => AdapterError::new(
            AdapterErrorKind::Reported,
            format!("the stream reported an error: {message}"),
        ),
        _ => AdapterError::new(
            AdapterErrorKind::Reported,
            format!(
                "the stream reported an error: {}",
                error.map_or_else(|| "null".to_owned(), |error| Excerpt(error).to_string())
            ),
        ),
    }
}

/// `id` or `name` of a call that changed between two events of it.
pub(crate) fn changed(
    what: &dyn fmt::Display,
    field: &str,
    before: &str,
    after: &str,
) -> AdapterError {
    AdapterError::new(
        AdapterErrorKind::OutOfOrder,
        format!(
            "{what}: `{field}` changed from {} to {}",
            StrExcerpt(before),
            StrExcerpt(after)
        ),
    )
}

fn missing(what: &dyn fmt::Display, key: &str) -> AdapterError {
    AdapterError::new(
        AdapterErrorKind::Missing,
        format!("{what}: `{key}` is missing"),
    )
}
