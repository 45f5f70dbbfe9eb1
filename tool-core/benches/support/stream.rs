//! A tool call streamed as each provider sends it, as the event lines a
//! client receives (the `data:` of each server-sent event), for the
//! streaming variants (`support::variants`, `stream_*`).
//!
//! The floor a client pays whatever it does with the events is parsing
//! them from their text. Two floors are measured: `serde_json::from_str`
//! into a `serde_json::Value` (what a client that reads events generically
//! does, and what our accumulators take), and serde's derive into borrowed
//! structs of the fields a client needs (what a client written for one
//! format would do; cheaper: unknown fields are skipped, strings without
//! escapes are borrowed).
//!
//! The lines are the providers' own, copied from recorded streams: ids of
//! their real length, and the fields each event carries (`sequence_number`,
//! OpenAI's `obfuscation` padding, which "adds random characters to an
//! obfuscation field on streaming delta events", on by default:
//! <https://platform.openai.com/docs/api-reference/responses/create>,
//! `stream_options.include_obfuscation`).
//!
//! How many characters a provider sends per event:
//!
//! - OpenAI (Chat and Responses) sends a delta per token: the function
//!   calling guide's stream (<https://platform.openai.com/docs/guides/function-calling#streaming>)
//!   has deltas `{"`, `location`, `":"`, `Paris`, `,`, ` France`, `"}`,
//!   and "one token generally corresponds to ~4 characters of text for
//!   common English text"
//!   (<https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them>):
//!   about 4 characters.
//! - Anthropic buffers a tool's input and sends it in chunks of a few
//!   tokens (the fine-grained streaming page's example without it:
//!   `{"`, `query": "Ty`, `peScri`, `pt 5.0 5.1 `, `5.2 5`, `.3`, ...,
//!   2 to 11 characters); with fine-grained tool streaming
//!   (`eager_input_streaming`) chunks "are often longer" (the example's:
//!   37 and 24 characters):
//!   <https://docs.claude.com/en/docs/agents-and-tools/tool-use/fine-grained-tool-streaming>.
//!
//! Hence 4, 16 and 64 characters per event, and 1 as the worst case.

use super::variants::{Variant, named};
use serde::Deserialize;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::hint::black_box;
use tool_core::providers::{StreamEvent, anthropic, openai_chat, openai_responses};

/// The formats, by the name the variants use.
pub(crate) const FORMATS: [&str; 3] = ["anthropic", "openai_chat", "openai_responses"];

/// Characters per event.
pub(crate) const CHUNKS: [usize; 4] = [1, 4, 16, 64];

/// The arguments of a realistic call: a file write of about 5 KB of notes,
/// with quotes and newlines to escape and non-ASCII characters, beside a few
/// small fields.
pub(crate) fn call_arguments() -> String {
    let mut content = String::new();
    for line in 1..=60 {
        content.push_str(&format!(
            "- Item {line}: ship the \"streaming\" fix — café ☕ costs 3,50 €; see notes/{line}.md\n"
        ));
    }
    json!({"path": "docs/notes.md", "content": content, "append": false, "mode": 420}).to_string()
}

