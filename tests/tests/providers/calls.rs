//! Golden tests of the tool-call adapters (`tool_core::providers`), both
//! directions, on payloads copied from each provider's documentation: the
//! exact `ToolCall` each adapter reads, the call run by
//! `execute_tool_call` against a small registry, and the exact JSON each
//! provider gets back. Also: arguments that are not valid JSON, empty
//! arguments, Gemini calls with and without an id, and payloads of the
//! wrong shape (`AdapterError`).
//!
//! Payload sources (each literal below repeats its own):
//! - OpenAI Chat Completions assistant message with `tool_calls`:
//!   `openai/openai-openapi`, `openapi.yaml` (commit 5780008), createChatCompletion
//!   `x-oaiMeta` example "Functions", response `chat_completion_function_example`.
//!   The tool message: openai-python `types/chat/chat_completion_tool_message_param.py`.
//! - OpenAI Responses `function_call` output items and `function_call_output`:
//!   <https://platform.openai.com/docs/guides/function-calling> ("Sample
//!   response with multiple function calls"); openai-python
//!   `types/responses/response_function_tool_call.py` and
//!   `response_input_param.py` (`FunctionCallOutput`).
//! - Anthropic `tool_use` and `tool_result` blocks:
//!   <https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>.
//! - Gemini `functionCall` parts without an id:
//!   <https://ai.google.dev/gemini-api/docs/thought-signatures> (parallel
//!   function calling example); `FunctionCall.id` and `FunctionResponse`
//!   (`id`, `name`, `response` with "output"/"error" keys):
//!   <https://ai.google.dev/api/caching#FunctionCall> / googleapis/js-genai `types.FunctionCall`.
//! - MCP `tools/call` request and `CallToolResult`:
//!   `modelcontextprotocol/modelcontextprotocol`,
//!   `docs/specification/2025-11-25/server/tools.mdx`.

use serde_json::{Value, json};
use tests::wire::{assert_json, result_json, without_timestamp};
use tool_core::providers::{
    AdapterError, AdapterErrorKind, anthropic, gemini, mcp, openai_chat, openai_responses,
};
use tool_core::{
    Content, DynamicTool, ExecutionMode, RunOptions, ToolCall, ToolOutput, ToolParams,
    ToolRegistry, ToolResultMessage, execute_tool_call, execute_tool_calls, tool,
};

// ---------------------------------------------------------------------------
// The registry: the documented weather tools
// ---------------------------------------------------------------------------

/// The unit of temperature
#[derive(ToolParams, Debug, Clone, Copy, PartialEq)]
#[param(rename_all = "lowercase")]
enum TemperatureUnit {
    Celsius,
    Fahrenheit,
}

/// A made-up report: 15 degrees celsius (59 fahrenheit) everywhere.
fn weather_report(location: &str, unit: Option<TemperatureUnit>) -> ToolOutput<Value> {
    let (degrees, unit) = match unit.unwrap_or(TemperatureUnit::Celsius) {
        TemperatureUnit::Celsius => (15, "celsius"),
        TemperatureUnit::Fahrenheit => (59, "fahrenheit"),
    };
    ToolOutput::new(vec![Content::text(format!(
        "{degrees} degrees {unit} in {location}"
    ))])
    .with_details(json!({"location": location, "temperature": degrees, "unit": unit}))
}

/// Get the current weather in a given location
///
/// The tool of Anthropic's, OpenAI's (Responses) and MCP's examples.
#[tool(description = "Get the current weather in a given location")]
async fn get_weather(
    #[param(description = "The city and state, e.g. San Francisco, CA")] location: String,
    #[param(description = "The unit of temperature, either 'celsius' or 'fahrenheit'")]
    unit: Option<TemperatureUnit>,
) -> ToolOutput<Value> {
    weather_report(&location, unit)
}

