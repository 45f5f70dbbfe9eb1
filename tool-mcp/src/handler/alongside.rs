//! Prompts, resources and completion beside the tools
//! ([`McpServer::with_handler`]): served by a handler of the
//! application's own, written with rmcp (its `#[prompt_router]` macros, or
//! `ServerHandler` by hand), whose capabilities the server adds to its own.
//!
//! Composed rather than rebuilt: rmcp already has the types, the wire
//! shapes and the routers of prompts, resources and completion, and a
//! server of tools alone pays for none of it (no field is set, nothing
//! more is compiled). The tools stay this crate's: the handler's own
//! tools, if it has any, are not served.

use super::McpServer;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, ErrorData>> + Send + 'a>>;

/// The part of an rmcp `ServerHandler` served beside the tools, as a
/// trait object (rmcp's trait returns `impl Future`, which no `dyn` can).
pub(crate) trait Alongside: Send + Sync + 'static {
    fn capabilities(&self) -> ServerCapabilities;
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListPromptsResult>;
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, GetPromptResponse>;
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourcesResult>;
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourceTemplatesResult>;
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ReadResourceResponse>;
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()>;
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()>;
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CompleteResult>;
}

impl<H: ServerHandler> Alongside for H {
    fn capabilities(&self) -> ServerCapabilities {
        self.get_info().capabilities
    }

    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListPromptsResult> {
        Box::pin(ServerHandler::list_prompts(self, request, context))
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, GetPromptResponse> {
        Box::pin(ServerHandler::get_prompt(self, request, context))
    }

    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourcesResult> {
        Box::pin(ServerHandler::list_resources(self, request, context))
    }

    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ListResourceTemplatesResult> {
        Box::pin(ServerHandler::list_resource_templates(self, request, context))
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ReadResourceResponse> {
        Box::pin(ServerHandler::read_resource(self, request, context))
    }

    #[expect(
        deprecated,
        reason = "resources/subscribe: the revisions before 2026-07-28 have it"
    )]
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        Box::pin(ServerHandler::subscribe(self, request, context))
    }

    #[expect(
        deprecated,
        reason = "resources/unsubscribe: the revisions before 2026-07-28 have it"
    )]
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, ()> {
        Box::pin(ServerHandler::unsubscribe(self, request, context))
    }

    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer<'_, CompleteResult> {
        Box::pin(ServerHandler::complete(self, request, context))
    }
}

impl McpServer {
    /// Also serves `handler`'s prompts (`prompts/list`, `prompts/get`),
    /// resources (`resources/list`, `resources/read`, templates,
    /// `resources/subscribe` and `unsubscribe`) and completion
    /// (`completion/complete`), with the capabilities its `get_info`
    /// declares for them. Write it with rmcp: its `#[prompt_router]`
    /// macros, or `ServerHandler`'s methods by hand; its tools, if any,
    /// are not served (the registry's are).
    ///
    /// ```
    /// use rmcp::model::{
    ///     ListResourcesResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    /// };
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer, ServerHandler};
    ///
    /// /// The application's resources.
    /// struct Docs;
    ///
    /// impl ServerHandler for Docs {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    ///     }
    ///
    ///     async fn list_resources(
    ///         &self,
    ///         _request: Option<PaginatedRequestParams>,
    ///         _context: RequestContext<RoleServer>,
    ///     ) -> Result<ListResourcesResult, ErrorData> {
    ///         // rmcp's types read MCP's JSON as it is on the wire.
    ///         let listed = serde_json::json!({"resources": [{"uri": "docs://readme", "name": "README"}]});
    ///         serde_json::from_value(listed).map_err(|error| ErrorData::internal_error(error.to_string(), None))
    ///     }
    /// }
    ///
    /// let server = tool_mcp::McpServer::new(tool_core::ToolRegistry::new()).with_handler(Docs);
    /// # let _ = server;
    /// ```
    pub fn with_handler(mut self, handler: impl ServerHandler) -> Self {
        self.alongside = Some(Arc::new(handler));
        self
    }

    /// The capabilities `handler` adds to the tools': its prompts,
    /// resources and completions.
    pub(super) fn add_alongside(&self, capabilities: &mut ServerCapabilities) {
        if let Some(alongside) = &self.alongside {
            let theirs = alongside.capabilities();
            capabilities.prompts = theirs.prompts;
            capabilities.resources = theirs.resources;
            capabilities.completions = theirs.completions;
        }
    }

    /// The handler beside the tools, or the JSON-RPC error of a method
    /// this server does not have.
    pub(super) fn alongside(&self, method: &'static str) -> Result<&dyn Alongside, ErrorData> {
        self.alongside.as_deref().ok_or_else(|| {
            ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("Method not found: {method} (this server serves tools only)"),
                None,
            )
        })
    }
}
