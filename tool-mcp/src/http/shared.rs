//! Sessions that every process of a deployment serves: their state in a
//! store all of them share (rmcp's [`SessionStore`] and [`EventStore`],
//! and a [`SessionDirectory`] of who opened each session and which
//! messages answer a request another process runs), so a legacy client
//! behind an ordinary round-robin balancer keeps its session whichever
//! process its next request reaches.
//!
//! tool-mcp depends on no store's client: tool-redis implements these on
//! Redis. Without shared state, sessions live in the process that opened
//! them, as before.

use super::Refusal;
use super::owners::Owner;
use super::quotas::QuotaStore;
use hyper::StatusCode;
use hyper::header::{HeaderValue, RETRY_AFTER};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
pub use rmcp::transport::streamable_http_server::session::store::{EventStore, SessionStore};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Why the shared store could not do what was asked: the request that
/// needed it is answered 503, never served from this process's memory
/// instead (that would break what only the store can promise, such as a
/// session's single owner).
pub type StateError = Box<dyn std::error::Error + Send + Sync>;

/// What a [`SessionDirectory`] method gives back, later.
pub type StateFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StateError>> + Send + 'a>>;

/// A message a client sent to a session that answers or cancels a request
/// (a JSON-RPC response, `notifications/cancelled`): the request may be
/// running in another process, so it goes to every process through the
/// store, and the one running it takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// The `Mcp-Session-Id` it was sent to.
    pub session: String,
    /// The JSON-RPC message, as the client sent it.
    pub message: Vec<u8>,
}

/// Who opened each session and the messages for requests running
/// elsewhere, in the store every process shares. The session's own state
/// (its `initialize`) is rmcp's [`SessionStore`], kept in the same store:
/// [`opened`](Self::opened) and [`touch`](Self::touch) act on that same
/// session, so it ends (after `idle` unused) as one.
pub trait SessionDirectory: Send + Sync + 'static {
    /// `session` was opened by `owner` (an opaque key; empty when the
    /// server asks for no credentials) and its state stored: record the
    /// owner beside the state, both kept for `idle` from now. `false` when
    /// the state is not in the store (storing it failed): the session
    /// cannot be served by another process, so it is not opened at all.
    fn opened<'a>(&'a self, session: &'a str, owner: &'a str, idle: Duration)
    -> StateFuture<'a, bool>;

    /// The owner of `session`, its life renewed for `idle` from now, or
    /// `None` when no process knows it (it was closed, or went unused).
    fn touch<'a>(&'a self, session: &'a str, idle: Duration) -> StateFuture<'a, Option<String>>;

    /// Sends `message` to every process's [`subscribe`](Self::subscribe)
    /// receiver (this one's included).
    fn deliver<'a>(&'a self, session: &'a str, message: &'a [u8]) -> StateFuture<'a, ()>;

    /// The messages [`deliver`](Self::deliver)ed by any process, for as
    /// long as the receiver lives (the implementation ends its
    /// subscription when the receiver is dropped). It keeps the
    /// subscription up (reconnecting when the store comes back); a message
    /// sent while it is down is lost, as a request whose process died is.
    fn subscribe(&self) -> tokio::sync::mpsc::Receiver<Delivered>;

    /// Adds `names` to the deferred tools `session` has loaded (what its
    /// `tool_search` calls found), after those already there and without
    /// repeating one, and gives back those that were not loaded before,
    /// in order. The set is the session's: it ends with it, and nothing is
    /// added to a session the store does not know. Every process lists the
    /// session's tools from it, so a search answered by one process shows
    /// in the `tools/list` another answers.
    fn load_tools<'a>(&'a self, session: &'a str, names: &'a [String])
    -> StateFuture<'a, Vec<String>>;

    /// The deferred tools `session` has loaded, in the order loaded.
    fn loaded_tools<'a>(&'a self, session: &'a str) -> StateFuture<'a, Vec<String>>;

    /// Whether the store answers now (the readiness probe asks).
    fn ready(&self) -> StateFuture<'_, ()>;

    /// The store, for people: `Redis at 127.0.0.1:6379 (database 0)`.
    /// Never a password.
    fn describe(&self) -> String;
}

/// The state several processes serving one deployment share:
/// [`McpHttp::with_shared_state`](super::McpHttp::with_shared_state).
#[derive(Clone)]
pub struct SharedState {
    pub(super) sessions: Arc<dyn SessionStore>,
    pub(super) events: Arc<dyn EventStore>,
    pub(super) directory: Arc<dyn SessionDirectory>,
    pub(super) quotas: Option<Arc<dyn QuotaStore>>,
}