/// The tool of the OpenAI API reference's Chat Completions example.
#[tool(description = "Get the current weather in a given location")]
async fn get_current_weather(
    #[param(description = "The city and state, e.g. San Francisco, CA")] location: String,
    unit: Option<TemperatureUnit>,
) -> ToolOutput<Value> {
    weather_report(&location, unit)
}

/// Gets the current temperature for a given location.
///
/// The tool of Gemini's example; answers like the documented function
/// responses (`15C` for Paris, `12C` for London).
#[tool(description = "Gets the current temperature for a given location.")]
async fn get_current_temperature(
    #[param(description = "The city name, e.g. San Francisco")] location: String,
) -> String {
    match location.as_str() {
        "London" => "12C".into(),
        _ => "15C".into(),
    }
}

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(GetWeatherTool).unwrap();
    tools.register(GetCurrentWeatherTool).unwrap();
    tools.register(GetCurrentTemperatureTool).unwrap();
    tools
        .register(DynamicTool::new(
            "two_lines",
            "Answers with two text items and non-object details",
            |_args, _ctx| async {
                Ok(
                    ToolOutput::new(vec![Content::text("first"), Content::text("second")])
                        .with_details(json!([1, 2])),
                )
            },
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "no_details",
            "Answers with text only",
            |_args, _ctx| async { Ok(ToolOutput::text("done")) },
        ))
        .unwrap();
    tools
}

async fn run(call: &ToolCall) -> ToolResultMessage {
    execute_tool_call(call, &registry(), RunOptions::default()).await
}

/// Runs a batch in parallel against the registry.
async fn run_all(calls: &[ToolCall]) -> Vec<ToolResultMessage> {
    execute_tool_calls(
        calls,
        &registry(),
        RunOptions::default(),
        ExecutionMode::Parallel,
    )
    .await
}

/// A refusal's message, to compare with the one a test expects.
fn message_of<T>(read: Result<T, AdapterError>) -> Result<T, String> {
    read.map_err(|error| error.message().to_owned())
}

/// Each payload, read by `read`, is refused with exactly its message.
#[track_caller]
fn assert_refused<const N: usize>(
    read: impl Fn(&Value) -> Result<ToolCall, AdapterError>,
    cases: [(Value, &str); N],
) {
    for (payload, message) in cases {
        assert_eq!(
            message_of(read(&payload)),
            Err(message.to_owned()),
            "{payload}"
        );
    }
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------

/// openai/openai-openapi `openapi.yaml`, createChatCompletion, example
/// "Functions": the response to "What's the weather like in Boston today?".
fn openai_chat_completion() -> Value {
    json!({
        "id": "chatcmpl-abc123",
        "object": "chat.completion",
        "created": 1699896916,
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": null,
                    "tool_calls": [
                        {
                            "id": "call_abc123",
                            "type": "function",
                            "function": {
                                "name": "get_current_weather",
                                "arguments": "{\n\"location\": \"Boston, MA\"\n}"
                            }
                        }
                    ]
                },
                "logprobs": null,
                "finish_reason": "tool_calls"
            }
        ],
        "usage": {
            "prompt_tokens": 82,
            "completion_tokens": 17,
            "total_tokens": 99,
            "completion_tokens_details": {
                "reasoning_tokens": 0
            }
        }
    })
}

/// A `tool_calls` entry shaped like the API reference's, calling `name`
/// with other arguments.
fn openai_entry(name: &str, arguments: Value) -> Value {
    json!({
        "id": "call_abc123",
        "type": "function",
        "function": {"name": name, "arguments": arguments}
    })
}

#[tokio::test]
async fn openai_chat_tool_call_round_trip() {
    let completion = openai_chat_completion();
    let entry = &completion["choices"][0]["message"]["tool_calls"][0];
    let call = openai_chat::read_call(entry).unwrap();
    assert_eq!(
        call,
        ToolCall::new(
            "call_abc123",
            "get_current_weather",
            json!({"location": "Boston, MA"})
        )
    );

    let result = run(&call).await;
    assert_json(
        &without_timestamp(&result),
        &result_json(
            "call_abc123",
            "get_current_weather",
            "15 degrees celsius in Boston, MA",
            json!({"location": "Boston, MA", "temperature": 15, "unit": "celsius"}),
            false,
        ),
    );
    // ChatCompletionToolMessageParam: role "tool", tool_call_id, content.
    assert_json(
        &openai_chat::write_result(&result),
        &json!({
            "role": "tool",
            "tool_call_id": "call_abc123",
            "content": "15 degrees celsius in Boston, MA",
        }),
    );
}

