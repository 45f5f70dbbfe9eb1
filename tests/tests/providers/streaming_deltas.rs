//! The text `StreamEvent::ArgumentsGrew` carries (`delta`), through each
//! provider's events as a client gets them (JSON text, read by
//! `serde_json::from_str`, then pushed):
//!
//! - a call's deltas, concatenated, are exactly the text its `Finished`
//!   arguments are read from, wherever the text is cut: in two at every
//!   byte, in three at every pair of bytes at most 12 apart, in pieces of every size from 1
//!   to 16, and in a stream cut off before its end;
//! - each byte of the text is handed out once, so a UI that appends the
//!   deltas does work linear in the text's length (counted, not timed).
//!
//! A provider's event cannot end inside a character written raw: its
//! strings are JSON, which holds whole characters (half of a UTF-8
//! sequence is not text, and `serde_json` refuses the lone surrogate
//! escape `"\ud83d"`). So a cut at a byte inside a raw character falls at
//! the character's start, the cut the test makes there anyway; the same
//! characters written as `\u` escapes (`\u00e9`, the surrogate pair
//! `\ud83d\ude00`) are plain ASCII, and are cut at every byte.

use crate::stream_formats::{Accumulator, FORMATS, Format};
use serde_json::{Value, json};
use tool_core::ToolCall;
use tool_core::providers::StreamEvent;

/// A realistic call (a file write): raw multi-byte characters of 2, 3 and 4
/// bytes, every JSON escape (the same emoji written raw and as a
/// surrogate pair), numbers, literals, nesting.
const CALL: &str = r##"{"path":"notes/caf\u00e9 ☕.md","content":"# Menu\n\nCrème brûlée — 6,50 €\n\"Special\" 😀 or \ud83d\ude00: \\ \/ \b\f\r\t end","lines":[1,-2.5e3,30],"append":true,"overwrite":false,"meta":{"tags":["menu","€"],"owner":null}}"##;

/// The index the call has in each format's stream.
const INDEX: usize = 1;

impl Format {
    /// The event lines (each event's JSON text, as the `data:` of a
    /// server-sent event) of one call whose arguments come in `pieces`,
    /// ended as `end` says.
    fn lines(self, pieces: &[&str], end: End) -> Vec<String> {
        let mut events = vec![self.opening()];
        let (last, before) = match pieces.split_last() {
            Some((last, before)) if end == End::WithTheLastPiece => (Some(*last), before),
            _ => (None, pieces),
        };
        events.extend(before.iter().map(|piece| self.delta(piece)));
        let whole = pieces.concat();
        match (self, last) {
            (_, _) if end == End::CutOff => {}
            // The last piece and the finish_reason in one chunk.
            (Format::OpenAiChat, Some(last)) => {
                let mut chunk = self.delta(last);
                chunk["choices"][0]["finish_reason"] = json!("tool_calls");
                events.push(chunk);
            }
            // The last piece only in the `.done` events' repeat (a delta
            // lost on the way).
            (Format::OpenAiResponses, Some(_)) => events.extend(self.closing(&whole)),
            // Anthropic's stop carries no text.
            (Format::Anthropic, Some(last)) => {
                events.push(self.delta(last));
                events.extend(self.closing(&whole));
            }
            (_, None) => events.extend(self.closing(&whole)),
        }
        events.iter().map(Value::to_string).collect()
    }