impl SharedState {
    /// Sessions in `sessions` (each `initialize`, restored by a process
    /// that did not open it), their event streams in `events` (a client
    /// reconnecting with `Last-Event-ID` to another process gets what it
    /// missed), and `directory` for the rest. Each event id `events` gives
    /// must begin with its stream's id and `/`: the gate checks that a
    /// session resumes only its own stream.
    pub fn new(
        sessions: Arc<dyn SessionStore>,
        events: Arc<dyn EventStore>,
        directory: Arc<dyn SessionDirectory>,
    ) -> Self {
        SharedState {
            sessions,
            events,
            directory,
            quotas: None,
        }
    }

    /// Counts the limits per caller
    /// ([`McpHttp::with_caller_limits`](super::McpHttp::with_caller_limits))
    /// in `quotas` too, so that they hold across the processes sharing it
    /// (without, each process counts its own, in memory).
    pub fn with_quotas(mut self, quotas: Arc<dyn QuotaStore>) -> Self {
        self.quotas = Some(quotas);
        self
    }

    /// The store, for people.
    pub fn describe(&self) -> String {
        self.directory.describe()
    }
}

impl fmt::Debug for SharedState {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("SharedState")
            .field("store", &self.directory.describe())
            .finish_non_exhaustive()
    }
}

/// The store, as the handler finds it in a request's extensions: where a
/// session's loaded tools live when every process serves every session.
#[derive(Clone)]
pub(crate) struct SharedLoads(pub Arc<dyn SessionDirectory>);

impl SharedLoads {
    /// [`SessionDirectory::load_tools`], its error as text.
    pub(crate) async fn load(&self, session: &str, names: &[String]) -> Result<Vec<String>, String> {
        self.0
            .load_tools(session, names)
            .await
            .map_err(|error| format!("the shared store ({}): {error}", self.0.describe()))
    }

    /// [`SessionDirectory::loaded_tools`], its error as text.
    pub(crate) async fn loaded(&self, session: &str) -> Result<Vec<String>, String> {
        self.0
            .loaded_tools(session)
            .await
            .map_err(|error| format!("the shared store ({}): {error}", self.0.describe()))
    }
}

/// The gate's view of shared sessions.
pub(super) struct SharedSessions {
    pub directory: Arc<dyn SessionDirectory>,
    /// rmcp's store of each session's `initialize`.
    pub store: Arc<dyn SessionStore>,
    /// rmcp's sessions in this process: a session the store has forgotten
    /// is closed here too, and delivered messages go to those here.
    pub local: Arc<LocalSessionManager>,
    pub idle: Duration,
    /// Whether sessions have owners (the server asks for credentials).
    pub owned: bool,
}

impl SharedSessions {
    /// Whether `caller` may use `session`, which is renewed: the 404 of an
    /// unknown session when the store does not know it or another caller
    /// opened it, 503 when the store cannot be asked.
    pub(super) async fn check(&self, session: &str, caller: Option<&Owner>) -> Result<(), Refusal> {
        let owner = self
            .directory
            .touch(session, self.idle)
            .await
            .map_err(|error| self.unavailable("check a session", &error))?;
        let Some(owner) = owner else {
            // Ended everywhere: a copy still here would serve it.
            let _ = self.local.close_session(&session.into()).await;
            return Err(super::owners::unknown_session());
        };
        if !self.owned {
            return Ok(());
        }
        match caller {
            Some(caller) if caller.key() == owner => Ok(()),
            _ => {
                tracing::warn!(
                    caller = %caller.map_or_else(|| "no one".to_owned(), ToString::to_string),
                    "a request named a session another caller opened: answered 404, as an unknown session"
                );
                Err(super::owners::unknown_session())
            }
        }
    }

    /// `session` was just opened (its `initialize` answered) by `owner`.
    /// When the store did not keep it, it is closed here and the client
    /// told to retry: a session only this process knows would break at the
    /// balancer's next turn.
    pub(super) async fn opened(&self, session: &str, owner: Option<&Owner>) -> Result<(), Refusal> {
        let key = owner.filter(|_| self.owned).map(Owner::key).unwrap_or_default();
        let kept = self.directory.opened(session, &key, self.idle).await;
        match kept {
            Ok(true) => Ok(()),
            Ok(false) => {
                let _ = self.local.close_session(&session.into()).await;
                Err(self.unavailable(
                    "open a session",
                    &"the session's state was not stored".into(),
                ))
            }
            Err(error) => {
                let _ = self.local.close_session(&session.into()).await;
                Err(self.unavailable("open a session", &error))
            }
        }
    }

