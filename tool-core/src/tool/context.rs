//! What a running tool receives besides its arguments: which call it answers,
//! a cancellation signal, and a sink for progress updates.

use crate::model::Content;
use crate::turn::Turn;
use std::fmt;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Receives progress updates a tool reports while it runs.
pub type ProgressFn = Arc<dyn Fn(Vec<Content>) + Send + Sync>;

/// The context of one tool call, built by the executor.
///
/// `call_id` is always the call's own id: the executor writes it last, so
/// nothing the caller passes can pair a result with another call.
#[derive(Clone, Default)]
pub struct ToolContext {
    /// The id of the call being answered.
    pub call_id: String,
    /// Cancelled when the caller gives up; a tool doing long work should
    /// watch it (`ctx.cancelled().await`, or [`is_cancelled`](Self::is_cancelled)
    /// between steps).
    pub signal: Option<CancellationToken>,
    /// Where [`report_progress`](Self::report_progress) sends updates.
    pub progress: Option<ProgressFn>,
    /// The turn the call runs in, given only to the tools that need it:
    /// the built-in `tool_search` finds only the tools it makes callable.
    pub(crate) turn: Option<Arc<Turn>>,
}

impl ToolContext {
    /// A context for `call_id` with no signal and no progress sink.
    pub fn new(call_id: impl Into<String>) -> Self {
        ToolContext {
            call_id: call_id.into(),
            signal: None,
            progress: None,
            turn: None,
        }
    }

    /// Sends a progress update to the caller; does nothing without a sink.
    pub fn report_progress(&self, content: Vec<Content>) {
        if let Some(progress) = &self.progress {
            progress(content);
        }
    }

    /// True once the caller has cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.signal
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
    }

    /// Completes when the caller cancels the call; never, without a signal.
    pub async fn cancelled(&self) {
        match &self.signal {
            Some(signal) => signal.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("ToolContext")
            .field("call_id", &self.call_id)
            .field("signal", &self.signal)
            .field("progress", &self.progress.as_ref().map(|_| "Fn"))
            .finish()
    }
}
