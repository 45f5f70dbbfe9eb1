//! An agent loop over recorded model responses, for OpenAI Chat
//! Completions, OpenAI Responses and Anthropic Messages: each turn's
//! streamed response is read event by event by the provider's stream
//! accumulator (calls shown as they start and as their arguments grow), the
//! finished calls run in parallel against one registry, and their results
//! are written back in the provider's own shape, until the model answers
//! in text.
//!
//! - OpenAI Chat: two calls in one turn (`tool_calls` at indexes 0 and 1);
//! - Anthropic: text, then two `tool_use` blocks in one turn;
//! - OpenAI Responses: a call with an argument the tool refuses; the
//!   paired error goes back, and the model corrects the call.
//!
//! The responses are files in `examples/recorded/<provider>/<turn>.jsonl`,
//! one event's JSON (a server-sent event's `data:`) a line, in the shapes
//! of each provider's streaming documentation; there is no network. Where
//! a real loop sends the next request, this one reads the next file.
//!
//! Run: `cargo run -p tool-core --example agent_loop`

use serde_json::{Value, json};
use std::error::Error;
use tool_core::{
    ExecutionMode, RunOptions, ToolCall, ToolDefinition, ToolError, ToolParams, ToolRegistry,
    ToolResultMessage, execute_tool_calls, tool,
};

// ---------------------------------------------------------------------------
// The tool
// ---------------------------------------------------------------------------

#[derive(ToolParams, Clone, Copy)]
#[param(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Get the current weather in a given location
#[tool(read_only)]
async fn get_weather(
    /// The city and country, e.g. "Paris, France"
    location: String,
    /// The temperature's unit (default celsius)
    unit: Option<Unit>,
) -> Result<String, ToolError> {
    let (celsius, sky) = match location.as_str() {
        "Paris, France" => (15, "sunny"),
        "Tokyo, Japan" => (20, "cloudy"),
        _ => return Err(format!("no weather station in {location:?}").into()),
    };
    let temperature = match unit.unwrap_or(Unit::Celsius) {
        Unit::Celsius => format!("{celsius} °C"),
        Unit::Fahrenheit => format!("{} °F", celsius * 9 / 5 + 32),
    };
    Ok(format!("{temperature} in {location}: {sky}"))
}

// ---------------------------------------------------------------------------
// The loop: the same for every provider
// ---------------------------------------------------------------------------

/// What one streamed response gave: the model's text and its whole calls.
#[derive(Default)]
struct Turn {
    text: String,
    calls: Vec<ToolCall>,
}

/// How a conversation went.
struct Conversation {
    /// The model's last text.
    answer: String,
    /// What each turn with calls wrote back, in the provider's shape.
    written_back: Vec<Vec<Value>>,
    /// The whole conversation, as the last request would send it.
    messages: Vec<Value>,
}

impl Conversation {
    /// Each message's role, or each item's type.
    fn kinds(&self) -> Vec<&str> {
        let kinds = self.messages.iter().map(|message| {
            let kind = message.get("role").or_else(|| message.get("type"));
            kind.and_then(Value::as_str).unwrap_or("?")
        });
        kinds.collect()
    }
}

/// What the loop needs to know of a provider.
struct Provider {
    name: &'static str,
    /// The recorded streamed response of each turn, as JSON lines.
    turns: &'static [&'static str],
    /// The tools, as the request's `tools`.
    definitions: fn(&[ToolDefinition]) -> Converted,
    /// A stream accumulator for one response.
    stream: fn() -> Box<dyn Accumulator>,
    /// What the next request appends after a turn: the assistant's
    /// response echoed, then the results of its calls (the library's
    /// whole-response helpers: `next_messages`, `next_input`).
    next: fn(&Value, &[ToolResultMessage]) -> Result<Vec<Value>, AdapterError>,
    /// The text an event carries, if any.
    text: fn(&Value) -> Option<&str>,
    /// The streamed turn as the provider would have answered it whole.
    response: fn(&Turn) -> Value,
}