#[tokio::test]
async fn openai_arguments_that_are_not_json_make_a_paired_error_naming_line_and_column() {
    // Truncated, as a model cut off mid-call sends it.
    let truncated = "{\"location\": \"Paris\"";
    let call =
        openai_chat::read_call(&openai_entry("get_current_weather", json!(truncated))).unwrap();
    assert_eq!(
        call,
        ToolCall::new("call_abc123", "get_current_weather", json!(truncated))
    );
    let result = run(&call).await;
    let problem = "arguments: invalid JSON: EOF while parsing an object at line 1 column 20";
    assert_json(
        &without_timestamp(&result),
        &result_json(
            "call_abc123",
            "get_current_weather",
            &format!("Tool get_current_weather failed: {problem}"),
            json!({"error": problem}),
            true,
        ),
    );
    assert_json(
        &openai_chat::write_result(&result),
        &json!({
            "role": "tool",
            "tool_call_id": "call_abc123",
            "content": format!("Tool get_current_weather failed: {problem}"),
        }),
    );

    for (text, problem) in [
        // On a later line, as the API reference writes its arguments.
        (
            "{\n\"location\": \"Boston, MA\",\n}",
            "arguments: invalid JSON: trailing comma at line 3 column 1",
        ),
        // Valid JSON followed by more text.
        (
            "{\"location\": \"Paris\"} and more",
            "arguments: invalid JSON: trailing characters at line 1 column 23",
        ),
    ] {
        assert_eq!(
            openai_error_details(text).await,
            Some(json!({"error": problem})),
            "{text}"
        );
    }
}

/// The details the executor answers an OpenAI call with, whose `arguments`
/// are `text`; the adapter kept the text as it is.
async fn openai_error_details(text: &str) -> Option<Value> {
    let call = openai_chat::read_call(&openai_entry("get_current_weather", json!(text))).unwrap();
    assert_eq!(call.arguments, json!(text));
    run(&call).await.details
}

#[tokio::test]
async fn openai_empty_arguments_mean_an_empty_object() {
    for arguments in [json!(""), json!("  \n"), Value::Null] {
        let call = openai_chat::read_call(&openai_entry("get_current_weather", arguments.clone()))
            .unwrap();
        assert_eq!(
            call,
            ToolCall::new("call_abc123", "get_current_weather", json!({})),
            "{arguments}"
        );
        // So the problem reported is the missing field, not the JSON.
        assert_eq!(
            run(&call).await.details,
            Some(json!({"error": "location: missing required field"}))
        );
    }
    // No `arguments` at all reads the same.
    let call = openai_chat::read_call(&json!({
        "id": "call_abc123",
        "type": "function",
        "function": {"name": "no_details"}
    }))
    .unwrap();
    assert_eq!(call.arguments, json!({}));
    assert_eq!(
        openai_chat::write_result(&run(&call).await),
        json!({"role": "tool", "tool_call_id": "call_abc123", "content": "done"})
    );
}

#[tokio::test]
async fn openai_arguments_sent_as_an_object_are_kept() {
    // Some OpenAI-compatible servers send the object itself.
    let call = openai_chat::read_call(&openai_entry(
        "get_current_weather",
        json!({"location": "Boston, MA", "unit": "fahrenheit"}),
    ))
    .unwrap();
    assert_eq!(
        call.arguments,
        json!({"location": "Boston, MA", "unit": "fahrenheit"})
    );
    assert_eq!(
        openai_chat::write_result(&run(&call).await)["content"],
        "59 degrees fahrenheit in Boston, MA"
    );
}

