//! What the model reads of a refused call, in every provider's result
//! shape: the value it sent quoted, the bound a repaired value breaks, and
//! the closest names of an unknown tool. The executor writes the words
//! once; each format must carry them to the model unchanged.

use serde_json::{Value, json};
use tool_core::providers::{anthropic, gemini, mcp, openai_chat, openai_responses};
use tool_core::repair::RepairPolicy;
use tool_core::{
    RunOptions, ToolCall, ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call, tool,
};

/// Days of forecast.
#[derive(ToolParams, Debug)]
struct Days {
    /// How many days
    #[param(min = 1, max = 20)]
    days: u32,
}

/// Get the weather forecast
#[tool]
async fn get_weather(days: Days) -> String {
    format!("{} days", days.days)
}

/// Every provider's text of `result`.
fn every_shape(result: &ToolResultMessage) -> Vec<(&'static str, String)> {
    let text = |value: Value| value.to_string();
    vec![
        ("openai_chat", text(openai_chat::write_result(result))),
        (
            "openai_responses",
            text(openai_responses::write_result(result)),
        ),
        ("anthropic", text(anthropic::write_result(result))),
        ("gemini", text(gemini::write_result(result))),
        ("mcp", text(mcp::write_result(result))),
    ]
}

async fn answer(name: &str, arguments: Value, options: RunOptions) -> ToolResultMessage {
    let mut tools = ToolRegistry::new();
    tools.register(GetWeatherTool).unwrap();
    execute_tool_call(&ToolCall::new("c1", name, arguments), &tools, options).await
}

#[tokio::test]
async fn every_format_carries_the_quoted_value_the_bound_and_the_near_names() {
    let cases = [
        (
            answer(
                "get_weather",
                json!({"days": {"days": "5"}}),
                RunOptions::new(),
            )
            .await,
            r#"days.days: expected integer, got string \"5\""#,
        ),
        (
            answer(
                "get_weather",
                json!({"days": {"days": "50"}}),
                RunOptions::new().with_repair(RepairPolicy::all()),
            )
            .await,
            r#"days.days: expected integer <= 20, got string \"50\""#,
        ),
        (
            answer("get_wether", json!({}), RunOptions::new()).await,
            r#"did you mean \"get_weather\""#,
        ),
    ];
    for (result, words) in &cases {
        assert!(result.is_error, "{result:?}");
        for (format, written) in every_shape(result) {
            assert!(written.contains(words), "{format}: {written} lacks {words}");
        }
    }
}
