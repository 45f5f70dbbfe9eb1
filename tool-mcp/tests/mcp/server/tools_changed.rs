//! Tools that change while the server serves (`McpServer::update_tools`,
//! what an upstream connecting late does): every session lists and calls
//! the new ones, and each client is told, with
//! `notifications/tools/list_changed` in its session before 2026-07-28 and
//! through `subscriptions/listen` on 2026-07-28.

use crate::support::{bounded, start_server};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ServerNotification, SubscriptionFilter,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use tokio::sync::mpsc;
use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
use tool_mcp::McpServer;

/// A client that says when it was told the tools changed.
#[derive(Clone)]
pub(super) struct Told {
    pub(super) revision: ProtocolVersion,
    pub(super) changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Told {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("tools-changed-test", "0.1.0"),
        )
        .with_protocol_version(self.revision.clone())
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }
}

pub(super) async fn connect(
    url: &str,
    revision: ProtocolVersion,
) -> (
    RunningService<RoleClient, Told>,
    mpsc::UnboundedReceiver<()>,
) {
    let (changed, told) = mpsc::unbounded_channel();
    let handler = Told {
        revision: revision.clone(),
        changed,
    };
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = if revision == ProtocolVersion::V_2026_07_28 {
        handler
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![revision],
                },
            )
            .await
    } else {
        handler.serve(transport).await
    }
    .expect("the client connects");
    (client, told)
}

/// A tool that answers its own name.
fn named(name: &'static str) -> DynamicTool {
    DynamicTool::new(name, "Answer its name", move |_args, _ctx| async move {
        Ok(ToolOutput::text(name))
    })
}

pub(super) async fn names(client: &RunningService<RoleClient, Told>) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_told_and_lists_and_calls_what_was_added() {
    bounded(async {
        let server = McpServer::new(crate::support::registry());
        let running = start_server(server.clone(), |http| http).await;
        let url = format!("http://{}/mcp", running.address);
        let (client, mut told) = connect(&url, ProtocolVersion::V_2025_06_18).await;
        let capabilities = client.peer().peer_info().unwrap().capabilities.clone();
        assert_eq!(
            capabilities.tools.and_then(|tools| tools.list_changed),
            Some(true),
            "the server says its tools may change"
        );
        assert_eq!(names(&client).await, ["echo", "nap"]);

        server
            .update_tools(|tools| tools.register(named("late")))
            .unwrap();
        told.recv().await.expect("told the tools changed");
        assert_eq!(names(&client).await, ["echo", "late", "nap"]);
        let answer = client
            .call_tool(CallToolRequestParams::new("late"))
            .await
            .unwrap();
        assert_eq!(answer.content[0].as_text().unwrap().text, "late");

        // Replaced by a registry without it: no longer listed nor called.
        server.update_tools(|tools| *tools = crate::support::registry());
        told.recv().await.expect("told again");
        assert_eq!(names(&client).await, ["echo", "nap"]);
        assert!(
            client
                .call_tool(CallToolRequestParams::new("late"))
                .await
                .is_err()
        );
        client.cancel().await.unwrap();
        running.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_listener_is_told() {
    bounded(async {
        let server = McpServer::new(ToolRegistry::new());
        let running = start_server(server.clone(), |http| http).await;
        let url = format!("http://{}/mcp", running.address);
        let (client, _told) = connect(&url, ProtocolVersion::V_2026_07_28).await;
        let mut filter = SubscriptionFilter::new();
        filter.tools_list_changed = Some(true);
        let mut subscription = client.peer().listen(filter).await.expect("listening");
        assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));

        server
            .update_tools(|tools| tools.register(named("late")))
            .unwrap();
        let heard = subscription.next().await.expect("a notification");
        assert!(
            matches!(
                heard,
                Some(ServerNotification::ToolListChangedNotification(_))
            ),
            "{heard:?}"
        );
        assert_eq!(names(&client).await, ["late"]);
        subscription.cancel().await.ok();
        client.cancel().await.unwrap();
        running.stop().await;
    })
    .await;
}