#[tokio::test]
async fn openai_several_text_items_become_one_string_per_line() {
    let call = openai_chat::read_call(&openai_entry("two_lines", json!("{}"))).unwrap();
    let result = run(&call).await;
    assert_json(
        &openai_chat::write_result(&result),
        &json!({"role": "tool", "tool_call_id": "call_abc123", "content": "first\nsecond"}),
    );
    assert_json(
        &openai_responses::write_result(&result),
        &json!({"type": "function_call_output", "call_id": "call_abc123", "output": "first\nsecond"}),
    );
}

#[test]
fn openai_tool_calls_entries_of_the_wrong_shape_are_adapter_errors() {
    assert_refused(
        openai_chat::read_call,
        [
            (
                json!({"id": "call_abc123", "type": "function"}),
                "a tool_calls entry: `function` is missing",
            ),
            (
                json!({"id": 7, "type": "function", "function": {"name": "x", "arguments": "{}"}}),
                "a tool_calls entry: `id` must be a string, not number",
            ),
            (
                json!({"id": "call_abc123", "type": "function", "function": {"arguments": "{}"}}),
                "a tool_calls entry's function: `name` is missing",
            ),
            (
                json!({"id": "call_abc123", "type": "function", "function": {"name": null}}),
                "a tool_calls entry's function: `name` must be a string, not null",
            ),
            // Without an id: the error names the missing `id`.
            (
                json!({"type": "function", "function": {"name": "x", "arguments": "{}"}}),
                "a tool_calls entry: `id` is missing",
            ),
        ],
    );
    let error = openai_chat::read_call(&json!({
        "type": "function",
        "function": {"name": "get_current_weather", "arguments": "{}"}
    }))
    .unwrap_err();
    assert_eq!(error.message(), "a tool_calls entry: `id` is missing");
    assert_eq!(error.kind(), AdapterErrorKind::Missing);
    assert_eq!(error.to_string(), error.message());
}

