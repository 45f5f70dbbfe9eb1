//! The MCP side of a registry: `tools/list` and `tools/call` on rmcp's
//! `ServerHandler`, with calls run by tool-core's executor.

mod alongside;
mod approving;
mod listing;
mod loaded;
mod logging;
mod malformed;
mod progress;
mod questions;
mod result;
mod running;
mod span;
mod transport;

use crate::approval::mrtr;
use crate::approval::state::ApprovalStates;
use crate::approval::{Decided, Handed};
use crate::audit;
use crate::trace_context;
use approving::Ended;
use listing::Listing;
pub(crate) use listing::Tools;
use progress::ProgressForwarder;
#[expect(deprecated, reason = "MCP's logging: deprecated by SEP-2577 in rmcp, in use on 2025-11-25")]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CancelledNotificationParam, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
    GetPromptResponse, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResponse, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, Implementation,
    ListToolsResult, NumberOrString, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use logging::{LogForwarder, SessionLogLevel};
use running::RunningCalls;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::approval::{ApprovalKey, MemoryLedger, SuspensionLedger};
use tool_core::providers::mcp;
use tool_core::{
    RunOptions, ToolCall, ToolDefinition, ToolRegistry, ToolResultMessage, execute_tool_call,
};
use tracing::Instrument;
use transport::{Grant, grant_of};

/// How long a person has to answer an approval request, by default.
const APPROVAL_TIMEOUT: Duration = Duration::from_secs(600);

/// What the key that signs MCP approval states is derived for.
const APPROVAL_KEY_PURPOSE: &str = "tool-mcp approval requestState";

/// An MCP server for one registry: what `tools/list` shows and how
/// `tools/call` runs. Cloning it is cheap; the HTTP transport makes one per
/// session (or per request, when stateless).
///
/// A registry becomes one with [`From`], so [`serve_stdio`](crate::serve_stdio)
/// and [`HttpServer::bind`](crate::HttpServer::bind) take either. Build one
/// yourself to give calls the executor's options (hooks, repair, a retry
/// budget, the enabled tools):
///
/// ```
/// use tool_core::{RunOptions, repair::RepairPolicy, ToolRegistry, tool};
/// use tool_mcp::McpServer;
///
/// /// Add two numbers
/// #[tool]
/// async fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// let mut tools = ToolRegistry::new();
/// tools.register(AddTool).unwrap();
/// let server = McpServer::new(tools)
///     .with_call_options(RunOptions::new().with_repair(RepairPolicy::all()));
/// # let _ = server;
/// ```
///
/// ## Approval
///
/// A call that needs a person's approval (`#[tool(needs_approval)]`, or the
/// policy of the call options' [`Approvals`](tool_core::approval::Approvals))
/// asks the client before it runs: by `elicitation/create` on the
/// revisions before 2026-07-28 (in a session), by an `InputRequiredResult`
/// whose `requestState` is signed on 2026-07-28. Accept runs it; decline,
/// cancel, no answer within [`with_approval_timeout`](Self::with_approval_timeout),
/// or a client that declared no elicitation capability is a `denied` tool
/// error, and nothing runs. On 2026-07-28 an approval runs its call once:
/// the `requestState` is bound to the tool, the SHA-256 of the arguments
/// the person was shown and the OAuth caller, and used once in the
/// server's approval ledger. Behind a balancer, give every process the same
/// [`with_approval_key`](Self::with_approval_key) and
/// [`with_approval_ledger`](Self::with_approval_ledger).
///
/// Call options with [`Approvals::ask`](tool_core::approval::Approvals::ask)
/// keep their asker: the application asks in its own way (a chat message
/// to an operator), and the client is not asked.
/// [`Approvals::suspend`](tool_core::approval::Approvals::suspend) cannot
/// suspend a served call, which must be answered in its own request: its
/// policy applies, and the client is asked.
pub struct McpServer {
    tools: Tools,
    info: Implementation,
    options: RunOptions,
    calls: Arc<RunningCalls>,
    /// The least level of tools' messages this session asked for: each
    /// clone (each session) has its own.
    log_level: Arc<SessionLogLevel>,
    approvals: Arc<ApprovalStates>,
    /// Prompts, resources and completion, when the application serves
    /// them (`with_handler`).
    alongside: Option<Arc<dyn alongside::Alongside>>,
    /// Served over HTTP without sessions: a client before 2026-07-28
    /// cannot be asked (the answer to `elicitation/create` would come in a
    /// request no session ties to the call).
    without_sessions: bool,
    /// The deferred tools this session's searches loaded (loaded.rs): each
    /// clone (each session) has its own.
    loaded: Arc<loaded::LoadedHere>,
    /// Whether a client without a session sees only the tools not
    /// deferred (and `tool_search`), instead of every tool.
    defer_without_sessions: bool,
}

