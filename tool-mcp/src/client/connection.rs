//! One server, kept connected: the running rmcp client (restarted or
//! reconnected with backoff when it is lost), the tools it offers now, and
//! the progress sinks of the calls in flight.

use super::validate;
use super::{ClientError, INHERITED_ENV, Target, Upstream, Variable};
use jsonschema::Validator;
use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientCapabilities, ClientConfig,
    ClientRequest, Implementation, JsonObject, ProgressNotificationParam, ProgressToken, Request,
    RequestId, ServerResult,
};
use rmcp::service::{
    ClientInitializeError, NotificationContext, PeerRequestOptions, RunningService,
};
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;
use tokio::time::Instant;
use tool_core::{Content, ProgressFn, ToolContext, ToolError, ToolFailure, text};
use tracing::Instrument;

/// The first wait after a failed connection attempt; it doubles up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A tool as the server lists it, with its `inputSchema` compiled.
pub(crate) struct Spec {
    pub tool: rmcp::model::Tool,
    pub validator: Result<Validator, String>,
}

/// What the client and its handler (on rmcp's tasks) share.
#[derive(Default)]
pub(crate) struct State {
    /// The server's tools, in its order.
    tools: RwLock<Vec<Arc<Spec>>>,
    progress: Mutex<Progress>,
}

/// Where each call in flight wants its progress, by progress token, and
/// the updates that came before their call said so: rmcp picks a request's
/// token while sending it, so a fast server's first report can beat the
/// caller's registration.
#[derive(Default)]
struct Progress {
    sinks: HashMap<String, ProgressFn>,
    /// Oldest first, at most [`EARLY_PROGRESS_LIMIT`]; reports for calls
    /// that already ended wait here until newer ones push them out.
    early: VecDeque<(String, Vec<Content>)>,
}

/// How many reports with no call (yet) are kept.
const EARLY_PROGRESS_LIMIT: usize = 64;

impl Progress {
    /// Forwards the call's progress to `sink` from now on; returns the
    /// reports that came before, in order, for the caller to deliver.
    fn register(&mut self, token: &str, sink: ProgressFn) -> Vec<Vec<Content>> {
        self.sinks.insert(token.to_owned(), sink);
        let mut before = Vec::new();
        self.early.retain(|(early, content)| {
            if early == token {
                before.push(content.clone());
                false
            } else {
                true
            }
        });
        before
    }

    /// The sink of `token`, or `None` when the report was kept for later.
    fn report(
        &mut self,
        token: String,
        content: Vec<Content>,
    ) -> Option<(ProgressFn, Vec<Content>)> {
        if let Some(sink) = self.sinks.get(&token) {
            return Some((Arc::clone(sink), content));
        }
        if self.early.len() == EARLY_PROGRESS_LIMIT {
            self.early.pop_front();
        }
        self.early.push_back((token, content));
        None
    }

    /// A new connection numbers its tokens anew: what the old one left
    /// belongs to no call of the new one.
    fn reconnected(&mut self) {
        self.early.clear();
    }

    fn forget(&mut self, token: &str) {
        self.sinks.remove(token);
        self.early.retain(|(early, _)| early != token);
    }
}

