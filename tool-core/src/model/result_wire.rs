//! How a result becomes JSON text. Its keys are constants, and escaping
//! them again for every result (serde_json checks every byte of every key it
//! is given) is most of what writing a short result costs; here the
//! constant parts are copied and only the tool's strings are escaped, byte
//! for byte as serde_json escapes them.
//!
//! Two ways in share the writer. [`ToolResultMessage::write_json`] appends
//! to the caller's buffer. `Serialize`, when the serializer is serde_json's
//! compact one over a byte vector (`to_vec`, `to_string`), writes the text
//! into a buffer kept by the thread and hands it to serde_json in one piece,
//! as serde_json writes a `RawValue`; every other serializer is given the
//! fields as serde's derive gives them (`WireResult`, beside the struct).
//! `tests/tests/providers/result_wire.rs` holds every path to the derive's output on
//! arbitrary results.

use super::message::WireResult;
use super::{Content, FailureKind, Repair, ToolResultMessage};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{Number, Value};
use std::any::TypeId;
use std::cell::RefCell;
use std::fmt;
use std::sync::OnceLock;

impl ToolResultMessage {
    /// Appends the result to `out` as one compact JSON object: the bytes
    /// `serde_json::to_vec(self)` gives, without a buffer of their own. Use
    /// it to add results to a buffer you already hold (`tool-examples call`
    /// writes its answer lines this way); for a result's text on its own,
    /// `serde_json::to_string(&result)` is as fast.
    ///
    /// ```
    /// use tool_core::{ToolCall, ToolResultMessage};
    /// use serde_json::json;
    ///
    /// let call = ToolCall::new("call-1", "echo", json!({}));
    /// let result = ToolResultMessage::failure(&call, "unknown tool");
    /// let mut line = Vec::new();
    /// result.write_json(&mut line).unwrap();
    /// assert_eq!(line, serde_json::to_vec(&result).unwrap());
    /// ```
    ///
    /// # Errors
    /// None: every part of a result has a JSON text. The `Result` is that
    /// of `serde_json::to_writer`, so either can take the other's place.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_result(out, self);
        Ok(())
    }
}

impl Serialize for ToolResultMessage {
    /// serde_json's compact serializer over a byte vector is handed the
    /// result's JSON text in one piece; any other serializer is given the
    /// fields, as serde's derive gives them.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if is_compact_json_into_vec::<S>() && raw_json_passes_through() {
            serialize_text(self, serializer)
        } else {
            WireResult::from(self).serialize(serializer)
        }
    }
}

/// Whether `S` is serde_json's compact serializer writing into a byte
/// vector: what `to_vec` and `to_string` run, and `to_writer` given a
/// `&mut Vec<u8>`. Only those are handed raw text: the pretty printer must
/// indent, `to_value` must build a `Value`, and other formats must see the
/// fields. A type id tells this serde_json's types apart from any other,
/// another copy of serde_json's included; `typeid::of` compares `S`
/// (which holds lifetimes) with its lifetimes read as `'static`, and the
/// lifetimes do not change what the serializer writes.
fn is_compact_json_into_vec<S: ?Sized>() -> bool {
    let serializer = typeid::of::<S>();
    serializer == TypeId::of::<&'static mut serde_json::Serializer<&'static mut Vec<u8>>>()
        || serializer == TypeId::of::<&'static mut serde_json::Serializer<Vec<u8>>>()
}

/// The struct name and field through which serde_json writes a string
/// verbatim: what `serde_json::value::RawValue`'s `Serialize` gives a
/// serializer. serde_json documents `RawValue`, not this name, so
/// [`raw_json_passes_through`] checks once that it still works.
const RAW_JSON: &str = "$serde_json::private::RawValue";

/// Hands `json` to a serializer as `RawValue` does: serde_json writes it
/// as it is.
fn raw_json<S: Serializer>(serializer: S, json: &str) -> Result<S::Ok, S::Error> {
    let mut raw = serializer.serialize_struct(RAW_JSON, 1)?;
    raw.serialize_field(RAW_JSON, json)?;
    raw.end()
}

/// Whether serde_json writes [`raw_json`]'s text verbatim, tried once per
/// process. If a serde_json ever stopped, results would take the derive's
/// path: slower, the same bytes.
fn raw_json_passes_through() -> bool {
    const PROBE: &str = r#"{"a":[1,"\n"]}"#;
    struct Probe;
    impl Serialize for Probe {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            raw_json(serializer, PROBE)
        }
    }
    static PASSES: OnceLock<bool> = OnceLock::new();
    *PASSES.get_or_init(|| serde_json::to_vec(&Probe).is_ok_and(|json| json == PROBE.as_bytes()))
}

