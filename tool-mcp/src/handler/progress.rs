//! A call's progress, as MCP progress notifications.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc;
use tool_core::Content;
use tool_core::providers::content_text;

/// Sends a call's progress updates as MCP progress notifications, in order,
/// from a task of its own: a tool reports progress synchronously, sending is
/// async.
pub(super) struct ProgressForwarder {
    /// `None` marks the end: a tool may keep its context (and so a sender)
    /// alive past the call, so the channel closing cannot be waited for.
    pub sender: mpsc::UnboundedSender<Option<Vec<Content>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ProgressForwarder {
    pub(super) fn start(peer: Peer<RoleServer>, token: ProgressToken) -> Self {
        let (sender, mut updates) = mpsc::unbounded_channel::<Option<Vec<Content>>>();
        let task = tokio::spawn(async move {
            let mut step = 0.0;
            while let Some(Some(content)) = updates.recv().await {
                step += 1.0;
                let message = content_text(&content);
                let notification =
                    ProgressNotificationParam::new(token.clone(), step).with_message(message);
                // A client that went away cannot be told; the call goes on.
                let _ = peer.notify_progress(notification).await;
            }
        });
        ProgressForwarder { sender, task }
    }

    /// Waits until every update is sent, so none arrives after the result.
    pub(super) async fn finish(self) {
        let _ = self.sender.send(None);
        let _ = self.task.await;
    }
}
