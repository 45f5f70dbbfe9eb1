//! What reading a tool call from a stream costs: arguments of 1 KB, 100 KB
//! and 1 MB streamed one character per event (one byte, but for the few
//! non-ASCII characters, which a provider's JSON events carry whole),
//! through `PartialJson` alone and through each provider's accumulator,
//! against one `serde_json::from_str::<Value>` of the whole text.
//!
//! Timed as in `interleaved.rs`: ours and the parse alternate, round after
//! round, and the median of the rounds' ratios is reported. A ratio that
//! stays the same from 1 KB to 1 MB is linear cost.
//!
//! Each accumulator's events are one template per format whose piece is
//! replaced before each push (one to five map lookups and a string copy,
//! counted in the time): building a million events up front would measure
//! memory instead. The end includes the final `serde_json::from_str` of the whole
//! text each accumulator does for the finished call.
//!
//! Usage: streaming [rounds]   (default 31; `cargo bench` runs 31)

use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_core::providers::{PartialJson, StreamEvent, anthropic, openai_chat, openai_responses};

/// Each side of a round runs for about this long (at least once).
const ROUND: Duration = Duration::from_millis(20);

const SIZES: [(&str, usize); 3] = [("1 KB", 1 << 10), ("100 KB", 100 << 10), ("1 MB", 1 << 20)];

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find(|a| a != "--bench")
        .and_then(|a| a.parse().ok())
        .unwrap_or(31);
    println!(
        "| arguments | read by | median ratio to one serde_json::from_str | ns per byte (ours, from_str) |"
    );
    println!("| --- | --- | --- | --- |");
    // ns per byte of each reader, by size: linear cost keeps it flat.
    let mut per_byte = vec![Vec::new(); READERS.len()];
    for (label, size) in SIZES {
        let text = arguments(size);
        let pieces: Vec<&str> = text
            .char_indices()
            .map(|(at, c)| &text[at..at + c.len_utf8()])
            .collect();
        let whole = serde_json::from_str::<Value>(&text).expect("valid JSON");
        for (reader, (how, stream)) in READERS.into_iter().enumerate() {
            assert_eq!(
                stream(&pieces, &text),
                whole,
                "{how} reads the arguments whole"
            );
            let ours = || black_box(stream(black_box(&pieces), &text));
            let theirs = || black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap());
            let (median, per_ours, per_theirs) = compare(rounds, ours, theirs);
            let bytes = text.len() as f64;
            let ours_per_byte = per_ours.as_nanos() as f64 / bytes;
            per_byte[reader].push(ours_per_byte);
            println!(
                "| {label} | {how} | {median:.1}x | {ours_per_byte:.1}, {:.2} |",
                per_theirs.as_nanos() as f64 / bytes,
            );
        }
    }
    println!();
    println!("| read by | ns per byte at 1 KB, 100 KB, 1 MB | 1 MB / 1 KB |");
    println!("| --- | --- | --- |");
    for ((how, _), times) in READERS.into_iter().zip(&per_byte) {
        let shown: Vec<String> = times.iter().map(|t| format!("{t:.1}")).collect();
        println!(
            "| {how} | {} | {:.2} |",
            shown.join(", "),
            times[times.len() - 1] / times[0]
        );
    }
}

/// Reads the pieces of `whole` (which only the Responses stream's `.done`
/// event repeats).
type Reader = fn(&[&str], &str) -> Value;

const READERS: [(&str, Reader); 4] = [
    ("PartialJson", partial_json),
    ("anthropic::StreamAccumulator", anthropic_stream),
    ("openai_chat::StreamAccumulator", openai_chat_stream),
    (
        "openai_responses::StreamAccumulator",
        openai_responses_stream,
    ),
];

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
fn arguments(size: usize) -> String {
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

/// The median ratio of `ours` to `theirs` over `rounds` interleaved rounds,
/// and the mean time of one run of each.
fn compare(
    rounds: usize,
    mut ours: impl FnMut() -> Value,
    mut theirs: impl FnMut() -> Value,
) -> (f64, Duration, Duration) {
    let n_ours = calibrate(&mut ours);
    let n_theirs = calibrate(&mut theirs);
    let mut ratios = Vec::with_capacity(rounds);
    let (mut total_ours, mut total_theirs) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..rounds {
        let t_ours = time(&mut ours, n_ours) / n_ours;
        let t_theirs = time(&mut theirs, n_theirs) / n_theirs;
        total_ours += t_ours;
        total_theirs += t_theirs;
        ratios.push(t_ours.as_secs_f64() / t_theirs.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    let rounds = u32::try_from(rounds.max(1)).unwrap_or(u32::MAX);
    (
        ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN),
        total_ours / rounds,
        total_theirs / rounds,
    )
}

fn time(run: &mut impl FnMut() -> Value, n: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        drop(run());
    }
    start.elapsed()
}

/// How many runs fill a round, from a short calibration.
fn calibrate(run: &mut impl FnMut() -> Value) -> u32 {
    let mut n = 1;
    loop {
        let elapsed = time(run, n);
        if elapsed >= ROUND / 4 || n >= 1 << 20 {
            let per = elapsed.as_secs_f64() / f64::from(n);
            return ((ROUND.as_secs_f64() / per) as u32).max(1);
        }
        n *= 2;
    }
}
