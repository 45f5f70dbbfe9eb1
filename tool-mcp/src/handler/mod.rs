//! The MCP side of a registry: `tools/list` and `tools/call` on rmcp's
//! `ServerHandler`, with calls run by tool-core's executor.

mod malformed;
mod progress;
mod result;
mod running;

use progress::ProgressForwarder;
use result::OutputSchemas;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, Implementation,
    ListToolsResult, NumberOrString, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use running::RunningCalls;
use serde_json::Value;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tool_core::providers::mcp;
use tool_core::{RunOptions, ToolCall, ToolDefinition, ToolRegistry, execute_tool_call};
use tracing::Instrument;

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
#[derive(Clone)]
pub struct McpServer {
    registry: Arc<ToolRegistry>,
    tools: Arc<Vec<Tool>>,
    output_schemas: Arc<OutputSchemas>,
    info: Implementation,
    options: RunOptions,
    calls: Arc<RunningCalls>,
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
        let mut server = McpServer {
            registry: Arc::new(registry),
            tools: Arc::default(),
            output_schemas: Arc::default(),
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            options: RunOptions::new(),
            calls: Arc::default(),
        };
        server.list_tools_again();
        server
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
    /// [`enabled`](RunOptions::enabled) tools are listed and callable.
    ///
    /// Each call gets its own cancellation signal (a child of the options'
    /// signal, when they have one), cancelled when the client cancels the
    /// request or goes away. A call's progress goes to the client that sent
    /// a `progressToken`; the options' own `progress` sink is replaced for
    /// that call, their `progress_events` sink still receives it.
    pub fn with_call_options(mut self, options: RunOptions) -> Self {
        self.options = options;
        self.list_tools_again();
        self
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

    /// How many calls this server (and its clones) is running.
    pub fn calls_running(&self) -> usize {
        self.calls.count()
    }

    /// The listed tools (only the enabled ones) and their output schemas.
    fn list_tools_again(&mut self) {
        let tools: Vec<Tool> = self
            .registry
            .definitions()
            .iter()
            .filter(|definition| self.options.is_enabled(&definition.name))
            .map(mcp_tool)
            .collect();
        self.output_schemas = Arc::new(OutputSchemas::of(&tools));
        self.tools = Arc::new(tools);
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.info.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Every log line of the call, the tool's own included, says which
        // call of which session it belongs to.
        let span = tracing::info_span!(
            "tools/call",
            tool = %request.name,
            request = %request_id(&context.id),
            session = tracing::field::Empty,
        );
        if let Some(session) = http_session(&context) {
            span.record("session", session);
        }
        self.run_call(request, context).instrument(span).await
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

impl McpServer {
    async fn run_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // MCP: an unknown tool is a protocol error, not a tool result.
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            tracing::debug!("unknown tool");
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        }
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
        let call = ToolCall::new(request_id(&context.id), request.name, arguments);

        let signal = self.calls.signal();
        let mut ctx = self.options.clone().with_signal(signal.clone());
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
        tracing::debug!("called");
        let started = std::time::Instant::now();
        let running = execute_tool_call(&call, &self.registry, ctx);
        let result = until_answered(running, signal, &context.ct, self.options.signal()).await;
        if let Some(forwarder) = forwarder {
            forwarder.finish().await;
        }
        tracing::debug!(
            is_error = result.is_error,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "answered"
        );
        let result = result::call_tool_result(result, &self.output_schemas)
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

/// The `Mcp-Session-Id` of a request that came over streamable HTTP
/// (rmcp hands the HTTP request's head to the handler); none over stdio.
fn http_session(context: &RequestContext<RoleServer>) -> Option<&str> {
    context
        .extensions
        .get::<hyper::http::request::Parts>()?
        .headers
        .get("mcp-session-id")?
        .to_str()
        .ok()
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

/// A JSON-RPC request id as our call id.
fn request_id(id: &NumberOrString) -> String {
    match id {
        NumberOrString::Number(number) => number.to_string(),
        NumberOrString::String(text) => text.to_string(),
    }
}
