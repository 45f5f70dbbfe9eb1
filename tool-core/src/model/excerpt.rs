//! A repaired value as a [`Repair`](super::Repair) keeps it: whole when its
//! JSON text is short, else the first bytes of that text and its size, so a
//! repair of 10 MB of JSON text does not put 20 MB on the result's wire.

use serde_json::Value;

/// A repair's `sent` or `used` is kept whole when its compact JSON text is
/// at most this many bytes; a longer one is cut to an excerpt of about
/// this size.
pub const MAX_REPAIR_VALUE_BYTES: usize = 256;

/// A repair's `path` longer than this many bytes is cut (ending `…`): a
/// key is the model's text, and may be as long as any value.
pub(crate) const MAX_REPAIR_PATH_BYTES: usize = 256;

/// `value` as a repair keeps it, and the byte size of its JSON text when
/// that was cut: the excerpt is a string holding the text's first bytes
/// (at most [`MAX_REPAIR_VALUE_BYTES`], cut at a character boundary).
/// The text is written once into a sink that keeps only those bytes.
pub(crate) fn excerpt(value: &Value) -> (Value, Option<u64>) {
    if is_short(value) {
        return (value.clone(), None);
    }
    let (head, total) = json_head(value, MAX_REPAIR_VALUE_BYTES);
    if total <= MAX_REPAIR_VALUE_BYTES as u64 {
        return (value.clone(), None);
    }
    (Value::String(head), Some(total))
}

/// The first `limit` bytes of `value`'s compact JSON text (cut at a
/// character boundary) and the text's whole size in bytes. The text is
/// written once into a sink that keeps only those bytes, so a 10 MB value
/// costs no allocation of its size.
pub(crate) fn json_head<T: serde::Serialize + ?Sized>(value: &T, limit: usize) -> (String, u64) {
    let mut sink = Head {
        head: Vec::with_capacity(limit.min(4096) + 4),
        total: 0,
        limit,
    };
    // The sink never fails; serializing a `Value` cannot either, nor the
    // other values written here (results' content, derived `Serialize`).
    let _ = serde_json::to_writer(&mut sink, value);
    let text = match String::from_utf8(sink.head) {
        Ok(text) => text,
        // Cut inside a character: drop its first bytes too.
        Err(error) => {
            let valid = error.utf8_error().valid_up_to();
            let mut bytes = error.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    (text, sink.total)
}

/// `path` cut to at most [`MAX_REPAIR_PATH_BYTES`] bytes and `…`.
pub(crate) fn short_path(path: String) -> String {
    cut_short(path, MAX_REPAIR_PATH_BYTES)
}

/// `text` cut to at most `max` bytes (on a character's boundary) and `…`
/// when it is longer.
pub(crate) fn cut_short(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    text
}

/// Values that cannot be long, kept without writing them: every scalar
/// but a string (a number's text is at most a few dozen bytes), and a
/// string too short to be escaped past the limit (six bytes per character
/// at most, `\u001f`, plus the quotes).
fn is_short(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
        Value::String(text) => text.len() * 6 + 2 <= MAX_REPAIR_VALUE_BYTES,
        Value::Array(items) => items.is_empty(),
        Value::Object(members) => members.is_empty(),
    }
}

/// Keeps the first `limit` bytes written and counts all.
struct Head {
    head: Vec<u8>,
    total: u64,
    limit: usize,
}

impl std::io::Write for Head {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.head.len());
        self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.total += bytes.len() as u64;
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
    fn short_values_are_kept_whole() {
        for value in [
            json!(2),
            json!("2"),
            json!({"a": [1, 2]}),
            json!("x".repeat(254)),
        ] {
            assert_eq!(excerpt(&value), (value.clone(), None));
        }
    }

    #[test]
    fn long_values_keep_the_head_of_their_text_and_its_size() {
        let value = json!({"rows": vec![1; 100_000]});
        let text = value.to_string();
        let (kept, bytes) = excerpt(&value);
        assert_eq!(bytes, Some(text.len() as u64));
        assert_eq!(
            kept,
            Value::String(text[..MAX_REPAIR_VALUE_BYTES].to_owned())
        );

        // The text is the JSON text: a string keeps its quotes and escapes.
        let (kept, bytes) = excerpt(&json!("\"".repeat(200)));
        assert_eq!(bytes, Some(402));
        assert!(kept.as_str().unwrap().starts_with("\"\\\"\\\""));
    }

    #[test]
    fn a_cut_inside_a_character_drops_it() {
        let value = json!(format!("a{}", "é".repeat(200)));
        let (kept, bytes) = excerpt(&value);
        assert_eq!(bytes, Some(2 + 1 + 400));
        // The quote and `a` are 2 bytes; 254 more hold 127 characters.
        assert_eq!(kept.as_str().unwrap().chars().count(), 2 + 127);
        let odd = json!(format!("{}", "é".repeat(200)));
        let (kept, _) = excerpt(&odd);
        assert_eq!(kept.as_str().unwrap().len(), 255);
    }

    #[test]
    fn long_paths_are_cut() {
        assert_eq!(short_path("limit".to_owned()), "limit");
        let cut = short_path("é".repeat(200));
        assert_eq!(cut.len(), MAX_REPAIR_PATH_BYTES + '…'.len_utf8());
        assert!(cut.ends_with('…'));
    }
}
