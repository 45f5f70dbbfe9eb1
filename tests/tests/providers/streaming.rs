//! Golden tests of the stream accumulators (each API's `StreamAccumulator`
//! in `tool_core::providers`) on event sequences copied from each
//! provider's streaming documentation: every event each one reports, the
//! partial arguments after each, and the finished call, which runs
//! through `execute_tool_call`. Also: calls interleaved at several
//! indexes, streams cut off, arguments that are not JSON, and events of the
//! wrong shape (`AdapterError`, with its message).
//!
//! Sources (each sequence below repeats its own):
//! - Anthropic: "Streaming Messages",
//!   <https://platform.claude.com/docs/en/build-with-claude/streaming>
//!   ("Streaming request with tool use", "Streaming request with web search
//!   tool use"; the same page at docs.anthropic.com/en/docs/build-with-claude/streaming).
//! - OpenAI Chat Completions and Responses: the function calling guide,
//!   <https://platform.openai.com/docs/guides/function-calling#streaming>
//!   ("Output delta.tool_calls", "Output events").

use serde_json::{Value, json};
use tool_core::providers::{AdapterError, StreamEvent, anthropic, openai_chat, openai_responses};
use tool_core::{Content, RunOptions, ToolCall, ToolOutput, ToolRegistry, execute_tool_call, tool};

/// Get the current weather in a given location
#[tool]
async fn get_weather(location: String, unit: Option<String>) -> ToolOutput<Value> {
    let unit = unit.unwrap_or_else(|| "celsius".into());
    ToolOutput::new(vec![Content::text(format!(
        "15 degrees {unit} in {location}"
    ))])
}

async fn run(call: &ToolCall) -> (String, bool) {
    let mut tools = ToolRegistry::new();
    tools.register(GetWeatherTool).unwrap();
    let result = execute_tool_call(call, &tools, RunOptions::default()).await;
    let text = result.content[0].as_text().unwrap_or_default().to_owned();
    (text, result.is_error)
}

/// The JSON of each `data:` line of a server-sent event stream.
fn sse_data(stream: &str) -> Vec<Value> {
    stream
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// What one event did: each piece of arguments text, with the partial
/// arguments when the piece made them show more (`None` when it did not;
/// the finished call's arguments when the call finished in the same event,
/// its partial value being gone then).
#[derive(Debug, PartialEq)]
enum Seen {
    Started(usize, &'static str, &'static str),
    Grew(usize, &'static str, Option<Value>),
    Finished(usize, ToolCall),
}

fn seen(events: Vec<StreamEvent>, partial: impl Fn(usize) -> Option<Value>) -> Vec<Seen> {
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    let finished = |at: usize| {
        events.iter().find_map(|event| match event {
            StreamEvent::Finished { index, call } if *index == at => Some(call.arguments.clone()),
            _ => None,
        })
    };
    let shown = |index| {
        partial(index)
            .or_else(|| finished(index))
            .expect("grew, so it shows something")
    };
    let mut all = Vec::new();
    for event in &events {
        all.push(match event.clone() {
            StreamEvent::Started { index, id, name } => Seen::Started(index, leak(id), leak(name)),
            StreamEvent::ArgumentsGrew {
                index,
                delta,
                shows_more,
            } => Seen::Grew(index, leak(delta), shows_more.then(|| shown(index))),
            StreamEvent::Finished { index, call } => Seen::Finished(index, call),
        });
    }
    all
}

fn anthropic_all(stream: &mut anthropic::StreamAccumulator, events: &[Value]) -> Vec<Seen> {
    let mut all = Vec::new();
    for event in events {
        let events = stream.push(event).unwrap();
        all.extend(seen(events, |index| {
            stream.partial_arguments(index).cloned()
        }));
    }
    all
}

fn chat_all(stream: &mut openai_chat::StreamAccumulator, chunks: &[Value]) -> Vec<Seen> {
    let mut all = Vec::new();
    for chunk in chunks {
        let events = stream.push(chunk).unwrap();
        all.extend(seen(events, |index| {
            stream.partial_arguments(index).cloned()
        }));
    }
    all
}

fn responses_all(stream: &mut openai_responses::StreamAccumulator, events: &[Value]) -> Vec<Seen> {
    let mut all = Vec::new();
    for event in events {
        let events = stream.push(event).unwrap();
        all.extend(seen(events, |index| {
            stream.partial_arguments(index).cloned()
        }));
    }
    all
}

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

/// "Streaming request with tool use", the response, verbatim.
const ANTHROPIC_TOOL_USE: &str = r#"
event: message_start
data: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-3-haiku-20240307","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2},"content":[],"stop_reason":null}}
event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
event: ping
data: {"type": "ping"}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":","}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" let"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'s"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" check"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" the"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" weather"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" for"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" San"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" Francisco"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":","}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" CA"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":":"}}
event: content_block_stop
data: {"type":"content_block_stop","index":0}
event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\":"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"San"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" Francisc"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"o,"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" CA\""}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":", "}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"unit\": \"fah"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"renheit\"}"}}
event: content_block_stop
data: {"type":"content_block_stop","index":1}
event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}
event: message_stop
data: {"type":"message_stop"}
"#;