/// Issue 4 §2: "Invalid JSON in `arguments` must still give a `ToolCall` that
/// the executor answers with a paired error naming the JSON problem
/// (line/column)", whatever the text starts with.
#[tokio::test]
async fn openai_any_invalid_json_is_reported_with_line_and_column() {
    for (text, problem) in [
        (
            "[\"Boston, MA\"",
            "arguments: invalid JSON: EOF while parsing a list at line 1 column 13",
        ),
        (
            "location: Boston, MA",
            "arguments: invalid JSON: expected value at line 1 column 1",
        ),
    ] {
        let details = openai_error_details(text).await;
        let error = details.as_ref().unwrap()["error"].as_str().unwrap();
        assert!(
            error.starts_with("arguments: invalid JSON:") && error.contains(" at line 1 column "),
            "{text}: {error}"
        );
        assert_eq!(details, Some(json!({"error": problem})), "{text}");
    }
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

/// <https://platform.openai.com/docs/guides/function-calling>, "Sample
/// response with multiple function calls" (`response.output`).
fn openai_responses_output() -> Value {
    json!([
        {
            "id": "fc_12345xyz",
            "call_id": "call_12345xyz",
            "type": "function_call",
            "name": "get_weather",
            "arguments": "{\"location\":\"Paris, France\"}"
        },
        {
            "id": "fc_67890abc",
            "call_id": "call_67890abc",
            "type": "function_call",
            "name": "get_weather",
            "arguments": "{\"location\":\"Bogotá, Colombia\"}"
        },
        {
            "id": "fc_99999def",
            "call_id": "call_99999def",
            "type": "function_call",
            "name": "send_email",
            "arguments": "{\"to\":\"bob@email.com\",\"body\":\"Hi bob\"}"
        }
    ])
}

#[tokio::test]
async fn openai_responses_function_calls_round_trip() {
    let output = openai_responses_output();
    let calls: Vec<ToolCall> = output
        .as_array()
        .unwrap()
        .iter()
        .map(|item| openai_responses::read_call(item).unwrap())
        .collect();
    // The id is `call_id` (what function_call_output pairs with), not `id`.
    assert_eq!(
        calls,
        vec![
            ToolCall::new(
                "call_12345xyz",
                "get_weather",
                json!({"location": "Paris, France"})
            ),
            ToolCall::new(
                "call_67890abc",
                "get_weather",
                json!({"location": "Bogotá, Colombia"})
            ),
            ToolCall::new(
                "call_99999def",
                "send_email",
                json!({"to": "bob@email.com", "body": "Hi bob"})
            ),
        ]
    );

    let results = run_all(&calls).await;
    let outputs: Vec<Value> = results.iter().map(openai_responses::write_result).collect();
    // FunctionCallOutput: type "function_call_output", call_id, output.
    assert_json(
        &Value::Array(outputs),
        &json!([
            {
                "type": "function_call_output",
                "call_id": "call_12345xyz",
                "output": "15 degrees celsius in Paris, France",
            },
            {
                "type": "function_call_output",
                "call_id": "call_67890abc",
                "output": "15 degrees celsius in Bogotá, Colombia",
            },
            {
                // Not in our registry: still answered, paired by call_id.
                "type": "function_call_output",
                "call_id": "call_99999def",
                "output": "Tool send_email failed: unknown tool",
            },
        ]),
    );
}

#[tokio::test]
async fn openai_responses_invalid_and_empty_arguments() {
    let item = |arguments: &str| {
        json!({
            "id": "fc_12345xyz",
            "call_id": "call_12345xyz",
            "type": "function_call",
            "name": "get_weather",
            "arguments": arguments
        })
    };
    let call = openai_responses::read_call(&item("{\"location\":\"Paris, France\"")).unwrap();
    assert_eq!(call.arguments, json!("{\"location\":\"Paris, France\""));
    assert_json(
        &openai_responses::write_result(&run(&call).await),
        &json!({
            "type": "function_call_output",
            "call_id": "call_12345xyz",
            "output": "Tool get_weather failed: arguments: invalid JSON: EOF while parsing an object at line 1 column 27",
        }),
    );

    let call = openai_responses::read_call(&item("")).unwrap();
    assert_eq!(
        call,
        ToolCall::new("call_12345xyz", "get_weather", json!({}))
    );
}

#[test]
fn openai_responses_items_of_the_wrong_shape_are_adapter_errors() {
    assert_refused(
        openai_responses::read_call,
        [
            (
                json!({"id": "fc_12345xyz", "type": "function_call", "name": "get_weather", "arguments": "{}"}),
                "a function_call item: `call_id` is missing",
            ),
            (
                json!({"call_id": "call_12345xyz", "type": "function_call", "arguments": "{}"}),
                "a function_call item: `name` is missing",
            ),
            (
                json!({"call_id": 1, "type": "function_call", "name": "get_weather"}),
                "a function_call item: `call_id` must be a string, not number",
            ),
        ],
    );
}

/// A `custom_tool_call` output item (openai-python
/// `types/responses/response_custom_tool_call.py`: `call_id`, `input`,
/// `name`, `type: "custom_tool_call"`) has the `call_id` and `name` a
/// function call has, but is not one: read as a function call it would run
/// with `{}` arguments, its `input` lost. Refused by its `type`, as
/// Anthropic's adapter refuses a block of another type.
#[test]
fn openai_responses_items_of_another_type_are_refused() {
    let item = json!({
        "type": "custom_tool_call",
        "call_id": "call_12345xyz",
        "name": "get_weather",
        "input": "Paris, France"
    });
    let read = openai_responses::read_call(&item);
    assert!(read.is_err(), "read as {read:?}");
    assert_eq!(
        read.as_ref().map_err(AdapterError::kind).err(),
        Some(AdapterErrorKind::WrongShape)
    );
    assert_eq!(
        message_of(read),
        Err("expected a `function_call` item, got a `custom_tool_call` item".to_owned())
    );
}

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

/// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>,
/// "Example API response with a `tool_use` content block".
fn anthropic_message() -> Value {
    json!({
        "id": "msg_01Aq9w938a90dw8q",
        "model": "claude-opus-4-6",
        "stop_reason": "tool_use",
        "role": "assistant",
        "content": [
            {
                "type": "text",
                "text": "I'll check the current weather in San Francisco for you."
            },
            {
                "type": "tool_use",
                "id": "toolu_01A09q90qw90lq917835lq9",
                "name": "get_weather",
                "input": { "location": "San Francisco, CA", "unit": "celsius" }
            }
        ]
    })
}

#[tokio::test]
async fn anthropic_tool_use_round_trip() {
    let message = anthropic_message();
    let blocks = message["content"].as_array().unwrap();
    // The text block is not a call.
    assert_eq!(
        message_of(anthropic::read_call(&blocks[0])),
        Err("expected a `tool_use` block, got a `text` block".to_owned())
    );
    let call = anthropic::read_call(&blocks[1]).unwrap();
    assert_eq!(
        call,
        ToolCall::new(
            "toolu_01A09q90qw90lq917835lq9",
            "get_weather",
            json!({"location": "San Francisco, CA", "unit": "celsius"})
        )
    );

    let result = run(&call).await;
    assert_json(
        &without_timestamp(&result),
        &result_json(
            "toolu_01A09q90qw90lq917835lq9",
            "get_weather",
            "15 degrees celsius in San Francisco, CA",
            json!({"location": "San Francisco, CA", "temperature": 15, "unit": "celsius"}),
            false,
        ),
    );
    // The documented tool_result: tool_use_id, content (a string or a list
    // of content blocks), is_error (optional).
    assert_json(
        &anthropic::write_result(&result),
        &json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": [{"type": "text", "text": "15 degrees celsius in San Francisco, CA"}],
            "is_error": false,
        }),
    );
}

