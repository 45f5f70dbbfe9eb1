//! How a received value is named inside an error message: its JSON type and
//! a short excerpt of it (a wrong type: `got string "5"`), or the excerpt
//! alone (a wrong value: `got 0`). A model reads these messages, so an
//! excerpt is capped (a 50 MB string must not come back inside the error).

use serde_json::Value;
use std::fmt;

/// At most this many characters of a received value are echoed in a message.
pub const MAX_ECHO_CHARS: usize = 80;

/// The JSON type name of a value, as every message of tool-core says it
/// (`expected string, got number 7`, with [`Received`]); public so that
/// code reporting on the same arguments elsewhere says it the same way.
///
/// ```
/// use serde_json::json;
/// assert_eq!(tool_core::params::json_type(&json!(2.5)), "number");
/// assert_eq!(tool_core::params::json_type(&json!(null)), "null");
/// ```
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A received value as a message that expected another type names it: its
/// JSON type, then (but for `null`, which is its own value) an excerpt of
/// it, cut after [`MAX_ECHO_CHARS`] characters with a trailing `…`:
/// `expected integer, got string "5"`. Public so that code reporting on the
/// same arguments elsewhere (tool-mcp's answer to a malformed request) says
/// it the same way.
///
/// ```
/// use serde_json::json;
/// use tool_core::params::Received;
///
/// assert_eq!(Received(&json!("5")).to_string(), "string \"5\"");
/// assert_eq!(Received(&json!(7)).to_string(), "number 7");
/// assert_eq!(Received(&json!([1, 2])).to_string(), "array [1,2]");
/// assert_eq!(Received(&json!(null)).to_string(), "null");
/// let long = Received(&json!("x".repeat(1_000_000))).to_string();
/// assert!(long.starts_with("string \"xxx") && long.ends_with("x…"), "{long:.20}");
/// assert_eq!(long.chars().count(), "string ".len() + tool_core::params::MAX_ECHO_CHARS + 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Received<'a>(pub &'a Value);

impl fmt::Display for Received<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(json_type(self.0))?;
        if self.0.is_null() {
            return Ok(());
        }
        out.write_str(" ")?;
        Excerpt(self.0).fmt(out)
    }
}

/// Names as a message lists them: `"click", "type"` (each capped like
/// [`StrExcerpt`]).
pub(crate) fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| StrExcerpt(name).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Displays a value as compact JSON, cut after [`MAX_ECHO_CHARS`] characters
/// with a trailing `…`. Serialization stops at the cap, and only the head of
/// each string is read, so huge values cost no more than small ones.
pub(crate) struct Excerpt<'a>(pub &'a Value);

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_capped(out, |capped| emit(capped, self.0))
    }
}

/// Displays a string as a quoted JSON string, capped like [`Excerpt`].
pub(crate) struct StrExcerpt<'a>(pub &'a str);

impl fmt::Display for StrExcerpt<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_capped(out, |capped| emit_str(capped, self.0))
    }
}

fn write_capped(
    out: &mut fmt::Formatter<'_>,
    write: impl FnOnce(&mut CappedWriter) -> std::io::Result<()>,
) -> fmt::Result {
    let mut capped = CappedWriter {
        text: String::new(),
        chars: 0,
        truncated: false,
    };
    // The writer refuses bytes past the cap; that refusal is the only error
    // serialization can meet here, so it is not a failure.
    let _ = write(&mut capped);
    out.write_str(&capped.text)?;
    if capped.truncated {
        out.write_str("…")?;
    }
    Ok(())
}

/// Writes `value` as compact JSON, as serde_json writes it, until the
/// writer is full: each level writes a character before it descends, so
/// the descent stops within [`MAX_ECHO_CHARS`] levels however deep the
/// value is.
fn emit(capped: &mut CappedWriter, value: &Value) -> std::io::Result<()> {
    use std::io::Write;
    match value {
        Value::String(text) => emit_str(capped, text),
        Value::Array(items) => {
            capped.write_all(b"[")?;
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    capped.write_all(b",")?;
                }
                emit(capped, item)?;
            }
            capped.write_all(b"]")
        }
        Value::Object(members) => {
            capped.write_all(b"{")?;
            for (index, (key, member)) in members.iter().enumerate() {
                if index > 0 {
                    capped.write_all(b",")?;
                }
                emit_str(capped, key)?;
                capped.write_all(b":")?;
                emit(capped, member)?;
            }
            capped.write_all(b"}")
        }
        scalar => serde_json::to_writer(capped, scalar).map_err(std::io::Error::other),
    }
}

