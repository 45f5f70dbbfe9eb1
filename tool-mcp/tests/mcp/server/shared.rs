//! Sessions in a store several processes share: two servers (two
//! "processes") on one in-memory fake of the store, which keeps what
//! tool-redis keeps (a session's `initialize` and its owner, the event
//! streams, the deliveries to every process), and can be made to fail.
//! A legacy session opened on one is served by the other, keeps its
//! owner there, ends on both, is refused (503, never served from memory)
//! while the store is down, and is cancelled across them.

use crate::support::*;
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::store::{
    EventId, EventStoreError, EventStream, SessionState, SessionStoreError,
};
use std::collections::HashMap;
use std::future::Future;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tool_mcp::{
    Delivered, EventStore, HttpServer, SessionDirectory, SessionStore, SharedState, StateError,
    StateFuture,
};

// ------------------------------------------------------------- the fake

/// What the store holds of one session (tool-redis's hash): rmcp's
/// `init`, and the `owner` recorded once the gate says it was opened.
#[derive(Default)]
struct Entry {
    init: Option<SessionState>,
    owner: Option<String>,
    /// The deferred tools the session's searches loaded, in order.
    loaded: Vec<String>,
}

#[derive(Default)]
struct Held {
    sessions: HashMap<String, Entry>,
    /// Each stream's events, with the number of their id (`STREAM/N-0`).
    events: HashMap<String, Vec<(u64, ServerSseMessage)>>,
    last_event: u64,
    /// Every process's subscription.
    inboxes: Vec<mpsc::Sender<Delivered>>,
    /// The `Last-Event-ID`s rmcp asked to replay.
    replays: Vec<String>,
}

/// rmcp's [`SessionStore`] and tool-mcp's [`SessionDirectory`] in memory,
/// with tool-redis's semantics; its [`FakeEvents`] share the memory and
/// the switch that makes every method fail.
#[derive(Clone, Default)]
struct FakeStore {
    held: Arc<Mutex<Held>>,
    down: Arc<AtomicBool>,
}

/// The event streams of a [`FakeStore`].
struct FakeEvents(FakeStore);

const DESCRIBED: &str = "the test's in-memory store";

fn refused() -> StateError {
    "the fake store is down".into()
}

impl FakeStore {
    /// The state two servers are given to share.
    fn state(&self) -> SharedState {
        SharedState::new(
            Arc::new(self.clone()),
            Arc::new(FakeEvents(self.clone())),
            Arc::new(self.clone()),
        )
    }

    /// Every method fails while `down`.
    fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }

    /// What a method does, or its error while the store is down.
    fn with<T>(&self, act: impl FnOnce(&mut Held) -> T) -> Result<T, StateError> {
        if self.down.load(Ordering::SeqCst) {
            return Err(refused());
        }
        Ok(act(&mut self.held.lock().unwrap()))
    }

    /// The owner recorded for `session` (`None`: not opened, or gone).
    fn owner(&self, session: &str) -> Option<String> {
        let held = self.held.lock().unwrap();
        held.sessions.get(session)?.owner.clone()
    }

    /// Another caller's key as `session`'s owner, as if it had opened it.
    fn set_owner(&self, session: &str, owner: &str) {
        let mut held = self.held.lock().unwrap();
        held.sessions.get_mut(session).expect("stored").owner = Some(owner.to_owned());
    }

    /// The ids of the sessions stored.
    fn sessions(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.held.lock().unwrap().sessions.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// Every event id given, in the order given.
    fn event_ids(&self) -> Vec<String> {
        let held = self.held.lock().unwrap();
        let mut ids: Vec<(u64, String)> = held
            .events
            .iter()
            .flat_map(|(stream, events)| {
                events
                    .iter()
                    .map(move |(number, _)| (*number, format!("{stream}/{number}-0")))
            })
            .collect();
        ids.sort();
        ids.into_iter().map(|(_, id)| id).collect()
    }

    fn replays(&self) -> Vec<String> {
        self.held.lock().unwrap().replays.clone()
    }
}

