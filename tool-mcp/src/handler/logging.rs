//! What a tool logs ([`ToolContext::log`](tool_core::ToolContext::log)),
//! sent to the client as `notifications/message`, at or above the level
//! the client asked for with `logging/setLevel`, or every message when it
//! asked for none (as the official SDKs' servers do)
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging>).
//! Each message names its tool as the `logger`, and all of a call's
//! messages are sent before its result, in the order logged.
//!
//! rmcp marks MCP's logging deprecated (SEP-2577, for revisions after
//! 2025-11-25); the revisions this server speaks still have it, and the
//! conformance suite checks it.
#![expect(
    deprecated,
    reason = "MCP's logging types: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
)]

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc;
use tool_core::{LogFn, LogLevel};

/// The least level of the messages a session asked for. Each session
/// has its own: the HTTP transport serves each session with a clone of
/// the server, and a clone starts with a level of its own (stdio serves
/// one session; a stateless request is a session of its own).
#[derive(Default)]
pub(crate) struct SessionLogLevel(Mutex<Option<LogLevel>>);

impl SessionLogLevel {
    /// What `logging/setLevel` asked.
    pub(super) fn set(&self, level: LoggingLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(from_mcp(level));
    }

    /// The least level wanted: every level when none was asked.
    fn least(&self) -> LogLevel {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .unwrap_or(LogLevel::Debug)
    }
}

/// A call's messages on their way to the client: a task sends them in
/// order, started by the first message (most calls log nothing, and
/// start nothing).
pub(super) struct LogForwarder {
    peer: Peer<RoleServer>,
    tool: String,
    least: LogLevel,
    running: Mutex<Option<Running>>,
}

struct Running {
    /// `None` marks the end: a tool may keep its context (and so the sink)
    /// past the call.
    sender: mpsc::UnboundedSender<Option<(LogLevel, String)>>,
    task: tokio::task::JoinHandle<()>,
}

impl LogForwarder {
    /// The forwarder of a call of `tool` in the request `context`, at the
    /// level its session asked for.
    pub(super) fn new(
        level: &SessionLogLevel,
        context: &RequestContext<RoleServer>,
        tool: &str,
    ) -> Arc<Self> {
        Arc::new(LogForwarder {
            peer: context.peer.clone(),
            tool: tool.to_owned(),
            least: level.least(),
            running: Mutex::default(),
        })
    }

    /// The sink the call's tool logs into.
    pub(super) fn sink(self: &Arc<Self>) -> LogFn {
        let forwarder = Arc::clone(self);
        Arc::new(move |level: LogLevel, message: &str| forwarder.send(level, message))
    }

    fn send(&self, level: LogLevel, message: &str) {
        if level < self.least {
            return;
        }
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        let running = running.get_or_insert_with(|| self.start());
        // The task ends only when told to: a send fails only after that.
        let _ = running.sender.send(Some((level, message.to_owned())));
    }

    fn start(&self) -> Running {
        let (sender, mut messages) = mpsc::unbounded_channel::<Option<(LogLevel, String)>>();
        let peer = self.peer.clone();
        let tool = self.tool.clone();
        let task = tokio::spawn(async move {
            while let Some(Some((level, message))) = messages.recv().await {
                let notification =
                    LoggingMessageNotificationParam::new(to_mcp(level), message.into())
                        .with_logger(tool.clone());
                // A client that went away cannot be told; the call goes on.
                let _ = peer.notify_logging_message(notification).await;
            }
        });
        Running { sender, task }
    }

    /// Waits until every message logged so far is sent, so none arrives
    /// after the result.
    pub(super) async fn finish(&self) {
        let running = self
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(running) = running {
            let _ = running.sender.send(None);
            let _ = running.task.await;
        }
    }
}

fn from_mcp(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn to_mcp(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}
