//! What a running tool receives besides its arguments: which call it answers,
//! a cancellation signal, a sink for progress updates, and one for the
//! messages it logs.

use super::elicit::{ElicitError, ElicitFn, Elicited};
use super::log::{LogFn, LogLevel, to_tracing};
use super::sample::{SampleError, SampleFn, Sampled, SamplingRequest};
use crate::model::Content;
use crate::params::ToolParams;
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
    /// Where [`log`](Self::log) sends messages; `tracing` without one.
    pub log: Option<LogFn>,
    /// Who [`elicit`](Self::elicit) asks; no one without one.
    pub elicit: Option<ElicitFn>,
    /// The model [`sample`](Self::sample) asks; none without one.
    pub sample: Option<SampleFn>,
    /// The turn the call runs in, given only to the tools that need it:
    /// the built-in `tool_search` finds only the tools it makes callable.
    pub(crate) turn: Option<Arc<Turn>>,
    /// The call's own options (the executor's `RunOptions`, which this
    /// layer does not name), given only to a tool that runs other tools
    /// ([`Tool::runs_tools`](crate::Tool::runs_tools)); read with
    /// `ToolContext::run_options`, defined beside `RunOptions`.
    pub(crate) run_options: Option<Arc<dyn std::any::Any + Send + Sync>>,
    /// The call's hold on its batch's suspension (the executor's, which
    /// this layer does not name), given only to a tool that runs other
    /// tools in a batch that can suspend: see `ToolContext::suspend`,
    /// defined beside the executor's batches.
    #[cfg(feature = "approval-state")]
    pub(crate) suspension: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl ToolContext {
    /// A context for `call_id` with no signal and no progress sink.
    pub fn new(call_id: impl Into<String>) -> Self {
        ToolContext {
            call_id: call_id.into(),
            signal: None,
            progress: None,
            log: None,
            elicit: None,
            sample: None,
            turn: None,
            run_options: None,
            #[cfg(feature = "approval-state")]
            suspension: None,
        }
    }

    /// Asks the person using the client `message`, with a form whose fields
    /// are `T`'s (a `#[derive(ToolParams)]` struct of strings, numbers,
    /// booleans and enums, with their docs, defaults and bounds), and
    /// waits for their answer: the values as a `T`, or that they declined
    /// or dismissed it. Over MCP this is `elicitation/create`, to a client
    /// that declared elicitation; elsewhere, the run's asker
    /// ([`RunOptions::with_elicitation`](crate::RunOptions::with_elicitation)).
    /// Withdrawn when the call is cancelled.
    ///
    /// ```
    /// use tool_core::{ElicitError, Elicited, ToolContext, ToolParams};
    ///
    /// #[derive(ToolParams, Debug, PartialEq)]
    /// struct Confirm {
    ///     /// How many copies to print
    ///     copies: u32,
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // Outside MCP, with no asker: a clear error, not a hang.
    /// let ctx = ToolContext::new("call-1");
    /// let asked = ctx.elicit::<Confirm>("How many copies?").await;
    /// assert!(matches!(asked, Err(ElicitError::Unavailable(_))));
    /// # });
    /// ```
    pub async fn elicit<T: ToolParams>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicited<T>, ElicitError> {
        let asked = super::elicit::elicit::<T>(self.elicit.as_ref(), message.into());
        tokio::select! {
            answer = asked => answer,
            () = self.cancelled() => Err(ElicitError::Failed("the call was cancelled".to_owned())),
        }
    }

    /// Logs `message` for whoever runs the tool: over MCP the client (at
    /// or above the level it asked for), else the run's sink
    /// ([`RunOptions::with_log`](crate::RunOptions::with_log)), else
    /// `tracing` (target `tool_core::tool_log`). What a model reads is the
    /// result, not this.
    ///
    /// ```
    /// use tool_core::{LogLevel, ToolContext};
    /// use std::sync::{Arc, Mutex};
    ///
    /// let heard = Arc::new(Mutex::new(Vec::new()));
    /// let sink = Arc::clone(&heard);
    /// let mut ctx = ToolContext::new("call-1");
    /// ctx.log = Some(Arc::new(move |level: LogLevel, message: &str| {
    ///     sink.lock().unwrap().push(format!("{level}: {message}"));
    /// }));
    /// ctx.info("fetching 3 pages");
    /// ctx.log(LogLevel::Warning, "page 2 was empty");
    /// assert_eq!(*heard.lock().unwrap(), ["info: fetching 3 pages", "warning: page 2 was empty"]);
    /// ```
    pub fn log(&self, level: LogLevel, message: impl AsRef<str>) {
        let message = message.as_ref();
        match &self.log {
            Some(log) => log(level, message),
            None => to_tracing(&self.call_id, level, message),
        }
    }

    /// Asks the client's model `request` and waits for its answer: over
    /// MCP `sampling/createMessage`, to a client that declared sampling
    /// (which may show it to a person first); elsewhere, the run's sampler
    /// ([`RunOptions::with_sampling`](crate::RunOptions::with_sampling)).
    /// Withdrawn when the call is cancelled.
    ///
    /// ```
    /// use tool_core::{SampleError, SamplingRequest, ToolContext};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // Outside MCP, with no sampler: a clear error, not a hang.
    /// let ctx = ToolContext::new("call-1");
    /// let answer = ctx.sample(SamplingRequest::user("Name a colour", 10)).await;
    /// assert!(matches!(answer, Err(SampleError::Unavailable(_))));
    /// # });
    /// ```
    pub async fn sample(&self, request: SamplingRequest) -> Result<Sampled, SampleError> {
        let Some(sample) = &self.sample else {
            return Err(SampleError::Unavailable(
                "this call runs outside MCP, and its options give no sampler \
                 (RunOptions::with_sampling)"
                    .to_owned(),
            ));
        };
        tokio::select! {
            answer = sample(request) => answer,
            () = self.cancelled() => Err(SampleError::Failed("the call was cancelled".to_owned())),
        }
    }

    /// [`log`](Self::log) at [`LogLevel::Debug`].
    pub fn debug(&self, message: impl AsRef<str>) {
        self.log(LogLevel::Debug, message);
    }

    /// [`log`](Self::log) at [`LogLevel::Info`].
    pub fn info(&self, message: impl AsRef<str>) {
        self.log(LogLevel::Info, message);
    }

    /// [`log`](Self::log) at [`LogLevel::Warning`].
    pub fn warning(&self, message: impl AsRef<str>) {
        self.log(LogLevel::Warning, message);
    }

    /// [`log`](Self::log) at [`LogLevel::Error`].
    pub fn error(&self, message: impl AsRef<str>) {
        self.log(LogLevel::Error, message);
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
            .field("log", &self.log.as_ref().map(|_| "Fn"))
            .field("elicit", &self.elicit.as_ref().map(|_| "Fn"))
            .field("sample", &self.sample.as_ref().map(|_| "Fn"))
            .finish()
    }
}
