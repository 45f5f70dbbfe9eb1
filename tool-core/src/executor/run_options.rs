//! How a caller wants a call or a batch run: the signal, the progress sink,
//! limits and hooks shared by every call, from which each call's
//! [`ToolContext`] is made.

use super::hooks::{AfterCall, AfterHook, BeforeCall, BeforeHook, HookDecision};
use super::retry_budget::RetryBudget;
use crate::approval::Approvals;
use crate::model::Content;
use crate::model::Repair;
use crate::model::ToolDefinition;
use crate::model::ToolResultMessage;
use crate::registry::ToolRegistry;
use crate::repair::RepairPolicy;
use crate::tool::{
    ElicitError, ElicitFn, ElicitFuture, ElicitationRequest, Elicited, LogEvent, LogFn, LogLevel,
    ProgressFn, SampleError, SampleFn, SampleFuture, Sampled, SamplingRequest, ToolContext,
    ToolError, ToolOutput,
};
use crate::turn::{Caller, Turn};
use serde_json::Value;
use std::collections::HashMap;
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

/// Receives tagged progress events; see [`RunOptions::with_progress`].
type ProgressEventFn = Arc<dyn Fn(ProgressEvent) + Send + Sync>;

/// Receives tagged log messages; see [`RunOptions::with_log`].
type LogEventFn = Arc<dyn Fn(LogEvent) + Send + Sync>;

/// How long a tool that ignores cancellation may go on before the executor
/// drops it, unless the caller sets another grace period.
pub const DEFAULT_CANCEL_GRACE: Duration = Duration::from_secs(1);

/// How calls are to run: what every call of a batch shares (the signal,
/// the progress sink), limits and hooks. Each call's [`ToolContext`] is made
/// from it. `Default` is empty: no signal, no sink, no timeout, no limit,
/// no hooks, no repair, and a grace period of [`DEFAULT_CANCEL_GRACE`].
///
/// Set it up with the `with_*` methods; new options arrive as new methods,
/// so code that builds one keeps compiling.
///
/// ```
/// use std::num::NonZeroUsize;
/// use std::time::Duration;
/// use tool_core::executor::HookDecision;
/// use tool_core::{CancellationToken, RunOptions};
///
/// let stop = CancellationToken::new();
/// let options = RunOptions::new()
///     .with_signal(stop.clone())
///     .with_timeout(Duration::from_secs(30))
///     .with_max_concurrency(NonZeroUsize::new(8).unwrap())
///     .with_progress(|event| eprintln!("{}: {:?}", event.call_id, event.content))
///     .with_before_hook(|call| async move {
///         if call.tool_name == "delete" {
///             Ok(HookDecision::Block("deleting needs a human's approval".into()))
///         } else {
///             Ok(HookDecision::Allow)
///         }
///     });
/// # let _ = options;
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct RunOptions {
    pub(crate) signal: Option<CancellationToken>,
    pub(crate) progress: Option<ProgressEventFn>,
    pub(crate) log: Option<LogEventFn>,
    pub(crate) elicit: Option<ElicitFn>,
    pub(crate) sample: Option<SampleFn>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) cancel_grace: Duration,
    pub(crate) max_concurrency: Option<NonZeroUsize>,
    pub(crate) before: Option<BeforeHook>,
    pub(crate) after: Option<AfterHook>,
    pub(crate) repair: Option<RepairPolicy>,
    pub(crate) retry_budget: Option<RetryBudget>,
    /// What the turn makes available, and who asks.
    pub(crate) turn: Turn,
    pub(crate) approvals: Option<Approvals>,
    /// The calls a person approved (a resumed batch), with the repairs to
    /// put on their results; they run without being asked again.
    pub(crate) approved: Option<Arc<HashMap<String, Vec<Repair>>>>,
    /// How many bytes of each call's arguments and result its span
    /// records; `None`: neither is recorded (the default).
    pub(crate) traced_content: Option<usize>,
    /// The calls of tools that run tools that may suspend themselves in
    /// this run, and what the resumed ones left: set by `execute_batch`
    /// and `resume_batch` only.
    #[cfg(feature = "approval-state")]
    pub(crate) suspender: Option<Arc<super::self_suspend::Suspender>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            signal: None,
            progress: None,
            log: None,
            elicit: None,
            sample: None,
            timeout: None,
            cancel_grace: DEFAULT_CANCEL_GRACE,
            max_concurrency: None,
            before: None,
            after: None,
            repair: None,
            retry_budget: None,
            turn: Turn::default(),
            approvals: None,
            approved: None,
            traced_content: None,
            #[cfg(feature = "approval-state")]
            suspender: None,
        }
    }
}

