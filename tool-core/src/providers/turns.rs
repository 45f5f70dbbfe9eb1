//! A whole response in, the next request's messages out: what every
//! provider's `read_calls` and `next_messages` share. A response is either
//! the provider's whole answer (`{"choices":[..]}`, `{"content":[..]}`,
//! `{"output":[..]}`, `{"candidates":[..]}`) or the one part of it that
//! holds the calls; both are taken, so code that already picked the
//! message out keeps working.

use super::diagnostic::{AdapterError, AdapterErrorKind};
use serde_json::Value;

/// The value at the first of `paths` that `response` has, else `response`
/// itself when `holds` says it is already the part wanted.
pub(crate) fn part<'a>(
    response: &'a Value,
    paths: &[&[PathStep]],
    holds: impl Fn(&Value) -> bool,
    what: &str,
) -> Result<&'a Value, AdapterError> {
    for path in paths {
        if let Some(found) = walk(response, path) {
            return Ok(found);
        }
    }
    if holds(response) {
        return Ok(response);
    }
    Err(AdapterError::new(
        AdapterErrorKind::Missing,
        format!("a response: no {what} in it"),
    ))
}

/// One step into a response: a key, or an array's first element.
#[derive(Clone, Copy)]
pub(crate) enum PathStep {
    Key(&'static str),
    First,
}

fn walk<'a>(value: &'a Value, path: &[PathStep]) -> Option<&'a Value> {
    path.iter().try_fold(value, |value, step| match step {
        PathStep::Key(key) => value.get(key),
        PathStep::First => value.get(0),
    })
}

/// The array at `key` of `part`, or an error naming it.
pub(crate) fn array<'a>(
    part: &'a Value,
    key: &str,
    what: &str,
) -> Result<&'a [Value], AdapterError> {
    match part.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(AdapterError::new(
            AdapterErrorKind::WrongShape,
            format!(
                "{what}: `{key}` must be an array, not {}",
                crate::params::describe::json_type(other)
            ),
        )),
    }
}
