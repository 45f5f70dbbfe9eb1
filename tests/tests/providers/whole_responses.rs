//! Whole responses in, the next request's messages out, for every
//! provider: `read_calls` finds every call of a response (or of the part
//! already picked out of it), `execute_tool_calls` runs them, and
//! `next_messages` / `next_input` / `next_contents` give what the next
//! request appends, the assistant's turn echoed unchanged first. A response
//! without the part that holds calls is an error saying which part.

use serde_json::{Value, json};
use tool_core::providers::{AdapterErrorKind, anthropic, gemini, openai_chat, openai_responses};
use tool_core::{ExecutionMode, RunOptions, ToolCall, ToolRegistry, execute_tool_calls, tool};

/// Get the weather for a city
#[tool(read_only)]
async fn get_weather(city: String) -> String {
    format!("{city}: 21 C")
}

fn tools() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(GetWeatherTool).unwrap();
    tools
}

async fn run(calls: &[ToolCall]) -> Vec<tool_core::ToolResultMessage> {
    execute_tool_calls(calls, &tools(), RunOptions::new(), ExecutionMode::Parallel).await
}

#[tokio::test]
async fn openai_chat_a_turn_of_two_calls() {
    let response = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{
        "index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}}]}}]});
    let calls = openai_chat::read_calls(&response).unwrap();
    assert_eq!(calls.len(), 2);
    // The message already picked out reads the same.
    assert_eq!(
        openai_chat::read_calls(&response["choices"][0]["message"]).unwrap(),
        calls
    );
    let next = openai_chat::next_messages(&response, &run(&calls).await).unwrap();
    assert_eq!(next.len(), 3);
    assert_eq!(next[0], response["choices"][0]["message"]);
    assert_eq!(
        next[1],
        json!({"role": "tool", "tool_call_id": "call_a", "content": "Paris: 21 C"})
    );
    assert_eq!(next[2]["tool_call_id"], "call_b");

    let words = json!({"choices": [{"message": {"role": "assistant", "content": "Sunny."}}]});
    assert!(openai_chat::read_calls(&words).unwrap().is_empty());
    let error = openai_chat::read_calls(&json!({"id": "x"})).unwrap_err();
    assert_eq!(error.kind(), AdapterErrorKind::Missing);
    assert_eq!(error.message(), "a response: no `choices[0].message` in it");
}

#[tokio::test]
async fn anthropic_keeps_every_block_and_answers_in_one_user_message() {
    let response = json!({"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [
            {"type": "thinking", "thinking": "Two cities.", "signature": "sig"},
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Rome"}}]});
    let calls = anthropic::read_calls(&response).unwrap();
    let ids: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
    assert_eq!(ids, ["toolu_a", "toolu_b"]);
    let next = anthropic::next_messages(&response, &run(&calls).await).unwrap();
    assert_eq!(
        next[0],
        json!({"role": "assistant", "content": response["content"]})
    );
    let answers = next[1]["content"].as_array().unwrap();
    let kinds: Vec<&Value> = answers.iter().map(|answer| &answer["type"]).collect();
    assert_eq!(kinds, [&json!("tool_result"), &json!("tool_result")]);
    assert_eq!(answers[1]["content"][0]["text"], "Rome: 21 C");
    let error = anthropic::read_calls(&json!({"id": "msg"})).unwrap_err();
    assert_eq!(error.message(), "a response: no `content` in it");
}

#[tokio::test]
async fn openai_responses_sends_the_output_back_then_the_outputs() {
    let response = json!({"id": "resp_1", "object": "response", "output": [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
        {"type": "function_call", "id": "fc_a", "call_id": "call_a", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
        {"type": "function_call", "id": "fc_b", "call_id": "call_b", "name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}]});
    let calls = openai_responses::read_calls(&response).unwrap();
    assert_eq!(calls.len(), 2);
    let next = openai_responses::next_input(&response, &run(&calls).await).unwrap();
    assert_eq!(next[..3], response["output"].as_array().unwrap()[..]);
    assert_eq!(
        next[3],
        json!({"type": "function_call_output", "call_id": "call_a", "output": "Paris: 21 C"})
    );
}

#[tokio::test]
async fn gemini_echoes_the_model_content_then_its_function_responses() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Checking."},
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "c2ln"},
        {"functionCall": {"id": "fc-2", "name": "get_weather", "args": {"city": "Rome"}}}]},
        "finishReason": "STOP"}]});
    let calls = gemini::read_calls(&response).unwrap();
    let ids: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
    assert_eq!(ids, ["gemini-call-0", "fc-2"]);
    let next = gemini::next_contents(&response, &run(&calls).await).unwrap();
    assert_eq!(next[0], response["candidates"][0]["content"]);
    let parts = next[1]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    // A generated id is not Gemini's: left out of its answer.
    assert!(parts[0]["functionResponse"].get("id").is_none());
    assert_eq!(parts[1]["functionResponse"]["id"], "fc-2");
}

#[test]
fn a_turn_without_results_appends_only_the_assistants_turn() {
    let claude = json!({"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]});
    assert_eq!(
        anthropic::next_messages(&claude, &[]).unwrap(),
        [json!({"role": "assistant", "content": claude["content"]})]
    );
    let gemini =
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}]}}]});
    assert_eq!(
        gemini::next_contents(&gemini, &[]).unwrap(),
        [gemini["candidates"][0]["content"].clone()]
    );
    let chat = json!({"choices": [{"message": {"role": "assistant", "content": "Sunny."}}]});
    assert_eq!(openai_chat::next_messages(&chat, &[]).unwrap().len(), 1);
}