/// A clone serves the same tools with the same options and shares the
/// running calls; what a session sets for itself (its log level, the
/// deferred tools its searches loaded) starts afresh, as the HTTP transport serves each session with a clone.
impl Clone for McpServer {
    fn clone(&self) -> Self {
        McpServer {
            tools: self.tools.clone(),
            info: self.info.clone(),
            options: self.options.clone(),
            calls: Arc::clone(&self.calls),
            log_level: Arc::default(),
            approvals: Arc::clone(&self.approvals),
            alongside: self.alongside.clone(),
            without_sessions: self.without_sessions,
            loaded: Arc::default(),
            defer_without_sessions: self.defer_without_sessions,
        }
    }
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("McpServer")
            .field("info", &self.info)
            .field("tools", &self.tools.current().listed.len())
            .field("options", &self.options)
            .field("calls_running", &self.calls.count())
            .field("without_sessions", &self.without_sessions)
            .field("with_handler", &self.alongside.is_some())
            .finish_non_exhaustive()
    }
}

impl From<ToolRegistry> for McpServer {
    fn from(registry: ToolRegistry) -> Self {
        McpServer::new(registry)
    }
}

impl McpServer {
    /// A server for `registry`, announcing itself as this crate, its calls
    /// run with an empty [`RunOptions`].
    pub fn new(registry: ToolRegistry) -> Self {
        let options = RunOptions::new();
        McpServer {
            tools: Tools::new(registry, &options),
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            options,
            calls: Arc::default(),
            log_level: Arc::default(),
            approvals: Arc::new(ApprovalStates::with_random_key(APPROVAL_TIMEOUT)),
            alongside: None,
            without_sessions: false,
            loaded: Arc::default(),
            defer_without_sessions: false,
        }
    }

    /// Signs the `requestState` of approvals asked on the 2026-07-28
    /// revision with a key derived from `key` (HMAC-SHA256), so that every
    /// process given the same key accepts the answer: on that revision a
    /// client has no session, and its retry with the person's answer may
    /// reach another process behind a balancer. Without it each server
    /// signs with a random key of its own, which only it verifies. The same
    /// key may sign the application's suspensions
    /// ([`Approvals::suspend`](tool_core::approval::Approvals::suspend)):
    /// the MCP state is signed with a key derived for it alone
    /// ([`ApprovalKey::derive`]). Anyone who has the key can approve calls:
    /// read it from a secret store.
    ///
    /// ```
    /// use tool_core::approval::ApprovalKey;
    /// # let tools = tool_core::ToolRegistry::new();
    /// let key = ApprovalKey::new(*b"0123456789abcdef0123456789abcdef").unwrap(); // from a secret store
    /// let server = tool_mcp::McpServer::new(tools).with_approval_key(&key);
    /// # let _ = server;
    /// ```
    ///
    /// The states used are then recorded in this process's ledger for the
    /// key ([`MemoryLedger::for_key`]), shared by every server and every
    /// suspending [`Approvals`](tool_core::approval::Approvals) in the
    /// process with the same key, unless
    /// [`with_approval_ledger`](Self::with_approval_ledger) gives another.
    pub fn with_approval_key(mut self, key: &ApprovalKey) -> Self {
        let derived = key.derive(APPROVAL_KEY_PURPOSE);
        let ledger = Arc::new(MemoryLedger::for_key(key));
        self.approvals = Arc::new(ApprovalStates::with_key(
            derived,
            self.approvals.ttl(),
            ledger,
        ));
        self
    }

    /// Records the `requestState`s used in `ledger` (the one place single
    /// use lives; see [`SuspensionLedger`]): every process serving behind a
    /// balancer with the same key must share one in a store (`tool-redis`'s
    /// on Redis), or a replay that reaches another process runs its call
    /// again there. Call it after [`with_approval_key`](Self::with_approval_key).
    pub fn with_approval_ledger(mut self, ledger: impl SuspensionLedger) -> Self {
        self.approvals = Arc::new(self.approvals.with_ledger(Arc::new(ledger)));
        self
    }