/// A buffer kept above this size is freed after use, so one large result
/// does not hold its memory for the rest of the thread's life.
const KEPT_CAPACITY: usize = 64 * 1024;

thread_local! {
    /// The text of the result being serialized: kept between results, so
    /// writing one allocates nothing once the thread has written another of
    /// its size.
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Writes the result's text into the thread's buffer and hands it to
/// `serializer` (a fresh `String` when the buffer is in use or the thread
/// is ending).
fn serialize_text<S: Serializer>(
    result: &ToolResultMessage,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut serializer = Some(serializer);
    let handed = TEXT.try_with(|text| {
        let mut text = text.try_borrow_mut().ok()?;
        text.clear();
        write_result(&mut *text, result);
        let written = serializer.take().map(|s| raw_json(s, &text));
        if text.capacity() > KEPT_CAPACITY {
            *text = String::new();
        }
        written
    });
    match (handed, serializer) {
        (Ok(Some(written)), _) => written,
        (_, Some(serializer)) => {
            let mut text = String::new();
            write_result(&mut text, result);
            raw_json(serializer, &text)
        }
        (_, None) => unreachable!("the serializer is taken only to be handed the text"),
    }
}

/// Where the text goes: the caller's bytes, or a `String`. Only `&str` is
/// pushed, so a `String` is built without checking its bytes again.
trait Sink {
    fn push(&mut self, text: &str);
}

impl Sink for Vec<u8> {
    #[inline]
    fn push(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }
}

impl Sink for String {
    #[inline]
    fn push(&mut self, text: &str) {
        self.push_str(text);
    }
}

/// The result, in the derive's field order, with its optional keys left
/// out as the derive leaves them out.
fn write_result<O: Sink>(out: &mut O, result: &ToolResultMessage) {
    out.push(r#"{"role":"toolResult","toolCallId":""#);
    write_escaped(out, &result.tool_call_id);
    out.push(r#"","toolName":""#);
    write_escaped(out, &result.tool_name);
    out.push(r#"","content":["#);
    for (index, item) in result.content.iter().enumerate() {
        if index > 0 {
            out.push(",");
        }
        write_content(out, item);
    }
    out.push("]");
    if let Some(details) = &result.details {
        out.push(r#","details":"#);
        write_value(out, details);
    }
    out.push(if result.is_error {
        r#","isError":true"#
    } else {
        r#","isError":false"#
    });
    match result.failure_kind {
        // The retry kind is the default, left out (`is_retry_or_none`).
        None | Some(FailureKind::Retry) => {}
        Some(FailureKind::Fatal) => out.push(r#","failure":"fatal""#),
        Some(FailureKind::Internal) => out.push(r#","failure":"internal""#),
        Some(FailureKind::Denied) => out.push(r#","failure":"denied""#),
        Some(FailureKind::Interrupted) => out.push(r#","failure":"interrupted""#),
    }
    if !result.repairs.is_empty() {
        out.push(r#","repairs":["#);
        for (index, repair) in result.repairs.iter().enumerate() {
            if index > 0 {
                out.push(",");
            }
            write_repair(out, repair);
        }
        out.push("]");
    }
    out.push(r#","timestamp":"#);
    out.push(itoa::Buffer::new().format(result.timestamp));
    out.push("}");
}

/// A content item as its derive writes it: the `type` tag first, then the
/// fields, `None` ones left out.
fn write_content<O: Sink>(out: &mut O, item: &Content) {
    match item {
        Content::Text { text } => {
            out.push(r#"{"type":"text","text":""#);
            write_escaped(out, text);
        }
        Content::Image { data, mime_type } => {
            out.push(r#"{"type":"image","data":""#);
            write_escaped(out, data);
            out.push(r#"","mimeType":""#);
            write_escaped(out, mime_type);
        }
        Content::Audio { data, mime_type } => {
            out.push(r#"{"type":"audio","data":""#);
            write_escaped(out, data);
            out.push(r#"","mimeType":""#);
            write_escaped(out, mime_type);
        }
        Content::ResourceLink {
            uri,
            name,
            description,
            mime_type,
        } => {
            out.push(r#"{"type":"resource_link","uri":""#);
            write_escaped(out, uri);
            out.push(r#"","name":""#);
            write_escaped(out, name);
            if let Some(description) = description {
                out.push(r#"","description":""#);
                write_escaped(out, description);
            }
            if let Some(mime_type) = mime_type {
                out.push(r#"","mimeType":""#);
                write_escaped(out, mime_type);
            }
        }
        Content::Resource { resource } => {
            out.push(r#"{"type":"resource","resource":{"uri":""#);
            write_escaped(out, &resource.uri);
            let fields = [
                (r#"","mimeType":""#, &resource.mime_type),
                (r#"","text":""#, &resource.text),
                (r#"","blob":""#, &resource.blob),
            ];
            for (key, value) in fields {
                if let Some(value) = value {
                    out.push(key);
                    write_escaped(out, value);
                }
            }
            out.push(r#""}}"#);
            return;
        }
    }
    out.push(r#""}"#);
}

fn write_repair<O: Sink>(out: &mut O, repair: &Repair) {
    out.push(r#"{"path":""#);
    write_escaped(out, &repair.path);
    out.push(r#"","sent":"#);
    write_value(out, &repair.sent);
    out.push(r#","used":"#);
    write_value(out, &repair.used);
    out.push(r#","rule":""#);
    out.push(repair.rule.wire_name());
    out.push("\"");
    if let Some(bytes) = repair.sent_bytes {
        out.push(r#","sentBytes":"#);
        out.push(itoa::Buffer::new().format(bytes));
    }
    if let Some(bytes) = repair.used_bytes {
        out.push(r#","usedBytes":"#);
        out.push(itoa::Buffer::new().format(bytes));
    }
    out.push("}");
}

/// A JSON value as serde_json writes it compactly: objects in their map's
/// order (the order serde_json's `Serialize` walks them in).
fn write_value<O: Sink>(out: &mut O, value: &Value) {
    match value {
        Value::Null => out.push("null"),
        Value::Bool(true) => out.push("true"),
        Value::Bool(false) => out.push("false"),
        Value::Number(number) => write_number(out, number),
        Value::String(text) => {
            out.push("\"");
            write_escaped(out, text);
            out.push("\"");
        }
        Value::Array(items) => {
            out.push("[");
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(",");
                }
                write_value(out, item);
            }
            out.push("]");
        }
        Value::Object(entries) => {
            out.push("{");
            for (index, (key, item)) in entries.iter().enumerate() {
                out.push(if index > 0 { ",\"" } else { "\"" });
                write_escaped(out, key);
                out.push("\":");
                write_value(out, item);
            }
            out.push("}");
        }
    }
}

/// A number's text as serde_json writes it: its `Display` is the text its
/// serializer writes, with or without serde_json's `arbitrary_precision`
/// feature (which some other crate of a program may turn on).
fn write_number<O: Sink>(out: &mut O, number: &Number) {
    struct Text<'o, O>(&'o mut O);
    impl<O: Sink> fmt::Write for Text<'_, O> {
        fn write_str(&mut self, text: &str) -> fmt::Result {
            self.0.push(text);
            Ok(())
        }
    }
    // Cannot fail: the sink takes any text, and a number's `Display` only
    // writes its digits.
    let _ = fmt::write(&mut Text(out), format_args!("{number}"));
}

/// Whether a byte must be escaped in a JSON string: control characters,
/// `"` and `\`. serde_json escapes these and nothing else (DEL, `/` and
/// non-ASCII characters are written as they are).
static ESCAPED: [bool; 256] = {
    let mut escaped = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        escaped[byte] = true;
        byte += 1;
    }
    escaped[b'"' as usize] = true;
    escaped[b'\\' as usize] = true;
    escaped
};

/// The escape of each control character, as serde_json writes it: JSON's
/// short forms where it has one, else `\u00` and two lowercase hex digits.
const CONTROL: [&str; 32] = [
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007", "\\b",
    "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f", "\\u0010", "\\u0011", "\\u0012",
    "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001a",
    "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
];

/// The contents of a JSON string holding `text` (without the quotes):
/// the runs between escaped bytes copied as they are.
fn write_escaped<O: Sink>(out: &mut O, text: &str) {
    let bytes = text.as_bytes();
    // The first byte not yet written: 0, or just past an escaped (ASCII)
    // byte, so on a character boundary, as `here` is.
    let mut start = 0;
    while let Some(here) = next_escaped(bytes, start) {
        if start < here {
            out.push(&text[start..here]);
        }
        out.push(match bytes[here] {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            control => CONTROL[usize::from(control)],
        });
        start = here + 1;
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
}

/// Where the first byte from `from` on that JSON escapes is. Eight bytes
/// are looked at together, as most text has nothing to escape for long
/// stretches.
#[inline]
fn next_escaped(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(word) = bytes[at..].first_chunk::<8>() {
        let marks = escaped_marks(u64::from_le_bytes(*word));
        if marks != 0 {
            // Bytes are read little-endian: the lowest mark is the first.
            return Some(at + marks.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&byte| ESCAPED[usize::from(byte)])
        .map(|offset| at + offset)
}

/// The high bit of each byte of `word` that JSON escapes (below 0x20, `"`
/// or `\`), and maybe of bytes after the first such one, never before it.
/// `(x - 0x01..01) & !x & 0x80..80` marks a zero byte of `x`: it becomes
/// 0xff; a byte of 0x80 or more is never marked (its `!x` has the bit
/// clear), and a borrow only reaches the bytes above a marked one, which
/// is where a mark can be wrong. Subtracting 0x20 from each byte instead
/// marks a byte below 0x20 the same way; `"` and `\` are the zero bytes of
/// `x` xor that character.
#[inline]
fn escaped_marks(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGH
}

#[cfg(test)]
mod tests {
    use super::{CONTROL, is_compact_json_into_vec, raw_json_passes_through, write_escaped};
    use crate::model::{Content, FailureKind};
    use crate::model::{ToolCall, ToolResultMessage};
    use serde_json::json;

    /// `write_json`, `to_string` and the derive's shape through
    /// `to_value` agree.
    fn same_bytes(result: &ToolResultMessage) {
        let mut ours = Vec::new();
        result.write_json(&mut ours).unwrap();
        let ours = String::from_utf8(ours).unwrap();
        assert_eq!(ours, serde_json::to_string(result).unwrap());
        let derived = serde_json::to_value(result).unwrap();
        assert_eq!(ours, serde_json::to_string(&derived).unwrap());
    }

    #[test]
    fn every_optional_part_is_written_as_serde_writes_it() {
        let call = ToolCall::new("call-\"1\"\n", "é\u{1}cho", json!({}));
        let mut result = ToolResultMessage::failed(&call, "gone", FailureKind::Fatal);
        same_bytes(&result);
        for kind in [
            FailureKind::Internal,
            FailureKind::Denied,
            FailureKind::Interrupted,
        ] {
            result.failure_kind = Some(kind);
            same_bytes(&result);
        }
        result.failure_kind = Some(FailureKind::Retry);
        same_bytes(&result);
        result.details = None;
        result.is_error = false;
        result.failure_kind = None;
        result.content = vec![
            Content::text("a \"quoted\"\tline\n"),
            Content::image(b"\x89PNG", "image/png"),
            Content::text(""),
        ];
        same_bytes(&result);
        result.content.clear();
        result.details = Some(json!({"nested": [1, -2, 2.5, 1e300, null, true, {"k": "v"}]}));
        same_bytes(&result);
    }

    #[test]
    fn only_serde_json_compact_serializers_over_a_vector_are_handed_text() {
        use serde_json::ser::{PrettyFormatter, Serializer};
        // Without these two, every result would take the derive's path:
        // the same bytes, at twice the cost.
        assert!(raw_json_passes_through());
        assert!(is_compact_json_into_vec::<&mut Serializer<&mut Vec<u8>>>());
        assert!(is_compact_json_into_vec::<&mut Serializer<Vec<u8>>>());
        assert!(!is_compact_json_into_vec::<
            &mut Serializer<&mut Vec<u8>, PrettyFormatter<'_>>,
        >());
        assert!(!is_compact_json_into_vec::<
            &mut Serializer<std::io::Cursor<Vec<u8>>>,
        >());
        assert!(!is_compact_json_into_vec::<serde_json::value::Serializer>());
    }

    #[test]
    fn every_character_is_escaped_as_serde_json_escapes_it_wherever_it_is() {
        let escaped = |text: &str| {
            let mut ours = Vec::new();
            write_escaped(&mut ours, text);
            let theirs = serde_json::to_string(text).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                theirs[1..theirs.len() - 1],
                "{text:?}"
            );
        };
        // Each ASCII character and a few others, at every place of the
        // first two eight-byte words and in the tail after them, among
        // characters that are not escaped (ASCII, and two- to four-byte
        // UTF-8, whose bytes are all 0x80 or more).
        let others = ['\u{7f}', 'é', '\u{2028}', '中', '😀', '\u{80}', '\u{ff}'];
        for c in (0u8..0x80).map(char::from).chain(others) {
            for filler in ['a', 'é', '😀'] {
                for before in 0..20 {
                    let mut text: String = std::iter::repeat_n(filler, before).collect();
                    text.push(c);
                    text.push_str("tail");
                    escaped(&text);
                    text.push(c);
                    escaped(&text);
                }
            }
        }
        assert_eq!(CONTROL[0x1f], "\\u001f");
    }
}