#[tokio::test]
async fn anthropic_bad_input_is_a_tool_result_with_is_error() {
    let block = json!({
        "type": "tool_use",
        "id": "toolu_01A09q90qw90lq917835lq9",
        "name": "get_weather",
        "input": { "location": "San Francisco, CA", "unit": "kelvin" }
    });
    let result = run(&anthropic::read_call(&block).unwrap()).await;
    assert_json(
        &anthropic::write_result(&result),
        &json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": [{
                "type": "text",
                "text": "Tool get_weather failed: unit: expected one of \"celsius\", \"fahrenheit\", got \"kelvin\"",
            }],
            "is_error": true,
        }),
    );
}

#[tokio::test]
async fn anthropic_keeps_each_text_item_a_block() {
    let block = json!({"type": "tool_use", "id": "toolu_01", "name": "two_lines", "input": {}});
    let result = run(&anthropic::read_call(&block).unwrap()).await;
    assert_json(
        &anthropic::write_result(&result),
        &json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}],
            "is_error": false,
        }),
    );
}

#[test]
fn anthropic_blocks_of_the_wrong_shape_are_adapter_errors() {
    assert_refused(
        anthropic::read_call,
        [
            // A server tool's block (web search) is not ours to run.
            (
                json!({
                    "type": "server_tool_use",
                    "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
                    "name": "web_search",
                    "input": {"query": "claude shannon birth date"}
                }),
                "expected a `tool_use` block, got a `server_tool_use` block",
            ),
            (
                json!({"type": "tool_use", "id": "toolu_01", "input": {}}),
                "a tool_use block: `name` is missing",
            ),
            (
                json!({"type": "tool_use", "name": "get_weather"}),
                "a tool_use block: `id` is missing",
            ),
            (
                json!({"type": "tool_use", "name": "get_weather", "input": {}}),
                "a tool_use block: `id` is missing",
            ),
        ],
    );
    // A block without `input` is a call with no arguments.
    assert_eq!(
        anthropic::read_call(&json!({"type": "tool_use", "id": "toolu_01", "name": "no_details"})),
        Ok(ToolCall::new("toolu_01", "no_details", json!({})))
    );
}

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