    /// How long a person has to answer an approval request (default 10
    /// minutes): on the revisions before 2026-07-28 the call waits that
    /// long for the answer to `elicitation/create`, then is a tool error;
    /// on 2026-07-28 a `requestState` older than that is refused.
    pub fn with_approval_timeout(mut self, timeout: Duration) -> Self {
        self.approvals = Arc::new(self.approvals.with_ttl(timeout));
        self
    }

    /// Marks the server as served without sessions (the HTTP transport's
    /// stateless mode).
    #[cfg(feature = "http")]
    pub(crate) fn serving_without_sessions(mut self) -> Self {
        self.without_sessions = true;
        self
    }

    /// Keeps deferral for clients without a session (stateless HTTP, and
    /// MCP 2026-07-28, which has no sessions): their `tools/list` shows the
    /// tools not deferred and `tool_search`, as a session's does before
    /// its first search. Without it they see every tool (deferred ones
    /// after the others), since there is no session to keep what a search
    /// found, and a host offers its model only what it listed.
    ///
    /// With it, what a search finds is callable by name (its answer
    /// carries the definitions), which serves a client whose model reads
    /// the search's answer; a host that offers only listed tools cannot
    /// call them.
    ///
    /// ```
    /// # let tools = tool_core::ToolRegistry::new();
    /// let server = tool_mcp::McpServer::new(tools).with_deferral_without_sessions();
    /// # let _ = server;
    /// ```
    pub fn with_deferral_without_sessions(mut self) -> Self {
        self.defer_without_sessions = true;
        self
    }

    /// Announces the server under another name and version.
    pub fn with_server_info(mut self, name: &str, version: &str) -> Self {
        self.info = Implementation::new(name.to_owned(), version.to_owned());
        self
    }

    /// Runs every call with `options`, as
    /// [`execute_tool_call`](tool_core::execute_tool_call) takes them: its
    /// hooks, repair, retry budget and timeout apply to what this server
    /// serves as to any other call, and only its
    /// [`enabled`](RunOptions::with_enabled) tools are listed and callable.
    ///
    /// Each call gets its own cancellation signal (a child of the options'
    /// signal, when they have one), cancelled when the client cancels the
    /// request or goes away. A call's progress goes to the client that sent
    /// a `progressToken`; the options' own `progress` sink is replaced for
    /// that call, their `progress_events` sink still receives it.
    pub fn with_call_options(mut self, options: RunOptions) -> Self {
        self.options = options;
        self.tools.relist(&self.options);
        self
    }

    /// Changes the tools while the server serves: `change` gets a copy of
    /// the registry, and once it returns every clone of this server (every
    /// session) lists and calls the changed one, and each client that
    /// listens is told (`notifications/tools/list_changed`; on 2026-07-28,
    /// to a `subscriptions/listen` that asked for it). A call already
    /// running finishes with the tools it started with. What `change`
    /// returns is returned.
    ///
    /// ```
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Echo one value
    /// #[tool]
    /// async fn echo(value: String) -> String {
    ///     value
    /// }
    ///
    /// let server = tool_mcp::McpServer::new(ToolRegistry::new());
    /// let serving = server.clone(); // what a transport serves
    /// // Later, when the tools are known (an upstream connected):
    /// server.update_tools(|tools| tools.register(EchoTool)).unwrap();
    /// # let _ = serving;
    /// ```
    ///
    /// With OAuth, a new tool's scope is decided as at the start: its own
    /// (`OAuthConfig::with_tool_scope`), else the read scope when its
    /// annotations are trusted and say read-only, else the write scope.
    pub fn update_tools<R>(&self, change: impl FnOnce(&mut ToolRegistry) -> R) -> R {
        self.tools.update(&self.options, change)
    }

    /// Stops taking calls: a new one is refused (a JSON-RPC error saying the
    /// server is stopping), the running ones may finish for up to `grace`,
    /// then those still running are cancelled, and answered `cancelled`
    /// (the executor drops a tool that ignores its signal after the
    /// options' [`cancel_grace`](RunOptions::cancel_grace)). Returns once
    /// every call is answered, or that much later. The transports stop this
    /// way; call it yourself to stop a server you serve by other means.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// use std::time::Duration;
    /// let server = tool_mcp::McpServer::new(tool_core::ToolRegistry::new());
    /// let serving = server.clone(); // what a transport serves
    /// server.stop(Duration::from_secs(30)).await; // no call was running
    /// # let _ = serving;
    /// # });
    /// ```
    pub async fn stop(&self, grace: std::time::Duration) {
        let answering = self.options.cancel_grace() + std::time::Duration::from_secs(1);
        self.calls.stop(grace, answering).await;
    }