/// What `async_trait` makes of an `async fn` in rmcp's traits, written
/// out (this crate does not depend on async-trait): every answer here is
/// ready at once, and borrows nothing.
type Ready<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

impl SessionStore for FakeStore {
    fn load<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> Ready<'async_trait, Result<Option<SessionState>, SessionStoreError>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let loaded = self.with(|held| {
            held.sessions
                .get(session_id)
                .and_then(|entry| entry.init.clone())
        });
        Box::pin(std::future::ready(loaded))
    }

    fn store<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
        state: &'life2 SessionState,
    ) -> Ready<'async_trait, Result<(), SessionStoreError>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        let stored = self.with(|held| {
            held.sessions.entry(session_id.to_owned()).or_default().init = Some(state.clone());
        });
        Box::pin(std::future::ready(stored))
    }

    fn delete<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> Ready<'async_trait, Result<(), SessionStoreError>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let deleted = self.with(|held| {
            held.sessions.remove(session_id);
        });
        Box::pin(std::future::ready(deleted))
    }
}

impl SessionDirectory for FakeStore {
    fn opened<'a>(
        &'a self,
        session: &'a str,
        owner: &'a str,
        _idle: Duration,
    ) -> StateFuture<'a, bool> {
        let kept = self.with(|held| match held.sessions.get_mut(session) {
            Some(entry) if entry.init.is_some() => {
                entry.owner = Some(owner.to_owned());
                true
            }
            _ => false,
        });
        Box::pin(std::future::ready(kept))
    }

    fn touch<'a>(&'a self, session: &'a str, _idle: Duration) -> StateFuture<'a, Option<String>> {
        let owner = self.with(|held| held.sessions.get(session)?.owner.clone());
        Box::pin(std::future::ready(owner))
    }

    fn deliver<'a>(&'a self, session: &'a str, message: &'a [u8]) -> StateFuture<'a, ()> {
        let delivered = self.with(|held| {
            let delivered = Delivered {
                session: session.to_owned(),
                message: message.to_vec(),
            };
            held.inboxes
                .retain(|inbox| match inbox.try_send(delivered.clone()) {
                    Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => true,
                    Err(mpsc::error::TrySendError::Closed(_)) => false,
                });
        });
        Box::pin(std::future::ready(delivered))
    }

    fn subscribe(&self) -> mpsc::Receiver<Delivered> {
        let (sender, receiver) = mpsc::channel(64);
        self.held.lock().unwrap().inboxes.push(sender);
        receiver
    }

    fn load_tools<'a>(
        &'a self,
        session: &'a str,
        names: &'a [String],
    ) -> StateFuture<'a, Vec<String>> {
        let loaded = self.with(|held| {
            let Some(entry) = held.sessions.get_mut(session) else {
                return Vec::new();
            };
            let mut added = Vec::new();
            for name in names {
                if !entry.loaded.contains(name) {
                    entry.loaded.push(name.clone());
                    added.push(name.clone());
                }
            }
            added
        });
        Box::pin(std::future::ready(loaded))
    }

    fn loaded_tools<'a>(&'a self, session: &'a str) -> StateFuture<'a, Vec<String>> {
        let loaded = self.with(|held| {
            held.sessions
                .get(session)
                .map(|entry| entry.loaded.clone())
                .unwrap_or_default()
        });
        Box::pin(std::future::ready(loaded))
    }

    fn ready(&self) -> StateFuture<'_, ()> {
        Box::pin(std::future::ready(self.with(|_| ())))
    }

    fn describe(&self) -> String {
        DESCRIBED.to_owned()
    }
}