impl State {
    pub fn specs(&self) -> Vec<Arc<Spec>> {
        self.tools
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub fn spec(&self, name: &str) -> Option<Arc<Spec>> {
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
                let validator = validate::compile(&schema);
                Arc::new(Spec { tool, validator })
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
struct Handler {
    state: Arc<State>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
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
        let delivery = self
            .state
            .progress()
            .report(token_key(&params.progress_token), vec![text(message)]);
        if let Some((sink, content)) = delivery {
            sink(content);
        }
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        match context.peer.list_all_tools().await {
            Ok(tools) => {
                self.state.replace(tools);
            }
            Err(error) => tracing::warn!("MCP tools/list after list_changed failed: {error}"),
        }
    }
}

type Service = RunningService<RoleClient, Handler>;

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
    pub async fn open(upstream: Upstream) -> Result<Connection, ClientError> {
        let state = Arc::new(State::default());
        let service = start(&upstream, &state).await?;
        let tools = bounded(upstream.connect_timeout, service.peer().list_all_tools())
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

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn upstream(&self) -> &Upstream {
        &self.upstream
    }

    pub async fn refresh(&self) -> Result<usize, ClientError> {
        let (peer, generation) = self.peer().await.map_err(ClientError::Connect)?;
        match bounded(self.upstream.connect_timeout, peer.list_all_tools()).await {
            Ok(tools) => Ok(self.state.replace(tools)),
            Err(message) => {
                self.mark_broken(generation).await;
                Err(ClientError::ListTools(message))
            }
        }
    }

    pub async fn close(&self) {
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
                    service.peer().list_all_tools(),
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
    pub async fn call(
        &self,
        name: &str,
        arguments: JsonObject,
        ctx: &ToolContext,
    ) -> Result<ServerResult, ToolError> {
        // The remote half of a federated call: its lines name the server
        // and the tool there, beside the local call's own span.
        let span = tracing::info_span!(
            "upstream_call",
            server = %self.upstream.place(),
            tool = name,
        );
        self.call_in_span(name, arguments, ctx)
            .instrument(span)
            .await
    }

    async fn call_in_span(
        &self,
        name: &str,
        arguments: JsonObject,
        ctx: &ToolContext,
    ) -> Result<ServerResult, ToolError> {
        let (peer, generation) = self
            .peer()
            .await
            .map_err(|error| ToolFailure::retry(format!("cannot reach the MCP server: {error}")))?;
        let request = ClientRequest::CallToolRequest(Request::new(
            CallToolRequestParams::new(name.to_owned()).with_arguments(arguments),
        ));
        let handle = match peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(error) => return Err(self.failed(generation, error).await),
        };
        let mut in_flight = InFlight {
            peer: peer.clone(),
            id: Some(handle.id.clone()),
            token: token_key(&handle.progress_token),
            state: Arc::clone(&self.state),
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
            Ok(result) => Ok(result),
            Err(error) => Err(self.failed(generation, error).await),
        }
    }

    /// A request's failure as the call's error; a lost connection is
    /// marked, so the next call connects again.
    async fn failed(&self, generation: u64, error: ServiceError) -> ToolError {
        let message = match error {
            ServiceError::McpError(error) => {
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
                return ToolFailure::retry(format!("the MCP server's answer failed: {other}"))
                    .into();
            }
        };
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
}

impl InFlight {
    async fn cancel(&mut self, reason: &str) {
        if let Some(id) = self.id.take() {
            let _ = self
                .peer
                .notify_cancelled(CancelledNotificationParam::new(
                    Some(id),
                    Some(reason.to_owned()),
                ))
                .await;
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.state.progress().forget(&self.token);
        let Some(id) = self.id.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(
                    Some(id),
                    Some("request abandoned by the caller".to_owned()),
                ))
                .await;
        });
    }
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

/// Starts the server (or reaches it) and runs `initialize`.
async fn start(upstream: &Upstream, state: &Arc<State>) -> Result<Service, ClientError> {
    let handler = Handler {
        state: Arc::clone(state),
    };
    let limit = upstream.connect_timeout;
    let started = match &upstream.target {
        Target::Command { program, args, env } => {
            let mut command = tokio::process::Command::new(program);
            command
                .args(args)
                .env_clear()
                .envs(environment(env))
                .kill_on_drop(true);
            let (child, _) = TokioChildProcess::builder(command)
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|error| {
                    ClientError::Connect(format!(
                        "cannot start {}: {error}",
                        program.to_string_lossy()
                    ))
                })?;
            tokio::time::timeout(limit, handler.serve(child)).await
        }
        Target::Http {
            url,
            bearer_token,
            root_certificates,
        } => {
            // Building it reads the system's CA certificates from disk.
            let roots = root_certificates.clone();
            let client = tokio::task::spawn_blocking(move || http_client(&roots, limit))
                .await
                .map_err(|error| {
                    ClientError::Connect(format!("cannot build the HTTP client: {error}"))
                })?
                .map_err(ClientError::Connect)?;
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
            if let Some(token) = bearer_token {
                config = config.auth_header(token.clone());
            }
            config.retry_config = Arc::new(resume_once());
            let transport = StreamableHttpClientTransport::with_client(client, config);
            tokio::time::timeout(limit, handler.serve(transport)).await
        }
    };
    match started {
        Ok(Ok(service)) => Ok(service),
        Ok(Err(error)) => Err(ClientError::Connect(start_failure(&error))),
        Err(_) => Err(ClientError::Connect(format!(
            "no answer within {} ms",
            limit.as_millis()
        ))),
    }
}

/// rmcp's words for a failed start, with what went wrong underneath (a
/// refused certificate, a refused connection) and without the transport's
/// Rust type, which rmcp's own message names.
fn start_failure(error: &ClientInitializeError) -> String {
    match error {
        ClientInitializeError::TransportError { error, context } => {
            let inner: &(dyn std::error::Error + 'static) = error.error.as_ref();
            // rmcp's wrapper of reqwest's error does not name it as its
            // source; reqwest's own causes say what failed.
            let inner = match inner.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
                Some(StreamableHttpError::Client(client)) => client,
                _ => inner,
            };
            format!("cannot {context}: {}", with_causes(inner))
        }
        other => with_causes(other),
    }
}

/// `error`'s message, then each cause's that it does not already hold.
fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = inner.source();
    }
    message
}

