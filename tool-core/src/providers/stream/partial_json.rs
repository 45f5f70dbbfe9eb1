//! An incremental JSON reader that keeps the value read so far, updated in
//! place as pieces of text arrive.

use crate::params::MAX_JSON_DEPTH;
use serde_json::{Map, Value};

/// JSON text read piece by piece, and the best-effort value it shows so far.
///
/// Each [`push`](PartialJson::push) reads only the new piece: the value is
/// updated in place (the open containers are tracked as a path from the
/// root, so a token costs at most the nesting depth), and nothing read
/// before is read again. Reading a text in pieces of any size costs time
/// linear in its length.
///
/// What the value shows of a text cut anywhere:
///
/// - a string as far as it goes, open (an escape shows once it is whole:
///   `\u00e9` after its fourth digit, a surrogate pair once both halves
///   are in);
/// - a number once something follows it (`12` may still become `123`),
///   read by serde_json, so it equals the number of the final value;
/// - `true`, `false`, `null` once whole;
/// - an object's key once the key is closed and its value shows something;
///   arrays and objects open, with what they hold so far.
///
/// Text that cannot begin a valid JSON value (a syntax error, nesting deeper
/// than [`MAX_JSON_DEPTH`]) stops the value where it was; the text is still
/// kept whole for [`finish`](PartialJson::finish), which reads it exactly as
/// each API's `read_call` does.
///
/// ```
/// use tool_core::providers::PartialJson;
/// use serde_json::json;
///
/// let mut reader = PartialJson::new();
/// assert!(reader.push(r#"{"path": "notes/to"#));
/// assert_eq!(reader.value(), Some(&json!({"path": "notes/to"})));
/// assert!(reader.push(r#"do.md", "lines": [1, 2"#));
/// // 2 may still become 20: not shown yet.
/// assert_eq!(reader.value(), Some(&json!({"path": "notes/todo.md", "lines": [1]})));
/// assert!(reader.push("]}"));
/// assert_eq!(reader.finish(), json!({"path": "notes/todo.md", "lines": [1, 2]}));
/// ```
#[derive(Clone, Debug, Default)]
pub struct PartialJson {
    /// Every piece pushed, in order.
    text: String,
    /// The value so far; `None` until a value starts showing.
    root: Option<Value>,
    /// The open arrays and objects, outermost first. The innermost open
    /// container is reached from the root by taking the last child of each.
    open: Vec<Container>,
    state: State,
    /// The key being read, or read and waiting for its value to show.
    key: String,
    /// The number being read.
    number: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Array,
    Object,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Expecting a value: at the start, after `:`, after `,` in an array.
    #[default]
    Value,
    /// Just after `[`: a value or `]`.
    ArrayStart,
    /// Just after `{`: a key or `}`.
    ObjectStart,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// Inside a string (a key's when `key`).
    Text {
        key: bool,
    },
    /// Inside an escape of a string.
    Escape {
        key: bool,
        escape: Escape,
    },
    Number,
    /// Inside `true`, `false` or `null`, `matched` bytes in.
    Literal {
        word: Literal,
        matched: u8,
    },
    /// After a value: `,` or the container's end (or, at the root, nothing).
    AfterValue,
    /// Invalid text or too deep: the value shows no more.
    Stopped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// Just after `\`.
    Start,
    /// `\u` and `digits` hex digits of `code`; `high` is the first half of
    /// a surrogate pair when this is the second.
    Unicode {
        digits: u8,
        code: u32,
        high: Option<u32>,
    },
    /// After a high surrogate: expecting the `\` of the low one.
    LowBackslash { high: u32 },
    /// Expecting the `u` of the low surrogate.
    LowU { high: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Literal {
    True,
    False,
    Null,
}

impl Literal {
    fn word(self) -> &'static [u8] {
        match self {
            Literal::True => b"true",
            Literal::False => b"false",
            Literal::Null => b"null",
        }
    }

    fn value(self) -> Value {
        match self {
            Literal::True => Value::Bool(true),
            Literal::False => Value::Bool(false),
            Literal::Null => Value::Null,
        }
    }
}

impl PartialJson {
    /// A reader that has read nothing.
    pub fn new() -> Self {
        PartialJson::default()
    }

