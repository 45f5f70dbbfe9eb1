//! A served registry runs with the options its server was given, as any
//! other call does: hooks, repair, the enabled tools, a caller's signal.
//! Client and server talk over an in-process pipe (stdio's framing).

use super::{bounded, call, connect};
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::{
    RunOptions, ToolContext, ToolRegistry, executor::HookDecision, repair::RepairPolicy, tool,
};
use tool_mcp::McpServer;

/// Add two numbers
#[tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Delete everything
#[tool(destructive)]
async fn wipe() -> String {
    "wiped".to_owned()
}

/// Keeps watch until cancelled
#[tool]
async fn vigil(ctx: ToolContext) -> String {
    ctx.cancelled().await;
    "relieved".to_owned()
}

fn tools() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(AddTool).unwrap();
    tools.register(WipeTool).unwrap();
    tools.register(VigilTool).unwrap();
    tools
}

#[tokio::test]
async fn a_bare_server_does_not_repair_and_a_server_told_to_does() {
    bounded(async {
        let bare = connect(McpServer::new(tools())).await;
        let refused = call(&bare, "add", json!({"a": "2", "b": 3})).await;
        assert_eq!(refused["isError"], true, "{refused}");

        let repairing = McpServer::new(tools())
            .with_call_options(RunOptions::new().with_repair(RepairPolicy::all()));
        let client = connect(repairing).await;
        let repaired = call(&client, "add", json!({"a": "2", "b": 3})).await;
        assert_eq!(repaired["isError"], false, "{repaired}");
        assert_eq!(repaired["content"][0]["text"], "5", "{repaired}");
    })
    .await;
}

#[tokio::test]
async fn hooks_run_on_served_calls() {
    bounded(async {
        let server = McpServer::new(tools()).with_call_options(RunOptions::new().with_before_hook(
            |call| async move {
                Ok(if call.tool_name == "wipe" {
                    HookDecision::Block("a person said no".into())
                } else {
                    HookDecision::Allow
                })
            },
        ));
        let client = connect(server).await;
        let blocked = call(&client, "wipe", json!({})).await;
        // A denied call (`FailureKind::Denied`) is a tool error in MCP.
        assert_eq!(blocked["isError"], true, "{blocked}");
        assert!(
            blocked["content"].to_string().contains("a person said no"),
            "{blocked}"
        );
        let added = call(&client, "add", json!({"a": 2, "b": 3})).await;
        assert_eq!(added["content"][0]["text"], "5");
    })
    .await;
}

#[tokio::test]
async fn only_enabled_tools_are_listed_and_callable() {
    bounded(async {
        let server =
            McpServer::new(tools()).with_call_options(RunOptions::new().with_enabled(["add"]));
        let client = connect(server).await;
        let listed: Vec<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|tool| tool.name.to_string())
            .collect();
        assert_eq!(listed, ["add"]);
        let arguments = serde_json::Map::new();
        let error = client
            .call_tool(CallToolRequestParams::new("wipe").with_arguments(arguments))
            .await
            .expect_err("a tool that is not enabled is unknown");
        assert!(error.to_string().contains("Unknown tool: wipe"), "{error}");
        // A misspelling of a tool it may call is told which one; never a
        // tool the options do not enable.
        let error = client
            .call_tool(CallToolRequestParams::new("ad").with_arguments(serde_json::Map::new()))
            .await
            .expect_err("unknown");
        assert!(
            error
                .to_string()
                .contains(r#"Unknown tool: ad (did you mean "add"?)"#),
            "{error}"
        );
        let error = client
            .call_tool(CallToolRequestParams::new("wip").with_arguments(serde_json::Map::new()))
            .await
            .expect_err("unknown");
        assert!(!error.to_string().contains("did you mean"), "{error}");
    })
    .await;
}

#[tokio::test]
async fn the_callers_signal_reaches_every_served_call() {
    bounded(async {
        let stop = CancellationToken::new();
        let server =
            McpServer::new(tools()).with_call_options(RunOptions::new().with_signal(stop.clone()));
        let client = connect(server).await;
        let peer = client.peer().clone();
        let watching = tokio::spawn(async move {
            peer.call_tool(CallToolRequestParams::new("vigil"))
                .await
                .expect("answered")
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        stop.cancel();
        let result = watching.await.unwrap();
        assert_eq!(result.content[0].as_text().unwrap().text, "relieved");
    })
    .await;
}
