//! What a tool logs reaches the client as `notifications/message`, named
//! by the tool, at or above the level the session asked for with
//! `logging/setLevel` (every level when it asked for none); another
//! session's level is its own. rmcp's client, over stdio's kind of pipe
//! and over streamable HTTP (where rmcp sends them on the session's
//! stream).
#![expect(
    deprecated,
    reason = "MCP's logging: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
)]

use super::serve;
use crate::support::{bounded, start_server};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, LoggingLevel,
    LoggingMessageNotificationParam, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use std::time::Duration;
use tokio::sync::mpsc;
use tool_core::{DynamicTool, LogLevel, ToolOutput, ToolRegistry};
use tool_mcp::McpServer;

fn chatty() -> McpServer {
    let mut tools = ToolRegistry::new();
    tools
        .register(DynamicTool::new(
            "chatty",
            "Log, then answer",
            |_args, ctx| async move {
                ctx.debug("looking");
                ctx.info("found 3");
                ctx.log(LogLevel::Warning, "one was stale");
                Ok(ToolOutput::text("done"))
            },
        ))
        .unwrap();
    McpServer::new(tools)
}

/// A client that passes on each message it is sent.
#[derive(Clone)]
struct Listener(mpsc::UnboundedSender<LoggingMessageNotificationParam>);

impl ClientHandler for Listener {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("logging-test", "0.1.0"),
        )
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params);
    }
}

type Heard = mpsc::UnboundedReceiver<LoggingMessageNotificationParam>;

/// Calls `chatty`, then gives `(level, logger, data)` of the `count`
/// messages heard, and that no more came.
async fn call_and_hear(
    client: &RunningService<RoleClient, Listener>,
    heard: &mut Heard,
    count: usize,
) -> Vec<(LoggingLevel, String, String)> {
    let answer = client
        .call_tool(CallToolRequestParams::new("chatty"))
        .await
        .unwrap();
    assert_eq!(answer.content[0].as_text().unwrap().text, "done");
    let mut messages = Vec::new();
    for _ in 0..count {
        let message = heard.recv().await.expect("a message");
        messages.push((
            message.level,
            message.logger.unwrap_or_default(),
            message.data.as_str().unwrap_or_default().to_owned(),
        ));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(heard.try_recv().is_err(), "no more than {count}");
    messages.sort_by_key(|(level, ..)| *level as u8);
    messages
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_level_when_none_was_asked_then_the_level_asked() {
    bounded(async {
        let (sender, mut heard) = mpsc::unbounded_channel();
        let client = Listener(sender).serve(serve(chatty())).await.unwrap();
        let all = call_and_hear(&client, &mut heard, 3).await;
        assert_eq!(
            all,
            [
                (
                    LoggingLevel::Debug,
                    "chatty".to_owned(),
                    "looking".to_owned()
                ),
                (
                    LoggingLevel::Info,
                    "chatty".to_owned(),
                    "found 3".to_owned()
                ),
                (
                    LoggingLevel::Warning,
                    "chatty".to_owned(),
                    "one was stale".to_owned()
                ),
            ]
        );
        client
            .peer()
            .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
            .await
            .unwrap();
        let warned = call_and_hear(&client, &mut heard, 1).await;
        assert_eq!(warned[0].2, "one was stale");
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_each_session_has_its_own_level() {
    bounded(async {
        let running = start_server(chatty(), |http| http).await;
        let url = format!("http://{}/mcp", running.address);
        let (quiet_sender, mut quiet_heard) = mpsc::unbounded_channel();
        let quiet = Listener(quiet_sender)
            .serve(StreamableHttpClientTransport::from_uri(url.as_str()))
            .await
            .unwrap();
        let (loud_sender, mut loud_heard) = mpsc::unbounded_channel();
        let loud = Listener(loud_sender)
            .serve(StreamableHttpClientTransport::from_uri(url.as_str()))
            .await
            .unwrap();
        quiet
            .peer()
            .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
            .await
            .unwrap();
        assert!(call_and_hear(&quiet, &mut quiet_heard, 0).await.is_empty());
        assert_eq!(call_and_hear(&loud, &mut loud_heard, 3).await.len(), 3);
        quiet.cancel().await.unwrap();
        loud.cancel().await.unwrap();
        running.stop().await;
    })
    .await;
}
