//! What stands between a request and rmcp: the checks (`Host`, `Origin`,
//! the credentials, the session's owner), the protected resource metadata
//! and a call's scope (with OAuth), the body and its limits. The same
//! whether [`HttpServer`](super::HttpServer) serves it or an application
//! mounts it ([`McpGate`](super::McpGate)).

use super::auth::Auth;
use super::grant::Grant;
use super::hosts::HostPolicy;
use super::limits::{self, Admission, CallSlots, InFlight, Limits, SessionSlots};
use super::message::Message;
use super::owners::SessionOwners;
use super::shared::{self, SharedSessions};
use super::{HttpBody, HttpResponse, Refusal};
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
    /// `None` when stateless: no session is ever opened.
    pub sessions: Option<SessionSlots>,
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
        let span = tracing::debug_span!(
            "mcp_http",
            method = %request.method(),
            session = tracing::field::Empty,
        );
        if let Some(session) = session_of(request.headers()) {
            span.record("session", session);
        }
        async {
            match self.check(service, request).await {
                Ok(response) => response,
                Err(Refusal(response)) => {
                    // Not above debug: whoever can reach the port could fill
                    // the logs with refusals.
                    tracing::debug!(status = response.status().as_u16(), "refused");
                    *response
                }
            }
        }
        .instrument(span)
        .await
    }

    /// Whether the state this gate needs answers: with shared state, the
    /// store; without, always.
    pub(super) async fn ready(&self) -> Result<(), String> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        shared
            .directory
            .ready()
            .await
            .map_err(|error| format!("{}: {error}", shared.directory.describe()))
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
        self.hosts.check(request.headers())?;
        #[cfg(feature = "oauth")]
        if let Some(metadata) = self.auth.metadata()
            && metadata.serves(request.uri().path())
        {
            return Ok(resource_metadata(request.method(), &metadata.document));
        }
        let grant = self.auth.check(request.uri(), request.headers())?;
        // Served by HttpServer: this connection is no longer one that has
        // sent nothing past the checks.
        if let Some(admission) = request.extensions().get::<Arc<Admission>>() {
            admission.passed();
        }
        // A session is its opener's: another caller's request naming it
        // gets the answer an unknown session gets.
        let owner = grant.as_ref().map(Grant::owner);
        if let Some(session) = session_of(request.headers()) {
            if let Some(shared) = &self.shared {
                shared.check(session, owner).await?;
                check_resumption(session, request.headers())?;
            } else if let (Some(owners), Some(owner)) = (&self.owners, owner) {
                owners.check(session, owner)?;
            }
        }
        let (mut parts, body) = request.into_parts();
        if let Some(grant) = &grant {
            // The handler finds it in the `Parts` rmcp hands it.
            parts.extensions.insert(grant.clone());
        }
        if parts.method != Method::POST {
            // GET opens a stream, DELETE ends a session: neither has a
            // body rmcp reads.
            let closing = parts.method == Method::DELETE;
            let closed = session_of(&parts.headers)
                .filter(|_| closing)
                .map(str::to_owned);
            let mut response = call(service, Request::from_parts(parts, Full::default())).await;
            if closing && response.status().is_success() {
                tracing::info!("MCP session closed by the client");
                if let (Some(owners), Some(session)) = (&self.owners, &closed) {
                    owners.closed(session);
                }
                // rmcp says 202 Accepted; the session is already gone, and
                // the Python SDK warns on anything but 200 or 204.
                *response.status_mut() = StatusCode::OK;
            }
            return Ok(response);
        }
        let body = limits::read_body(body, &parts.headers, &self.limits).await?;
        let peeked = Message::of(&body)?;
        // MCP's scope challenge is an HTTP answer
        // (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#scope-challenge-handling):
        // given here, before rmcp reads the call.
        #[cfg(feature = "oauth")]
        if let (Some(grant), Some(tool)) = (&grant, &peeked.tool)
            && let Some(scope) = grant.missing(tool)
            && let Some(oauth) = &self.auth.oauth
        {
            tracing::debug!(tool = %tool, scope, "refused: insufficient scope");
            return Err(oauth.metadata.challenge.insufficient_scope(scope, tool));
        }
        let message = peeked.message;
        let session = session_of(&parts.headers);
        // An answer to a question a call asked, or a call's cancellation:
        // the call may run in another process, so every process gets it
        // through the store, and the one running the call takes it.
        if let (Some(shared), Some(session), true) = (&self.shared, session, peeked.about_a_request) {
            shared.deliver(session, &body).await?;
            return Ok(accepted());
        }
        let opening = match (&self.sessions, session, message) {
            (Some(sessions), None, Message::Initialize) => Some(sessions.open().await?),
            _ => None,
        };
        let in_flight = match message {
            Message::Request | Message::Initialize => Some(self.calls.start(session)?),
            Message::Other => None,
        };
        let response = call(service, Request::from_parts(parts, Full::new(body))).await;
        // Answered: a new session is in rmcp's map now, and counted there.
        if opening.is_some()
            && let Some(session) = session_of(response.headers())
        {
            tracing::info!(session, "MCP session opened");
            if let Some(shared) = &self.shared {
                shared.opened(session, owner).await?;
            } else if let (Some(owners), Some(owner)) = (&self.owners, owner) {
                owners.opened(session, owner.clone()).await;
            }
        }
        drop(opening);
        Ok(match in_flight {
            // The request stays in flight until its answer has been sent
            // (or the client has gone): the guard goes with the body.
            Some(in_flight) => response.map(|body| Guarded::boxed(body, in_flight)),
            None => response,
        })
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
/// dropped. Its size and end pass through, so an answer of known length
/// still goes out with `Content-Length`, not chunked.
struct Guarded {
    body: HttpBody,
    _in_flight: InFlight,
}

impl Guarded {
    fn boxed(body: HttpBody, in_flight: InFlight) -> HttpBody {
        HttpBody::new(Guarded {
            body,
            _in_flight: in_flight,
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
        Pin::new(&mut self.body).poll_frame(context)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
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