    fn opening(self) -> Value {
        match self {
            Format::Anthropic => json!({"type": "content_block_start", "index": INDEX,
                "content_block": {"type": "tool_use", "id": "toolu_01", "name": "write_file", "input": {}}}),
            Format::OpenAiChat => json!({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {"role": "assistant", "content": null, "tool_calls": [
                    {"index": INDEX, "id": "call_01", "type": "function",
                     "function": {"name": "write_file", "arguments": ""}}]},
                    "logprobs": null, "finish_reason": null}]}),
            Format::OpenAiResponses => {
                json!({"type": "response.output_item.added", "sequence_number": 3,
                "output_index": INDEX, "item": {"type": "function_call", "id": "fc_01", "call_id": "call_01",
                    "name": "write_file", "arguments": "", "status": "in_progress"}})
            }
        }
    }

    fn delta(self, piece: &str) -> Value {
        match self {
            Format::Anthropic => json!({"type": "content_block_delta", "index": INDEX,
                "delta": {"type": "input_json_delta", "partial_json": piece}}),
            Format::OpenAiChat => json!({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {"tool_calls": [
                    {"index": INDEX, "function": {"arguments": piece}}]},
                    "logprobs": null, "finish_reason": null}]}),
            Format::OpenAiResponses => json!({"type": "response.function_call_arguments.delta",
                "sequence_number": 4, "item_id": "fc_01", "output_index": INDEX, "delta": piece}),
        }
    }

    fn closing(self, whole: &str) -> Vec<Value> {
        match self {
            Format::Anthropic => vec![json!({"type": "content_block_stop", "index": INDEX})],
            Format::OpenAiChat => vec![
                json!({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {}, "logprobs": null, "finish_reason": "tool_calls"}]}),
            ],
            Format::OpenAiResponses => vec![
                json!({"type": "response.function_call_arguments.done", "sequence_number": 5,
                    "item_id": "fc_01", "output_index": INDEX, "arguments": whole}),
                json!({"type": "response.output_item.done", "sequence_number": 6, "output_index": INDEX,
                    "item": {"type": "function_call", "id": "fc_01", "call_id": "call_01",
                        "name": "write_file", "arguments": whole, "status": "completed"}}),
            ],
        }
    }

    /// Reads the lines as a client does (`serde_json::from_str`), then
    /// ends the stream.
    fn read(self, lines: &[String]) -> Read {
        self.read_events(
            lines
                .iter()
                .map(|line| serde_json::from_str::<Value>(line).expect("an event line is JSON")),
        )
    }

    /// Pushes the events, then ends the stream (`finish`, for one cut
    /// off): what the call's `ArgumentsGrew`s carried, and the finished
    /// call.
    fn read_events(self, events: impl Iterator<Item = Value>) -> Read {
        let mut stream = Accumulator::new(self);
        let mut read = Read::default();
        for event in events {
            read.take(stream.push(&event).expect("a valid event"));
        }
        read.take(stream.finish());
        read
    }
}

/// How a call's stream ends.
#[derive(Clone, Copy, PartialEq, Debug)]
enum End {
    /// With its end events, after the last piece.
    AfterTheLastPiece,
    /// With its end events, the last piece in one of them where the format
    /// allows it (Chat: the chunk with `finish_reason`; Responses: the
    /// `.done` events' repeat).
    WithTheLastPiece,
    /// Without its end events (`finish()`).
    CutOff,
}

/// What a stream handed out for the call at `INDEX`.
#[derive(Default)]
struct Read {
    /// Its deltas, concatenated.
    text: String,
    /// The length of each delta, in order.
    lengths: Vec<usize>,
    finished: Vec<ToolCall>,
}

impl Read {
    fn take(&mut self, events: Vec<StreamEvent>) {
        for event in events {
            match event {
                StreamEvent::ArgumentsGrew { index, delta, .. } => {
                    assert_eq!(index, INDEX);
                    assert!(!delta.is_empty(), "an empty delta");
                    self.text.push_str(&delta);
                    self.lengths.push(delta.len());
                }
                StreamEvent::Finished { index, call } => {
                    assert_eq!(index, INDEX);
                    self.finished.push(call);
                }
                StreamEvent::Started { .. } => {}
            }
        }
    }

    /// The one finished call.
    fn call(&self) -> &ToolCall {
        let [call] = self.finished.as_slice() else {
            panic!("{} calls finished", self.finished.len());
        };
        call
    }
}

