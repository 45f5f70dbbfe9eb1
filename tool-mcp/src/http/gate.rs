//! What stands between a request and rmcp: the checks (`Host`, `Origin`,
//! the credentials, the session's owner), the protected resource metadata
//! and a call's scope (with OAuth), the body and its limits. The same
//! whether [`HttpServer`](super::HttpServer) serves it or an application
//! mounts it ([`McpGate`](super::McpGate)).

use super::auth::Auth;
use super::callers::{CallerInFlight, CallerQuotas};
use super::cors;
use super::grant::Grant;
use super::hosts::HostPolicy;
use super::limits::{self, Admission, CallSlots, InFlight, Limits, SessionSlots};
use super::message::Message;
use super::owners::{Owner, SessionOwners};
use super::quotas::{ClientAddr, ClientIp, Network, client_address};
use super::session_ends::OpenSessions;
use super::shared::{self, SharedSessions};
use super::{HttpBody, HttpResponse, Refusal, polling};
use http_body_util::Full;
use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::{Method, Request, StatusCode};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tower_service::Service;
use tracing::Instrument;

pub(super) struct Gate {
    pub hosts: HostPolicy,
    pub auth: Auth,
    pub limits: Limits,
    /// Who opened each session; `None` when stateless, or when no
    /// credentials are asked (every caller is then the same).
    pub owners: Option<SessionOwners>,
    /// Sessions in the store every process shares (then `owners` is
    /// `None`: the store keeps them).
    pub shared: Option<SharedSessions>,
    /// The limits per caller, when any is set.
    pub callers: Option<CallerQuotas>,
    /// The proxies whose `X-Forwarded-For` names the client.
    pub trusted: Vec<Network>,
    /// Set when the server is stopping: readiness answers 503.
    pub draining: std::sync::atomic::AtomicBool,
    /// `None` when stateless: no session is ever opened.
    pub sessions: Option<SessionSlots>,
    /// The sessions opened here, for the audit line of their end.
    pub open_sessions: Option<Arc<OpenSessions>>,
    pub calls: CallSlots,
}