/// A started server's whole environment: [`INHERITED_ENV`] (those set
/// here), then the upstream's own variables in order, a later one winning.
fn environment(own: &[Variable]) -> HashMap<OsString, OsString> {
    let mut variables: HashMap<OsString, OsString> = INHERITED_ENV
        .iter()
        .filter_map(|name| Some((OsString::from(name), std::env::var_os(name)?)))
        .collect();
    for variable in own {
        match variable {
            Variable::Set(name, value) => {
                variables.insert(name.clone(), value.clone());
            }
            Variable::Inherited(name) => match std::env::var_os(name) {
                Some(value) => {
                    variables.insert(name.clone(), value);
                }
                None => {
                    variables.remove(name);
                }
            },
        }
    }
    variables
}

/// How a streamable HTTP response stream that breaks before its answer is
/// resumed (a GET with `Last-Event-ID`): one attempt, at once when the
/// connection broke, or after the server's SSE `retry` wait (rmcp's servers
/// ask for 3 s; [`RESUME_WAIT`] if it named none) when the stream ended
/// cleanly. If that attempt fails, rmcp answers the calls waiting on the
/// stream "transport closed", and [`Connection::failed`] marks the
/// connection for reconnecting. rmcp's default retries without end,
/// doubling its wait, so a call to a server that died would wait for its
/// timeout.
fn resume_once() -> ExponentialBackoff {
    let mut policy = ExponentialBackoff::default();
    policy.max_times = Some(1);
    policy.base_duration = RESUME_WAIT;
    policy
}

/// How long a broken response stream waits before its one resumption when
/// the server named no wait of its own.
const RESUME_WAIT: Duration = Duration::from_millis(500);