/// Asks `question` and runs turns until the model answers without calls.
async fn converse(
    provider: &Provider,
    tools: &ToolRegistry,
    question: &str,
) -> Result<Conversation, Box<dyn Error>> {
    println!("== {}\nuser: {question}", provider.name);
    // The request's `tools`, in the provider's shape.
    let definitions = (provider.definitions)(&tools.definitions());
    assert!(
        definitions.diagnostics.is_empty(),
        "{:?}",
        definitions.diagnostics
    );
    println!("tools: {}", definitions.value);
    let mut messages = vec![user_message(question)];
    let mut written_back = Vec::new();
    for recorded in provider.turns {
        // A real loop sends {model, messages, tools: definitions.value,
        // stream: true} here; the recording is what came back.
        let turn = read_turn(provider, recorded)?;
        if !turn.text.is_empty() {
            println!("model: {}", turn.text);
        }
        let response = (provider.response)(&turn);
        let echoed = (provider.next)(&response, &[])?;
        if turn.calls.is_empty() {
            messages.extend(echoed);
            return Ok(Conversation {
                answer: turn.text,
                written_back,
                messages,
            });
        }
        let results = execute_tool_calls(
            &turn.calls,
            tools,
            RunOptions::default(),
            ExecutionMode::Parallel,
        )
        .await;
        let next = (provider.next)(&response, &results)?;
        let answers = next[echoed.len()..].to_vec();
        for message in &answers {
            println!("written back: {message}");
        }
        messages.extend(next);
        written_back.push(answers);
    }
    Err("the recording ended before the model answered".into())
}

/// Reads one recorded response event by event, as it would arrive.
fn read_turn(provider: &Provider, recorded: &str) -> Result<Turn, Box<dyn Error>> {
    let mut stream = (provider.stream)();
    let mut turn = Turn::default();
    for line in recorded.lines().filter(|line| !line.trim().is_empty()) {
        let event: Value = serde_json::from_str(line)?;
        turn.text
            .push_str((provider.text)(&event).unwrap_or_default());
        for happened in stream.push(&event)? {
            match happened {
                StreamEvent::Started { id, name, .. } => println!("calling {name} ({id})"),
                StreamEvent::ArgumentsGrew {
                    index,
                    shows_more: true,
                    ..
                } => {
                    // Gone when the call finished in the same event.
                    if let Some(so_far) = stream.partial_arguments(index) {
                        println!("  arguments so far: {so_far}");
                    }
                }
                // A piece the partial value shows nothing more of yet.
                StreamEvent::ArgumentsGrew { .. } => {}
                StreamEvent::Finished { call, .. } => turn.calls.push(call),
            }
        }
    }
    // Whatever a cut-off stream left open; nothing, for a whole one.
    assert!(stream.finish().is_empty());
    Ok(turn)
}

// ---------------------------------------------------------------------------
// The recorded conversations, and what must come of them
// ---------------------------------------------------------------------------