#[tokio::test]
async fn anthropic_documented_tool_use_stream() {
    let mut stream = anthropic::StreamAccumulator::new();
    let seen = anthropic_all(&mut stream, &sse_data(ANTHROPIC_TOOL_USE));
    let call = ToolCall::new(
        "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        "get_weather",
        json!({"location": "San Francisco, CA", "unit": "fahrenheit"}),
    );
    assert_eq!(
        seen,
        [
            Seen::Started(1, "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "get_weather"),
            Seen::Grew(1, r#"{"location":"#, Some(json!({}))),
            Seen::Grew(1, r#" "San"#, Some(json!({"location": "San"}))),
            Seen::Grew(1, " Francisc", Some(json!({"location": "San Francisc"}))),
            Seen::Grew(1, "o,", Some(json!({"location": "San Francisco,"}))),
            Seen::Grew(1, r#" CA""#, Some(json!({"location": "San Francisco, CA"}))),
            // Only a comma: nothing more to show.
            Seen::Grew(1, ", ", None),
            Seen::Grew(
                1,
                r#""unit": "fah"#,
                Some(json!({"location": "San Francisco, CA", "unit": "fah"}))
            ),
            Seen::Grew(
                1,
                r#"renheit"}"#,
                Some(json!({"location": "San Francisco, CA", "unit": "fahrenheit"}))
            ),
            Seen::Finished(1, call.clone()),
        ]
    );
    assert_eq!(
        run(&call).await,
        ("15 degrees fahrenheit in San Francisco, CA".into(), false)
    );
    assert!(stream.finish().is_empty());
}

/// "Streaming request with web search tool use", up to the search result
/// (whose block the page abbreviates with `...`): a `server_tool_use`
/// block, which Anthropic runs itself, streams `input_json_delta`s too.
const ANTHROPIC_WEB_SEARCH: &str = r#"
event: message_start
data: {"type":"message_start","message":{"id":"msg_01G...","type":"message","role":"assistant","model":"claude-3-7-sonnet-20250219","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2679,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3}}}
event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll check"}}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" the current weather in New York City for you"}}
event: ping
data: {"type": "ping"}
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"."}}
event: content_block_stop
data: {"type":"content_block_stop","index":0}
event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_014hJH82Qum7Td6UV8gDXThB","name":"web_search","input":{}}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\":"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"weather"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" NY"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"C to"}}
event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"day\"}"}}
event: content_block_stop
data: {"type":"content_block_stop","index":1 }
"#;

#[test]
fn anthropic_server_tool_use_and_text_are_not_calls() {
    let mut stream = anthropic::StreamAccumulator::new();
    assert_eq!(
        anthropic_all(&mut stream, &sse_data(ANTHROPIC_WEB_SEARCH)),
        []
    );
    assert_eq!(stream.partial_arguments(1), None);
}