    /// Reads one more piece; true when the value shows more than before.
    pub fn push(&mut self, piece: &str) -> bool {
        self.text.push_str(piece);
        let mut grew = false;
        let bytes = piece.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            match self.state {
                State::Stopped => break,
                State::Text { key } => {
                    // A run of plain characters is copied at once.
                    let start = at;
                    while at < bytes.len() && !matches!(bytes[at], b'"' | b'\\' | 0..=0x1f) {
                        at += 1;
                    }
                    if at > start {
                        grew |= self.append(key, &piece[start..at]);
                    }
                    if let Some(&byte) = bytes.get(at) {
                        at += 1;
                        self.state = match byte {
                            b'"' if key => State::Colon,
                            b'"' => State::AfterValue,
                            b'\\' => State::Escape {
                                key,
                                escape: Escape::Start,
                            },
                            // A control character: JSON wants it escaped.
                            _ => State::Stopped,
                        };
                    }
                }
                _ => {
                    let (consumed, shown) = self.step(bytes[at]);
                    grew |= shown;
                    if consumed {
                        at += 1;
                    }
                }
            }
        }
        grew
    }

    /// The value shown so far; `None` before one starts.
    pub fn value(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Every piece pushed so far, as one text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The whole text read as each API's `read_call` reads `arguments`:
    /// blank text is `{}`; text that is not valid JSON is kept as a JSON
    /// string of itself, which the executor answers with a paired error
    /// naming the JSON problem (line and column); valid JSON is the value
    /// `serde_json` reads, exactly.
    pub fn finish(self) -> Value {
        if self.text.trim().is_empty() {
            return Value::Object(Map::new());
        }
        serde_json::from_str(&self.text).unwrap_or(Value::String(self.text))
    }

    /// Reads one byte outside a string's plain run: whether it was consumed
    /// (a number's end is read again as what follows it), and whether the
    /// value grew.
    fn step(&mut self, byte: u8) -> (bool, bool) {
        let is_space = matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
        match self.state {
            State::Value | State::ArrayStart if is_space => (true, false),
            State::ArrayStart if byte == b']' => {
                self.close();
                (true, false)
            }
            State::Value | State::ArrayStart => (true, self.begin_value(byte)),
            State::ObjectStart | State::Key | State::Colon | State::AfterValue if is_space => {
                (true, false)
            }
            State::ObjectStart if byte == b'}' => {
                self.close();
                (true, false)
            }
            State::ObjectStart | State::Key if byte == b'"' => {
                self.key.clear();
                self.state = State::Text { key: true };
                (true, false)
            }
            State::Colon if byte == b':' => {
                self.state = State::Value;
                (true, false)
            }
            State::AfterValue => {
                self.after_value(byte);
                (true, false)
            }
            State::Escape { key, escape } => (true, self.escape(key, escape, byte)),
            State::Number if matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') => {
                self.number.push(char::from(byte));
                (true, false)
            }
            State::Number => (false, self.end_number()),
            State::Literal { word, matched } => (true, self.literal(word, matched, byte)),
            _ => {
                self.state = State::Stopped;
                (true, false)
            }
        }
    }

    /// The first byte of a value.
    fn begin_value(&mut self, byte: u8) -> bool {
        let literal = |word| State::Literal { word, matched: 1 };
        match byte {
            b'"' => {
                self.state = State::Text { key: false };
                self.show(Value::String(String::new()))
            }
            b'{' => self.open(Container::Object, State::ObjectStart),
            b'[' => self.open(Container::Array, State::ArrayStart),
            b'-' | b'0'..=b'9' => {
                self.number.clear();
                self.number.push(char::from(byte));
                self.state = State::Number;
                false
            }
            b't' => {
                self.state = literal(Literal::True);
                false
            }
            b'f' => {
                self.state = literal(Literal::False);
                false
            }
            b'n' => {
                self.state = literal(Literal::Null);
                false
            }
            _ => {
                self.state = State::Stopped;
                false
            }
        }
    }

    /// A container opens: shown at once, empty.
    fn open(&mut self, container: Container, state: State) -> bool {
        if self.open.len() >= MAX_JSON_DEPTH {
            self.state = State::Stopped;
            return false;
        }
        let empty = match container {
            Container::Array => Value::Array(Vec::new()),
            Container::Object => Value::Object(Map::new()),
        };
        let shown = self.show(empty);
        self.open.push(container);
        self.state = state;
        shown
    }

    fn close(&mut self) {
        self.open.pop();
        self.state = State::AfterValue;
    }

    fn after_value(&mut self, byte: u8) {
        self.state = match (self.open.last(), byte) {
            (Some(Container::Array), b',') => State::Value,
            (Some(Container::Object), b',') => State::Key,
            (Some(Container::Array), b']') | (Some(Container::Object), b'}') => {
                self.close();
                return;
            }
            _ => State::Stopped,
        };
    }