/// The arguments a call whose text is `text` has, as each `read_call` reads
/// them: blank is `{}`, text that is not JSON stays a string.
fn read_as_read_call(text: &str) -> Value {
    if text.trim().is_empty() {
        return json!({});
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// Streams `CALL` in `pieces` through `format` and checks what came out:
/// the deltas are the text, the call is read from it.
fn check(format: Format, pieces: &[&str]) {
    assert_eq!(pieces.concat(), CALL);
    for end in [End::AfterTheLastPiece, End::WithTheLastPiece] {
        let read = format.read(&format.lines(pieces, end));
        assert_eq!(read.text, CALL, "{format:?}, {end:?}, cut as {pieces:?}");
        let nonempty = pieces.iter().filter(|piece| !piece.is_empty()).count();
        assert_eq!(
            read.lengths.len(),
            nonempty,
            "{format:?}, {end:?}: one event a piece"
        );
        assert_eq!(read.call().arguments, read_as_read_call(&read.text));
    }
}

/// The byte positions of `CALL` a provider's event can end at.
fn cuts() -> Vec<usize> {
    (0..=CALL.len())
        .filter(|&at| CALL.is_char_boundary(at))
        .collect()
}

#[test]
fn the_call_holds_what_it_should() {
    let value: Value = serde_json::from_str(CALL).expect("the call is JSON");
    assert_eq!(value["path"], "notes/café ☕.md");
    assert!(
        value["content"]
            .as_str()
            .unwrap()
            .contains("😀 or 😀: \\ / ")
    );
    // Raw characters of 2, 3 and 4 bytes: cuts skip the bytes inside them.
    let widths: Vec<usize> = CALL.chars().map(char::len_utf8).collect();
    for width in 2..=4 {
        assert!(widths.contains(&width), "no raw character of {width} bytes");
    }
    assert!(cuts().len() < CALL.len() + 1);
}

#[test]
fn deltas_are_the_text_cut_in_two_at_every_byte() {
    for format in FORMATS {
        for at in cuts() {
            check(format, &[&CALL[..at], &CALL[at..]]);
        }
    }
}

/// The middle piece is at most 12 bytes long (a surrogate pair's escapes,
/// the longest token of `CALL` but for its strings' plain runs, which the
/// two-piece cuts split everywhere): a cut inside a token and the next
/// cut, in it or just past it.
#[test]
fn deltas_are_the_text_cut_in_three_at_every_pair_of_close_bytes() {
    let cuts = cuts();
    for format in FORMATS {
        for (position, &first) in cuts.iter().enumerate() {
            for &second in cuts[position..].iter().take_while(|&&at| at - first <= 12) {
                check(
                    format,
                    &[&CALL[..first], &CALL[first..second], &CALL[second..]],
                );
            }
        }
    }
}

/// `text` in pieces of `size` characters (the last one shorter).
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest
            .char_indices()
            .nth(size)
            .map_or(rest.len(), |(at, _)| at);
        pieces.push(&rest[..end]);
        rest = &rest[end..];
    }
    pieces
}

#[test]
fn deltas_are_the_text_in_pieces_of_every_size() {
    for format in FORMATS {
        for size in 1..=16 {
            check(format, &pieces(CALL, size));
        }
    }
}

#[test]
fn a_stream_cut_off_hands_out_the_text_its_call_is_read_from() {
    for format in FORMATS {
        let all = pieces(CALL, 5);
        for sent in 0..all.len() {
            let read = format.read(&format.lines(&all[..sent], End::CutOff));
            let text = all[..sent].concat();
            assert_eq!(read.text, text, "{format:?}, {sent} pieces");
            assert_eq!(read.call().arguments, read_as_read_call(&text));
        }
    }
}

/// Text of at least `length` characters: the arguments of a long file
/// write, with non-ASCII characters and escapes on every line.
fn long_call(length: usize) -> String {
    let mut content = String::new();
    let mut line = 0;
    while content.chars().count() < length {
        line += 1;
        content.push_str(&format!(
            "Line {line}: \"quoted\", tab\t, é, €, 😀, back\\slash.\n"
        ));
    }
    json!({"path": "notes/long.md", "content": content}).to_string()
}

/// The issue's case: 86k characters, one character per event. Each byte is
/// handed out once (the sum of the deltas' lengths is the text's length),
/// where re-rendering the whole partial text at every event would render
/// the sum of every prefix's length, quadratic in it.
#[test]
fn deltas_hand_out_each_byte_once_a_character_per_event() {
    let text = long_call(86_000);
    let characters = text.chars().count();
    assert!(characters >= 86_000);
    let one_each: Vec<&str> = pieces(&text, 1);
    for format in FORMATS {
        // Events made as values (their lines' text is tested above): a
        // debug build parses 86k lines slowly.
        let events = std::iter::once(format.opening())
            .chain(one_each.iter().map(|piece| format.delta(piece)))
            .chain(format.closing(&text));
        let read = format.read_events(events);
        let handed_out: usize = read.lengths.iter().sum();
        assert_eq!(handed_out, text.len(), "{format:?}");
        assert_eq!(read.lengths.len(), characters, "{format:?}");
        assert_eq!(read.call().arguments, read_as_read_call(&text));
        // What re-rendering the partial text at each event would render.
        let mut prefix = 0;
        let rerendered: usize = read
            .lengths
            .iter()
            .map(|length| {
                prefix += length;
                prefix
            })
            .sum();
        assert!(
            rerendered > 40_000 * handed_out,
            "{rerendered} vs {handed_out}"
        );
    }
}