/// What the model reads when it asks for kelvin: every unit it may ask for.
const KELVIN_REFUSED: &str =
    r#"Tool get_weather failed: unit: expected one of "celsius", "fahrenheit", got "kelvin""#;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let mut tools = ToolRegistry::new();
    tools.register(GetWeatherTool)?;

    let chat = converse(
        &openai_chat(),
        &tools,
        "What's the weather in Paris and in Tokyo?",
    )
    .await?;
    assert_eq!(
        chat.written_back,
        [[
            json!({"role": "tool", "tool_call_id": "call_8dVHZaQv1kDnWcYtR3mXe0Js",
                   "content": "15 °C in Paris, France: sunny"}),
            json!({"role": "tool", "tool_call_id": "call_Q2rLmT7wBfN4xUeK9pSa6GyC",
                   "content": "20 °C in Tokyo, Japan: cloudy"}),
        ]]
    );
    assert_eq!(
        chat.answer,
        "It is 15 °C and sunny in Paris, and 20 °C and cloudy in Tokyo."
    );
    // The assistant message with both calls, then their tool messages.
    assert_eq!(
        chat.kinds(),
        ["user", "assistant", "tool", "tool", "assistant"]
    );
    assert_eq!(
        chat.messages[1]["tool_calls"][1],
        json!({"id": "call_Q2rLmT7wBfN4xUeK9pSa6GyC", "type": "function",
               "function": {"name": "get_weather", "arguments": r#"{"location":"Tokyo, Japan"}"#}})
    );

    let claude = converse(
        &anthropic(),
        &tools,
        "How warm is it in Paris and in Tokyo, in Fahrenheit?",
    )
    .await?;
    let tool_result = |id: &str, text: &str| {
        json!({"type": "tool_result", "tool_use_id": id,
               "content": [{"type": "text", "text": text}], "is_error": false})
    };
    assert_eq!(
        claude.written_back,
        [[json!({"role": "user", "content": [
            tool_result("toolu_01Xq3RtVb8NcLk5YwZ2mPd7F", "59 °F in Paris, France: sunny"),
            tool_result("toolu_01Ws9JfLh4TaQe6BxVn1KcR8", "68 °F in Tokyo, Japan: cloudy"),
        ]})]]
    );
    assert_eq!(claude.answer, "It is 59 °F in Paris and 68 °F in Tokyo.");
    assert_eq!(claude.kinds(), ["user", "assistant", "user", "assistant"]);

    let responses = converse(
        &openai_responses(),
        &tools,
        "How warm is it in Tokyo, in kelvin?",
    )
    .await?;
    assert_eq!(
        responses.written_back,
        [
            [
                json!({"type": "function_call_output", "call_id": "call_Jt5Wn2QpX8kLr1YsVb4HdE6m",
                    "output": KELVIN_REFUSED})
            ],
            [
                json!({"type": "function_call_output", "call_id": "call_Pm3Zr7TsK1wQy9NcXa2LfB5v",
                    "output": "20 °C in Tokyo, Japan: cloudy"})
            ],
        ]
    );
    assert_eq!(responses.answer, "It is 20 °C in Tokyo, about 293 K.");
    assert_eq!(
        responses.kinds(),
        [
            "user",
            "function_call",
            "function_call_output",
            "function_call",
            "function_call_output",
            "assistant",
        ]
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// Each provider's library calls, the only place that imports from
// `tool_core::providers` (the loop above reads their `StreamEvent`s): the definitions, the stream accumulator and the
// results written back, three lines a provider.
// ---------------------------------------------------------------------------

use tool_core::providers::{
    AdapterError, Converted, StreamEvent, Strict, anthropic, openai_chat, openai_responses,
};

fn openai_chat() -> Provider {
    Provider {
        name: "OpenAI Chat Completions",
        turns: &[
            include_str!("recorded/openai_chat/1.jsonl"),
            include_str!("recorded/openai_chat/2.jsonl"),
        ],
        definitions: |definitions| openai_chat::tools(definitions, Strict::Off),
        stream: || Box::new(openai_chat::StreamAccumulator::new()),
        // The assistant message, the tool messages, then one user message
        // with their images, if any.
        next: openai_chat::next_messages,
        text: chat_text,
        response: chat_response,
    }
}

fn openai_responses() -> Provider {
    Provider {
        name: "OpenAI Responses",
        turns: &[
            include_str!("recorded/openai_responses/1.jsonl"),
            include_str!("recorded/openai_responses/2.jsonl"),
            include_str!("recorded/openai_responses/3.jsonl"),
        ],
        definitions: |definitions| openai_responses::tools(definitions, Strict::Off),
        stream: || Box::new(openai_responses::StreamAccumulator::new()),
        next: openai_responses::next_input,
        text: responses_text,
        response: responses_response,
    }
}

fn anthropic() -> Provider {
    Provider {
        name: "Anthropic Messages",
        turns: &[
            include_str!("recorded/anthropic/1.jsonl"),
            include_str!("recorded/anthropic/2.jsonl"),
        ],
        definitions: |definitions| anthropic::tools(definitions, Strict::Off),
        stream: || Box::new(anthropic::StreamAccumulator::new()),
        // The assistant's content, then every tool_result in one user message.
        next: anthropic::next_messages,
        text: anthropic_text,
        response: anthropic_response,
    }
}

/// The three accumulators, behind one interface.
trait Accumulator {
    fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, AdapterError>;
    fn partial_arguments(&self, index: usize) -> Option<&Value>;
    fn finish(&mut self) -> Vec<StreamEvent>;
}

macro_rules! accumulator {
    ($($stream:ty),*) => {$(
        impl Accumulator for $stream {
            fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, AdapterError> {
                <$stream>::push(self, event)
            }
            fn partial_arguments(&self, index: usize) -> Option<&Value> {
                <$stream>::partial_arguments(self, index)
            }
            fn finish(&mut self) -> Vec<StreamEvent> {
                <$stream>::finish(self)
            }
        }
    )*};
}

accumulator!(
    openai_chat::StreamAccumulator,
    openai_responses::StreamAccumulator,
    anthropic::StreamAccumulator
);

// ---------------------------------------------------------------------------
// What the library does not write, by hand: where an event holds the
// model's text, and the assistant's message that carried the calls, as the
// next request repeats it.
// ---------------------------------------------------------------------------

/// The user's message: the same shape for all three.
fn user_message(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn chat_text(chunk: &Value) -> Option<&str> {
    chunk["choices"][0]["delta"]["content"].as_str()
}

fn chat_response(turn: &Turn) -> Value {
    // `content` is null when the model only called tools.
    let content = Some(&turn.text).filter(|text| !text.is_empty());
    let mut message = json!({"role": "assistant", "content": content});
    if !turn.calls.is_empty() {
        let calls = turn.calls.iter().map(|call| {
            json!({"id": call.id, "type": "function",
                   "function": {"name": call.name, "arguments": arguments_text(call)}})
        });
        message["tool_calls"] = calls.collect();
    }
    message
}

fn responses_text(event: &Value) -> Option<&str> {
    match event["type"].as_str() {
        Some("response.output_text.delta") => event["delta"].as_str(),
        _ => None,
    }
}

fn responses_response(turn: &Turn) -> Value {
    let mut items = Vec::new();
    if !turn.text.is_empty() {
        items.push(json!({"role": "assistant", "content": turn.text}));
    }
    items.extend(turn.calls.iter().map(|call| {
        json!({"type": "function_call", "call_id": call.id, "name": call.name,
               "arguments": arguments_text(call)})
    }));
    json!({"output": items})
}

fn anthropic_text(event: &Value) -> Option<&str> {
    match (event["type"].as_str(), event["delta"]["type"].as_str()) {
        (Some("content_block_delta"), Some("text_delta")) => event["delta"]["text"].as_str(),
        _ => None,
    }
}

fn anthropic_response(turn: &Turn) -> Value {
    let mut content = Vec::new();
    if !turn.text.is_empty() {
        content.push(json!({"type": "text", "text": turn.text}));
    }
    content.extend(turn.calls.iter().map(|call| {
        json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments})
    }));
    json!({"role": "assistant", "content": content})
}

/// A call's arguments as the JSON text OpenAI's messages carry. Arguments
/// that were not JSON reach the executor as the text itself (which it
/// answers with a paired error), and go back as that text.
fn arguments_text(call: &ToolCall) -> String {
    match &call.arguments {
        Value::String(text) => text.clone(),
        arguments => arguments.to_string(),
    }
}