impl RunOptions {
    /// An empty context (see [`Default`]).
    pub fn new() -> Self {
        RunOptions::default()
    }

    /// Sets the cancellation signal.
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = Some(signal);
        self
    }

    /// Sets the sink of every tool's progress updates, each tagged with the
    /// call and tool it comes from.
    pub fn with_progress(
        mut self,
        progress: impl Fn(ProgressEvent) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// Sets the sink of the messages every tool logs
    /// ([`ToolContext::log`]), each tagged with the call it comes from.
    /// Without one, they go to `tracing` (target `tool_core::tool_log`).
    ///
    /// ```
    /// use tool_core::{LogLevel, RunOptions};
    ///
    /// let options = RunOptions::new().with_log(|event| {
    ///     if event.level >= LogLevel::Warning {
    ///         eprintln!("{} ({}): {}", event.tool_name, event.call_id, event.message);
    ///     }
    /// });
    /// # let _ = options;
    /// ```
    pub fn with_log(mut self, log: impl Fn(LogEvent) + Send + Sync + 'static) -> Self {
        self.log = Some(Arc::new(log));
        self
    }

    /// Sets who the tools' questions ([`ToolContext::elicit`]) are asked
    /// of, for an application with its own way to ask a person (a chat
    /// message, a prompt on a terminal). A server over MCP sets its own:
    /// the client. Without one, a question is
    /// [`ElicitError::Unavailable`](crate::ElicitError::Unavailable).
    ///
    /// ```
    /// use tool_core::{Elicited, RunOptions};
    ///
    /// // Answers every question with the form's defaults, as a test would.
    /// let options = RunOptions::new()
    ///     .with_elicitation(|_question| async { Ok(Elicited::Accept(serde_json::json!({}))) });
    /// # let _ = options;
    /// ```
    pub fn with_elicitation<F, Answer>(mut self, ask: F) -> Self
    where
        F: Fn(ElicitationRequest) -> Answer + Send + Sync + 'static,
        Answer: Future<Output = Result<Elicited<Value>, ElicitError>> + Send + 'static,
    {
        self.elicit = Some(Arc::new(move |question| {
            Box::pin(ask(question)) as ElicitFuture
        }));
        self
    }

    /// Sets the model the tools' requests ([`ToolContext::sample`]) go to,
    /// for an application with a model of its own. A server over MCP sets
    /// its own: the client's. Without one, a request is
    /// [`SampleError::Unavailable`](crate::SampleError::Unavailable).
    ///
    /// ```
    /// use tool_core::{Content, RunOptions, Sampled};
    ///
    /// let options = RunOptions::new().with_sampling(|_request| async {
    ///     Ok(Sampled { content: Content::text("blue"), model: "test".into(), stop_reason: None })
    /// });
    /// # let _ = options;
    /// ```
    pub fn with_sampling<F, Answer>(mut self, sample: F) -> Self
    where
        F: Fn(SamplingRequest) -> Answer + Send + Sync + 'static,
        Answer: Future<Output = Result<Sampled, SampleError>> + Send + 'static,
    {
        self.sample = Some(Arc::new(move |request| {
            Box::pin(sample(request)) as SampleFuture
        }));
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

    /// Limits how many calls of a parallel batch run at once. A limit of 0
    /// would run nothing: the type refuses it.
    ///
    /// ```
    /// use std::num::NonZeroUsize;
    /// use tool_core::RunOptions;
    ///
    /// let options = RunOptions::new().with_max_concurrency(NonZeroUsize::new(8).unwrap());
    /// assert_eq!(options.max_concurrency().map(NonZeroUsize::get), Some(8));
    /// ```
    pub fn with_max_concurrency(mut self, limit: NonZeroUsize) -> Self {
        self.max_concurrency = Some(limit);
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

    /// Says who asks for the calls (a transport's authenticated caller):
    /// the before hook reads it as [`BeforeCall::caller`]. The executor
    /// itself decides nothing on it. See [`Caller`] for an example. Takes
    /// a `Caller` or an `Arc<Caller>` (shared by many calls, not copied).
    pub fn with_caller(mut self, caller: impl Into<Arc<Caller>>) -> Self {
        self.turn = self.turn.with_caller(caller);
        self
    }

    /// The caller set with [`with_caller`](Self::with_caller).
    pub fn caller(&self) -> Option<&Caller> {
        self.turn.caller()
    }

    /// Runs the calls in `turn`: its enabled tools, its loaded deferred
    /// tools and its caller replace the options' own.
    pub fn with_turn(mut self, turn: Turn) -> Self {
        self.turn = turn;
        self
    }

    /// What the turn makes available and who asks: what the registry, the
    /// toolsets' preparations and `tool_search` read.
    pub fn turn(&self) -> &Turn {
        &self.turn
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
    /// use tool_core::{execute_tool_call, tool, RunOptions, repair::RepairPolicy, ToolCall, ToolRegistry};
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
    /// let strict = execute_tool_call(&call, &tools, RunOptions::new()).await;
    /// assert!(strict.is_error);
    /// let lenient = RunOptions::new().with_repair(RepairPolicy::all());
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

    /// How calls that need a person's approval get it: suspended batches
    /// ([`execute_batch`](crate::execute_batch)) or an inline asker. Without
    /// approvals, a call of a tool that needs approval is answered `denied`
    /// and never runs. See [`approval`](crate::approval).
    pub fn with_approvals(mut self, approvals: Approvals) -> Self {
        self.approvals = Some(approvals);
        self
    }

    /// Makes only these registered tools available (a per-turn tool set): a
    /// call of another registered tool is answered `not available in this
    /// turn`. Names that are not registered are ignored.
    ///
    /// ```
    /// use tool_core::{execute_tool_call, tool, RunOptions, ToolCall, ToolRegistry};
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
    /// let greeting = RunOptions::new().with_enabled(["hello"]);
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
        self.turn = self.turn.with_enabled(names);
        self
    }

    /// Loads these deferred tools into the turn, after the ones loaded
    /// already: [`ToolRegistry::definitions_for`] shows them after the
    /// tools sent up front, in this order, so what was sent before keeps
    /// its bytes. Names that are not deferred tools are ignored.
    pub fn with_loaded<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.turn = self.turn.with_loaded(names);
        self
    }

    /// Loads the tools `tool_search` found in `results` (a turn's results),
    /// for the next turn: [`with_loaded`](Self::with_loaded) of
    /// [`found_tools`](crate::toolset::found_tools).
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{execute_tool_calls, DynamicTool, ExecutionMode, RunOptions, ToolCall, ToolOutput, ToolRegistry};
    /// use serde_json::json;
    ///
    /// let tool = |name: &str, description: &str| {
    ///     DynamicTool::new(name, description, |_args, _ctx| async { Ok(ToolOutput::text("")) })
    /// };
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(
    ///     Toolset::new("extra")
    ///         .with(tool("weather_get", "Get the current weather for a city"))
    ///         .with(tool("stock_quote", "Get a stock price"))
    ///         .deferred(),
    /// ).unwrap();
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let turn = RunOptions::new();
    /// let search = ToolCall::new("c1", "tool_search", json!({"query": "weather in Paris"}));
    /// let results = execute_tool_calls(&[search], &tools, turn.clone(), ExecutionMode::Parallel).await;
    /// assert!(results[0].content[0].as_text().unwrap().contains(r#""name":"weather_get""#));
    ///
    /// let next = turn.load_found(&results);
    /// let names: Vec<String> = tools.definitions_for(&next).into_iter().map(|d| d.name).collect();
    /// assert_eq!(names, ["tool_search", "weather_get"]);
    /// # });
    /// ```
    pub fn load_found(self, results: &[ToolResultMessage]) -> Self {
        let found = crate::toolset::found_tools(results);
        self.with_loaded(found)
    }

    /// Records each call's arguments and result on its `execute_tool` span
    /// (the attributes `gen_ai.tool.call.arguments` and
    /// `gen_ai.tool.call.result` of OpenTelemetry's GenAI conventions, which
    /// leave them to the application to opt in to, as they may hold
    /// sensitive data), each cut to at most `max_bytes` bytes of its text,
    /// on a character boundary, then `…[N bytes cut]`; JSON that was cut
    /// is recorded as a JSON string of that piece, so the attribute still
    /// parses.
    ///
    /// The arguments are the ones the tool was given, as JSON (after repair
    /// and rewrites), or, for a call that failed before they parsed, the
    /// ones the model sent. The result is recorded only when the call
    /// succeeded, as the conventions say: its details as JSON when it has
    /// details, else its text. Nothing is computed when no subscriber wants
    /// the span. See the [executor's documentation](crate::executor) for
    /// the span's other fields.
    ///
    /// ```
    /// use tool_core::RunOptions;
    ///
    /// // At most 4 KiB of each call's arguments and of its result.
    /// let options = RunOptions::new().with_traced_content(4096);
    /// assert_eq!(options.traced_content(), Some(4096));
    /// assert_eq!(RunOptions::new().traced_content(), None);
    /// ```
    pub fn with_traced_content(mut self, max_bytes: usize) -> Self {
        self.traced_content = Some(max_bytes);
        self
    }

    /// How many bytes of each call's arguments and result its span
    /// records, if the application opted in
    /// ([`with_traced_content`](Self::with_traced_content)).
    pub fn traced_content(&self) -> Option<usize> {
        self.traced_content
    }

    /// The deferred tools loaded into the turn, in the order they were
    /// loaded.
    pub fn loaded(&self) -> &[String] {
        self.turn.loaded()
    }

    /// The approvals calls run with, if set.
    pub fn approvals(&self) -> Option<&Approvals> {
        self.approvals.as_ref()
    }

    /// The cancellation signal every call receives, if one was set.
    pub fn signal(&self) -> Option<&CancellationToken> {
        self.signal.as_ref()
    }

    /// The timeout that overrides each tool's own, if one was set.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// How long a tool ignoring cancellation may go on.
    pub fn cancel_grace(&self) -> Duration {
        self.cancel_grace
    }

    /// How many calls of a parallel batch may run at once, if limited.
    pub fn max_concurrency(&self) -> Option<NonZeroUsize> {
        self.max_concurrency
    }

    /// Whether the tool called `name` is available (all are, without
    /// [`with_enabled`](Self::with_enabled)).
    pub fn is_enabled(&self, name: &str) -> bool {
        self.turn.is_enabled(name)
    }

    /// The definitions of the available tools of `registry`: what to send
    /// the model for this turn ([`ToolRegistry::definitions_for`]).
    pub fn enabled_definitions(&self, registry: &ToolRegistry) -> Vec<ToolDefinition> {
        registry.definitions_for(self)
    }

    /// The context a tool of call `call_id` receives (without a per-call
    /// signal: the executor adds one when it needs to stop the call alone).
    /// It carries these options too, so the built-in `tool_search` run by
    /// hand finds only the tools they make callable, as it does when the
    /// executor runs it.
    pub fn for_call(&self, call_id: &str) -> ToolContext {
        let mut context = self.tool_context(call_id, "", self.signal.clone());
        context.turn = Some(Arc::new(self.turn.clone()));
        context
    }

    pub(crate) fn tool_context(
        &self,
        call_id: &str,
        tool_name: &str,
        signal: Option<CancellationToken>,
    ) -> ToolContext {
        let progress = self.progress.as_ref().map(|events| {
            let events = Arc::clone(events);
            let (call_id, tool_name) = (call_id.to_owned(), tool_name.to_owned());
            let tagged: ProgressFn = Arc::new(move |content: Vec<Content>| {
                events(ProgressEvent {
                    call_id: call_id.clone(),
                    tool_name: tool_name.clone(),
                    content,
                });
            });
            tagged
        });
        let log = self.log.as_ref().map(|events| {
            let events = Arc::clone(events);
            let (call_id, tool_name) = (call_id.to_owned(), tool_name.to_owned());
            let tagged: LogFn = Arc::new(move |level: LogLevel, message: &str| {
                events(LogEvent {
                    call_id: call_id.clone(),
                    tool_name: tool_name.clone(),
                    level,
                    message: message.to_owned(),
                });
            });
            tagged
        });
        ToolContext {
            call_id: call_id.to_owned(),
            signal,
            progress,
            log,
            elicit: self.elicit.clone(),
            sample: self.sample.clone(),
            turn: None,
            run_options: None,
            #[cfg(feature = "approval-state")]
            suspension: None,
        }
    }
}

/// A tool that runs other tools passes its own context on; the nested calls
/// get their own ids, never this one.
impl From<ToolContext> for RunOptions {
    fn from(ctx: ToolContext) -> Self {
        let progress = ctx.progress.map(|report| {
            let forward: ProgressEventFn =
                Arc::new(move |event: ProgressEvent| report(event.content));
            forward
        });
        let log = ctx.log.map(|log| {
            let forward: LogEventFn =
                Arc::new(move |event: LogEvent| log(event.level, &event.message));
            forward
        });
        RunOptions {
            signal: ctx.signal,
            progress,
            log,
            elicit: ctx.elicit,
            sample: ctx.sample,
            ..RunOptions::default()
        }
    }
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |present: bool| if present { "set" } else { "none" };
        out.debug_struct("RunOptions")
            .field("signal", &self.signal)
            .field("progress", &set(self.progress.is_some()))
            .field("log", &set(self.log.is_some()))
            .field("elicit", &set(self.elicit.is_some()))
            .field("sample", &set(self.sample.is_some()))
            .field("timeout", &self.timeout)
            .field("cancel_grace", &self.cancel_grace)
            .field("max_concurrency", &self.max_concurrency)
            .field("before", &set(self.before.is_some()))
            .field("after", &set(self.after.is_some()))
            .field("repair", &self.repair)
            .field("retry_budget", &self.retry_budget)
            .field("turn", &self.turn)
            .field("traced_content", &self.traced_content)
            .finish()
    }
}

/// The options' turn: a registry reads what a turn shows from either.
impl AsRef<Turn> for RunOptions {
    fn as_ref(&self) -> &Turn {
        &self.turn
    }
}

/// A tool's view of the options of its own call: here, beside
/// `RunOptions`, so the tool layer below never names the executor.
impl ToolContext {
    /// The options the call runs with (hooks, repair, retry budget, the
    /// caller, the enabled tools, approvals), for a tool that runs other
    /// tools ([`Tool::runs_tools`](crate::Tool::runs_tools)): the calls it
    /// makes go through the executor with them, as the model's own would.
    /// `None` for every other tool.
    pub fn run_options(&self) -> Option<&RunOptions> {
        self.run_options.as_deref()?.downcast_ref()
    }
}