/// `text` in pieces of `size` characters (the last one shorter).
pub(crate) fn pieces(text: &str, size: usize) -> Vec<&str> {
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

/// The event lines of one call whose arguments `text` come `size`
/// characters per event, in `format`: the call's start, a delta per piece,
/// its end.
pub(crate) fn lines(format: &str, text: &str, size: usize) -> Vec<String> {
    let pieces = pieces(text, size);
    let mut events = Vec::with_capacity(pieces.len() + 3);
    match format {
        "anthropic" => {
            events.push(json!({"type": "content_block_start", "index": 1, "content_block":
                {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "write_file", "input": {}}}));
            events.extend(pieces.iter().map(|piece| {
                json!({"type": "content_block_delta", "index": 1,
                    "delta": {"type": "input_json_delta", "partial_json": piece}})
            }));
            events.push(json!({"type": "content_block_stop", "index": 1}));
        }
        "openai_chat" => {
            let chunk = |delta: Value, finish_reason: Value| {
                json!({"id": "chatcmpl-Cgx6pZPBgfLcMqfT0ILIH2mID2zWQ", "object": "chat.completion.chunk",
                    "created": 1764353027, "model": "gpt-4o-2024-08-06", "service_tier": "default",
                    "system_fingerprint": "fp_7eeb46f068",
                    "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish_reason}],
                    "obfuscation": "uSpCcO"})
            };
            events.push(chunk(
                json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0,
                    "id": "call_2Uzw0AEZQeOex2CP2TKjcLKc", "type": "function",
                    "function": {"name": "write_file", "arguments": ""}}], "refusal": null}),
                Value::Null,
            ));
            events.extend(pieces.iter().map(|piece| {
                chunk(
                    json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
                    Value::Null,
                )
            }));
            events.push(chunk(json!({}), json!("tool_calls")));
        }
        "openai_responses" => {
            let item_id = "fc_68c2b7e8f4a08190a8f3b0c2d1e4f5a60b1c2d3e4f5a6b7c";
            let item = |arguments: &str, status: &str| {
                json!({"id": item_id, "type": "function_call", "status": status, "arguments": arguments,
                    "call_id": "call_2Uzw0AEZQeOex2CP2TKjcLKc", "name": "write_file"})
            };
            events.push(
                json!({"type": "response.output_item.added", "sequence_number": 2,
                "output_index": 1, "item": item("", "in_progress")}),
            );
            events.extend(pieces.iter().enumerate().map(|(at, piece)| {
                json!({"type": "response.function_call_arguments.delta", "sequence_number": at + 3,
                    "item_id": item_id, "output_index": 1, "delta": piece, "obfuscation": "uSpCcO"})
            }));
            let next = pieces.len() + 3;
            events.push(
                json!({"type": "response.function_call_arguments.done", "sequence_number": next,
                "item_id": item_id, "output_index": 1, "arguments": text}),
            );
            events.push(
                json!({"type": "response.output_item.done", "sequence_number": next + 1,
                "output_index": 1, "item": item(text, "completed")}),
            );
        }
        other => panic!("unknown format {other}"),
    }
    events.iter().map(Value::to_string).collect()
}

// ---------------------------------------------------------------------------
// The typed floor: what a client written for one format would deserialize.
// Unknown fields are skipped; a string without escapes is borrowed.

#[derive(Deserialize)]
pub(crate) struct AnthropicEvent<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    pub index: Option<usize>,
    #[serde(borrow)]
    pub content_block: Option<AnthropicBlock<'a>>,
    #[serde(borrow)]
    pub delta: Option<AnthropicDelta<'a>>,
}

#[derive(Deserialize)]
pub(crate) struct AnthropicBlock<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(crate) struct AnthropicDelta<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub partial_json: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(crate) struct ChatChunk<'a> {
    #[serde(borrow)]
    pub choices: Vec<ChatChoice<'a>>,
}

#[derive(Deserialize)]
pub(crate) struct ChatChoice<'a> {
    pub index: usize,
    #[serde(borrow)]
    pub delta: ChatDelta<'a>,
    #[serde(borrow)]
    pub finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(crate) struct ChatDelta<'a> {
    #[serde(borrow, default)]
    pub tool_calls: Option<Vec<ChatToolCall<'a>>>,
}

#[derive(Deserialize)]
pub(crate) struct ChatToolCall<'a> {
    pub index: usize,
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub function: Option<ChatFunction<'a>>,
}

#[derive(Deserialize)]
pub(crate) struct ChatFunction<'a> {
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(crate) struct ResponsesEvent<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    pub output_index: Option<usize>,
    #[serde(borrow)]
    pub item_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub delta: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub arguments: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub item: Option<ResponsesItem<'a>>,
}

#[derive(Deserialize)]
pub(crate) struct ResponsesItem<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub arguments: Option<Cow<'a, str>>,
}

/// Deserializes one line of `format` into its typed event; the length of
/// the arguments text it carries (so the parse cannot be skipped).
pub(crate) fn typed(format: &str, line: &str) -> usize {
    let length = |text: &Option<Cow<'_, str>>| text.as_ref().map_or(0, |text| text.len());
    match format {
        "anthropic" => {
            let event: AnthropicEvent<'_> = serde_json::from_str(line).expect("an event");
            event
                .delta
                .as_ref()
                .map_or(0, |delta| length(&delta.partial_json))
        }
        "openai_chat" => {
            let chunk: ChatChunk<'_> = serde_json::from_str(line).expect("a chunk");
            chunk
                .choices
                .iter()
                .flat_map(|choice| choice.delta.tool_calls.iter().flatten())
                .filter_map(|call| call.function.as_ref())
                .map(|function| length(&function.arguments))
                .sum()
        }
        "openai_responses" => {
            let event: ResponsesEvent<'_> = serde_json::from_str(line).expect("an event");
            length(&event.delta)
        }
        other => panic!("unknown format {other}"),
    }
}