/// Writes `text` as a JSON string, reading only its head: a head of more
/// than [`MAX_ECHO_CHARS`] characters fills the writer whatever follows
/// it (escaping only lengthens it), so a 50 MB string is not scanned whole.
fn emit_str(capped: &mut CappedWriter, text: &str) -> std::io::Result<()> {
    let head = match text.char_indices().nth(MAX_ECHO_CHARS + 1) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    serde_json::to_writer(capped, head).map_err(std::io::Error::other)
}

struct CappedWriter {
    text: String,
    chars: usize,
    truncated: bool,
}

impl std::io::Write for CappedWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        // Only as many bytes as the remaining characters could take are
        // looked at. A cut inside a character is dropped.
        let room = (MAX_ECHO_CHARS - self.chars + 1) * 4;
        let window = &bytes[..bytes.len().min(room)];
        let chunk = match std::str::from_utf8(window) {
            Ok(chunk) => chunk,
            Err(error) => std::str::from_utf8(&window[..error.valid_up_to()])
                .map_err(std::io::Error::other)?,
        };
        for c in chunk.chars() {
            if self.chars == MAX_ECHO_CHARS {
                self.truncated = true;
                return Err(std::io::Error::other("excerpt is full"));
            }
            self.text.push(c);
            self.chars += 1;
        }
        if window.len() < bytes.len() {
            self.truncated = true;
            return Err(std::io::Error::other("excerpt is full"));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_values_are_echoed_whole() {
        assert_eq!(Excerpt(&json!(0)).to_string(), "0");
        assert_eq!(Excerpt(&json!("Pi")).to_string(), "\"Pi\"");
        assert_eq!(Excerpt(&json!({"a":[1,2]})).to_string(), "{\"a\":[1,2]}");
    }

    #[test]
    fn excerpts_are_what_serde_json_writes_cut_at_the_cap() {
        let long = "é\"\\\n".repeat(100);
        let values = [
            json!(null),
            json!(true),
            json!(-0.5),
            json!(18446744073709551615u64),
            json!([]),
            json!({}),
            json!({"a": [1, {"b": null}], "": "x"}),
            json!(long),
            json!([long, 2]),
            json!({ long.clone(): long }),
            json!("a".repeat(MAX_ECHO_CHARS - 2)),
            json!("a".repeat(MAX_ECHO_CHARS - 1)),
            json!("a".repeat(MAX_ECHO_CHARS)),
        ];
        for value in values {
            let whole = serde_json::to_string(&value).unwrap();
            let expected = match whole.char_indices().nth(MAX_ECHO_CHARS) {
                Some((cut, _)) => format!("{}…", &whole[..cut]),
                None => whole,
            };
            assert_eq!(Excerpt(&value).to_string(), expected);
            if let Value::String(text) = &value {
                assert_eq!(StrExcerpt(text).to_string(), expected);
            }
        }
    }

    #[test]
    fn received_values_are_named_by_type_then_quoted() {
        assert_eq!(Received(&json!("5")).to_string(), "string \"5\"");
        assert_eq!(Received(&json!(false)).to_string(), "boolean false");
        assert_eq!(Received(&json!(2.5)).to_string(), "number 2.5");
        assert_eq!(Received(&json!({"a": 1})).to_string(), "object {\"a\":1}");
        assert_eq!(Received(&json!(null)).to_string(), "null");
    }

    #[test]
    fn a_value_nested_100_000_deep_is_cut_without_descending_it() {
        let mut deep = json!(1);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        // On a small stack: the descent stops at the cap.
        let text = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn_scoped(scope, || Excerpt(&deep).to_string())
                .unwrap()
                .join()
                .unwrap()
        });
        assert_eq!(text, format!("{}…", "[".repeat(MAX_ECHO_CHARS)));
        // Dropping it would recurse 100 000 deep.
        std::mem::forget(deep);
    }

    #[test]
    fn long_values_are_cut_at_the_cap() {
        let long = "é".repeat(10_000);
        let shown = Excerpt(&Value::String(long.clone())).to_string();
        assert_eq!(shown.chars().count(), MAX_ECHO_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(StrExcerpt(&long).to_string(), shown);
    }
}