    /// The tools served, now and as they change.
    #[cfg(feature = "oauth")]
    pub(crate) fn tools(&self) -> &Tools {
        &self.tools
    }

    /// The options its calls run with ([`with_call_options`](Self::with_call_options)).
    #[cfg(feature = "oauth")]
    pub(crate) fn call_options(&self) -> &RunOptions {
        &self.options
    }

    /// How many calls this server (and its clones) is running.
    pub fn calls_running(&self) -> usize {
        self.calls.count()
    }

    /// Whether a call of `name` is one this server answers: a listed tool,
    /// or a deferred one a search can find.
    ///
    /// `tools/list` shows what a turn with the call options shows
    /// ([`ToolRegistry::definitions_for`]): the enabled tools sorted by
    /// name (the deterministic order MCP 2026-07-28 asks of `tools/list`),
    /// deferred ones left out in favour of `tool_search`, and then those
    /// the session's searches loaded (loaded.rs). A deferred tool stays
    /// callable by name, loaded or not: `tool_search` answers with its
    /// definition, so a client without a session (or whose list another
    /// process has not caught up with) can still call what it found.
    fn callable(&self, listing: &Listing, name: &str) -> bool {
        listing.listed.iter().any(|tool| tool.name == name)
            || listing
                .registry
                .get(name)
                .is_some_and(|tool| tool.is_deferred() && self.options.is_enabled(name))
    }
}

impl ServerHandler for McpServer {
    #[expect(deprecated, reason = "MCP's logging: deprecated by SEP-2577 in rmcp, in use on 2025-11-25")]
    fn get_info(&self) -> ServerConfig {
        // `listChanged`: the tools may change while serving
        // (`update_tools`), and the client is told.
        // `logging`: what tools log reaches the client (logging.rs).
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_logging()
            .build();
        self.add_alongside(&mut capabilities);
        ServerConfig::new(capabilities).with_server_info(self.info.clone())
    }

    /// The least level of the tools' messages this session wants.
    #[expect(deprecated, reason = "MCP's logging: deprecated by SEP-2577 in rmcp, in use on 2025-11-25")]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(request.level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.alongside("prompts/list")?.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.alongside("prompts/get")?.get_prompt(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.alongside("resources/list")?.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.alongside("resources/templates/list")?
            .list_resource_templates(request, context)
            .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.alongside("resources/read")?.read_resource(request, context).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.alongside("resources/subscribe")?.subscribe(request, context).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.alongside("resources/unsubscribe")?.unsubscribe(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.alongside("completion/complete")?.complete(request, context).await
    }

    /// A session's client (before 2026-07-28), to tell of tool changes.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.tools.remember(context.peer);
    }

    /// 2026-07-28: a `subscriptions/listen` may ask to hear of tool
    /// changes; nothing else is sent that way.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        self.tools.accept_listener();
        Some(accepted)
    }

    /// Tells a 2026-07-28 listener of each change of the tools, until it
    /// is cancelled.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.tools.listener_changes();
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    if let Err(error) = context.sink().notify_tool_list_changed().await {
                        tracing::debug!(%error, "a listener was not told the tools changed");
                    }
                }
            }
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let span = span::request_span("tools/list", &context);
        trace_context::adopt_parent(&span, &context.meta);
        let _entered = span.enter();
        let listing = self.tools.current();
        let mut tools = self.session_tools(&listing, &context).await?;
        // An OAuth caller sees only the tools its scopes allow.
        if let Some(grant) = grant_of(&context) {
            tools.retain(|tool| grant.missing(&tool.name).is_none());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    /// rmcp's own answer, in the conventions' span for the request (its
    /// parent the client's, from `_meta`).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let span = span::request_span("initialize", &context);
        trace_context::adopt_parent(&span, &context.meta);
        let _entered = span.enter();
        context.peer.set_peer_info(request.clone());
        let answer = self.negotiate_initialize(&request);
        if let Err(error) = &answer {
            span::refused(&span, error);
        }
        answer
    }

    /// rmcp has cancelled the request already (its token); this traces the
    /// notification, in the caller's trace.
    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        let span = span::notification_span("notifications/cancelled", &context);
        // rmcp hands a notification's `_meta` over in the context.
        let meta = notification.meta.as_ref().unwrap_or(&context.meta);
        trace_context::adopt_parent(&span, &meta.0);
        let _entered = span.enter();
        tracing::debug!(request = ?notification.request_id, "the client cancelled a request");
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let listing = self.tools.current();
        listing
            .listed
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let span = span::call_span(&request.name, &context);
        // Before the span is first entered: its parent is fixed then.
        trace_context::adopt_parent(&span, &context.meta);
        let started = std::time::Instant::now();
        // The audit line's own work (the tool's name kept, the caller's key
        // built) only when a subscriber wants it: this runs on every call.
        let tool = audit::wanted().then(|| request.name.clone());
        let mut audit = CallAudit::default();
        let answer = self
            .run_call(request, &context, &mut audit)
            .instrument(span.clone())
            .await;
        span::answered(&span, &answer);
        let outcome = match &answer {
            Err(_) => audit::Outcome::Refused,
            Ok(_) => audit.outcome.unwrap_or(audit::Outcome::Ok),
        };
        if let Some(tool) = tool {
            audit::call_answered(&audit::CallRecord {
                tool: &tool,
                caller: &transport::audit_caller(&context),
                client: transport::client_of(&context),
                session: transport::http_session(&context).flatten(),
                outcome,
                approval: audit.decided.get().copied(),
                duration: started.elapsed(),
            });
        }
        answer
    }

    /// rmcp hands over, as a custom request, a request it could not read
    /// as the method it names; a `tools/call` whose params are not
    /// `{"name": string, "arguments": object}` is one, and is JSON-RPC's
    /// invalid params (-32602), not an unknown method.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(malformed::answer(&request.method, request.params.as_ref()))
    }
}

