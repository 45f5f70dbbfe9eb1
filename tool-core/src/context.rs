//! What a running tool receives besides its arguments: which call it answers,
//! a cancellation signal, and a sink for progress updates.

use crate::tool::Content;
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
}

impl ToolContext {
    /// A context for `call_id` with no signal and no progress sink.
    pub fn new(call_id: impl Into<String>) -> Self {
        ToolContext {
            call_id: call_id.into(),
            signal: None,
            progress: None,
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

/// What a caller passes to the executor: a [`ToolContext`] without the call
/// id, which comes from each call. `Default` is empty.
#[derive(Clone, Default)]
pub struct CallContext {
    /// Passed to every tool of the call or batch.
    pub signal: Option<CancellationToken>,
    /// Receives every tool's progress updates.
    pub progress: Option<ProgressFn>,
}

impl CallContext {
    /// An empty context: no signal, no progress sink.
    pub fn new() -> Self {
        CallContext::default()
    }

    /// Sets the cancellation signal.
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = Some(signal);
        self
    }

    /// Sets the progress sink.
    pub fn with_progress(
        mut self,
        progress: impl Fn(Vec<Content>) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// The context a tool of call `call_id` receives.
    pub fn for_call(&self, call_id: &str) -> ToolContext {
        ToolContext {
            call_id: call_id.to_owned(),
            signal: self.signal.clone(),
            progress: self.progress.clone(),
        }
    }
}

/// A tool that runs other tools passes its own context on; the nested calls
/// get their own ids, never this one.
impl From<ToolContext> for CallContext {
    fn from(ctx: ToolContext) -> Self {
        CallContext {
            signal: ctx.signal,
            progress: ctx.progress,
        }
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("CallContext")
            .field("signal", &self.signal)
            .field("progress", &self.progress.as_ref().map(|_| "Fn"))
            .finish()
    }
}
