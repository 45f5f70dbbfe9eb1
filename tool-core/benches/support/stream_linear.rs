//! Whether reading a streamed call costs time linear in its length:
//! arguments of 1 KB, 100 KB and 1 MB streamed one character per event (one
//! byte, but for the few non-ASCII characters, which a provider's JSON
//! events carry whole), through `PartialJson` alone and through each
//! provider's accumulator, against one `serde_json::from_str::<Value>` of
//! the whole text (`support::variants`, `stream_linear_*`). A ratio that
//! stays the same from 1 KB to 1 MB is linear cost.
//!
//! Each accumulator's events are one template per format whose piece is
//! replaced before each push (one to five map lookups and a string copy,
//! counted in the time): building a million events up front would measure
//! memory instead. The end includes the final `serde_json::from_str` of the
//! whole text each accumulator does for the finished call.

use super::variants::{Variant, named};
use serde_json::{Value, json};
use std::hint::black_box;
use tool_core::providers::{PartialJson, StreamEvent, anthropic, openai_chat, openai_responses};

/// The sizes, by the name the variants use.
pub(crate) const SIZES: [(&str, usize); 3] =
    [("1kb", 1 << 10), ("100kb", 100 << 10), ("1mb", 1 << 20)];

/// Reads the pieces of `whole` (which only the Responses stream's `.done`
/// event repeats).
pub(crate) type Reader = fn(&[&str], &str) -> Value;

/// The readers, by the name the variants use; `from_str` reads the whole
/// text at once.
pub(crate) const READERS: [(&str, Reader); 5] = [
    ("from_str", from_str),
    ("partial_json", partial_json),
    ("anthropic", anthropic_stream),
    ("openai_chat", openai_chat_stream),
    ("openai_responses", openai_responses_stream),
];

fn from_str(_: &[&str], whole: &str) -> Value {
    serde_json::from_str(whole).expect("valid JSON")
}

fn partial_json(pieces: &[&str], _: &str) -> Value {
    let mut reader = PartialJson::new();
    for piece in pieces {
        black_box(reader.push(piece));
    }
    reader.finish()
}

fn anthropic_stream(pieces: &[&str], _: &str) -> Value {
    let mut stream = anthropic::StreamAccumulator::new();
    let start = json!({"type": "content_block_start", "index": 1,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_notes", "input": {}}});
    let delta = json!({"type": "content_block_delta", "index": 1,
        "delta": {"type": "input_json_delta", "partial_json": ""}});
    let stop = json!({"type": "content_block_stop", "index": 1});
    let push =
        |stream: &mut anthropic::StreamAccumulator, event: &Value| stream.push(event).unwrap();
    fn slot(event: &mut Value) -> Option<&mut Value> {
        event.get_mut("delta")?.get_mut("partial_json")
    }
    stream_through(&mut stream, push, &start, delta, slot, &stop, pieces)
}

fn openai_chat_stream(pieces: &[&str], _: &str) -> Value {
    let mut stream = openai_chat::StreamAccumulator::new();
    let start = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "type": "function", "function": {"name": "write_notes", "arguments": ""}}]}, "finish_reason": null}]});
    let delta = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": null,
        "type": null, "function": {"name": null, "arguments": ""}}]}, "finish_reason": null}]});
    let stop = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    let push =
        |stream: &mut openai_chat::StreamAccumulator, event: &Value| stream.push(event).unwrap();
    fn slot(event: &mut Value) -> Option<&mut Value> {
        event
            .get_mut("choices")?
            .get_mut(0)?
            .get_mut("delta")?
            .get_mut("tool_calls")?
            .get_mut(0)?
            .get_mut("function")?
            .get_mut("arguments")
    }
    stream_through(&mut stream, push, &start, delta, slot, &stop, pieces)
}

fn openai_responses_stream(pieces: &[&str], whole: &str) -> Value {
    let mut stream = openai_responses::StreamAccumulator::new();
    let start = json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "write_notes", "arguments": ""}});
    let delta = json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
        "output_index": 0, "delta": ""});
    // The `.done` event repeats the whole text, which the stream compares
    // with what the deltas brought.
    let stop = json!({"type": "response.function_call_arguments.done", "item_id": "fc_1",
        "output_index": 0, "arguments": whole});
    let push = |stream: &mut openai_responses::StreamAccumulator, event: &Value| {
        stream.push(event).unwrap()
    };
    fn slot(event: &mut Value) -> Option<&mut Value> {
        event.get_mut("delta")
    }
    stream_through(&mut stream, push, &start, delta, slot, &stop, pieces)
}

/// Pushes `start`, then `delta` with each piece in its `slot`, then
/// `stop`; the finished call's arguments.
fn stream_through<S>(
    stream: &mut S,
    push: impl Fn(&mut S, &Value) -> Vec<StreamEvent>,
    start: &Value,
    mut delta: Value,
    slot: fn(&mut Value) -> Option<&mut Value>,
    stop: &Value,
    pieces: &[&str],
) -> Value {
    black_box(push(stream, start));
    for piece in pieces {
        if let Some(Value::String(slot)) = slot(&mut delta) {
            slot.clear();
            slot.push_str(piece);
        }
        black_box(push(stream, &delta));
    }
    match push(stream, stop).pop() {
        Some(StreamEvent::Finished { call, .. }) => call.arguments,
        other => panic!("not finished: {other:?}"),
    }
}

/// Arguments of about `size` bytes: a path and a list of entries (strings
/// with escapes and non-ASCII characters, numbers, booleans, nesting), as a
/// note-writing tool might get them.
pub(crate) fn arguments(size: usize) -> String {
    let mut text = String::from(r#"{"path":"notes/todo.md","entries":["#);
    for id in 0.. {
        if id > 0 {
            text.push(',');
        }
        let entry = json!({
            "id": id,
            "title": format!("Entry {id}"),
            "done": id % 3 == 0,
            "score": f64::from(id) / 7.0,
            "tags": ["notes", "todo"],
            "body": "Line one\nLine \"two\" with a tab\t, é and 😀",
        });
        text.push_str(&entry.to_string());
        if text.len() + 2 >= size {
            break;
        }
    }
    text.push_str("]}");
    text
}

/// The text's characters, one piece each.
pub(crate) fn one_each(text: &str) -> Vec<&str> {
    text.char_indices()
        .map(|(at, c)| &text[at..at + c.len_utf8()])
        .collect()
}

/// `stream_linear_<size>/<reader>`: the arguments of `size` a character
/// per event through `reader`; `from_str` parses the whole text once.
pub(crate) fn variants(variants: &mut Vec<Variant>) {
    for (size, bytes) in SIZES {
        let group = format!("stream_linear_{size}");
        for (how, reader) in READERS {
            variants.push(Variant::new(named(&group, how), move || {
                let text = arguments(bytes);
                let whole: Value = serde_json::from_str(&text).expect("valid JSON");
                assert_eq!(
                    reader(&one_each(&text), &text),
                    whole,
                    "{how} reads it whole"
                );
                Box::new(move |n| {
                    let pieces = one_each(&text);
                    for _ in 0..n {
                        drop(black_box(reader(black_box(&pieces), &text)));
                    }
                })
            }));
        }
    }
}