impl Gate {
    /// The answer to `request`: a refusal, the metadata document, or what
    /// `service` (rmcp's) answers.
    pub(super) async fn answer<S, B>(&self, service: S, request: Request<B>) -> HttpResponse
    where
        S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        // A span per request, naming its session: the lines of one
        // client's session can be picked out of many clients' at debug.
        // With its status it is also what tool-otel's
        // `http.server.request.duration` is made of: a layer filtered on
        // its own sees it at debug while the logs stay at info.
        let span = tracing::debug_span!(
            "mcp_http",
            method = %request.method(),
            session = tracing::field::Empty,
            http.response.status_code = tracing::field::Empty,
        );
        if let Some(session) = session_of(request.headers()) {
            span.record("session", session);
        }
        let reader = self.reader_of(request.uri().path(), request.headers());
        let response = async {
            let mut response = match self.check(service, request).await {
                Ok(response) => response,
                Err(Refusal(response)) => {
                    // Not above debug: whoever can reach the port could fill
                    // the logs with refusals.
                    tracing::debug!(status = response.status().as_u16(), "refused");
                    *response
                }
            };
            if let Some(reader) = &reader {
                cors::allow(&mut response, reader);
            }
            response
        }
        .instrument(span.clone())
        .await;
        // Recorded before the span closes (when `span` drops, just after).
        span.record("http.response.status_code", response.status().as_u16());
        response
    }

    /// Who may read the answer to a request from a browser: any page for
    /// the public metadata, else a page of an accepted origin.
    fn reader_of(&self, path: &str, headers: &hyper::HeaderMap) -> Option<cors::Reader> {
        if self.serves_metadata(path) {
            return headers
                .contains_key(hyper::header::ORIGIN)
                .then_some(cors::Reader::Anyone);
        }
        cors::Reader::of(headers, |origin| self.hosts.accepts_origin(origin))
    }

    /// Whether the state this gate needs answers: with shared state, the
    /// store; without, always.
    pub(super) async fn ready(&self) -> Result<(), String> {
        if self.draining.load(std::sync::atomic::Ordering::Relaxed) {
            return Err("draining: this process is stopping".to_owned());
        }
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        shared.directory.ready().await.map_err(|error| {
            format!(
                "the shared store does not answer: {}: {error}",
                shared.directory.describe()
            )
        })
    }

    /// Whether `path` is one this gate answers itself (the protected
    /// resource metadata), not rmcp.
    pub(super) fn serves_metadata(&self, path: &str) -> bool {
        #[cfg(feature = "oauth")]
        if let Some(metadata) = self.auth.metadata() {
            return metadata.serves(path);
        }
        let _ = path;
        false
    }

    async fn check<S, B>(&self, service: S, request: Request<B>) -> Result<HttpResponse, Refusal>
    where
        S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        self.hosts.check_host(request.headers())?;
        #[cfg(feature = "oauth")]
        if let Some(metadata) = self.auth.metadata()
            && metadata.serves(request.uri().path())
        {
            if cors::is_preflight(request.method(), request.headers()) {
                return Ok(cors::preflight(
                    &cors::Reader::Anyone,
                    request.headers(),
                    true,
                ));
            }
            return Ok(resource_metadata(request.method(), &metadata.document));
        }
        self.hosts.check_origin(request.headers())?;
        // A preflight carries no credentials: answered before they are
        // asked for, once the origin is accepted.
        if cors::is_preflight(request.method(), request.headers())
            && let Some(reader) = self.reader_of(request.uri().path(), request.headers())
        {
            return Ok(cors::preflight(&reader, request.headers(), false));
        }
        let client = self.client_of(request.extensions(), request.headers());
        let grant = self
            .auth
            .check(request.uri(), request.headers(), client)
            .await?;
        // Served by HttpServer: this connection is no longer one that has
        // sent nothing past the checks.
        if let Some(admission) = request.extensions().get::<Arc<Admission>>() {
            admission.passed();
        }
        let quota_key = self
            .callers
            .as_ref()
            .map(|callers| callers.caller(grant.as_ref(), client));
        let caller = Caller {
            owner: grant.as_ref().map(Grant::owner),
            quota_key: quota_key.as_deref(),
            client,
        };
        let (mut parts, body) = request.into_parts();
        // The handler finds them in the `Parts` rmcp hands it.
        if let Some(grant) = &grant {
            parts.extensions.insert(grant.clone());
        }
        if let Some(client) = client {
            parts.extensions.insert(ClientIp(client));
        }
        if let Some(shared) = &self.shared {
            parts
                .extensions
                .insert(super::SharedLoads(Arc::clone(&shared.directory)));
        }
        let body = match parts.method {
            Method::POST => Some(limits::read_body(body, &parts.headers, &self.limits).await?),
            _ => None,
        };
        let kind = match &body {
            Some(body) => {
                let session = session_of(&parts.headers);
                Some(self.peek(body, grant.as_ref(), &caller, session)?)
            }
            None => None,
        };
        // The session's check and the caller's places are independent:
        // asked together, they cost a shared store one round trip, not
        // three (the commands go out at once on one connection).
        let (checked, places) = tokio::join!(
            self.check_session(&parts.method, &parts.headers, &caller),
            self.take_places(&parts.method, kind, &caller),
        );
        checked?;
        let caller_in_flight = places?;
        match (body, kind) {
            (Some(body), Some(kind)) => {
                self.pass_message(service, parts, body, kind, &caller, caller_in_flight)
                    .await
            }
            _ => self.pass_without_body(service, parts, &caller).await,
        }
    }

    /// The client's address: the connection's, or past trusted proxies the
    /// one they name; `None` when the server was not told the connection's
    /// (a mounted service given no [`ClientAddr`]).
    fn client_of(
        &self,
        extensions: &hyper::http::Extensions,
        headers: &hyper::HeaderMap,
    ) -> Option<std::net::IpAddr> {
        let ClientAddr(peer) = extensions.get::<ClientAddr>()?;
        let forwarded = headers
            .get("x-forwarded-for")
            .and_then(|value| value.to_str().ok());
        Some(client_address(peer.ip(), forwarded, &self.trusted))
    }

    /// What a POST body carries, or the refusal: a body that is not
    /// JSON-RPC, or (with OAuth) a call of a tool the token may not call.
    #[cfg_attr(not(feature = "oauth"), expect(unused_variables))]
    fn peek(
        &self,
        body: &Bytes,
        grant: Option<&Grant>,
        caller: &Caller<'_>,
        session: Option<&str>,
    ) -> Result<Message, Refusal> {
        let peeked = Message::of(body)?;
        // MCP's scope challenge is an HTTP answer
        // (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#scope-challenge-handling):
        // given here, before rmcp reads the call.
        #[cfg(feature = "oauth")]
        if let (Some(grant), Some(tool)) = (grant, &peeked.tool)
            && let Some(scope) = grant.missing(tool)
            && let Some(oauth) = &self.auth.oauth
        {
            tracing::debug!(tool = %tool, scope, "refused: insufficient scope");
            crate::audit::call_answered(&crate::audit::CallRecord {
                tool,
                caller: &caller.audit_name(),
                client: caller.client,
                session,
                outcome: crate::audit::Outcome::Refused,
                approval: None,
                duration: std::time::Duration::ZERO,
            });
            return Err(oauth.metadata.challenge.insufficient_scope(scope, tool));
        }
        Ok(peeked.message)
    }

    /// The caller's turn at its rate and (for a JSON-RPC request) its
    /// place in flight, when limits per caller are set: requests and the
    /// GETs of a stream count; notifications and answers never do (a
    /// cancellation must always get through).
    async fn take_places(
        &self,
        method: &Method,
        kind: Option<Message>,
        caller: &Caller<'_>,
    ) -> Result<Option<CallerInFlight>, Refusal> {
        let (Some(callers), Some(key)) = (&self.callers, caller.quota_key) else {
            return Ok(None);
        };
        match kind {
            Some(message) if message.is_request() => {
                let (admitted, started) = tokio::join!(callers.admit(key), callers.start(key));
                admitted?;
                started
            }
            None if method == Method::GET => callers.admit(key).await.map(|()| None),
            _ => Ok(None),
        }
    }

    /// A request naming a session may use it: it is its caller's (shared
    /// or in memory), it resumes only its own streams, and (with a limit
    /// of sessions per caller) it keeps its caller's place.
    async fn check_session(
        &self,
        method: &Method,
        headers: &hyper::HeaderMap,
        caller: &Caller<'_>,
    ) -> Result<(), Refusal> {
        let Some(session) = session_of(headers) else {
            // A request of no session (2026-07-28's, stateless) may still
            // name a stream to resume, which the shared store would replay
            // to anyone: never a session's standing one.
            if self.shared.is_some() {
                check_resumption("", headers)?;
            }
            return Ok(());
        };
        if let Some(shared) = &self.shared {
            shared.check(session, caller.owner).await?;
            check_resumption(session, headers)?;
        } else if let (Some(owners), Some(owner)) = (&self.owners, caller.owner) {
            owners.check(session, owner)?;
        }
        if let (Some(callers), Some(key)) = (&self.callers, caller.quota_key)
            && method != Method::DELETE
        {
            callers.keep_session(key, session).await?;
        }
        Ok(())
    }

    /// GET opens a stream, DELETE ends a session: neither has a body rmcp
    /// reads.
    async fn pass_without_body<S>(
        &self,
        service: S,
        parts: hyper::http::request::Parts,
        caller: &Caller<'_>,
    ) -> Result<HttpResponse, Refusal>
    where
        S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
    {
        let closing = parts.method == Method::DELETE;
        let closed = session_of(&parts.headers)
            .filter(|_| closing)
            .map(str::to_owned);
        let polled = parts.method == Method::GET && self.limits.sse_polling.is_some();
        let resumes_from = polled
            .then(|| parts.headers.get("last-event-id")?.to_str().ok())
            .flatten()
            .map(str::to_owned);
        let mut response = call(service, Request::from_parts(parts, Full::default())).await;
        if let Some(last) = resumes_from.filter(|_| is_event_stream(&response)) {
            response = response.map(|body| {
                polling::Resumed::boxed(body, &last).unwrap_or_else(|body| body)
            });
        }
        if closing && response.status().is_success() {
            if let Some(session) = &closed {
                crate::audit::session_closed(
                    session,
                    &caller.audit_name(),
                    caller.client,
                    "client",
                );
                if let Some(open) = &self.open_sessions {
                    open.forget(session);
                }
                if let Some(owners) = &self.owners {
                    owners.closed(session);
                }
                if let (Some(callers), Some(key)) = (&self.callers, caller.quota_key) {
                    callers.session_closed(key, session).await;
                }
            }
            // rmcp says 202 Accepted; the session is already gone, and
            // the Python SDK warns on anything but 200 or 204.
            *response.status_mut() = StatusCode::OK;
        }
        Ok(response)
    }

    /// A POSTed message, past the limits, to rmcp (or, for an answer to a
    /// call that may run elsewhere, through the shared store).
    async fn pass_message<S>(
        &self,
        service: S,
        parts: hyper::http::request::Parts,
        body: Bytes,
        message: Message,
        caller: &Caller<'_>,
        caller_in_flight: Option<CallerInFlight>,
    ) -> Result<HttpResponse, Refusal>
    where
        S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
    {
        let session = session_of(&parts.headers);
        // An answer to a question a call asked, or a call's cancellation:
        // the call may run in another process, so every process gets it
        // through the store, and the one running the call takes it.
        if let (Some(shared), Some(session), Message::Answer) = (&self.shared, session, message) {
            shared.deliver(session, &body).await?;
            return Ok(accepted());
        }
        let requested = message.is_request();
        let in_session = session.is_some();
        let opening = match (&self.sessions, session, message) {
            (Some(sessions), None, Message::Initialize) => Some(sessions.open().await?),
            _ => None,
        };
        let in_flight = requested.then(|| self.calls.start(session)).transpose()?;
        let response = call(service, Request::from_parts(parts, Full::new(body))).await;
        // Answered: a new session is in rmcp's map now, and counted there.
        if opening.is_some()
            && let Some(session) = session_of(response.headers())
        {
            self.opened(session, caller).await?;
        }
        drop(opening);
        let response = match in_flight {
            // The request stays in flight until its answer has been sent
            // (or the client has gone): the guards go with the body.
            Some(in_flight) => {
                response.map(|body| Guarded::boxed(body, in_flight, caller_in_flight))
            }
            None => response,
        };
        Ok(match self.limits.sse_polling {
            Some((close_after, _)) if requested && in_session && is_event_stream(&response) => {
                response.map(|body| polling::CutAfter::boxed(body, close_after))
            }
            _ => response,
        })
    }

    /// `session` was just opened for `caller`: recorded (shared or in
    /// memory) and counted among the caller's sessions; when either fails
    /// it is closed again, and the client told why.
    async fn opened(&self, session: &str, caller: &Caller<'_>) -> Result<(), Refusal> {
        crate::audit::session_opened(session, &caller.audit_name(), caller.client);
        if let Some(open) = &self.open_sessions {
            open.opened(session, caller.audit_name(), caller.client);
        }
        if let Some(shared) = &self.shared {
            shared.opened(session, caller.owner).await?;
        } else if let (Some(owners), Some(owner)) = (&self.owners, caller.owner) {
            owners.opened(session, owner.clone()).await;
        }
        if let (Some(callers), Some(key)) = (&self.callers, caller.quota_key)
            && let Err(refused) = callers.open_session(key, session).await
        {
            self.abandon(session).await;
            crate::audit::session_closed(
                session,
                &caller.audit_name(),
                caller.client,
                "server: the caller has all the sessions it may have",
            );
            if let Some(open) = &self.open_sessions {
                open.forget(session);
            }
            return Err(refused);
        }
        Ok(())
    }

    /// Closes a session just opened that may not stay open.
    async fn abandon(&self, session: &str) {
        if let Some(shared) = &self.shared {
            shared.abandon(session).await;
        } else if let Some(sessions) = &self.sessions {
            sessions.close(session).await;
        }
    }
}

