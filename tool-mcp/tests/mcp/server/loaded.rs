//! A server whose tools are deferred keeps, per session, the tools its
//! searches found: the session's `tools/list` then includes them and its
//! client is told (`notifications/tools/list_changed`), while another
//! session's list is unchanged. A client without a session (stateless
//! HTTP, MCP 2026-07-28) is shown every tool, unless the server keeps
//! deferral for it. rmcp's client over streamable HTTP, and over a pipe
//! for stdio.

use super::tools_changed::{Told, connect, names};
use crate::support::{bounded, registry, start_server};
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use tokio::sync::mpsc;
use tool_core::ToolRegistry;
use tool_core::toolset::IntoToolset;
use tool_mcp::McpServer;

/// `echo` up front, `nap` deferred behind `tool_search`.
fn deferred() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register_all(registry().into_toolset().deferred_except(&["echo"]))
        .unwrap();
    tools
}

/// `tool_search` for `query`: the text of its answer.
async fn search(client: &RunningService<RoleClient, Told>, query: &str) -> String {
    let arguments = json!({"query": query}).as_object().unwrap().clone();
    let answer = client
        .call_tool(CallToolRequestParams::new("tool_search").with_arguments(arguments))
        .await
        .expect("tool_search answers");
    answer.content[0].as_text().unwrap().text.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_loads_what_it_found_into_its_sessions_list_and_tells_the_client() {
    bounded(async {
        let server = McpServer::new(deferred());
        let running = start_server(server.clone(), |http| http).await;
        let url = format!("http://{}/mcp", running.address);
        let (client, mut told) = connect(&url, ProtocolVersion::V_2025_11_25).await;
        let (other, _other_told) = connect(&url, ProtocolVersion::V_2025_11_25).await;
        assert_eq!(names(&client).await, ["echo", "tool_search"]);

        let found = search(&client, "answers after milliseconds").await;
        assert!(found.contains("nap"), "{found}");
        told.recv().await.expect("told the tools changed");
        assert_eq!(names(&client).await, ["echo", "nap", "tool_search"]);
        let rested = client
            .call_tool(
                CallToolRequestParams::new("nap")
                    .with_arguments(json!({"ms": 1}).as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_eq!(rested.content[0].as_text().unwrap().text, "rested");

        // The loaded set is the session's own.
        assert_eq!(names(&other).await, ["echo", "tool_search"]);

        // Found again: nothing new, so nothing to tell; a search that
        // finds nothing deferred tells nothing either. A change made
        // after them is told once: had either search told, there would
        // be two notifications, both sent before the list that follows.
        search(&client, "answers after milliseconds").await;
        search(&client, "echo one value").await;
        server.update_tools(|_| ());
        told.recv().await.expect("told of the change");
        names(&client).await;
        assert!(matches!(
            told.try_recv(),
            Err(mpsc::error::TryRecvError::Empty)
        ));
        client.cancel().await.unwrap();
        other.cancel().await.unwrap();
        running.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_session_every_tool_is_listed_unless_deferral_is_kept() {
    bounded(async {
        for (server, expected) in [
            (
                McpServer::new(deferred()),
                vec!["echo", "nap", "tool_search"],
            ),
            (
                McpServer::new(deferred()).with_deferral_without_sessions(),
                vec!["echo", "tool_search"],
            ),
        ] {
            // Stateless HTTP, on a revision with sessions.
            let running = start_server(server.clone(), |http| http.stateless()).await;
            let url = format!("http://{}/mcp", running.address);
            let (client, _told) = connect(&url, ProtocolVersion::V_2025_06_18).await;
            assert_eq!(names(&client).await, expected, "stateless");
            client.cancel().await.unwrap();
            running.stop().await;

            // 2026-07-28, which has no sessions, against a server with them.
            let running = start_server(server, |http| http).await;
            let url = format!("http://{}/mcp", running.address);
            let (client, _told) = connect(&url, ProtocolVersion::V_2026_07_28).await;
            assert_eq!(names(&client).await, expected, "2026-07-28");
            client.cancel().await.unwrap();
            running.stop().await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_the_connection_is_the_session() {
    bounded(async {
        let (changed, mut told) = mpsc::unbounded_channel();
        let handler = Told {
            revision: ProtocolVersion::V_2025_11_25,
            changed,
        };
        let client = handler
            .serve(super::serve(McpServer::new(deferred())))
            .await
            .expect("initialize succeeds");
        assert_eq!(names(&client).await, ["echo", "tool_search"]);
        search(&client, "answers after milliseconds").await;
        told.recv().await.expect("told the tools changed");
        assert_eq!(names(&client).await, ["echo", "nap", "tool_search"]);
        client.cancel().await.unwrap();
    })
    .await;
}