/// The HTTP client of an HTTP upstream: rmcp's default settings (one
/// connection per request, same-origin 307/308 redirects only), a bound on
/// connecting, and the upstream's extra roots.
fn http_client(
    root_certificates: &[Vec<u8>],
    connect_timeout: Duration,
) -> Result<reqwest::Client, String> {
    let mut builder = reqwest::Client::builder()
        // rmcp's reason: a reused connection whose last body was not read
        // to its end stalls ~40 ms on Linux's delayed ACK.
        .pool_max_idle_per_host(0)
        .redirect(same_origin_redirects())
        .connect_timeout(connect_timeout);
    for (index, pem) in root_certificates.iter().enumerate() {
        let place = format!(
            "root certificate {} of {}",
            index + 1,
            root_certificates.len()
        );
        let certificates = reqwest::Certificate::from_pem_bundle(pem)
            .map_err(|error| format!("{place} is not PEM: {error}"))?;
        if certificates.is_empty() {
            return Err(format!(
                "{place} holds no certificate (expected -----BEGIN CERTIFICATE-----)"
            ));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder
        .build()
        .map_err(|error| format!("cannot build the HTTP client: {error}"))
}

/// The redirects rmcp's own client follows: 307 and 308 (which keep the
/// POST's body) to the same origin (so the session and token go nowhere
/// else), at most 10; any other redirect is returned as the answer.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    const MAX_REDIRECTS: usize = 10;
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A server on loopback that answers each request by its path: a
    /// redirect where `routes` says so, else 200 with the request's method
    /// and body. One request per connection, as the client sends them.
    async fn redirecting(routes: Vec<(&'static str, String)>) -> std::net::SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let mut request = Vec::new();
                let mut buffer = [0; 4096];
                // The head and a body of a few bytes arrive together.
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    let Ok(read) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if read == 0 {
                        break;
                    }
                    request.extend_from_slice(&buffer[..read]);
                }
                let text = String::from_utf8_lossy(&request).into_owned();
                let mut words = text.split_whitespace();
                let method = words.next().unwrap_or_default().to_owned();
                let path = words.next().unwrap_or_default().to_owned();
                let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body);
                let answer = match routes.iter().find(|(from, _)| *from == path) {
                    Some((_, head)) => format!("HTTP/1.1 {head}\r\nContent-Length: 0\r\n\r\n"),
                    None => {
                        let said = format!("{method} {path} {body}");
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{said}",
                            said.len()
                        )
                    }
                };
                let _ = stream.write_all(answer.as_bytes()).await;
            }
        });
        address
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn redirects_are_followed_as_rmcps_own_client_follows_them() {
        let elsewhere = redirecting(Vec::new()).await;
        let server = redirecting(vec![
            (
                "/temporary",
                "307 Temporary Redirect\r\nLocation: /final".to_owned(),
            ),
            (
                "/permanent",
                "308 Permanent Redirect\r\nLocation: /final".to_owned(),
            ),
            ("/found", "302 Found\r\nLocation: /final".to_owned()),
            (
                "/away",
                format!("307 Temporary Redirect\r\nLocation: http://{elsewhere}/final"),
            ),
            (
                "/loop",
                "307 Temporary Redirect\r\nLocation: /loop".to_owned(),
            ),
        ])
        .await;
        let client = http_client(&[], Duration::from_secs(5)).unwrap();
        let post = |path: &str| {
            client
                .post(format!("http://{server}{path}"))
                .body("{}")
                .send()
        };

        // 307 and 308 to the same origin: followed, the POST and its body kept.
        for path in ["/temporary", "/permanent"] {
            let response = post(path).await.unwrap();
            assert_eq!(response.status(), 200, "{path}");
            assert_eq!(response.text().await.unwrap(), "POST /final {}", "{path}");
        }
        // A 302 (which would drop the body) and another origin: answered
        // as they are.
        assert_eq!(post("/found").await.unwrap().status(), 302);
        assert_eq!(post("/away").await.unwrap().status(), 307);
        // And not for ever.
        let error = post("/loop").await.unwrap_err();
        assert!(error.is_redirect(), "{error}");
    }

    #[test]
    fn roots_that_are_not_certificates_are_named() {
        let garbage =
            b"-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n";
        let error =
            http_client(&[Vec::new(), garbage.to_vec()], Duration::from_secs(5)).unwrap_err();
        assert_eq!(
            error,
            "root certificate 1 of 2 holds no certificate (expected -----BEGIN CERTIFICATE-----)"
        );
        let error = http_client(&[garbage.to_vec()], Duration::from_secs(5)).unwrap_err();
        assert!(
            error.starts_with("root certificate 1 of 1 is not PEM: "),
            "{error}"
        );
    }
}
