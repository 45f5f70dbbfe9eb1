//! One server, kept connected: the running rmcp client (restarted or
//! reconnected with backoff when it is lost), the tools it offers now, and
//! the progress sinks of the calls in flight.

use super::progress::Progress;
use super::span;
use super::start::start;
use super::{ClientError, Upstream};
use crate::trace_context;
use rmcp::model::{
    CallToolRequestParams, CancelledNotification, CancelledNotificationParam, ClientCapabilities,
    ClientConfig, ClientNotification, ClientRequest, ElicitRequestParams, ElicitResult,
    ElicitationCapability, FormElicitationCapability, Implementation, JsonObject, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, Request, RequestId, RequestMetaObject, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, Peer, RoleClient, ServiceError};
use serde_json::Value;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;
use tokio::time::Instant;
use tool_core::params::{SchemaCheck, SchemaError};
use tool_core::{Content, ToolContext, ToolError, ToolFailure};
use tracing::Instrument;

/// The first wait after a failed connection attempt; it doubles up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A tool as the server lists it, with its `inputSchema` compiled.
pub(crate) struct Spec {
    pub tool: rmcp::model::Tool,
    pub check: Result<SchemaCheck, SchemaError>,
}

/// What the client and its handler (on rmcp's tasks) share.
#[derive(Default)]
pub(crate) struct State {
    /// The server's tools, in its order.
    tools: RwLock<Vec<Arc<Spec>>>,
    progress: Mutex<Progress>,
}

impl State {
    pub(super) fn specs(&self) -> Vec<Arc<Spec>> {
        self.tools
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(super) fn spec(&self, name: &str) -> Option<Arc<Spec>> {
        self.tools
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|spec| spec.tool.name == name)
            .cloned()
    }

    fn replace(&self, tools: Vec<rmcp::model::Tool>) -> usize {
        let specs: Vec<Arc<Spec>> = tools
            .into_iter()
            .map(|tool| {
                let schema = Value::Object(tool.input_schema.as_ref().clone());
                let check = SchemaCheck::new(&schema);
                Arc::new(Spec { tool, check })
            })
            .collect();
        let count = specs.len();
        *self.tools.write().unwrap_or_else(PoisonError::into_inner) = specs;
        count
    }

    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn token_key(token: &ProgressToken) -> String {
    serde_json::to_string(token).unwrap_or_default()
}

/// rmcp's client handler: forwards progress, refreshes on list_changed.
#[derive(Clone)]
pub(super) struct Handler {
    pub(super) state: Arc<State>,
    pub(super) upstream: Upstream,
    /// The `_meta` of the `initialize` this handler's connection sends:
    /// the trace context of its span.
    pub(super) initialize_meta: Option<RequestMetaObject>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.upstream.elicitation().is_some() {
            let mut elicitation = ElicitationCapability::new();
            elicitation.form = Some(FormElicitationCapability::new());
            capabilities.elicitation = Some(elicitation);
        }
        let mut config = ClientConfig::new(
            capabilities,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        );
        config.meta = self.initialize_meta.clone();
        match self.upstream.protocol_version() {
            Some(version) => config.with_protocol_version(version.clone()),
            None => config,
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let message = params.message.unwrap_or_else(|| match params.total {
            Some(total) => format!("{}/{total}", params.progress),
            None => params.progress.to_string(),
        });
        let delivery = self.state.progress().report(
            token_key(&params.progress_token),
            vec![Content::text(message)],
        );
        if let Some((sink, content)) = delivery {
            sink(content);
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        super::questions::answer(self.upstream.elicitation(), request).await
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        match list_tools(&context.peer, &self.upstream).await {
            Ok(tools) => {
                self.state.replace(tools);
            }
            Err(error) => tracing::warn!("MCP tools/list after list_changed failed: {error}"),
        }
    }
}

pub(super) type Service = RunningService<RoleClient, Handler>;

/// The live connection, if any, and when the next attempt may start.
#[derive(Default)]
struct Live {
    service: Option<Service>,
    /// Bumped at each new connection, so a failure seen on an old one does
    /// not condemn its successor.
    generation: u64,
    broken: bool,
    backoff: Duration,
    next_attempt: Option<Instant>,
}

pub(crate) struct Connection {
    upstream: Upstream,
    state: Arc<State>,
    live: tokio::sync::Mutex<Live>,
}

impl Connection {
    pub(super) async fn open(upstream: Upstream) -> Result<Connection, ClientError> {
        let state = Arc::new(State::default());
        let service = start(&upstream, &state).await?;
        let tools = bounded(upstream.connect_timeout, list_tools(service.peer(), &upstream))
            .await
            .map_err(ClientError::ListTools)?;
        state.replace(tools);
        Ok(Connection {
            upstream,
            state,
            live: tokio::sync::Mutex::new(Live {
                service: Some(service),
                ..Live::default()
            }),
        })
    }