impl EventStore for FakeEvents {
    fn store_event<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        stream_id: &'life1 str,
        event: &'life2 ServerSseMessage,
    ) -> Ready<'async_trait, Result<EventId, EventStoreError>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        let id = self.0.with(|held| {
            held.last_event += 1;
            let number = held.last_event;
            held.events
                .entry(stream_id.to_owned())
                .or_default()
                .push((number, event.clone()));
            format!("{stream_id}/{number}-0")
        });
        Box::pin(std::future::ready(id))
    }

    /// Records what was asked, and fails: an [`EventStream`] is a boxed
    /// `futures` Stream, and this crate has no dependency that makes one
    /// (rmcp answers a resumption it cannot replay with an empty stream).
    fn replay_events_after<'life0, 'life1, 'async_trait>(
        &'life0 self,
        last_event_id: &'life1 str,
    ) -> Ready<'async_trait, Result<EventStream, EventStoreError>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let asked = self
            .0
            .with(|held| held.replays.push(last_event_id.to_owned()));
        let replayed = asked.and_then(|()| Err("the fake store replays nothing".into()));
        Box::pin(std::future::ready(replayed))
    }
}

// ---------------------------------------------------------- the servers

/// Two servers sharing `store`, each with `options`.
async fn two(store: &FakeStore, options: impl Fn(HttpServer) -> HttpServer) -> (Running, Running) {
    let a = start(|server| options(server.with_shared_state(store.state()))).await;
    let b = start(|server| options(server.with_shared_state(store.state()))).await;
    (a, b)
}

const V_2025_06_18: &str = "2025-06-18";
const V_2025_11_25: &str = "2025-11-25";

/// A legacy `initialize` of `version`.
fn initialize(version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"shared-state","version":"0.1.0"}}}}}}"#
    )
}

/// A session opened on `server` with `initialize` of `version` and its
/// `initialized`: its id.
async fn open(server: &Running, auth: &[(&str, &str)], version: &str) -> String {
    let answer = send(
        server.address,
        post(&server.host(), auth, &initialize(version)),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer_json(&answer)["result"]["protocolVersion"], version);
    let session = answer.session();
    let mut headers = auth.to_vec();
    headers.push(("Mcp-Session-Id", &session));
    headers.push(("MCP-Protocol-Version", version));
    let answer = send(server.address, post(&server.host(), &headers, INITIALIZED)).await;
    assert_eq!(answer.status, 202, "{answer:?}");
    session
}

/// POST of `body` to `server` in `session`.
async fn post_in(
    server: &Running,
    auth: &[(&str, &str)],
    session: &str,
    version: &str,
    body: &str,
) -> Answer {
    let mut headers = auth.to_vec();
    headers.push(("Mcp-Session-Id", session));
    headers.push(("MCP-Protocol-Version", version));
    send(server.address, post(&server.host(), &headers, body)).await
}

/// `echo(value)` in `session` on `server`: the answer.
async fn echo(
    server: &Running,
    auth: &[(&str, &str)],
    session: &str,
    version: &str,
    value: &str,
) -> Answer {
    let arguments = format!(r#"{{"value":"{value}"}}"#);
    post_in(server, auth, session, version, &call(3, "echo", &arguments)).await
}

/// The text of a call's result.
fn text(answer: &Answer) -> String {
    assert_eq!(answer.status, 200, "{answer:?}");
    answer_json(answer)["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no result: {answer:?}"))
        .to_owned()
}

/// A request with no body: `method` on `path`, with `headers`.
fn bare(method: &str, path: &str, host: &str, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.into_bytes()
}

/// rmcp's answer to a session it does not know, which the gate gives too.
fn assert_unknown(answer: &Answer) {
    assert_eq!(answer.status, 404, "{answer:?}");
    assert_eq!(answer.body, "Not Found: Session not found", "{answer:?}");
}

fn assert_store_unavailable(answer: &Answer) {
    assert_eq!(answer.status, 503, "{answer:?}");
    assert_eq!(answer.header("retry-after"), Some("1"), "{answer:?}");
    assert!(answer.body.contains("shared session store"), "{answer:?}");
}