/// What a call's audit line needs that only running it tells: how it was
/// answered, and the approval decision when one was asked.
#[derive(Default)]
struct CallAudit {
    outcome: Option<audit::Outcome>,
    decided: Decided,
}

impl McpServer {
    async fn run_call(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        audit: &mut CallAudit,
    ) -> Result<CallToolResponse, ErrorData> {
        let listing = self.tools.current();
        // MCP: an unknown tool is a protocol error, not a tool result.
        if !self.callable(&listing, &request.name) {
            tracing::debug!("unknown tool");
            return Err(ErrorData::invalid_params(
                unknown_tool(&listing.registry, &request.name, &self.options),
                None,
            ));
        }
        let grant = grant_of(context);
        // The HTTP gate answers this with 403 before rmcp reads the call;
        // a call it could not see (one of a batch) is refused here.
        if let Some(scope) = grant.and_then(|grant| grant.missing(&request.name)) {
            tracing::debug!(scope, "refused: insufficient scope");
            return Err(ErrorData::invalid_request(
                format!(
                    "insufficient_scope: calling {} needs the scope {scope}",
                    request.name
                ),
                None,
            ));
        }
        let caller = grant.and_then(|grant| grant.caller()).cloned();
        // What a 2026-07-28 approval is bound to: who asked, as the
        // credentials say (nothing over stdio or without authentication).
        let binding = grant.map(Grant::binding).unwrap_or_default();
        let Some(_running) = self.calls.start() else {
            tracing::debug!("refused: the server is stopping");
            return Err(ErrorData::internal_error(
                "the server is stopping and takes no new calls; retry on another",
                None,
            ));
        };
        let arguments = request
            .arguments
            .map_or_else(|| Value::Object(serde_json::Map::new()), Value::Object);
        let signal = self.calls.signal();
        // An OAuth caller's options enable only the tools its scopes
        // allow: what it may call is what `tool_search` shows it.
        let options = grant.and_then(Grant::call_options);
        let mut ctx = options
            .unwrap_or_else(|| self.options.clone())
            .with_signal(signal.clone());
        // The tool's own questions go to the client, when it can answer.
        ctx = self.with_questions(ctx, context);
        if let Some(caller) = caller {
            ctx = ctx.with_caller(caller);
        }
        let mut waiting = None;
        match self.options.approvals() {
            // The application asks in its own way: its asker answers.
            Some(own) if !own.suspends() => {}
            // No approvals, or suspending ones, which a single call cannot
            // do: the client is asked, under their policy.
            configured => {
                let (asking, wait) = self.asking(
                    &request.name,
                    request.request_state.as_deref(),
                    request.input_responses.as_ref(),
                    context,
                    binding.clone(),
                );
                waiting = wait;
                ctx = ctx
                    .with_approvals(asking.into_approvals(configured, Arc::clone(&audit.decided)));
            }
        }
        let call = ToolCall::new(request_id(&context.id), request.name, arguments);
        let forwarder = context
            .meta
            .get_progress_token()
            .map(|token| ProgressForwarder::start(context.peer.clone(), token));
        if let Some(forwarder) = &forwarder {
            let sender = forwarder.sender.clone();
            ctx = ctx.with_progress(move |event| {
                // The forwarder may be gone if the call ended; nothing to tell.
                let _ = sender.send(Some(event.content));
            });
        }
        // What the tool logs goes to the client, as the progress does.
        let logs = LogForwarder::new(&self.log_level, context, &call.name);
        let sink = logs.sink();
        ctx = ctx.with_log(move |event| sink(event.level, &event.message));
        tracing::debug!("called");
        let started = std::time::Instant::now();
        let running = execute_tool_call(&call, &listing.registry, ctx);
        let answered = until_answered(running, signal, &context.ct, self.options.signal());
        // The call either ends (it needs no approval, was decided, or
        // failed before), or hands something over and is dropped unrun.
        let ended = match waiting {
            None => Ended::Answered(answered.await),
            Some(waiting) => waiting.run(answered, &context.ct).await,
        };
        logs.finish().await;
        if let Some(forwarder) = forwarder {
            forwarder.finish().await;
        }
        let result = match ended {
            Ended::Answered(result) => {
                self.load_found(&listing, &result, context).await;
                result
            }
            Ended::Handed(Handed::Ask(question)) => {
                tracing::debug!("asking the client for approval (InputRequiredResult)");
                audit.outcome = Some(audit::Outcome::InputRequired);
                let asked = mrtr::input_required(&self.approvals, &question, &binding)?;
                return Ok(asked.into());
            }
            Ended::Handed(Handed::Refused(error)) => return Err(approving::refused(error)),
            Ended::Handed(Handed::Interrupted) => ToolResultMessage::interrupted(&call),
        };
        tracing::debug!(
            is_error = result.is_error,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "answered"
        );
        audit.outcome = Some(audit::Outcome::of(&result));
        let result = result::call_tool_result(result, &listing.output_schemas)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Ok(result.into())
    }
}

