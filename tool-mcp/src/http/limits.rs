//! Limits with plain HTTP answers: the request body (size, time to arrive),
//! sessions open at once, requests in flight (in the process and per
//! session), and connections not yet past the checks.

use super::Refusal;
use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::{Body, Bytes};
use hyper::header::{CONNECTION, CONTENT_LENGTH, HeaderMap, HeaderValue, RETRY_AFTER};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What one server allows; see the `HttpServer::with_*` methods.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub max_body_bytes: usize,
    pub max_sessions: usize,
    pub session_idle_timeout: Duration,
    pub max_calls_per_session: usize,
    pub max_in_flight: usize,
    pub max_pending_connections: usize,
    pub header_read_timeout: Duration,
    pub body_read_timeout: Duration,
    pub shutdown_grace: Duration,
    pub credential_stale_limit: Duration,
    pub drain_delay: Duration,
    /// SSE polling: each POST's event stream is closed after this long,
    /// and clients told to reconnect after `.1`.
    pub sse_polling: Option<(Duration, Duration)>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 4 * 1024 * 1024,
            max_sessions: 256,
            session_idle_timeout: super::DEFAULT_SESSION_IDLE_TIMEOUT,
            max_calls_per_session: 32,
            max_in_flight: 256,
            max_pending_connections: 256,
            header_read_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(30),
            credential_stale_limit: Duration::from_secs(5 * 60),
            drain_delay: Duration::ZERO,
            sse_polling: None,
        }
    }
}

/// The whole body of a request, or the answer to give instead: 413 when it
/// is (or says it will be) longer than `max_body_bytes`, 408 when it has not
/// all arrived within `body_read_timeout`. Both close the connection: the
/// rest of the body is never read.
pub(super) async fn read_body<B>(
    body: B,
    headers: &HeaderMap,
    limits: &Limits,
) -> Result<Bytes, Refusal>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let too_large = || {
        closing(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "Payload Too Large: a request body may have at most {} bytes\n",
                limits.max_body_bytes
            ),
        ))
    };
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_body_bytes as u64) {
        return Err(too_large());
    }
    let limited = http_body_util::Limited::new(body, limits.max_body_bytes);
    match tokio::time::timeout(limits.body_read_timeout, limited.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(error)) => Err(closing(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("Bad Request: the request body could not be read: {error}\n"),
        ))),
        Err(_) => Err(closing(Refusal::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "Request Timeout: the request body did not arrive within {:?}\n",
                limits.body_read_timeout
            ),
        ))),
    }
}

fn closing(refusal: Refusal) -> Refusal {
    refusal.with_header(CONNECTION, HeaderValue::from_static("close"))
}

/// 503 or 429 with `Retry-After: 1`.
fn busy(status: StatusCode, message: String) -> Refusal {
    Refusal::new(status, message).with_header(RETRY_AFTER, HeaderValue::from_static("1"))
}

/// Admission of new sessions: those open (rmcp's session map) plus those
/// being opened stay within the limit.
pub(super) struct SessionSlots {
    sessions: Arc<LocalSessionManager>,
    max: usize,
    /// Held while counting, so two `initialize` requests cannot both take
    /// the last slot.
    admitting: tokio::sync::Mutex<()>,
    opening: Arc<AtomicUsize>,
}

/// A session being opened; counted until dropped (by then, if the
/// `initialize` succeeded, it is in the session map and counted there).
pub(super) struct Opening(Arc<AtomicUsize>);

impl Drop for Opening {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl SessionSlots {
    pub(super) fn new(sessions: Arc<LocalSessionManager>, max: usize) -> Self {
        SessionSlots {
            sessions,
            max,
            admitting: tokio::sync::Mutex::new(()),
            opening: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Ends `session`, just opened, which may not stay open.
    pub(super) async fn close(&self, session: &str) {
        use rmcp::transport::streamable_http_server::session::SessionManager;
        let _ = self.sessions.close_session(&session.into()).await;
    }

    /// A slot for one more session, or the 503 to answer.
    pub(super) async fn open(&self) -> Result<Opening, Refusal> {
        let _admitting = self.admitting.lock().await;
        let open = self.sessions.sessions.read().await.len();
        let opening = self.opening.load(Ordering::SeqCst);
        if open + opening >= self.max {
            return Err(busy(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "Service Unavailable: {} sessions are open, the most this server \
                     allows; retry later, or close a session (DELETE with its Mcp-Session-Id)\n",
                    self.max
                ),
            ));
        }
        self.opening.fetch_add(1, Ordering::SeqCst);
        Ok(Opening(Arc::clone(&self.opening)))
    }
}

/// JSON-RPC requests in flight: in the whole process (stateless requests,
/// which name no session, included), and per session.
pub(super) struct CallSlots {
    max_total: usize,
    max_per_session: usize,
    counts: Arc<Mutex<Counts>>,
    /// Woken whenever the last request in flight ends, for a shutdown
    /// waiting for the calls to finish.
    idle: Arc<tokio::sync::Notify>,
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_session: HashMap<String, usize>,
}

/// One request in flight, until dropped (with the response body, once the
/// answer is sent or the client is gone).
pub(super) struct InFlight {
    session: Option<String>,
    counts: Arc<Mutex<Counts>>,
    idle: Arc<tokio::sync::Notify>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut counts = lock(&self.counts);
        counts.total -= 1;
        if let Some(session) = &self.session
            && let Some(count) = counts.per_session.get_mut(session)
        {
            *count -= 1;
            if *count == 0 {
                counts.per_session.remove(session);
            }
        }
        if counts.total == 0 {
            self.idle.notify_waiters();
        }
    }
}

impl CallSlots {
    pub(super) fn new(max_total: usize, max_per_session: usize) -> Self {
        CallSlots {
            max_total,
            max_per_session,
            counts: Arc::default(),
            idle: Arc::default(),
        }
    }