/// <https://ai.google.dev/gemini-api/docs/thought-signatures>, parallel
/// function calling, "Turn 1, Step 1 (Model response)": two calls, no ids.
fn gemini_parallel_response() -> Value {
    json!({
        "content": {
            "parts": [
                {
                    "functionCall": {
                        "name": "get_current_temperature",
                        "args": {
                            "location": "Paris"
                        }
                    },
                    "thoughtSignature": "<Signature_A>"
                },
                {
                    "functionCall": {
                        "name": "get_current_temperature",
                        "args": {
                            "location": "London"
                        }
                    }
                }
            ]
        }
    })
}

#[tokio::test]
async fn gemini_calls_without_id_get_a_stable_generated_id() {
    let response = gemini_parallel_response();
    let parts = response["content"]["parts"].as_array().unwrap();
    let calls: Vec<ToolCall> = parts
        .iter()
        .enumerate()
        .map(|(index, part)| gemini::read_call(part, index).unwrap())
        .collect();
    assert_eq!(
        calls,
        vec![
            ToolCall::new(
                "gemini-call-0",
                "get_current_temperature",
                json!({"location": "Paris"})
            ),
            ToolCall::new(
                "gemini-call-1",
                "get_current_temperature",
                json!({"location": "London"})
            ),
        ]
    );
    // Stable: the same position gives the same id; the bare `functionCall`
    // object reads like the part holding it.
    assert_eq!(gemini::read_call(&parts[1], 1).unwrap(), calls[1]);
    assert_eq!(
        gemini::read_call(&parts[1]["functionCall"], 1).unwrap(),
        calls[1]
    );

    let results = run_all(&calls).await;
    let parts: Vec<Value> = results.iter().map(gemini::write_result).collect();
    // The documented function response parts carry `name` and `response`;
    // the made-up id is left out again.
    assert_json(
        &Value::Array(parts),
        &json!([
            {"functionResponse": {"name": "get_current_temperature", "response": {"output": "15C"}}},
            {"functionResponse": {"name": "get_current_temperature", "response": {"output": "12C"}}},
        ]),
    );
}

#[tokio::test]
async fn gemini_calls_with_an_id_keep_it() {
    // FunctionCall's JSON representation (ai.google.dev/api/caching#FunctionCall):
    // {"id": string, "name": string, "args": {object}}. The id value is ours.
    let part = json!({
        "functionCall": {
            "id": "fc-paris-1",
            "name": "get_current_temperature",
            "args": {"location": "Paris"}
        }
    });
    let call = gemini::read_call(&part, 5).unwrap();
    assert_eq!(
        call,
        ToolCall::new(
            "fc-paris-1",
            "get_current_temperature",
            json!({"location": "Paris"})
        )
    );
    assert_json(
        &gemini::write_result(&run(&call).await),
        &json!({"functionResponse": {
            "name": "get_current_temperature",
            "id": "fc-paris-1",
            "response": {"output": "15C"},
        }}),
    );

    // An empty id counts as none.
    let empty = json!({"functionCall": {"id": "", "name": "get_current_temperature", "args": {}}});
    assert_eq!(gemini::read_call(&empty, 2).unwrap().id, "gemini-call-2");
}

#[tokio::test]
async fn gemini_failures_answer_with_an_error_key() {
    // "Use "output" key to specify function output and "error" key to
    // specify error details" (FunctionResponse.response).
    let missing_args = json!({"functionCall": {"name": "get_current_temperature"}});
    let call = gemini::read_call(&missing_args, 0).unwrap();
    assert_eq!(call.arguments, json!({}));
    assert_json(
        &gemini::write_result(&run(&call).await),
        &json!({"functionResponse": {
            "name": "get_current_temperature",
            "response": {"error": "Tool get_current_temperature failed: location: missing required field"},
        }}),
    );

    let unknown =
        json!({"functionCall": {"id": "fc-7", "name": "book_taxi", "args": {"time": "10 AM"}}});
    let call = gemini::read_call(&unknown, 0).unwrap();
    assert_json(
        &gemini::write_result(&run(&call).await),
        &json!({"functionResponse": {
            "name": "book_taxi",
            "id": "fc-7",
            "response": {"error": "Tool book_taxi failed: unknown tool"},
        }}),
    );
}

