//! Imported MCP servers as toolsets (`McpClient::toolset`), against our
//! own servers in process over streamable HTTP: an upstream's tools
//! deferred behind `tool_search` are found and called through to the
//! upstream; two servers with a tool of the same name collide, the error
//! naming both, until each gets a prefix.

use crate::support::{Running, bounded, start_with};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tool_core::toolset::Toolset;
use tool_core::{
    DynamicTool, RunOptions, ToolCall, ToolOutput, ToolRegistry, ToolResultMessage,
    execute_tool_call,
};
use tool_mcp::client::{McpClient, Upstream};

/// A tool answering `<server>: <arguments>`, counting its calls.
fn answering(
    server: &'static str,
    name: &'static str,
    description: &str,
    calls: &Arc<AtomicUsize>,
) -> DynamicTool {
    let calls = Arc::clone(calls);
    DynamicTool::new(
        name,
        description,
        move |arguments: Map<String, Value>, _ctx| {
            calls.fetch_add(1, Ordering::SeqCst);
            async move {
                Ok(ToolOutput::text(format!(
                    "{server}: {}",
                    Value::Object(arguments)
                )))
            }
        },
    )
    .with_parameters(json!({
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    }))
}

/// An upstream serving `tools` on a free loopback port, and a client of it.
async fn upstream(tools: Vec<DynamicTool>) -> (Running, McpClient, String) {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).unwrap();
    }
    let running = start_with(registry, |server| server).await;
    let url = format!("http://{}/mcp", running.address);
    let client = McpClient::connect(Upstream::http(url.clone()))
        .await
        .expect("the client connects");
    (running, client, url)
}

async fn run(tools: &ToolRegistry, name: &str, arguments: Value) -> ToolResultMessage {
    let call = ToolCall::new(format!("call-{name}"), name, arguments);
    execute_tool_call(&call, tools, RunOptions::new()).await
}

fn text(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_finds_an_imported_tool_and_its_call_reaches_the_upstream() {
    bounded(async {
        let calls = Arc::new(AtomicUsize::new(0));
        let (running, client, _url) = upstream(vec![
            answering(
                "up",
                "forecast",
                "Get the weather forecast for a city",
                &calls,
            ),
            answering(
                "up",
                "translate",
                "Translate a text into another language",
                &calls,
            ),
            answering(
                "up",
                "quote",
                "Get the latest stock price of a symbol",
                &calls,
            ),
        ])
        .await;
        let mut tools = ToolRegistry::new();
        tools
            .register_all(Toolset::new("local").with(DynamicTool::new(
                "ping",
                "Answer pong",
                |_args, _ctx| async { Ok(ToolOutput::text("pong")) },
            )))
            .unwrap();
        tools
            .register_all(client.toolset().unwrap().prefixed("up").deferred())
            .unwrap();
        let shown: Vec<String> = tools
            .definitions_for(&RunOptions::new())
            .into_iter()
            .map(|definition| definition.name)
            .collect();
        assert_eq!(shown, ["ping", "tool_search"]);

        let found = run(&tools, "tool_search", json!({"query": "weather forecast"})).await;
        assert!(!found.is_error, "{}", text(&found));
        assert_eq!(
            found.details.as_ref().unwrap()["found"][0],
            "up_forecast",
            "{}",
            text(&found)
        );
        // The next turn loads what was found.
        let next = RunOptions::new().load_found(std::slice::from_ref(&found));
        let shown: Vec<String> = tools
            .definitions_for(&next)
            .into_iter()
            .map(|definition| definition.name)
            .collect();
        assert_eq!(shown, ["ping", "tool_search", "up_forecast"]);
        assert_eq!(calls.load(Ordering::SeqCst), 0, "a search calls no tool");

        // The prefixed name is ours; the upstream is called by its own.
        let forecast = run(&tools, "up_forecast", json!({"text": "Oslo"})).await;
        assert!(!forecast.is_error, "{}", text(&forecast));
        assert_eq!(text(&forecast), r#"up: {"text":"Oslo"}"#);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        client.close().await;
        running.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_with_one_tool_name_collide_until_each_has_a_prefix() {
    bounded(async {
        let calls = Arc::new(AtomicUsize::new(0));
        let (running_a, a, url_a) =
            upstream(vec![answering("a", "search", "Search the wiki", &calls)]).await;
        let (running_b, b, url_b) =
            upstream(vec![answering("b", "search", "Search the tickets", &calls)]).await;

        let mut tools = ToolRegistry::new();
        tools.register_all(a.toolset().unwrap()).unwrap();
        let clash = tools.register_all(b.toolset().unwrap()).unwrap_err();
        assert_eq!(
            clash.to_string(),
            format!(
                "Tool already exists: search (registered from MCP server {url_a}; the new one is \
                 from MCP server {url_b}); give one side a prefix (Toolset::prefixed) or rename \
                 it (Toolset::renamed)"
            )
        );
        assert_eq!(tools.len(), 1, "nothing of the second server registered");

        let mut tools = ToolRegistry::new();
        tools
            .register_all(a.toolset().unwrap().prefixed("wiki"))
            .unwrap();
        tools
            .register_all(b.toolset().unwrap().prefixed("tickets"))
            .unwrap();
        let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
        assert_eq!(names, ["tickets_search", "wiki_search"]);
        let wiki = run(&tools, "wiki_search", json!({"text": "onboarding"})).await;
        assert_eq!(text(&wiki), r#"a: {"text":"onboarding"}"#);
        let tickets = run(&tools, "tickets_search", json!({"text": "login"})).await;
        assert_eq!(text(&tickets), r#"b: {"text":"login"}"#);
        a.close().await;
        b.close().await;
        running_a.stop().await;
        running_b.stop().await;
    })
    .await;
}