/// Runs a call to its answer, cancelling its `signal` when the request is
/// cancelled (the client's `notifications/cancelled`, or its connection
/// gone) or the caller's own signal is: the executor still answers it.
/// Both are watched here, in the call's own task, not by a task per call.
async fn until_answered<F: Future>(
    running: F,
    signal: CancellationToken,
    request: &CancellationToken,
    caller: Option<&CancellationToken>,
) -> F::Output {
    let caller = async {
        match caller {
            Some(caller) => caller.cancelled().await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(running);
    tokio::select! {
        biased;
        answered = &mut running => return answered,
        () = request.cancelled() => {}
        () = caller => {}
    }
    signal.cancel();
    running.await
}

/// A definition as `tools/list` gives it: tool-core's MCP shape (name,
/// description, `inputSchema`, `outputSchema` and `annotations` when the
/// tool has them), read into rmcp's type.
fn mcp_tool(definition: &ToolDefinition) -> Tool {
    let shaped = mcp::tools(std::slice::from_ref(definition)).value;
    match serde_json::from_value::<Vec<Tool>>(shaped) {
        Ok(mut tools) if tools.len() == 1 => tools.remove(0),
        // MCP wants an object schema; a tool without one takes any object.
        _ => {
            let schema = serde_json::Map::from_iter([("type".to_owned(), Value::from("object"))]);
            Tool::new(
                definition.name.clone(),
                definition.description.clone(),
                Arc::new(schema),
            )
        }
    }
}

/// `Unknown tool: get_wether`, and the names the client's model most
/// likely meant among the tools served: `(did you mean "get_weather"?)`.
fn unknown_tool(registry: &ToolRegistry, name: &str, options: &RunOptions) -> String {
    let near = registry.names_like(name, options, 3);
    if near.is_empty() {
        return format!("Unknown tool: {name}");
    }
    let near: Vec<String> = near.iter().map(|name| format!("\"{name}\"")).collect();
    format!("Unknown tool: {name} (did you mean {}?)", near.join(" or "))
}

/// A JSON-RPC request id as our call id.
fn request_id(id: &NumberOrString) -> String {
    match id {
        NumberOrString::Number(number) => number.to_string(),
        NumberOrString::String(text) => text.to_string(),
    }
}