    /// Closes `session`, just opened, here and in the store: it may not
    /// stay open (its caller has all the sessions it may have).
    pub(super) async fn abandon(&self, session: &str) {
        let _ = self.local.close_session(&session.into()).await;
        if let Err(error) = self.store.delete(session).await {
            tracing::warn!(%error, "a session refused at opening stays in the store until its idle time ends");
        }
    }

    /// Sends a client's answer (or cancellation) to whichever process runs
    /// the request it is about.
    pub(super) async fn deliver(&self, session: &str, message: &[u8]) -> Result<(), Refusal> {
        self.directory
            .deliver(session, message)
            .await
            .map_err(|error| self.unavailable("deliver a message", &error))
    }

    fn unavailable(&self, what: &str, error: &StateError) -> Refusal {
        store_failed(&self.directory.describe(), what, error)
    }
}

/// The answer when the shared store (`store`, as it describes itself)
/// failed to do `what`: 503 with `Retry-After`, never a guess from this
/// process's memory, and an error naming the store in the logs (a store
/// that is down is the operator's to see, at any level).
pub(super) fn store_failed(store: &str, what: &str, error: &StateError) -> Refusal {
    tracing::error!(store, %error, "the shared store failed to {what}: answered 503");
    retry_shortly(
        "Service Unavailable: the shared session store does not answer; retry shortly\n"
            .to_owned(),
    )
}

/// The readiness probe's 503, saying why.
pub(super) fn not_ready(why: &str) -> Refusal {
    retry_shortly(format!("not ready: {why}\n"))
}

/// 503 saying `text`, with `Retry-After: 1`.
fn retry_shortly(text: String) -> Refusal {
    Refusal::new(StatusCode::SERVICE_UNAVAILABLE, text)
        .with_header(RETRY_AFTER, HeaderValue::from_static("1"))
}

/// Whether a `Last-Event-ID` may be resumed by `session`: an id naming a
/// session's standing stream (`SESSION:common`, rmcp's name for it) must
/// name this one. Other streams are a request's, named by a random UUID
/// that only the client that made the request has seen.
pub(super) fn resumes_own_stream(session: &str, last_event_id: &str) -> bool {
    let stream = last_event_id.split('/').next().unwrap_or_default();
    match stream.strip_suffix(":common") {
        Some(owner) => owner == session,
        None => true,
    }
}

/// Hands each message delivered through the store to this process's copy
/// of its session, if there is one (the request it answers may be running
/// here), until the sessions end (`ended`: the gate's stop) or are dropped
/// (the server is gone): then the receiver is dropped, and the store's
/// subscription, seeing it closed, ends too.
pub(super) fn spawn_inbox(
    directory: &Arc<dyn SessionDirectory>,
    local: &Arc<LocalSessionManager>,
    ended: CancellationToken,
) {
    let mut inbox = directory.subscribe();
    let local = Arc::downgrade(local);
    tokio::spawn(async move {
        loop {
            let delivered = tokio::select! {
                delivered = inbox.recv() => delivered,
                () = ended.cancelled() => None,
            };
            let (Some(delivered), Some(local)) = (delivered, local.upgrade()) else {
                return;
            };
            deliver_here(&local, delivered).await;
        }
    });
}

/// One delivered message to this process's copy of its session.
async fn deliver_here(local: &LocalSessionManager, delivered: Delivered) {
    let id = delivered.session.as_str().into();
    if !local.sessions.read().await.contains_key(&id) {
        return;
    }
    let message: ClientJsonRpcMessage = match serde_json::from_slice(&delivered.message) {
        Ok(message) => message,
        Err(error) => {
            tracing::debug!(%error, "a delivered message that is not JSON-RPC: dropped");
            return;
        }
    };
    if let Err(error) = local.accept_message(&id, message).await {
        tracing::debug!(session = delivered.session, %error, "a delivered message was not taken");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_resumes_only_its_own_standing_stream() {
        assert!(resumes_own_stream("s1", "s1:common/1-0"));
        assert!(!resumes_own_stream("s1", "s2:common/1-0"));
        assert!(!resumes_own_stream("s1", "s2:common"));
        assert!(resumes_own_stream(
            "s1",
            "0b6e8d52-1a51-4b2c-9d51-0d1f7c3c1e22/1-0"
        ));
    }
}