    /// A number ends: read by serde_json, as the final parse reads it.
    fn end_number(&mut self) -> bool {
        match serde_json::from_str::<Value>(&self.number) {
            Ok(number @ Value::Number(_)) => {
                self.state = State::AfterValue;
                self.show(number)
            }
            _ => {
                self.state = State::Stopped;
                false
            }
        }
    }

    fn literal(&mut self, word: Literal, matched: u8, byte: u8) -> bool {
        let expected = word.word();
        if expected.get(usize::from(matched)) != Some(&byte) {
            return self.stop();
        }
        let matched = matched + 1;
        if usize::from(matched) < expected.len() {
            self.state = State::Literal { word, matched };
            return false;
        }
        self.state = State::AfterValue;
        self.show(word.value())
    }

    fn escape(&mut self, key: bool, escape: Escape, byte: u8) -> bool {
        let unicode = |high| Escape::Unicode {
            digits: 0,
            code: 0,
            high,
        };
        let next = match (escape, byte) {
            (Escape::Start, b'u') => unicode(None),
            (Escape::Start, _) => {
                let decoded = match byte {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    _ => return self.stop(),
                };
                return self.decoded(key, decoded);
            }
            (Escape::Unicode { digits, code, high }, _) => {
                let Some(digit) = char::from(byte).to_digit(16) else {
                    return self.stop();
                };
                let code = code * 16 + digit;
                if digits < 3 {
                    Escape::Unicode {
                        digits: digits + 1,
                        code,
                        high,
                    }
                } else {
                    return self.code_unit(key, code, high);
                }
            }
            (Escape::LowBackslash { high }, b'\\') => Escape::LowU { high },
            (Escape::LowU { high }, b'u') => unicode(Some(high)),
            _ => return self.stop(),
        };
        self.state = State::Escape { key, escape: next };
        false
    }