/// Who sent a request, as far as the gate cares: the owner of the
/// sessions it opens (with credentials), and the key its limits are
/// counted under (with limits per caller).
struct Caller<'a> {
    owner: Option<&'a Owner>,
    quota_key: Option<&'a str>,
    /// Its address, as far as it is known.
    client: Option<std::net::IpAddr>,
}

impl Caller<'_> {
    /// Who it is in the audit log.
    fn audit_name(&self) -> String {
        self.owner
            .map_or_else(|| crate::audit::ANONYMOUS.to_owned(), Owner::key)
    }
}

/// A `Last-Event-ID` must not name another session's standing stream
/// (with shared sessions, any process can replay any stream from the
/// store): the 404 of an unknown session otherwise.
fn check_resumption(session: &str, headers: &hyper::HeaderMap) -> Result<(), Refusal> {
    let Some(last) = headers.get("last-event-id") else {
        return Ok(());
    };
    match last.to_str() {
        Ok(last) if shared::resumes_own_stream(session, last) => Ok(()),
        _ => {
            tracing::warn!("a request resumed another session's stream: answered 404");
            Err(super::owners::unknown_session())
        }
    }
}

/// Whether `response` is an SSE stream (not a single JSON answer).
fn is_event_stream(response: &HttpResponse) -> bool {
    response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

/// 202 Accepted with no body: what rmcp answers a notification or a
/// response.
fn accepted() -> HttpResponse {
    let mut response = hyper::Response::new(HttpBody::new(Full::default()));
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

/// What `service` answers to `request`, once it is ready.
async fn call<S>(mut service: S, request: Request<Full<Bytes>>) -> HttpResponse
where
    S: Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
{
    let answered = async {
        std::future::poll_fn(|context| service.poll_ready(context)).await?;
        service.call(request).await
    };
    match answered.await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

/// A response body that holds its request's place in flight until it is
/// dropped, and its caller's place until its last frame: that frame goes
/// out once the place is given back (a store's round trip), so a client
/// that sends its next request on reading the answer is never refused for
/// a place its answered request still held. Seen under load across three
/// processes on Redis: a client's sequential requests met "already has 2
/// requests in flight" when the places were given back after the answers.
/// Its size and end pass through, so an answer of known length still goes
/// out with `Content-Length`, not chunked.
struct Guarded {
    body: HttpBody,
    _in_flight: InFlight,
    caller_in_flight: Option<CallerInFlight>,
    /// The caller's place being given back (in a `Mutex` only so that the
    /// body is `Sync`; polled through `get_mut`, never locked).
    giving_back: Option<std::sync::Mutex<Pin<Box<dyn Future<Output = ()> + Send>>>>,
    /// The body's last frame (`None` inside: its end), held until the
    /// caller's place is given back.
    last: Option<Option<Result<Frame<Bytes>, Infallible>>>,
}

impl Guarded {
    fn boxed(
        body: HttpBody,
        in_flight: InFlight,
        caller_in_flight: Option<CallerInFlight>,
    ) -> HttpBody {
        HttpBody::new(Guarded {
            body,
            _in_flight: in_flight,
            caller_in_flight,
            giving_back: None,
            last: None,
        })
    }
}

impl Body for Guarded {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        if this.last.is_none() {
            let frame = std::task::ready!(Pin::new(&mut this.body).poll_frame(context));
            let ended = frame.is_none() || this.body.is_end_stream();
            match this.caller_in_flight.take() {
                Some(place) if ended => {
                    this.giving_back = Some(std::sync::Mutex::new(place.give_back()));
                    this.last = Some(frame);
                }
                place => {
                    this.caller_in_flight = place;
                    return Poll::Ready(frame);
                }
            }
        }
        if let Some(giving_back) = &mut this.giving_back {
            let giving_back = giving_back
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            std::task::ready!(giving_back.as_mut().poll(context));
            this.giving_back = None;
        }
        Poll::Ready(this.last.take().flatten())
    }

    fn is_end_stream(&self) -> bool {
        self.caller_in_flight.is_none()
            && self.giving_back.is_none()
            && self.last.is_none()
            && self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The protected resource metadata document to GET and HEAD; it tells
/// how to get a token, so it needs none. Cacheable for a while: it changes
/// only with the configuration.
#[cfg(feature = "oauth")]
fn resource_metadata(method: &Method, document: &Bytes) -> HttpResponse {
    let mut response = super::document(
        method,
        "the protected resource metadata",
        document.clone(),
        "application/json",
    );
    if response.status().is_success() {
        response.headers_mut().insert(
            hyper::header::CACHE_CONTROL,
            hyper::header::HeaderValue::from_static("max-age=300"),
        );
    }
    response
}

/// The `Mcp-Session-Id` of a request or of the answer that opened it.
pub(crate) fn session_of(headers: &hyper::HeaderMap) -> Option<&str> {
    headers.get("mcp-session-id")?.to_str().ok()
}