    pub(super) fn state(&self) -> &State {
        &self.state
    }

    pub(super) fn upstream(&self) -> &Upstream {
        &self.upstream
    }

    pub(super) async fn refresh(&self) -> Result<usize, ClientError> {
        let (peer, generation) = self.peer().await.map_err(ClientError::Connect)?;
        match bounded(self.upstream.connect_timeout, list_tools(&peer, &self.upstream)).await {
            Ok(tools) => Ok(self.state.replace(tools)),
            Err(message) => {
                self.mark_broken(generation).await;
                Err(ClientError::ListTools(message))
            }
        }
    }

    pub(super) async fn close(&self) {
        let service = self.live.lock().await.service.take();
        if let Some(mut service) = service {
            let _ = service.close_with_timeout(Duration::from_secs(5)).await;
        }
    }

    /// The live peer, connecting first when there is none (waiting out the
    /// backoff of an earlier failure).
    async fn peer(&self) -> Result<(Peer<RoleClient>, u64), String> {
        let mut live = self.live.lock().await;
        if let Some(service) = &live.service
            && !live.broken
            && !service.peer().is_transport_closed()
        {
            return Ok((service.peer().clone(), live.generation));
        }
        // Dropping the old service ends it (and kills a child process).
        live.service = None;
        if let Some(at) = live.next_attempt {
            tokio::time::sleep_until(at).await;
        }
        match start(&self.upstream, &self.state).await {
            Ok(service) => {
                // The server may have changed with the restart; a failed
                // listing keeps the tools known so far.
                if let Ok(tools) = bounded(
                    self.upstream.connect_timeout,
                    list_tools(service.peer(), &self.upstream),
                )
                .await
                {
                    self.state.replace(tools);
                }
                self.state.progress().reconnected();
                tracing::info!(server = %self.upstream.place(), "reconnected to the MCP server");
                let peer = service.peer().clone();
                live.service = Some(service);
                live.generation += 1;
                live.broken = false;
                live.backoff = Duration::ZERO;
                live.next_attempt = None;
                Ok((peer, live.generation))
            }
            Err(error) => {
                live.backoff = if live.backoff.is_zero() {
                    FIRST_BACKOFF
                } else {
                    (live.backoff * 2).min(MAX_BACKOFF)
                };
                live.next_attempt = Some(Instant::now() + live.backoff);
                tracing::warn!(
                    server = %self.upstream.place(),
                    "cannot reconnect to the MCP server: {error}; next attempt in {} ms",
                    live.backoff.as_millis()
                );
                Err(error.to_string())
            }
        }
    }

    async fn mark_broken(&self, generation: u64) {
        let mut live = self.live.lock().await;
        if live.generation == generation {
            live.broken = true;
        }
    }

    /// Calls the server's tool `name`, forwarding the call's cancellation
    /// and progress.
    pub(super) async fn call(
        &self,
        name: &str,
        arguments: JsonObject,
        ctx: &ToolContext,
    ) -> Result<ServerResult, ToolError> {
        // The remote half of a federated call: its lines name the server
        // and the tool there, beside the local call's own span; its trace
        // context goes with the request (`otel`).
        let span = span::call_span(name, &self.upstream);
        self.call_in_span(name, arguments, ctx, &span)
            .instrument(span.clone())
            .await
    }

    async fn call_in_span(
        &self,
        name: &str,
        arguments: JsonObject,
        ctx: &ToolContext,
        span: &tracing::Span,
    ) -> Result<ServerResult, ToolError> {
        let (peer, generation) = match self.peer().await {
            Ok(live) => live,
            Err(error) => {
                let message = format!("cannot reach the MCP server: {error}");
                span::failed(span, "unreachable", &message);
                return Err(ToolFailure::retry(message).into());
            }
        };
        let request = ClientRequest::CallToolRequest(Request::new(
            CallToolRequestParams::new(name.to_owned()).with_arguments(arguments),
        ));
        // rmcp merges this `_meta` into the request's own (beside its
        // `progressToken`).
        let options = match trace_context::outgoing(span) {
            Some(meta) => PeerRequestOptions::no_options().with_meta(meta),
            None => PeerRequestOptions::no_options(),
        };
        let handle = match peer.send_request_with_option(request, options).await {
            Ok(handle) => handle,
            Err(error) => return Err(self.failed(generation, error, span).await),
        };
        span::sent(span, &handle.id);
        let mut in_flight = InFlight {
            peer: peer.clone(),
            id: Some(handle.id.clone()),
            token: token_key(&handle.progress_token),
            state: Arc::clone(&self.state),
            span: span.clone(),
        };
        if let Some(progress) = &ctx.progress {
            let before = self
                .state
                .progress()
                .register(&in_flight.token, Arc::clone(progress));
            for content in before {
                progress(content);
            }
        }
        let response = tokio::select! {
            biased;
            () = ctx.cancelled() => {
                in_flight.cancel("cancelled by the caller").await;
                return Err(ToolFailure::retry("cancelled").into());
            }
            response = handle.await_response() => response,
        };
        in_flight.id = None;
        match response {
            Ok(result) => {
                span::answered(span, &result);
                Ok(result)
            }
            Err(error) => Err(self.failed(generation, error, span).await),
        }
    }