    /// A whole `\uXXXX`: a character, the first half of a pair (held back
    /// until the second arrives), or the second half of one. A lone half is
    /// invalid, as serde_json reads it.
    fn code_unit(&mut self, key: bool, code: u32, high: Option<u32>) -> bool {
        let decoded = match (high, code) {
            (None, 0xD800..=0xDBFF) => {
                self.state = State::Escape {
                    key,
                    escape: Escape::LowBackslash { high: code },
                };
                return false;
            }
            (Some(high), 0xDC00..=0xDFFF) => {
                char::from_u32(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
            }
            (None, 0xDC00..=0xDFFF) | (Some(_), _) => None,
            (None, _) => char::from_u32(code),
        };
        match decoded {
            Some(decoded) => self.decoded(key, decoded),
            None => self.stop(),
        }
    }

    fn decoded(&mut self, key: bool, decoded: char) -> bool {
        self.state = State::Text { key };
        self.append(key, decoded.encode_utf8(&mut [0; 4]))
    }

    fn stop(&mut self) -> bool {
        self.state = State::Stopped;
        false
    }

    /// Text of the open string: a key's is kept aside, a value's is shown.
    fn append(&mut self, key: bool, text: &str) -> bool {
        if key {
            self.key.push_str(text);
            return false;
        }
        match self.last_value() {
            Some(Value::String(open)) => {
                open.push_str(text);
                true
            }
            // Unreachable: the open string is always the last value shown.
            _ => self.stop(),
        }
    }

    /// Shows a new value where the reader is: the root, the next item of
    /// the open array, or the open object's value for the key just read.
    fn show(&mut self, value: Value) -> bool {
        if self.open.is_empty() {
            self.root = Some(value);
            return true;
        }
        let key = std::mem::take(&mut self.key);
        match innermost(&mut self.root, self.open.len()) {
            Some(Value::Array(items)) => items.push(value),
            Some(Value::Object(entries)) => {
                // A repeated key: the later value wins, as in serde_json's
                // parse. Removing the earlier one keeps the value being
                // read the last entry, where the path to it leads.
                entries.swap_remove(&key);
                entries.insert(key, value);
            }
            _ => return self.stop(),
        }
        true
    }

    /// The value shown last: the open string, when there is one.
    fn last_value(&mut self) -> Option<&mut Value> {
        if self.open.is_empty() {
            return self.root.as_mut();
        }
        innermost(&mut self.root, self.open.len()).and_then(last_child)
    }
}

/// The innermost of `depth` open containers, reached from the root through
/// the last child of each.
fn innermost(root: &mut Option<Value>, depth: usize) -> Option<&mut Value> {
    let mut container = root.as_mut()?;
    for _ in 1..depth {
        container = last_child(container)?;
    }
    Some(container)
}

/// The last item of an array, or the last entry of an object (the one
/// inserted last: the workspace's serde_json keeps insertion order,
/// `preserve_order`, which `swap_remove` above needs to compile).
fn last_child(container: &mut Value) -> Option<&mut Value> {
    match container {
        Value::Array(items) => items.last_mut(),
        Value::Object(entries) => entries.values_mut().next_back(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each prefix's value after pushing `text` one character at a time.
    fn values(text: &str) -> Vec<Option<Value>> {
        let mut reader = PartialJson::new();
        text.chars()
            .map(|c| {
                reader.push(c.encode_utf8(&mut [0; 4]));
                reader.value().cloned()
            })
            .collect()
    }

    #[test]
    fn strings_show_open_and_escapes_once_whole() {
        let shown = values(r#"{"a":"x\u00e9\n\ud83d\ude00"}"#);
        assert_eq!(shown[5], Some(json!({"a": ""})));
        assert_eq!(shown[6], Some(json!({"a": "x"})));
        // `\u00e` is not shown before its last digit.
        assert_eq!(shown[11], Some(json!({"a": "x"})));
        assert_eq!(shown[12], Some(json!({"a": "xé"})));
        assert_eq!(shown[14], Some(json!({"a": "xé\n"})));
        // The high surrogate waits for the low one.
        assert_eq!(shown[25], Some(json!({"a": "xé\n"})));
        assert_eq!(shown[26], Some(json!({"a": "xé\n😀"})));
    }

    #[test]
    fn numbers_show_once_something_follows() {
        let shown = values("[12, -0.5e3 ]");
        assert_eq!(shown[2], Some(json!([])));
        assert_eq!(shown[3], Some(json!([12])));
        assert_eq!(shown[10], Some(json!([12])));
        assert_eq!(shown[11], Some(json!([12, -500.0])));
    }

    #[test]
    fn keys_show_with_their_value() {
        let shown = values(r#"{"key": tru"#);
        assert!(shown.iter().skip(1).all(|v| v == &Some(json!({}))));
        let mut reader = PartialJson::new();
        reader.push(r#"{"key": true"#);
        assert_eq!(reader.value(), Some(&json!({"key": true})));
    }

    #[test]
    fn a_repeated_key_keeps_the_later_value() {
        let mut reader = PartialJson::new();
        reader.push(r#"{"a": 1, "b": 2, "a": "x"#);
        assert_eq!(reader.value(), Some(&json!({"a": "x", "b": 2})));
        reader.push(r#"y"}"#);
        assert_eq!(reader.value(), Some(&json!({"a": "xy", "b": 2})));
        assert_eq!(reader.finish(), json!({"a": "xy", "b": 2}));
    }

    #[test]
    fn invalid_text_stops_the_value_and_finishes_as_text() {
        let mut reader = PartialJson::new();
        reader.push(r#"{"a": [1, 2,]"#);
        assert_eq!(reader.value(), Some(&json!({"a": [1, 2]})));
        assert!(!reader.push(r#", "b": 3}"#));
        assert_eq!(reader.finish(), json!(r#"{"a": [1, 2,], "b": 3}"#));
    }

    #[test]
    fn blank_text_finishes_as_an_empty_object() {
        let mut reader = PartialJson::new();
        reader.push(" \n");
        assert_eq!(reader.value(), None);
        assert_eq!(reader.finish(), json!({}));
    }

    #[test]
    fn nesting_past_the_limit_stops_the_value() {
        let deep = "[".repeat(MAX_JSON_DEPTH + 1);
        let mut reader = PartialJson::new();
        reader.push(&deep);
        let mut depth = 0;
        let mut value = reader.value();
        while let Some(Value::Array(items)) = value {
            depth += 1;
            value = items.first();
        }
        assert_eq!(depth, MAX_JSON_DEPTH);
    }

    #[test]
    fn lone_surrogates_and_control_characters_stop_the_value() {
        for text in [
            r#"["\ud83d""#,
            r#"["\ude00"#,
            "[\"a\u{1}",
            r#"["\ud83d\u0041"#,
        ] {
            let mut reader = PartialJson::new();
            reader.push(text);
            assert!(!reader.push("b\"]"), "{text}");
        }
    }
}
