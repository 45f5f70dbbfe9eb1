//! What a caller passes to the executor: the signal, sinks, limits and
//! hooks shared by every call of a batch, from which each call's
//! [`ToolContext`] is made.

use super::hooks::{AfterCall, AfterHook, BeforeCall, BeforeHook, HookDecision};
use super::retry_budget::RetryBudget;
use crate::registry::{ToolDefinition, ToolRegistry};
use crate::repair::RepairPolicy;
use crate::tool::{Content, ProgressFn, ToolContext, ToolError, ToolOutput};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// A progress update tagged with the call it comes from, so a UI can show
/// which call is speaking while a batch runs in parallel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressEvent {
    /// The call reporting.
    pub call_id: String,
    /// Its tool.
    pub tool_name: String,
    /// What it reported.
    pub content: Vec<Content>,
}

/// Receives tagged progress events; see [`CallContext::with_progress_events`].
pub type ProgressEventFn = Arc<dyn Fn(ProgressEvent) + Send + Sync>;

/// How long a tool that ignores cancellation may go on before the executor
/// drops it, unless the caller sets another grace period.
pub const DEFAULT_CANCEL_GRACE: Duration = Duration::from_secs(1);

/// What a caller passes to the executor: the context without a call id
/// (which comes from each call), and how calls are to run. `Default` is
/// empty: no signal, no sinks, no timeout, no limit, no hooks, and a grace
/// period of [`DEFAULT_CANCEL_GRACE`].
///
/// ```
/// use std::time::Duration;
/// use tool_core::{CallContext, CancellationToken, HookDecision};
///
/// let stop = CancellationToken::new();
/// let ctx = CallContext::new()
///     .with_signal(stop.clone())
///     .with_timeout(Duration::from_secs(30))
///     .with_max_concurrency(8)
///     .with_progress_events(|event| eprintln!("{}: {:?}", event.call_id, event.content))
///     .with_before_hook(|call| async move {
///         if call.tool_name == "delete" {
///             Ok(HookDecision::Block("deleting needs a human's approval".into()))
///         } else {
///             Ok(HookDecision::Allow)
///         }
///     });
/// # let _ = ctx;
/// ```
#[derive(Clone)]
pub struct CallContext {
    /// Passed to every tool of the call or batch. Cancelling it answers
    /// calls not yet started with `cancelled` and signals the running ones.
    pub signal: Option<CancellationToken>,
    /// Receives every tool's progress updates.
    pub progress: Option<ProgressFn>,
    /// Receives every tool's progress updates, tagged with the call.
    pub progress_events: Option<ProgressEventFn>,
    /// Overrides each tool's own timeout ([`Tool::timeout`](crate::Tool::timeout)).
    pub timeout: Option<Duration>,
    /// How long a tool that ignores cancellation may go on before it is
    /// dropped and answered `cancelled`.
    pub cancel_grace: Duration,
    /// At most this many calls of a parallel batch run at once.
    pub max_concurrency: Option<NonZeroUsize>,
    /// Runs before each tool, after its arguments parse.
    pub before: Option<BeforeHook>,
    /// Runs after each tool, on what it produced.
    pub after: Option<AfterHook>,
    /// Repairs a model's near-miss arguments after strict parsing failed;
    /// `None` (the default): no repair.
    pub repair: Option<RepairPolicy>,
    /// Counts consecutive retry failures per tool, across turns.
    pub retry_budget: Option<RetryBudget>,
    /// The tools available in this batch, by name; `None`: all of them.
    pub enabled: Option<Arc<HashSet<String>>>,
}

impl Default for CallContext {
    fn default() -> Self {
        CallContext {
            signal: None,
            progress: None,
            progress_events: None,
            timeout: None,
            cancel_grace: DEFAULT_CANCEL_GRACE,
            max_concurrency: None,
            before: None,
            after: None,
            repair: None,
            retry_budget: None,
            enabled: None,
        }
    }
}

impl CallContext {
    /// An empty context (see [`Default`]).
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

    /// Sets the sink of progress events tagged with their call.
    pub fn with_progress_events(
        mut self,
        events: impl Fn(ProgressEvent) + Send + Sync + 'static,
    ) -> Self {
        self.progress_events = Some(Arc::new(events));
        self
    }

    /// Sets a timeout for every call, overriding the tools' own.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets how long a tool ignoring cancellation may go on.
    pub fn with_cancel_grace(mut self, grace: Duration) -> Self {
        self.cancel_grace = grace;
        self
    }

    /// Limits how many calls of a parallel batch run at once (0 means 1).
    pub fn with_max_concurrency(mut self, limit: usize) -> Self {
        self.max_concurrency = Some(NonZeroUsize::new(limit).unwrap_or(NonZeroUsize::MIN));
        self
    }

    /// Sets the hook that runs before each tool and may block the call.
    pub fn with_before_hook<F, Fut>(mut self, hook: F) -> Self
    where
        F: Fn(BeforeCall) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<HookDecision, ToolError>> + Send + 'static,
    {
        self.before = Some(super::hooks::before_hook(hook));
        self
    }

    /// Sets the hook that runs after each tool and may rewrite its output.
    pub fn with_after_hook<F, Fut>(mut self, hook: F) -> Self
    where
        F: Fn(AfterCall) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + 'static,
    {
        self.after = Some(super::hooks::after_hook(hook));
        self
    }

