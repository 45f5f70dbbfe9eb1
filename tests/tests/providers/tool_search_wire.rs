//! What a provider is sent when a request has many tools: Anthropic's three
//! ways of finding deferred tools (its BM25 and regex search tools, or the
//! built-in `tool_search` answering with `tool_reference` blocks, which
//! keeps the tools block the same every turn), and the diagnostic of a
//! request with more tools than a provider takes.

use serde_json::{Value, json};
use tool_core::providers::anthropic::{self, ToolSearch};
use tool_core::providers::{Strict, gemini, openai_chat};
use tool_core::toolset::Toolset;
use tool_core::{
    DynamicTool, RunOptions, ToolCall, ToolDefinition, ToolOutput, ToolRegistry, execute_tool_call,
};

fn tool(name: &str, description: &str) -> DynamicTool {
    DynamicTool::new(name, description, |_args, _ctx| async {
        Ok(ToolOutput::text("ok"))
    })
}

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(tool("echo", "Echo a value")).unwrap();
    tools
        .register_all(
            Toolset::new("extra")
                .with(tool("get_weather", "Get the weather forecast for a city"))
                .with(tool("stock_quote", "Get the latest price of a stock"))
                .deferred(),
        )
        .unwrap();
    tools
}

#[test]
fn anthropic_searches_by_bm25_by_regex_or_by_reference() {
    let tools = registry();
    let native = tools.definitions_for_native_search(&RunOptions::new());
    let names = |value: &Value| -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let bm25 = anthropic::tools_with_search(&native, Strict::Off, ToolSearch::Bm25);
    assert_eq!(bm25.value, anthropic::tools(&native, Strict::Off).value);
    assert_eq!(
        names(&bm25.value),
        [
            "echo",
            "get_weather",
            "stock_quote",
            "tool_search_tool_bm25"
        ]
    );
    assert_eq!(bm25.value[3]["type"], "tool_search_tool_bm25_20251119");
    let regex = anthropic::tools_with_search(&native, Strict::Off, ToolSearch::Regex);
    assert_eq!(
        regex.value[3],
        json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"})
    );

    // By reference: the built-in search is sent, no server tool.
    let referenced = tools.definitions_for_referenced_search(&RunOptions::new());
    let client = anthropic::tools_with_search(&referenced, Strict::Off, ToolSearch::Client);
    assert_eq!(
        names(&client.value),
        ["echo", "get_weather", "stock_quote", "tool_search"]
    );
    let deferred: Vec<bool> = client
        .value
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["defer_loading"] == true)
        .collect();
    assert_eq!(deferred, [false, true, true, false]);
    assert!(client.diagnostics.is_empty(), "{:?}", client.diagnostics);
}

#[tokio::test]
async fn the_builtin_search_answers_anthropic_with_tool_references() {
    let tools = registry();
    let call = ToolCall::new(
        "toolu_01",
        "tool_search",
        json!({"query": "weather forecast"}),
    );
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    let written = anthropic::write_result_referencing(&result);
    assert_eq!(
        written,
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": [{"type": "tool_reference", "tool_name": "get_weather"}],
        })
    );
    // Nothing found: the search's own words, as any result.
    let nothing = ToolCall::new("toolu_02", "tool_search", json!({"query": "zzz qqq"}));
    let result = execute_tool_call(&nothing, &tools, RunOptions::new()).await;
    assert_eq!(
        anthropic::write_result_referencing(&result),
        anthropic::write_result(&result)
    );
    // Another tool's result is untouched.
    let echo = ToolCall::new("toolu_03", "echo", json!({}));
    let result = execute_tool_call(&echo, &tools, RunOptions::new()).await;
    assert_eq!(
        anthropic::write_result_referencing(&result),
        anthropic::write_result(&result)
    );
}