// ---------------------------------------------------------------- tests

/// Opened on A, served by B: rmcp restores it there from the stored
/// `initialize`; the client initializes once, on either revision.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_opened_on_one_process_is_served_by_another() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server).await;
        for version in [V_2025_06_18, V_2025_11_25] {
            let session = open(&a, &[], version).await;
            // Opened without credentials: its owner is no one, recorded.
            assert_eq!(store.owner(&session).as_deref(), Some(""));

            let on_b = echo(&b, &[], &session, version, "on B").await;
            assert_eq!(text(&on_b), "on B", "{version}");
            // Its events were stored, and sent with the ids the store gave
            // (`STREAM/N-0`): any process can replay them.
            let given = store.event_ids();
            let sent: Vec<&str> = on_b
                .body
                .lines()
                .filter_map(|line| line.strip_prefix("id:"))
                .map(str::trim)
                .collect();
            assert!(!sent.is_empty(), "{on_b:?}");
            for id in sent {
                assert!(given.iter().any(|given| given == id), "{id} in {given:?}");
                let (stream, entry) = id.rsplit_once('/').unwrap();
                assert!(!stream.is_empty() && entry.ends_with("-0"), "{id}");
            }
            let listed = post_in(&b, &[], &session, version, LIST).await;
            assert_eq!(listed.status, 200, "{listed:?}");
            assert!(listed.body.contains(r#""name":"nap""#), "{listed:?}");
            // And back on A, its opener.
            assert_eq!(
                text(&echo(&a, &[], &session, version, "on A").await),
                "on A",
                "{version}"
            );
        }
        // One session per initialize: B opened none of its own.
        assert_eq!(store.sessions().len(), 2, "{:?}", store.sessions());
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// With a token, the session's owner is stored with it and checked by
/// whichever process a request reaches: a session the store says another
/// caller opened is an unknown one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_is_kept_in_the_store_and_checked_by_every_process() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server.with_bearer_token(TOKEN)).await;
        let bearer = bearer(TOKEN);
        let auth = [("Authorization", bearer.as_str())];
        let session = open(&a, &auth, V_2025_06_18).await;
        let owner = store.owner(&session).expect("an owner recorded");
        assert!(!owner.is_empty(), "the static token's key");

        assert_eq!(
            text(&echo(&b, &auth, &session, V_2025_06_18, "owned").await),
            "owned"
        );
        // Without the token: 401 before the session is looked at.
        let answer = post_in(&b, &[], &session, V_2025_06_18, LIST).await;
        assert_eq!(answer.status, 401, "{answer:?}");

        // Another caller's, says the store: unknown to both processes,
        // though B holds a copy restored a moment ago.
        store.set_owner(&session, r#"["sub","https://issuer.example","mallory"]"#);
        for server in [&b, &a] {
            let refused = echo(server, &auth, &session, V_2025_06_18, "again").await;
            assert_unknown(&refused);
        }
        store.set_owner(&session, &owner);
        assert_eq!(
            text(&echo(&b, &auth, &session, V_2025_06_18, "mine again").await),
            "mine again"
        );
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// A DELETE on one process ends the session on every one, also where a
/// copy of it was restored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_closed_on_one_process_is_gone_on_the_other() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server).await;
        let session = open(&a, &[], V_2025_06_18).await;
        // B restores a copy of it.
        assert_eq!(
            text(&echo(&b, &[], &session, V_2025_06_18, "before").await),
            "before"
        );

        let closed = send(
            a.address,
            bare(
                "DELETE",
                "/mcp",
                &a.host(),
                &[
                    ("Mcp-Session-Id", &session),
                    ("MCP-Protocol-Version", V_2025_06_18),
                ],
            ),
        )
        .await;
        assert_eq!(closed.status, 200, "{closed:?}");
        assert_eq!(store.sessions(), Vec::<String>::new());

        for server in [&b, &a] {
            let refused = echo(server, &[], &session, V_2025_06_18, "after").await;
            assert_unknown(&refused);
        }
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// A store that does not answer: 503 with `Retry-After` for whatever
/// needs it, never a session served or opened from one process's memory;
/// `/readyz` says so and names the store, `/healthz` stays 200. Back, it
/// serves the same sessions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_does_not_answer_is_503_and_the_sessions_come_back_with_it() {
    bounded(async {
        let store = FakeStore::default();
        // A holds two sessions at most: a session left open by the failed
        // initialize would take the second.
        let (a, b) = two(&store, |server| server.with_max_sessions(2)).await;
        let session = open(&a, &[], V_2025_06_18).await;
        for server in [&a, &b] {
            let ready = send(
                server.address,
                bare("GET", "/readyz", "probe.internal", &[]),
            )
            .await;
            assert_eq!(ready.status, 200, "{ready:?}");
            assert_eq!(ready.body, "ready\n");
        }

        store.set_down(true);
        for server in [&a, &b] {
            let refused = post_in(server, &[], &session, V_2025_06_18, LIST).await;
            assert_store_unavailable(&refused);
            let refused = send(
                server.address,
                bare(
                    "GET",
                    "/mcp",
                    &server.host(),
                    &[
                        ("Accept", "text/event-stream"),
                        ("Mcp-Session-Id", &session),
                    ],
                ),
            )
            .await;
            assert_store_unavailable(&refused);
        }
        let refused = send(a.address, post(&a.host(), &[], &initialize(V_2025_06_18))).await;
        assert_store_unavailable(&refused);
        assert_eq!(refused.header("mcp-session-id"), None, "{refused:?}");
        for server in [&a, &b] {
            let ready = send(
                server.address,
                bare("GET", "/readyz", "probe.internal", &[]),
            )
            .await;
            assert_eq!(ready.status, 503, "{ready:?}");
            assert_eq!(ready.header("retry-after"), Some("1"), "{ready:?}");
            assert!(ready.body.contains(DESCRIBED), "{ready:?}");
            let health = send(
                server.address,
                bare("GET", "/healthz", "probe.internal", &[]),
            )
            .await;
            assert_eq!(health.status, 200, "{health:?}");
        }

        store.set_down(false);
        for server in [&a, &b] {
            let ready = send(
                server.address,
                bare("GET", "/readyz", "probe.internal", &[]),
            )
            .await;
            assert_eq!(ready.status, 200, "{ready:?}");
        }
        for server in [&b, &a] {
            assert_eq!(
                text(&echo(server, &[], &session, V_2025_06_18, "back").await),
                "back"
            );
        }
        // The refused initialize left no session on A: a second one fits.
        let second = open(&a, &[], V_2025_06_18).await;
        assert_ne!(second, session);
        assert_eq!(
            text(&echo(&b, &[], &second, V_2025_06_18, "second").await),
            "second"
        );
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// A request sent on its own connection, whose answer's head has been
/// read (the server has the request) when this returns; the task gives
/// the whole answer.
async fn in_flight(address: SocketAddr, request: Vec<u8>) -> tokio::task::JoinHandle<Answer> {
    let (headed, head) = tokio::sync::oneshot::channel();
    let answer = tokio::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(CEILING)).unwrap();
        stream.write_all(&request).unwrap();
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 1024];
        let mut headed = Some(headed);
        loop {
            let read = stream.read(&mut buffer).expect("the answer is read");
            if read == 0 {
                break;
            }
            bytes.extend_from_slice(&buffer[..read]);
            if bytes.windows(4).any(|window| window == b"\r\n\r\n")
                && let Some(headed) = headed.take()
            {
                let _ = headed.send(());
            }
        }
        parse(&bytes)
    });
    head.await.expect("the answer's head arrives");
    answer
}

/// The client's cancellation of its request 7.
const CANCEL_7: &str = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"changed my mind"}}"#;

