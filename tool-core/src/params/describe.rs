//! How a received value is named inside an error message: its JSON type, or a
//! short excerpt of it. A model reads these messages, so an excerpt is capped
//! (a 50 MB string must not come back inside the error).

use serde_json::Value;
use std::fmt;

/// At most this many characters of a received value are echoed in a message.
pub const MAX_ECHO_CHARS: usize = 80;

/// The JSON type name of a value, as every message of tool-core says it
/// (`expected string, got number`); public so that code reporting on the
/// same arguments elsewhere (tool-mcp's check of a remote tool's schema)
/// says it the same way.
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
/// with a trailing `…`. Serialization stops at the cap, so huge values cost
/// no more than small ones.
pub(crate) struct Excerpt<'a>(pub &'a Value);

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_capped(out, self.0)
    }
}

/// Displays a string as a quoted JSON string, capped like [`Excerpt`].
pub(crate) struct StrExcerpt<'a>(pub &'a str);

impl fmt::Display for StrExcerpt<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_capped(out, self.0)
    }
}

fn write_capped<T: serde::Serialize + ?Sized>(
    out: &mut fmt::Formatter<'_>,
    value: &T,
) -> fmt::Result {
    let mut capped = CappedWriter {
        text: String::new(),
        chars: 0,
        truncated: false,
    };
    // The writer refuses bytes past the cap; that refusal is the only error
    // serialization can meet here, so it is not a failure.
    let _ = serde_json::to_writer(&mut capped, value);
    out.write_str(&capped.text)?;
    if capped.truncated {
        out.write_str("…")?;
    }
    Ok(())
}

struct CappedWriter {
    text: String,
    chars: usize,
    truncated: bool,
}

impl std::io::Write for CappedWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        // Only as many bytes as the remaining characters could take are
        // looked at: a 50 MB string arrives in one call, and must not be
        // scanned whole. A cut inside a character is dropped.
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
    fn long_values_are_cut_at_the_cap() {
        let long = "é".repeat(10_000);
        let shown = Excerpt(&Value::String(long.clone())).to_string();
        assert_eq!(shown.chars().count(), MAX_ECHO_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(StrExcerpt(&long).to_string(), shown);
    }
}