    /// Turns on argument repair with these rules: when a call's arguments
    /// fail to parse, the near misses the policy allows are fixed (guided by
    /// the tool's schema) and the arguments parsed again. Each change is on
    /// the result's [`repairs`](crate::ToolResultMessage::repairs), and the
    /// model is told in a trailing text item unless the policy is
    /// [`silent`](RepairPolicy::silent). Off by default.
    ///
    /// ```
    /// use tool_core::{execute_tool_call, tool, CallContext, RepairPolicy, ToolCall, ToolRegistry};
    /// use serde_json::json;
    ///
    /// /// Take some items
    /// #[tool]
    /// async fn take(limit: u32) -> String {
    ///     format!("took {limit}")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut tools = ToolRegistry::new();
    /// tools.register(TakeTool).unwrap();
    /// let call = ToolCall::new("c1", "take", json!({"limit": "2"}));
    /// let strict = execute_tool_call(&call, &tools, CallContext::new()).await;
    /// assert!(strict.is_error);
    /// let lenient = CallContext::new().with_repair(RepairPolicy::all());
    /// let repaired = execute_tool_call(&call, &tools, lenient).await;
    /// assert_eq!(repaired.content[0].as_text(), Some("took 2"));
    /// assert_eq!(repaired.repairs[0].path, "limit");
    /// assert_eq!(repaired.repairs[0].used, json!(2));
    /// # });
    /// ```
    pub fn with_repair(mut self, policy: RepairPolicy) -> Self {
        self.repair = Some(policy);
        self
    }

    /// Counts consecutive retry failures per tool in `budget` (keep it for
    /// the conversation); past its limit a failure is marked fatal.
    pub fn with_retry_budget(mut self, budget: RetryBudget) -> Self {
        self.retry_budget = Some(budget);
        self
    }

    /// Makes only these registered tools available (a per-turn tool set): a
    /// call of another registered tool is answered `not available in this
    /// turn`. Names that are not registered are ignored.
    ///
    /// ```
    /// use tool_core::{execute_tool_call, tool, CallContext, ToolCall, ToolRegistry};
    /// use serde_json::json;
    ///
    /// /// Say hello
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// /// Say goodbye
    /// #[tool]
    /// async fn goodbye() -> String { "goodbye".into() }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut tools = ToolRegistry::new();
    /// tools.register(HelloTool).unwrap();
    /// tools.register(GoodbyeTool).unwrap();
    /// let greeting = CallContext::new().with_enabled(["hello"]);
    /// let shown: Vec<_> = greeting.enabled_definitions(&tools).into_iter().map(|d| d.name).collect();
    /// assert_eq!(shown, ["hello"]);
    /// let call = ToolCall::new("c1", "goodbye", json!({}));
    /// let result = execute_tool_call(&call, &tools, greeting).await;
    /// assert_eq!(result.content[0].as_text(), Some("Tool goodbye failed: not available in this turn (available: hello)"));
    /// # });
    /// ```
    pub fn with_enabled<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.enabled = Some(Arc::new(names.into_iter().map(Into::into).collect()));
        self
    }

    /// Whether the tool called `name` is available (all are, without
    /// [`with_enabled`](Self::with_enabled)).
    pub fn is_enabled(&self, name: &str) -> bool {
        self.enabled
            .as_ref()
            .is_none_or(|enabled| enabled.contains(name))
    }

    /// The definitions of the available tools of `registry`, in
    /// registration order: what to send the model for this turn.
    pub fn enabled_definitions(&self, registry: &ToolRegistry) -> Vec<ToolDefinition> {
        registry
            .iter()
            .filter(|tool| self.is_enabled(tool.name()))
            .map(|tool| tool.definition().clone())
            .collect()
    }

    /// The context a tool of call `call_id` receives (without a per-call
    /// signal: the executor adds one when it needs to stop the call alone).
    pub fn for_call(&self, call_id: &str) -> ToolContext {
        self.tool_context(call_id, "", self.signal.clone())
    }

    pub(crate) fn tool_context(
        &self,
        call_id: &str,
        tool_name: &str,
        signal: Option<CancellationToken>,
    ) -> ToolContext {
        let progress = match (&self.progress, &self.progress_events) {
            (progress, None) => progress.clone(),
            (progress, Some(events)) => {
                let (progress, events) = (progress.clone(), Arc::clone(events));
                let (call_id, tool_name) = (call_id.to_owned(), tool_name.to_owned());
                let tagged: ProgressFn = Arc::new(move |content: Vec<Content>| {
                    if let Some(progress) = &progress {
                        progress(content.clone());
                    }
                    events(ProgressEvent {
                        call_id: call_id.clone(),
                        tool_name: tool_name.clone(),
                        content,
                    });
                });
                Some(tagged)
            }
        };
        ToolContext {
            call_id: call_id.to_owned(),
            signal,
            progress,
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
            ..CallContext::default()
        }
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |present: bool| if present { "set" } else { "none" };
        out.debug_struct("CallContext")
            .field("signal", &self.signal)
            .field("progress", &set(self.progress.is_some()))
            .field("progress_events", &set(self.progress_events.is_some()))
            .field("timeout", &self.timeout)
            .field("cancel_grace", &self.cancel_grace)
            .field("max_concurrency", &self.max_concurrency)
            .field("before", &set(self.before.is_some()))
            .field("after", &set(self.after.is_some()))
            .field("repair", &self.repair)
            .field("retry_budget", &self.retry_budget)
            .field("enabled", &self.enabled)
            .finish()
    }
}