#[test]
fn gemini_parts_of_the_wrong_shape_are_adapter_errors() {
    assert_refused(
        |part| gemini::read_call(part, 0),
        [
            (
                json!({"functionCall": {"args": {"location": "Paris"}}}),
                "a functionCall: `name` is missing",
            ),
            (
                json!({"functionCall": {"name": 3, "args": {}}}),
                "a functionCall: `name` must be a string, not number",
            ),
            // A text part is not a call.
            (
                json!({"text": "It is 15C in Paris."}),
                "a functionCall: `name` is missing",
            ),
        ],
    );
}

// ---------------------------------------------------------------------------
// MCP
// ---------------------------------------------------------------------------

/// MCP 2025-11-25, server/tools.mdx, "Calling Tools", request.
fn mcp_request() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "get_weather",
            "arguments": {
                "location": "New York"
            }
        }
    })
}

#[tokio::test]
async fn mcp_tools_call_round_trip() {
    let request = mcp_request();
    // MCP params carry no call id: the JSON-RPC request id is passed in.
    let call = mcp::read_call(request["id"].to_string(), &request["params"]).unwrap();
    assert_eq!(
        call,
        ToolCall::new("2", "get_weather", json!({"location": "New York"}))
    );

    let result = run(&call).await;
    // CallToolResult: `content`, `structuredContent` (an object), `isError`
    // (the spec's "Structured Content" and "Output Schema" examples).
    assert_json(
        &mcp::write_result(&result),
        &json!({
            "content": [{"type": "text", "text": "15 degrees celsius in New York"}],
            "structuredContent": {"location": "New York", "temperature": 15, "unit": "celsius"},
            "isError": false,
        }),
    );
}

#[tokio::test]
async fn mcp_input_validation_errors_are_results_with_is_error() {
    // "Input validation errors ... Reported in tool results with
    // `isError: true`" (tools.mdx, Error Handling).
    let params = json!({"name": "get_weather", "arguments": {"location": 10001}});
    let result = run(&mcp::read_call("4", &params).unwrap()).await;
    assert_json(
        &mcp::write_result(&result),
        &json!({
            "content": [{
                "type": "text",
                "text": "Tool get_weather failed: location: expected string, got number 10001",
            }],
            "structuredContent": {"error": "location: expected string, got number 10001"},
            "isError": true,
        }),
    );
}

#[tokio::test]
async fn mcp_structured_content_is_always_an_object() {
    let call = mcp::read_call("5", &json!({"name": "two_lines", "arguments": {}})).unwrap();
    assert_json(
        &mcp::write_result(&run(&call).await),
        &json!({
            "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}],
            "structuredContent": {"value": [1, 2]},
            "isError": false,
        }),
    );
    // No details, no structuredContent; missing or null arguments mean {}.
    for params in [
        json!({"name": "no_details"}),
        json!({"name": "no_details", "arguments": null}),
    ] {
        let call = mcp::read_call("6", &params).unwrap();
        assert_eq!(call, ToolCall::new("6", "no_details", json!({})));
        assert_json(
            &mcp::write_result(&run(&call).await),
            &json!({"content": [{"type": "text", "text": "done"}], "isError": false}),
        );
    }
}

#[test]
fn mcp_params_of_the_wrong_shape_are_adapter_errors() {
    assert_refused(
        |params| mcp::read_call("3", params),
        [
            (
                json!({"arguments": {"location": "New York"}}),
                "tools/call params: `name` is missing",
            ),
            (
                json!({"name": ["get_weather"]}),
                "tools/call params: `name` must be a string, not array",
            ),
        ],
    );
}