// ---------------------------------------------------------------------------
// Ours: each line parsed into a `Value`, as for the first floor, then
// pushed into the format's accumulator.

/// The accumulator of one format.
pub(crate) enum Accumulator {
    Anthropic(anthropic::StreamAccumulator),
    OpenAiChat(openai_chat::StreamAccumulator),
    OpenAiResponses(openai_responses::StreamAccumulator),
}

impl Accumulator {
    pub(crate) fn new(format: &str) -> Self {
        match format {
            "anthropic" => Accumulator::Anthropic(anthropic::StreamAccumulator::new()),
            "openai_chat" => Accumulator::OpenAiChat(openai_chat::StreamAccumulator::new()),
            "openai_responses" => {
                Accumulator::OpenAiResponses(openai_responses::StreamAccumulator::new())
            }
            other => panic!("unknown format {other}"),
        }
    }

    pub(crate) fn push(&mut self, event: &Value) -> Vec<StreamEvent> {
        match self {
            Accumulator::Anthropic(stream) => stream.push(event),
            Accumulator::OpenAiChat(stream) => stream.push(event),
            Accumulator::OpenAiResponses(stream) => stream.push(event),
        }
        .expect("a valid event")
    }
}

/// Reads the lines as a client with our accumulator does.
pub(crate) fn accumulate(format: &str, lines: &[String]) -> Vec<StreamEvent> {
    let mut stream = Accumulator::new(format);
    let mut all = Vec::new();
    for line in lines {
        let event: Value = serde_json::from_str(line).expect("an event line is JSON");
        all.extend(stream.push(&event));
    }
    all
}

/// `stream_<format>_<chunk>/<how>`: one call (`call_arguments`) streamed
/// `chunk` characters per event in `format`; one iteration reads every line
/// of it. `value` parses each line into a `serde_json::Value`, `typed`
/// into the format's borrowed structs (the two floors), `tool_core` parses
/// each into a `Value` and pushes it into the format's accumulator.
pub(crate) fn variants(variants: &mut Vec<Variant>) {
    for format in FORMATS {
        for chunk in CHUNKS {
            let group = format!("stream_{format}_{chunk}");
            let prepare = move || {
                let text = call_arguments();
                let lines = lines(format, &text, chunk);
                check(format, &lines, &text);
                lines
            };
            variants.push(Variant::new(named(&group, "value"), move || {
                let lines = prepare();
                Box::new(move |n| {
                    for _ in 0..n {
                        for line in &lines {
                            let event: Value = serde_json::from_str(black_box(line)).unwrap();
                            drop(black_box(event));
                        }
                    }
                })
            }));
            variants.push(Variant::new(named(&group, "typed"), move || {
                let lines = prepare();
                Box::new(move |n| {
                    for _ in 0..n {
                        for line in &lines {
                            black_box(typed(format, black_box(line)));
                        }
                    }
                })
            }));
            variants.push(Variant::new(named(&group, "tool_core"), move || {
                let lines = prepare();
                Box::new(move |n| {
                    for _ in 0..n {
                        let mut stream = Accumulator::new(format);
                        for line in &lines {
                            let event: Value = serde_json::from_str(black_box(line)).unwrap();
                            drop(black_box(stream.push(&event)));
                        }
                    }
                })
            }));
        }
    }
}

/// What the accumulator makes of the lines: the deltas are the text, and
/// the call is read from it.
fn check(format: &str, lines: &[String], text: &str) {
    let mut deltas = String::new();
    let mut finished = Vec::new();
    for event in accumulate(format, lines) {
        match event {
            StreamEvent::ArgumentsGrew { delta, .. } => deltas.push_str(&delta),
            StreamEvent::Finished { call, .. } => finished.push(call.arguments),
            StreamEvent::Started { .. } => {}
        }
    }
    assert_eq!(deltas, text, "{format}: the deltas are the text");
    let whole: Value = serde_json::from_str(text).expect("the arguments are JSON");
    assert_eq!(finished, [whole], "{format}: one call, read whole");
    let typed: usize = lines.iter().map(|line| typed(format, line)).sum();
    assert_eq!(
        typed,
        text.len(),
        "{format}: the typed events carry the text"
    );
}