#[test]
fn anthropic_parallel_tool_use_blocks() {
    let start = |index: usize, id: &str| {
        json!({"type": "content_block_start", "index": index,
               "content_block": {"type": "tool_use", "id": id, "name": "get_weather", "input": {}}})
    };
    let delta = |index: usize, piece: &str| {
        json!({"type": "content_block_delta", "index": index,
               "delta": {"type": "input_json_delta", "partial_json": piece}})
    };
    let stop = |index: usize| json!({"type": "content_block_stop", "index": index});
    let mut stream = anthropic::StreamAccumulator::new();
    let seen = anthropic_all(
        &mut stream,
        &[
            start(1, "toolu_a"),
            start(2, "toolu_b"),
            delta(2, r#"{"location": "Par"#),
            delta(1, r#"{"location": "Lon"#),
            delta(2, r#"is"}"#),
            stop(2),
            delta(1, r#"don"}"#),
            stop(1),
        ],
    );
    assert_eq!(
        seen,
        [
            Seen::Started(1, "toolu_a", "get_weather"),
            Seen::Started(2, "toolu_b", "get_weather"),
            Seen::Grew(2, r#"{"location": "Par"#, Some(json!({"location": "Par"}))),
            Seen::Grew(1, r#"{"location": "Lon"#, Some(json!({"location": "Lon"}))),
            Seen::Grew(2, r#"is"}"#, Some(json!({"location": "Paris"}))),
            Seen::Finished(
                2,
                ToolCall::new("toolu_b", "get_weather", json!({"location": "Paris"}))
            ),
            Seen::Grew(1, r#"don"}"#, Some(json!({"location": "London"}))),
            Seen::Finished(
                1,
                ToolCall::new("toolu_a", "get_weather", json!({"location": "London"}))
            ),
        ]
    );
}

#[test]
fn anthropic_input_given_whole_at_the_start_is_the_call_s() {
    let mut stream = anthropic::StreamAccumulator::new();
    let seen = anthropic_all(
        &mut stream,
        &[
            json!({"type": "content_block_start", "index": 0, "content_block":
                   {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "Oslo"}}}),
            json!({"type": "content_block_stop", "index": 0}),
        ],
    );
    let call = ToolCall::new("toolu_1", "get_weather", json!({"location": "Oslo"}));
    assert_eq!(
        seen,
        [
            Seen::Started(0, "toolu_1", "get_weather"),
            Seen::Grew(
                0,
                r#"{"location":"Oslo"}"#,
                Some(json!({"location": "Oslo"}))
            ),
            Seen::Finished(0, call),
        ]
    );
}

#[tokio::test]
async fn a_stream_cut_off_finishes_with_its_text_and_the_executor_names_the_problem() {
    let mut stream = anthropic::StreamAccumulator::new();
    let events: Vec<Value> = sse_data(ANTHROPIC_TOOL_USE)
        .into_iter()
        .take_while(|event| event["delta"]["partial_json"] != ", ")
        .collect();
    anthropic_all(&mut stream, &events);
    assert_eq!(
        stream.partial_arguments(1),
        Some(&json!({"location": "San Francisco, CA"}))
    );
    let finished = stream.finish();
    let [StreamEvent::Finished { index: 1, call }] = finished.as_slice() else {
        panic!("{finished:?}");
    };
    assert_eq!(call.arguments, json!(r#"{"location": "San Francisco, CA""#));
    assert_eq!(
        run(call).await,
        (
            "Tool get_weather failed: arguments: invalid JSON: EOF while parsing an object at line 1 column 32"
                .into(),
            true
        )
    );
    assert_eq!(stream.partial_arguments(1), None);
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------

/// "Output delta.tool_calls", verbatim: the `tool_calls` of each chunk's
/// delta (the last chunk's delta has none).
const CHAT_TOOL_CALLS: &str = r#"
[{"index": 0, "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "function": {"arguments": "", "name": "get_weather"}, "type": "function"}]
[{"index": 0, "id": null, "function": {"arguments": "{\"", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": "location", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": "\":\"", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": "Paris", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": ",", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": " France", "name": null}, "type": null}]
[{"index": 0, "id": null, "function": {"arguments": "\"}", "name": null}, "type": null}]
null
"#;

/// Each documented `tool_calls` in a whole chunk, as the API sends it; the
/// last one with the `finish_reason` a tool call ends with.
fn chat_chunks() -> Vec<Value> {
    CHAT_TOOL_CALLS
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let tool_calls: Value = serde_json::from_str(line).unwrap();
            let finish_reason = if tool_calls.is_null() {
                json!("tool_calls")
            } else {
                Value::Null
            };
            let delta = if tool_calls.is_null() {
                json!({})
            } else {
                json!({"tool_calls": tool_calls})
            };
            json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                   "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish_reason}]})
        })
        .collect()
}

/// What both documented OpenAI streams show: the call with id `id` starts,
/// its arguments grow a piece at a time to `{"location": "Paris, France"}`,
/// it finishes, and it runs.
async fn assert_paris_call_grew_and_runs(seen: Vec<Seen>, id: &'static str) {
    let call = ToolCall::new(id, "get_weather", json!({"location": "Paris, France"}));
    assert_eq!(
        seen,
        [
            Seen::Started(0, id, "get_weather"),
            Seen::Grew(0, r#"{""#, Some(json!({}))),
            // A key shows with its value.
            Seen::Grew(0, "location", None),
            Seen::Grew(0, r#"":""#, Some(json!({"location": ""}))),
            Seen::Grew(0, "Paris", Some(json!({"location": "Paris"}))),
            Seen::Grew(0, ",", Some(json!({"location": "Paris,"}))),
            Seen::Grew(0, " France", Some(json!({"location": "Paris, France"}))),
            Seen::Grew(0, r#""}"#, None),
            Seen::Finished(0, call.clone()),
        ]
    );
    assert_eq!(
        run(&call).await,
        ("15 degrees celsius in Paris, France".into(), false)
    );
}

#[tokio::test]
async fn openai_chat_documented_stream() {
    let mut stream = openai_chat::StreamAccumulator::new();
    let seen = chat_all(&mut stream, &chat_chunks());
    assert_paris_call_grew_and_runs(seen, "call_DdmO9pD3xa9XTPNJ32zg2hcA").await;
}

#[test]
fn openai_chat_calls_interleaved_by_index_finish_in_index_order() {
    let chunk = |tool_calls: Value, finish_reason: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish_reason}]});
    let args =
        |index: usize, piece: &str| json!({"index": index, "function": {"arguments": piece}});
    let first = |index: usize, id: &str| json!({"index": index, "id": id, "type": "function", "function": {"name": "get_weather", "arguments": ""}});
    let mut stream = openai_chat::StreamAccumulator::new();
    let seen = chat_all(
        &mut stream,
        &[
            chunk(json!([first(1, "call_b")]), Value::Null),
            // One chunk starts a call and continues another.
            chunk(
                json!([first(0, "call_a"), args(1, r#"{"location":"Ro"#)]),
                Value::Null,
            ),
            chunk(
                json!([args(0, r#"{"location":"Oslo"}"#), args(1, r#"me"}"#)]),
                Value::Null,
            ),
            chunk(json!([]), json!("tool_calls")),
        ],
    );
    assert_eq!(
        seen,
        [
            Seen::Started(1, "call_b", "get_weather"),
            Seen::Started(0, "call_a", "get_weather"),
            Seen::Grew(1, r#"{"location":"Ro"#, Some(json!({"location": "Ro"}))),
            Seen::Grew(
                0,
                r#"{"location":"Oslo"}"#,
                Some(json!({"location": "Oslo"}))
            ),
            Seen::Grew(1, r#"me"}"#, Some(json!({"location": "Rome"}))),
            Seen::Finished(
                0,
                ToolCall::new("call_a", "get_weather", json!({"location": "Oslo"}))
            ),
            Seen::Finished(
                1,
                ToolCall::new("call_b", "get_weather", json!({"location": "Rome"}))
            ),
        ]
    );
}

#[test]
fn openai_chat_reads_one_choice_and_finishes_at_the_end_of_the_stream() {
    let chunk = |choice: usize, tool_calls: Value| json!({"choices": [{"index": choice, "delta": {"tool_calls": tool_calls}, "finish_reason": null}]});
    let chunks = [
        chunk(
            0,
            json!([{"index": 0, "id": "call_0", "function": {"name": "get_weather", "arguments": "{}"}}]),
        ),
        chunk(
            1,
            json!([{"index": 0, "id": "call_1", "function": {"name": "get_weather", "arguments": ""}}]),
        ),
        // A usage chunk: no choices.
        json!({"choices": [], "usage": {"total_tokens": 10}}),
    ];
    let mut second = openai_chat::StreamAccumulator::for_choice(1);
    let seen = chat_all(&mut second, &chunks);
    assert_eq!(seen, [Seen::Started(0, "call_1", "get_weather")]);
    // `data: [DONE]` without a finish_reason: blank arguments are `{}`.
    assert_eq!(
        second.finish(),
        [StreamEvent::Finished {
            index: 0,
            call: ToolCall::new("call_1", "get_weather", json!({}))
        }]
    );
}

#[test]
fn openai_chat_repeated_ids_and_names_are_accepted_when_unchanged() {
    let mut stream = openai_chat::StreamAccumulator::new();
    let entry = |id: &str, name: &str, piece: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": id, "type": "function", "function": {"name": name, "arguments": piece}}]}}]})
    };
    stream
        .push(&entry("call_1", "get_weather", "{\"a\""))
        .unwrap();
    stream.push(&entry("call_1", "", ":1")).unwrap();
    stream.push(&entry("", "get_weather", "}")).unwrap();
    assert_eq!(stream.partial_arguments(0), Some(&json!({"a": 1})));
    let error = stream.push(&entry("call_2", "", "")).unwrap_err();
    assert_eq!(
        error.message(),
        "a chat.completion.chunk's choices[0]'s delta.tool_calls[0]: `id` changed from \"call_1\" to \"call_2\""
    );
    assert_eq!(
        error.kind(),
        tool_core::providers::AdapterErrorKind::OutOfOrder
    );
}

#[test]
fn openai_chat_custom_tool_calls_are_not_json_calls() {
    let mut stream = openai_chat::StreamAccumulator::new();
    let chunk = |entry: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": [entry]}}]});
    let seen = chat_all(
        &mut stream,
        &[
            chunk(
                json!({"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "code_exec", "input": "print("}}),
            ),
            chunk(json!({"index": 0, "custom": {"input": "1)"}})),
        ],
    );
    assert_eq!(seen, []);
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

/// "Output events", verbatim.
const RESPONSES_EVENTS: &str = r#"
{"type":"response.output_item.added","response_id":"resp_1234xyz","output_index":0,"item":{"type":"function_call","id":"fc_1234xyz","call_id":"call_1234xyz","name":"get_weather","arguments":""}}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":"{\""}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":"location"}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":"\":\""}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":"Paris"}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":","}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":" France"}
{"type":"response.function_call_arguments.delta","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"delta":"\"}"}
{"type":"response.function_call_arguments.done","response_id":"resp_1234xyz","item_id":"fc_1234xyz","output_index":0,"arguments":"{\"location\":\"Paris, France\"}"}
{"type":"response.output_item.done","response_id":"resp_1234xyz","output_index":0,"item":{"type":"function_call","id":"fc_1234xyz","call_id":"call_1234xyz","name":"get_weather","arguments":"{\"location\":\"Paris, France\"}"}}
"#;

fn responses_events() -> Vec<Value> {
    RESPONSES_EVENTS
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[tokio::test]
async fn openai_responses_documented_stream() {
    let mut stream = openai_responses::StreamAccumulator::new();
    let seen = responses_all(&mut stream, &responses_events());
    assert_paris_call_grew_and_runs(seen, "call_1234xyz").await;
}

/// The documented call's whole arguments text.
const PARIS: &str = r#"{"location":"Paris, France"}"#;

#[test]
fn openai_responses_done_events_alone_make_the_call() {
    // Without deltas (a proxy that sends only the `.done` events), and
    // without `.function_call_arguments.done` (only the item's). The call
    // finishes in the event its arguments arrive in: the whole text is one
    // delta, then `Finished`.
    let events = responses_events();
    let mut stream = openai_responses::StreamAccumulator::new();
    let seen = responses_all(&mut stream, &[events[0].clone(), events[8].clone()]);
    let call = ToolCall::new(
        "call_1234xyz",
        "get_weather",
        json!({"location": "Paris, France"}),
    );
    assert_eq!(
        seen,
        [
            Seen::Started(0, "call_1234xyz", "get_weather"),
            Seen::Grew(0, PARIS, Some(call.arguments.clone())),
            Seen::Finished(0, call.clone()),
        ]
    );
    let mut stream = openai_responses::StreamAccumulator::new();
    let seen = responses_all(&mut stream, &[events[9].clone()]);
    assert_eq!(
        seen,
        [
            Seen::Started(0, "call_1234xyz", "get_weather"),
            Seen::Grew(0, PARIS, Some(call.arguments.clone())),
            Seen::Finished(0, call),
        ]
    );
}

#[test]
fn openai_responses_done_arguments_that_disagree_with_the_deltas_win() {
    let events = responses_events();
    let mut done = events[8].clone();
    done["arguments"] = json!(r#"{"city":"Lyon"}"#);
    let mut stream = openai_responses::StreamAccumulator::new();
    let mut sent = events[..4].to_vec();
    sent.push(done);
    let seen = responses_all(&mut stream, &sent);
    assert_eq!(
        seen,
        [
            Seen::Started(0, "call_1234xyz", "get_weather"),
            Seen::Grew(0, r#"{""#, Some(json!({}))),
            Seen::Grew(0, "location", None),
            Seen::Grew(0, r#"":""#, Some(json!({"location": ""}))),
            // The deltas are replaced: no delta brings the repeat's text.
            Seen::Finished(
                0,
                ToolCall::new("call_1234xyz", "get_weather", json!({"city": "Lyon"}))
            ),
        ]
    );
}

#[test]
fn openai_responses_calls_interleaved_by_output_index() {
    let added = |output_index: usize, call_id: &str| {
        json!({"type": "response.output_item.added", "output_index": output_index,
               "item": {"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id, "name": "get_weather", "arguments": ""}})
    };
    let delta = |output_index: usize, call_id: &str, piece: &str| {
        json!({"type": "response.function_call_arguments.delta", "output_index": output_index,
               "item_id": format!("fc_{call_id}"), "delta": piece})
    };
    let mut stream = openai_responses::StreamAccumulator::new();
    let seen = responses_all(
        &mut stream,
        &[
            json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}),
            json!({"type": "response.output_item.added", "output_index": 0,
                   "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
            added(1, "a"),
            added(2, "b"),
            delta(2, "b", r#"{"location":"Ba"#),
            delta(1, "a", r#"{"location":"Ka"#),
            json!({"type": "response.function_call_arguments.done", "output_index": 1, "item_id": "fc_a",
                   "arguments": r#"{"location":"Ka"}"#}),
            json!({"type": "response.function_call_arguments.done", "output_index": 2, "item_id": "fc_b",
                   "arguments": r#"{"location":"Bari"}"#}),
            json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}),
        ],
    );
    assert_eq!(
        seen,
        [
            Seen::Started(1, "a", "get_weather"),
            Seen::Started(2, "b", "get_weather"),
            Seen::Grew(2, r#"{"location":"Ba"#, Some(json!({"location": "Ba"}))),
            Seen::Grew(1, r#"{"location":"Ka"#, Some(json!({"location": "Ka"}))),
            // What the deltas missed, from the `.done` events' repeats.
            Seen::Grew(1, r#""}"#, None),
            Seen::Finished(
                1,
                ToolCall::new("a", "get_weather", json!({"location": "Ka"}))
            ),
            Seen::Grew(2, r#"ri"}"#, Some(json!({"location": "Bari"}))),
            Seen::Finished(
                2,
                ToolCall::new("b", "get_weather", json!({"location": "Bari"}))
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// Events of the wrong shape
// ---------------------------------------------------------------------------

fn anthropic_error(events: &[Value]) -> String {
    let mut stream = anthropic::StreamAccumulator::new();
    let (last, before) = events.split_last().unwrap();
    for event in before {
        stream.push(event).unwrap();
    }
    error_message(stream.push(last))
}

fn error_message(result: Result<Vec<StreamEvent>, AdapterError>) -> String {
    match result {
        Ok(events) => panic!("accepted: {events:?}"),
        Err(error) => error.message().to_owned(),
    }
}

#[test]
fn anthropic_events_of_the_wrong_shape_are_refused_saying_why() {
    let tool_start = json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}});
    for (events, message) in [
        (
            vec![json!("ping")],
            "a Messages stream event: must be an object, not string",
        ),
        (
            vec![json!({"index": 0})],
            "a Messages stream event: `type` is missing",
        ),
        (
            vec![json!({"type": "content_block_delta", "index": 3,
                        "delta": {"type": "input_json_delta", "partial_json": "{"}})],
            "a content_block_delta event: no content block is open at index 3",
        ),
        (
            vec![
                json!({"type": "content_block_start", "index": -1, "content_block": {"type": "text"}}),
            ],
            "a content_block_start event: `index` must be a non-negative integer, not -1",
        ),
        (
            vec![json!({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "tool_use", "name": "get_weather"}})],
            "a tool_use block: `id` is missing",
        ),
        (
            vec![json!({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "x", "input": "{}"}})],
            "a tool_use block: `input` must be an object, not string",
        ),
        (
            vec![tool_start.clone(), tool_start.clone()],
            "a content_block_start event: a content block is already open at index 0",
        ),
        (
            vec![
                tool_start.clone(),
                json!({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": 7}}),
            ],
            "an input_json_delta: `partial_json` must be a string, not number",
        ),
        (
            vec![json!({"type": "content_block_stop", "index": 0})],
            "a content_block_stop event: no content block is open at index 0",
        ),
        (
            vec![
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            ],
            "the stream reported an error: overloaded_error: Overloaded",
        ),
    ] {
        assert_eq!(anthropic_error(&events), message, "{events:?}");
    }
}

#[test]
fn openai_chat_chunks_of_the_wrong_shape_are_refused_saying_why() {
    let with =
        |tool_calls: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}}]});
    for (chunk, message) in [
        (
            json!([]),
            "a chat.completion.chunk: must be an object, not array",
        ),
        (
            json!({"id": "chatcmpl-1"}),
            "a chat.completion.chunk: `choices` is missing",
        ),
        (
            json!({"choices": [{"delta": {}}]}),
            "a chat.completion.chunk's choices[0]: `index` is missing",
        ),
        (
            with(json!({"index": 0})),
            "a chat.completion.chunk's choices[0]: `delta.tool_calls` must be an array, not object",
        ),
        (
            with(json!([{"function": {"arguments": "{"}}])),
            "a chat.completion.chunk's choices[0]'s delta.tool_calls[0]: `index` is missing",
        ),
        (
            with(json!([{"index": 0, "function": {"arguments": "{"}}])),
            "a chat.completion.chunk's choices[0]'s delta.tool_calls[0]: no call is open at index 0, and this delta does not start one (a first delta has `id` and `function.name`)",
        ),
        (
            with(json!([{"index": 0, "id": "call_1", "function": {"name": 7}}])),
            "a chat.completion.chunk's choices[0]'s delta.tool_calls[0]'s function: `name` must be a string, not number",
        ),
        (
            json!({"error": {"message": "The server had an error", "type": "server_error"}}),
            "the stream reported an error: server_error: The server had an error",
        ),
    ] {
        let mut stream = openai_chat::StreamAccumulator::new();
        assert_eq!(error_message(stream.push(&chunk)), message, "{chunk}");
    }
}

#[test]
fn a_refused_chunk_changes_nothing() {
    let mut stream = openai_chat::StreamAccumulator::new();
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_1", "function": {"name": "get_weather", "arguments": "{\"a\":"}},
        {"index": 1, "function": {"arguments": "{"}},
    ]}}]});
    assert!(stream.push(&chunk).is_err());
    assert_eq!(stream.partial_arguments(0), None);
    assert_eq!(stream.finish(), []);
}

#[test]
fn openai_responses_events_of_the_wrong_shape_are_refused_saying_why() {
    let added = json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": ""}});
    for (events, message) in [
        (
            vec![
                json!({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{"}),
            ],
            "a response.function_call_arguments.delta event: no function_call is open at output_index 0",
        ),
        (
            vec![
                added.clone(),
                json!({"type": "response.function_call_arguments.delta",
                                       "output_index": 0, "item_id": "fc_2", "delta": "{"}),
            ],
            "a response.function_call_arguments.delta event: `item_id` \"fc_2\" is not the id of the function_call at output_index 0 (\"fc_1\")",
        ),
        (
            vec![
                json!({"type": "response.output_item.added", "output_index": 0,
                        "item": {"type": "function_call", "id": "fc_1", "name": "get_weather"}}),
            ],
            "a function_call item: `call_id` is missing",
        ),
        (
            vec![added.clone(), added.clone()],
            "a response.output_item.added event: a function_call is already open at output_index 0",
        ),
        (
            vec![
                json!({"type": "response.function_call_arguments.done", "output_index": 0, "arguments": "{}"}),
            ],
            "a response.function_call_arguments.done event: no function_call is open at output_index 0",
        ),
        (
            vec![
                json!({"type": "error", "code": "server_error", "message": "The server had an error", "param": null}),
            ],
            "the stream reported an error: server_error: The server had an error",
        ),
    ] {
        let mut stream = openai_responses::StreamAccumulator::new();
        let (last, before) = events.split_last().unwrap();
        for event in before {
            stream.push(event).unwrap();
        }
        assert_eq!(error_message(stream.push(last)), message, "{events:?}");
    }
}