    /// A slot for one more request (of `session`, when it names one), or
    /// the 429 to answer.
    pub(super) fn start(&self, session: Option<&str>) -> Result<InFlight, Refusal> {
        let mut counts = lock(&self.counts);
        if counts.total >= self.max_total {
            return Err(busy(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "Too Many Requests: {} requests are in flight on this server, the most it \
                     allows; retry when one has been answered\n",
                    self.max_total
                ),
            ));
        }
        if let Some(session) = session {
            let count = counts.per_session.entry(session.to_owned()).or_insert(0);
            if *count >= self.max_per_session {
                if *count == 0 {
                    counts.per_session.remove(session);
                }
                return Err(busy(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "Too Many Requests: this session already has {} requests in flight, \
                         the most this server allows; retry when one has been answered\n",
                        self.max_per_session
                    ),
                ));
            }
            *count += 1;
        }
        counts.total += 1;
        Ok(InFlight {
            session: session.map(str::to_owned),
            counts: Arc::clone(&self.counts),
            idle: Arc::clone(&self.idle),
        })
    }

    /// How many requests are in flight now.
    pub(super) fn in_flight(&self) -> usize {
        lock(&self.counts).total
    }

    /// Waits until no request is in flight.
    pub(super) async fn idle(&self) {
        crate::idle::until_idle(&self.idle, || self.in_flight() == 0).await;
    }
}

/// Connections that have not yet sent a request that passed the checks
/// (`Host`, `Origin`, the token), at most so many: when one more comes, the
/// oldest of them is closed. A client that opens many and sends nothing (or
/// nothing valid) holds at most that many sockets, not a file descriptor
/// and a task per connection it can open; and it cannot lock others out,
/// since a new connection always gets in (a real client's request passes
/// the checks as soon as it arrives, leaving the place before its turn to
/// be closed comes).
#[derive(Clone)]
pub(super) struct PendingConnections {
    max: usize,
    queue: Arc<Mutex<Pending>>,
}

#[derive(Default)]
struct Pending {
    next: u64,
    /// Oldest first: each connection's number and what closes it.
    waiting: VecDeque<(u64, CancellationToken)>,
}

impl Pending {
    fn remove(&mut self, id: u64) {
        if let Some(at) = self.waiting.iter().position(|(waiting, _)| *waiting == id) {
            self.waiting.remove(at);
        }
    }
}

/// A connection's place among the pending ones, given back when it first
/// passes the checks, or when it closes.
pub(super) struct Admission {
    id: u64,
    queue: Arc<Mutex<Pending>>,
    passed: AtomicBool,
    closed: CancellationToken,
}

impl PendingConnections {
    pub(super) fn new(max: usize) -> Self {
        PendingConnections {
            max: max.max(1),
            queue: Arc::default(),
        }
    }

    /// A place for a new connection; the oldest pending one is told to
    /// close when every place is taken.
    pub(super) fn admit(&self) -> Admission {
        let mut queue = lock(&self.queue);
        while queue.waiting.len() >= self.max {
            if let Some((_, oldest)) = queue.waiting.pop_front() {
                oldest.cancel();
            }
        }
        let id = queue.next;
        queue.next += 1;
        let closed = CancellationToken::new();
        queue.waiting.push_back((id, closed.clone()));
        Admission {
            id,
            queue: Arc::clone(&self.queue),
            passed: AtomicBool::new(false),
            closed,
        }
    }
}

impl Admission {
    /// The connection has sent a request that passed the checks: it no
    /// longer counts as pending, and is never closed for a newer one.
    pub(super) fn passed(&self) {
        if !self.passed.swap(true, Ordering::AcqRel) {
            lock(&self.queue).remove(self.id);
        }
    }

    /// Cancelled when a newer connection took this one's place.
    pub(super) fn closed(&self) -> &CancellationToken {
        &self.closed
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        if !*self.passed.get_mut() {
            lock(&self.queue).remove(self.id);
        }
    }
}

/// The map stays consistent whatever panicked while holding it: every
/// change is a single step.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