    /// A request's failure as the call's error (and its span's); a lost
    /// connection is marked, so the next call connects again.
    async fn failed(
        &self,
        generation: u64,
        error: ServiceError,
        span: &tracing::Span,
    ) -> ToolError {
        let message = match error {
            ServiceError::McpError(error) => {
                span::rejected(span, error.code, &error.message);
                return ToolFailure::retry(format!(
                    "MCP error {}: {}",
                    error.code.0, error.message
                ))
                .into();
            }
            ServiceError::TransportClosed => "the MCP server closed the connection".to_owned(),
            ServiceError::TransportSend(error) => {
                // rmcp's own message names the transport's Rust type; what
                // went wrong is in the error it wraps.
                let cause = std::error::Error::source(&error)
                    .map_or_else(|| error.to_string(), ToString::to_string);
                format!("cannot send to the MCP server: {cause}")
            }
            other => {
                let message = format!("the MCP server's answer failed: {other}");
                span::failed(span, "_OTHER", &message);
                return ToolFailure::retry(message).into();
            }
        };
        span::failed(span, "connection_closed", &message);
        self.mark_broken(generation).await;
        tracing::warn!(server = %self.upstream.place(), "{message}; the next call connects again");
        ToolFailure::retry(format!("{message}; the next call connects again")).into()
    }
}

/// A request sent and not yet answered. Dropped while armed (the executor
/// dropped the call at its timeout), it tells the server to cancel; either
/// way it stops forwarding the call's progress.
struct InFlight {
    peer: Peer<RoleClient>,
    id: Option<RequestId>,
    token: String,
    state: Arc<State>,
    /// The call's span, which a cancellation ends as `cancelled`.
    span: tracing::Span,
}

impl InFlight {
    async fn cancel(&mut self, reason: &str) {
        if let Some(id) = self.id.take() {
            span::failed(&self.span, "cancelled", reason);
            let _ = send_cancel(&self.peer, id, reason, &self.span).await;
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.state.progress().forget(&self.token);
        let Some(id) = self.id.take() else {
            return;
        };
        span::failed(&self.span, "cancelled", "request abandoned by the caller");
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        let call = self.span.clone();
        runtime.spawn(async move {
            let _ = send_cancel(&peer, id, "request abandoned by the caller", &call).await;
        });
    }
}

/// `notifications/cancelled` for the request `id`, traced as a child of
/// the call's span and carrying its own context.
async fn send_cancel(
    peer: &Peer<RoleClient>,
    id: RequestId,
    reason: &str,
    call: &tracing::Span,
) -> Result<(), ServiceError> {
    let span = span::notification_span("notifications/cancelled", call);
    let mut cancel = CancelledNotification::new(CancelledNotificationParam::new(
        Some(id),
        Some(reason.to_owned()),
    ));
    // rmcp writes a notification's `_meta` from its extensions (what is in
    // its params' own field is replaced).
    if let Some(meta) = trace_context::outgoing_notification(&span) {
        cancel.extensions.insert(meta);
    }
    peer.send_notification(ClientNotification::CancelledNotification(cancel))
        .instrument(span)
        .await
}

/// Every page of the server's `tools/list`, each request in the
/// conventions' client span and carrying its context in `_meta`.
async fn list_tools(
    peer: &Peer<RoleClient>,
    upstream: &Upstream,
) -> Result<Vec<rmcp::model::Tool>, ServiceError> {
    let span = span::request_span("tools/list", upstream);
    let listed = async {
        let mut tools = Vec::new();
        let mut cursor = None;
        loop {
            let mut params = PaginatedRequestParams::default().with_cursor(cursor);
            params.meta = trace_context::outgoing(&span);
            let page = peer.list_tools(Some(params)).await?;
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
    }
    .instrument(span.clone())
    .await;
    if let Err(error) = &listed {
        span::failed_request(&span, error);
    }
    listed
}

/// `future`, or a message saying it took longer than `limit`.
async fn bounded<T, E: std::fmt::Display>(
    limit: Duration,
    future: impl Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match tokio::time::timeout(limit, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err(format!("no answer within {} ms", limit.as_millis())),
    }
}
