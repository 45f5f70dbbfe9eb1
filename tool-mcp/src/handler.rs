//! The MCP side of a registry: `tools/list` and `tools/call` on rmcp's
//! `ServerHandler`, with calls run by tool-core's executor.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    NumberOrString, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::mpsc;
use tool_core::providers::{content_text, mcp_call_tool_result, mcp_tools};
use tool_core::{CallContext, Content, ToolCall, ToolDefinition, ToolRegistry, execute_tool_call};
use tracing::Instrument;

/// An MCP server for one registry. Cloning it is cheap; the HTTP transport
/// makes one per session.
#[derive(Clone)]
pub struct McpServer {
    registry: Arc<ToolRegistry>,
    tools: Arc<Vec<Tool>>,
    info: Implementation,
}

impl McpServer {
    /// A server for `registry`, announcing itself as this crate.
    pub fn new(registry: ToolRegistry) -> Self {
        let tools = registry.definitions().iter().map(mcp_tool).collect();
        McpServer {
            registry: Arc::new(registry),
            tools: Arc::new(tools),
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        }
    }

    /// Announces the server under another name and version.
    pub fn with_server_info(mut self, name: &str, version: &str) -> Self {
        self.info = Implementation::new(name.to_owned(), version.to_owned());
        self
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
}

impl McpServer {
    async fn run_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // MCP: an unknown tool is a protocol error, not a tool result.
        if self.registry.get(&request.name).is_none() {
            tracing::debug!("unknown tool");
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        }
        let arguments = request
            .arguments
            .map_or_else(|| Value::Object(serde_json::Map::new()), Value::Object);
        let call = ToolCall::new(request_id(&context.id), request.name, arguments);

        let mut ctx = CallContext::new().with_signal(context.ct.clone());
        let forwarder = context
            .meta
            .get_progress_token()
            .map(|token| ProgressForwarder::start(context.peer.clone(), token));
        if let Some(forwarder) = &forwarder {
            let sender = forwarder.sender.clone();
            ctx = ctx.with_progress(move |content| {
                // The forwarder may be gone if the call ended; nothing to tell.
                let _ = sender.send(Some(content));
            });
        }
        tracing::debug!("called");
        let started = std::time::Instant::now();
        let result = execute_tool_call(&call, &self.registry, ctx).await;
        if let Some(forwarder) = forwarder {
            forwarder.finish().await;
        }
        tracing::debug!(
            is_error = result.is_error,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "answered"
        );
        let result: CallToolResult = serde_json::from_value(mcp_call_tool_result(&result))
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Ok(result.into())
    }
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
    let shaped = mcp_tools(std::slice::from_ref(definition)).value;
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

/// Sends a call's progress updates as MCP progress notifications, in order,
/// from a task of its own: a tool reports progress synchronously, sending is
/// async.
struct ProgressForwarder {
    /// `None` marks the end: a tool may keep its context (and so a sender)
    /// alive past the call, so the channel closing cannot be waited for.
    sender: mpsc::UnboundedSender<Option<Vec<Content>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ProgressForwarder {
    fn start(peer: Peer<RoleServer>, token: ProgressToken) -> Self {
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
    async fn finish(self) {
        let _ = self.sender.send(None);
        let _ = self.task.await;
    }
}