/// `notifications/cancelled` for a call running on A, sent to B: B
/// accepts it (202) and hands it through the store to A, which cancels
/// the call: its stream ends soon, without the tool's result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancellation_sent_to_another_process_cancels_the_call() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server).await;
        let session = open(&a, &[], V_2025_06_18).await;
        let napping = in_flight(
            a.address,
            post(
                &a.host(),
                &[
                    ("Mcp-Session-Id", &session),
                    ("MCP-Protocol-Version", V_2025_06_18),
                ],
                &call(7, "nap", r#"{"ms":20000}"#),
            ),
        )
        .await;

        let accepted = post_in(&b, &[], &session, V_2025_06_18, CANCEL_7).await;
        assert_eq!(accepted.status, 202, "{accepted:?}");
        assert_eq!(accepted.body, "", "{accepted:?}");

        // Well before the nap's 20 s (the read would time out at the
        // ceiling's 10 s).
        let answer = napping.await.unwrap();
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(!answer.body.contains("rested"), "{answer:?}");
        assert!(!answer.body.contains(r#""result""#), "{answer:?}");
        // The session goes on, on either process.
        for server in [&a, &b] {
            assert_eq!(
                text(&echo(server, &[], &session, V_2025_06_18, "after").await),
                "after"
            );
        }
        // Nothing still runs on A: it stops without waiting for the nap.
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// Any process can replay any stream from the store: a session resumes
/// only its own standing stream, another session's is answered as an
/// unknown session, before the store is asked for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_cannot_resume_another_sessions_stream() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server).await;
        let mine = open(&a, &[], V_2025_06_18).await;
        let theirs = open(&a, &[], V_2025_06_18).await;
        let resume = |last: String| {
            bare(
                "GET",
                "/mcp",
                &b.host(),
                &[
                    ("Accept", "text/event-stream"),
                    ("Mcp-Session-Id", &mine),
                    ("MCP-Protocol-Version", V_2025_06_18),
                    ("Last-Event-ID", &last),
                ],
            )
        };
        let refused = send(b.address, resume(format!("{theirs}:common/1-0"))).await;
        assert_unknown(&refused);
        assert_eq!(
            store.replays(),
            Vec::<String>::new(),
            "the store was not asked"
        );

        // Its own stream is asked of the store (which replays nothing
        // here: rmcp then answers with a stream that ends at once).
        let own = format!("{mine}:common/1-0");
        let resumed = send(b.address, resume(own.clone())).await;
        assert_eq!(resumed.status, 200, "{resumed:?}");
        assert_eq!(store.replays(), vec![own]);
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// A GET that names no session (2026-07-28's resumption of a request's
/// stream) with a `Last-Event-ID` of a session's standing stream is
/// refused before the store is asked: the store would replay that
/// session's stream to a caller that did not open it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_a_session_cannot_resume_a_sessions_stream() {
    bounded(async {
        let store = FakeStore::default();
        let (a, b) = two(&store, |server| server.with_bearer_token(TOKEN)).await;
        let bearer = bearer(TOKEN);
        let auth = [("Authorization", bearer.as_str())];
        let session = open(&a, &auth, V_2025_06_18).await;
        let last = format!("{session}:common/1-0");
        let resumed = send(
            b.address,
            bare(
                "GET",
                "/mcp",
                &b.host(),
                &[
                    ("Authorization", bearer.as_str()),
                    ("Accept", "text/event-stream"),
                    ("MCP-Protocol-Version", "2026-07-28"),
                    ("Last-Event-ID", &last),
                ],
            ),
        )
        .await;
        assert_eq!(store.replays(), Vec::<String>::new(), "{resumed:?}");
        assert_unknown(&resumed);
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// `echo` up front, `nap` deferred behind `tool_search`.
fn deferred_registry() -> tool_core::ToolRegistry {
    let mut tools = tool_core::ToolRegistry::new();
    tools
        .register_all(
            tool_core::toolset::IntoToolset::into_toolset(registry()).deferred_except(&["echo"]),
        )
        .unwrap();
    tools
}

/// The names a `tools/list` answer lists.
fn listed_names(answer: &Answer) -> Vec<String> {
    assert_eq!(answer.status, 200, "{answer:?}");
    let listed = answer_json(answer);
    let mut names: Vec<String> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {listed}"))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

/// A session's loaded tools live in the store: what a search answered by
/// one process found is in the `tools/list` the other answers, and a
/// session of its own elsewhere sees none of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_on_one_process_shows_in_the_list_another_gives() {
    bounded(async {
        let store = FakeStore::default();
        let a = start_with(deferred_registry(), |server| {
            server.with_shared_state(store.state())
        })
        .await;
        let b = start_with(deferred_registry(), |server| {
            server.with_shared_state(store.state())
        })
        .await;
        let session = open(&a, &[], V_2025_06_18).await;
        let other = open(&b, &[], V_2025_06_18).await;
        let before = post_in(&b, &[], &session, V_2025_06_18, LIST).await;
        assert_eq!(listed_names(&before), ["echo", "tool_search"]);

        let search = call(
            4,
            "tool_search",
            r#"{"query":"answers after milliseconds"}"#,
        );
        let found = post_in(&a, &[], &session, V_2025_06_18, &search).await;
        assert!(text(&found).contains("nap"), "{found:?}");

        let after = post_in(&b, &[], &session, V_2025_06_18, LIST).await;
        assert_eq!(listed_names(&after), ["echo", "nap", "tool_search"]);
        let elsewhere = post_in(&a, &[], &other, V_2025_06_18, LIST).await;
        assert_eq!(listed_names(&elsewhere), ["echo", "tool_search"]);

        // The store answers nothing: the list is refused, not shown from
        // memory without what the session loaded.
        store.set_down(true);
        let refused = post_in(&b, &[], &session, V_2025_06_18, LIST).await;
        assert_ne!(refused.status, 200, "{refused:?}");
        store.set_down(false);
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// A quota store whose places come back long after they are given back:
/// a remote store's round trip, made long enough to see.
struct SlowRelease(tool_mcp::MemoryQuotas);

impl tool_mcp::QuotaStore for SlowRelease {
    fn admit<'a>(
        &'a self,
        key: &'a str,
        rate: tool_mcp::Rate,
    ) -> StateFuture<'a, Option<Duration>> {
        self.0.admit(key, rate)
    }

    fn acquire<'a>(
        &'a self,
        key: &'a str,
        holder: &'a str,
        max: u32,
        lease: Duration,
    ) -> StateFuture<'a, bool> {
        self.0.acquire(key, holder, max, lease)
    }

    fn release<'a>(&'a self, key: &'a str, holder: &'a str) -> StateFuture<'a, ()> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            self.0.release(key, holder).await
        })
    }

    fn describe(&self) -> String {
        "a slow quota store".to_owned()
    }
}

/// A caller's place in flight is back before its answer's last bytes go
/// out, however slow the store: a client that sends its next request on
/// reading an answer is never refused for the place that answer held.
/// (When the place was given back after the answer, by a task, sequential
/// requests across processes on Redis met 429 under load.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answered_request_has_given_its_callers_place_back() {
    bounded(async {
        let store = FakeStore::default();
        let quotas = Arc::new(SlowRelease(tool_mcp::MemoryQuotas::new()));
        let server = start(|server: HttpServer| {
            server
                .with_shared_state(store.state().with_quotas(quotas.clone()))
                .with_caller_limits(tool_mcp::CallerLimits::new().in_flight(1))
        })
        .await;
        let session = open(&server, &[], V_2025_11_25).await;
        for _ in 0..3 {
            let answer = post_in(&server, &[], &session, V_2025_11_25, PING_9).await;
            assert_eq!(answer.status, 200, "{answer:?}");
        }
        server.stop().await;
    })
    .await;
}

const PING_9: &str = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