#[test]
fn anthropic_refuses_a_request_whose_every_tool_is_deferred() {
    let mut only = ToolDefinition::new("weather", "Get the weather", json!({"type": "object"}));
    only.defer_loading = true;
    let converted = anthropic::tools_with_search(&[only], Strict::Off, ToolSearch::Client);
    assert_eq!(converted.diagnostics.len(), 1);
    assert!(
        converted.diagnostics[0]
            .message
            .contains("At least one tool must have defer_loading=false"),
        "{}",
        converted.diagnostics[0]
    );
}

#[test]
fn more_tools_than_a_provider_takes_is_said_once_on_the_first_past_the_limit() {
    let definitions: Vec<ToolDefinition> = (0..600)
        .map(|i| ToolDefinition::new(format!("tool_{i}"), "A tool", json!({"type": "object"})))
        .collect();
    let chat = openai_chat::tools(&definitions[..129], Strict::Off);
    let over: Vec<_> = chat
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.message.contains("refuses more than"))
        .collect();
    assert_eq!(over.len(), 1, "{:?}", chat.diagnostics);
    assert_eq!(over[0].tool, "tool_128");
    assert!(
        over[0]
            .message
            .starts_with("the request has 129 tools, and OpenAI refuses more than 128"),
        "{}",
        over[0]
    );
    assert!(
        openai_chat::tools(&definitions[..128], Strict::Off)
            .diagnostics
            .iter()
            .all(|diagnostic| !diagnostic.message.contains("refuses more than"))
    );
    let gemini = gemini::tools(&definitions, gemini::Dialect::JsonSchema);
    let over: Vec<_> = gemini
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.message.contains("refuses more than 512"))
        .collect();
    assert_eq!(over.len(), 1);
    assert_eq!(over[0].tool, "tool_512");
    // Anthropic documents no limit on a request's tools.
    assert!(
        anthropic::tools(&definitions, Strict::Off)
            .diagnostics
            .is_empty()
    );
}

#[tokio::test]
async fn openai_groups_deferred_tools_in_namespaces_and_reads_their_calls() {
    use tool_core::providers::openai_responses::{self, Namespace};
    let tools = registry();
    let native = tools.definitions_for_native_search(&RunOptions::new());
    let written = openai_responses::tools_in_namespaces(&native, Strict::Off, |definition| {
        Some(Namespace::new("markets", "Weather and stock prices"))
            .filter(|_| definition.name != "echo")
    });
    let value = written.value.as_array().unwrap();
    assert_eq!(value.len(), 3, "{value:?}");
    assert_eq!(value[0]["name"], "echo");
    assert!(value[0].get("defer_loading").is_none());
    assert_eq!(value[1]["type"], "namespace");
    assert_eq!(value[1]["name"], "markets");
    assert!(
        value[1].get("defer_loading").is_none(),
        "not on the namespace itself"
    );
    let inside: Vec<&Value> = value[1]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| &tool["name"])
        .collect();
    assert_eq!(inside, [&json!("get_weather"), &json!("stock_quote")]);
    assert_eq!(value[1]["tools"][0]["defer_loading"], true);
    assert_eq!(value[2], json!({"type": "tool_search"}));

    // A call from inside the namespace names the tool as registered.
    let item = json!({"type": "function_call", "call_id": "call_1", "name": "get_weather",
        "namespace": "markets", "arguments": "{}"});
    let call = openai_responses::read_call(&item).unwrap();
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    assert!(!result.is_error, "{result:?}");

    // More than 9 in one namespace: advised against, said.
    let many: Vec<ToolDefinition> = (0..12)
        .map(|i| {
            let mut definition =
                ToolDefinition::new(format!("t{i}"), "A tool", json!({"type": "object"}));
            definition.defer_loading = true;
            definition
        })
        .collect();
    let crowded = openai_responses::tools_in_namespaces(&many, Strict::Off, |_| {
        Some(Namespace::new("all", "Everything"))
    });
    assert!(
        crowded
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.message.contains("holds 12 functions")),
        "{:?}",
        crowded.diagnostics
    );
}
