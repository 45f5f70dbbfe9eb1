//! SSE polling (SEP-1699, final in MCP 2025-11-25): a call's event stream
//! is closed once it has been open for a while, and the client reconnects
//! with `Last-Event-ID` to read what followed, so no connection stays open
//! for the length of a long call (balancers and proxies cut those).
//!
//! "At any point after the server has sent an event ID to the client, the
//! server MAY disconnect at will"; the client then reconnects after the
//! event's `retry` hint
//! (<https://modelcontextprotocol.io/community/seps/1699-support-sse-polling-via-server-side-disconnect>).
//!
//! Two pieces:
//!
//! - [`CutAfter`], the body of a POST's event stream, ended for the client
//!   after the polling interval. rmcp's stream is then drained on a task of
//!   its own until the call's answer, so the call keeps its place in flight
//!   and its events keep being stored.
//! - [`MemoryEvents`], rmcp's [`EventStore`] in this process's memory,
//!   used when no shared store gives one: a reconnecting client is sent the
//!   events after its `Last-Event-ID`, then those that follow, until the
//!   call's answer or the interval again (a long poll). With a shared store
//!   its own replay serves, each reconnection sending what was stored.

use super::HttpBody;
use futures_util::{StreamExt, stream};
use hyper::body::{Body, Bytes, Frame, SizeHint};
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::store::{
    EventId, EventStore, EventStoreError, EventStream,
};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// How many events of one stream are kept: a client that missed more
/// resumes with a gap (as with tool-redis's store).
const KEPT_PER_STREAM: usize = 1000;

/// How long a stream is kept after its last event.
const KEPT_FOR: Duration = Duration::from_secs(5 * 60);

/// A POST's event stream, ended for the client once it has been open for
/// the polling interval, not before its first event (the priming event,
/// whose id the client resumes from).
pub(super) struct CutAfter {
    body: Option<HttpBody>,
    deadline: Pin<Box<tokio::time::Sleep>>,
    sent: bool,
}

impl CutAfter {
    pub(super) fn boxed(body: HttpBody, interval: Duration) -> HttpBody {
        HttpBody::new(CutAfter {
            body: Some(body),
            deadline: Box::pin(tokio::time::sleep(interval)),
            sent: false,
        })
    }
}

impl Body for CutAfter {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        let Some(body) = this.body.as_mut() else {
            return Poll::Ready(None);
        };
        // An event that is ready goes out before the interval is looked at.
        if let Poll::Ready(frame) = Pin::new(body).poll_frame(context) {
            match &frame {
                Some(_) => this.sent = true,
                None => this.body = None,
            }
            return Poll::Ready(frame);
        }
        if this.sent && this.deadline.as_mut().poll(context).is_ready() {
            if let Some(rest) = this.body.take() {
                tokio::spawn(drain(rest));
            }
            return Poll::Ready(None);
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.body.as_ref().is_none_or(Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.body
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), Body::size_hint)
    }
}

/// A resumed stream (a GET with `Last-Event-ID`), its first event naming
/// that id again: a client that reconnects without the header when a
/// stream brought no event with an id (the TypeScript SDK 1.32 does: the
/// id it resumes from is the last one that stream carried) keeps its
/// place, and polls on instead of opening a new stream.
pub(super) struct Resumed {
    first: Option<Bytes>,
    body: HttpBody,
}

impl Resumed {
    /// `None` when `last_event_id` could not be written in an event (SSE
    /// lines end at CR or LF; a header value holds neither, but this is
    /// the client's text).
    pub(super) fn boxed(body: HttpBody, last_event_id: &str) -> Result<HttpBody, HttpBody> {
        if last_event_id.contains(['\r', '\n']) {
            return Err(body);
        }
        // An event with an id and empty data: recorded, not dispatched.
        let first = Bytes::from(format!("id: {last_event_id}\ndata: \n\n"));
        Ok(HttpBody::new(Resumed {
            first: Some(first),
            body,
        }))
    }
}

impl Body for Resumed {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if let Some(first) = this.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        Pin::new(&mut this.body).poll_frame(context)
    }

    fn is_end_stream(&self) -> bool {
        self.first.is_none() && self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let mut hint = self.body.size_hint();
        if let Some(first) = &self.first {
            let length = first.len() as u64;
            hint.set_lower(hint.lower() + length);
            if let Some(upper) = hint.upper() {
                hint.set_upper(upper + length);
            }
        }
        hint
    }
}

/// Reads the rest of a stream the client no longer gets, until the call's
/// answer ends it: what it carries is in the event store already.
async fn drain(mut body: HttpBody) {
    use http_body_util::BodyExt;
    while body.frame().await.is_some() {}
}

/// rmcp's [`EventStore`] in memory: each stream's newest events, kept a
/// while after its last one, and the reconnections that wait for more.
pub(super) struct MemoryEvents {
    streams: Mutex<Streams>,
    /// How long a reconnection waits for events after the stored ones.
    follow_for: Duration,
}

/// Every stream's log, and when the old ones were last let go.
struct Streams {
    logs: HashMap<String, Log>,
    pruned: Instant,
}

impl Streams {
    /// Lets go of the streams untouched for [`KEPT_FOR`], at most once a
    /// minute (a look at every stream).
    fn prune(&mut self, now: Instant) {
        if now.duration_since(self.pruned) >= Duration::from_secs(60) {
            self.logs
                .retain(|_, log| now.duration_since(log.touched) < KEPT_FOR);
            self.pruned = now;
        }
    }
}

/// One stream's events, numbered from 1 (`first` is the number of the
/// oldest kept), and the reconnections waiting for the next.
struct Log {
    first: u64,
    events: VecDeque<ServerSseMessage>,
    /// The answer that closes the stream is stored: nothing follows it.
    answered: bool,
    touched: Instant,
    followers: Vec<mpsc::Sender<ServerSseMessage>>,
}

impl Log {
    fn new() -> Self {
        Log {
            first: 1,
            events: VecDeque::new(),
            answered: false,
            touched: Instant::now(),
            followers: Vec::new(),
        }
    }

    /// The events numbered after `after`, from the oldest kept.
    fn after(&self, after: u64) -> Vec<ServerSseMessage> {
        let skip = after.saturating_sub(self.first - 1);
        let skip = usize::try_from(skip).unwrap_or(usize::MAX);
        self.events.iter().skip(skip).cloned().collect()
    }
}

impl MemoryEvents {
    pub(super) fn new(follow_for: Duration) -> Self {
        MemoryEvents {
            streams: Mutex::new(Streams {
                logs: HashMap::new(),
                pruned: Instant::now(),
            }),
            follow_for,
        }
    }

    fn streams(&self) -> std::sync::MutexGuard<'_, Streams> {
        // A panic while holding the lock leaves whole entries behind.
        self.streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Whether `message` is a request's answer, after which its stream ends.
fn is_answer(message: &ServerJsonRpcMessage) -> bool {
    matches!(
        message,
        ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_)
    )
}

#[async_trait::async_trait]
impl EventStore for MemoryEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let now = Instant::now();
        let mut streams = self.streams();
        streams.prune(now);
        let log = streams
            .logs
            .entry(stream_id.to_owned())
            .or_insert_with(Log::new);
        log.touched = now;
        let Some(message) = &event.message else {
            // The opening event: what follows it is the whole stream.
            return Ok(super::event_id(stream_id, 0));
        };
        let number = log.first + log.events.len() as u64;
        let id = super::event_id(stream_id, number);
        let mut stored = event.clone();
        stored.event_id = Some(id.clone());
        log.followers
            .retain(|follower| follower.try_send(stored.clone()).is_ok());
        log.events.push_back(stored);
        if log.events.len() > KEPT_PER_STREAM {
            log.events.pop_front();
            log.first += 1;
        }
        if is_answer(message) {
            log.answered = true;
            // Their streams end once they have sent what they hold.
            log.followers.clear();
        }
        Ok(id)
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (stream_id, after) = super::split_event_id(last_event_id)?;
        let mut streams = self.streams();
        let log = streams
            .logs
            .get_mut(stream_id)
            .ok_or_else(|| format!("no stream has the event id {last_event_id:?}"))?;
        let stored = log.after(after);
        if log.answered || self.follow_for.is_zero() {
            return Ok(Box::pin(stream::iter(stored)));
        }
        let (sender, receiver) = mpsc::channel(KEPT_PER_STREAM);
        log.followers.push(sender);
        Ok(Box::pin(
            stream::iter(stored).chain(following(receiver, self.follow_for)),
        ))
    }
}

/// The events sent to `receiver`, until the stream's answer has been sent
/// or `follow_for` has passed.
fn following(
    mut receiver: mpsc::Receiver<ServerSseMessage>,
    follow_for: Duration,
) -> impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static {
    let mut deadline = Box::pin(tokio::time::sleep(follow_for));
    stream::poll_fn(move |context| match receiver.poll_recv(context) {
        Poll::Ready(event) => Poll::Ready(event),
        Poll::Pending => match deadline.as_mut().poll(context) {
            Poll::Ready(()) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    fn message(json: serde_json::Value) -> ServerSseMessage {
        ServerSseMessage::from_message(serde_json::from_value(json).unwrap())
    }

    fn answer(id: i64) -> ServerSseMessage {
        message(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}))
    }

    fn notification() -> ServerSseMessage {
        message(serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 1}
        }))
    }

    fn ids(events: &[ServerSseMessage]) -> Vec<&str> {
        events
            .iter()
            .map(|event| event.event_id.as_deref().unwrap())
            .collect()
    }

    #[tokio::test]
    async fn a_reconnection_gets_what_followed_its_id_then_what_comes() {
        let events = MemoryEvents::new(Duration::from_secs(5));
        let priming = ServerSseMessage::priming("ignored", Duration::from_millis(10));
        assert_eq!(events.store_event("s", &priming).await.unwrap(), "s/0");
        assert_eq!(events.store_event("s", &notification()).await.unwrap(), "s/1");
        let mut replay = events.replay_events_after("s/0").await.unwrap();
        let first = replay.next().await.unwrap();
        assert_eq!(first.event_id.as_deref(), Some("s/1"));
        events.store_event("s", &answer(7)).await.unwrap();
        let rest: Vec<_> = replay.collect().await;
        assert_eq!(ids(&rest), ["s/2"], "the answer, then the end");
        // Once answered, a reconnection gets what it missed and ends.
        let again: Vec<_> = events
            .replay_events_after("s/1")
            .await
            .unwrap()
            .collect()
            .await;
        assert_eq!(ids(&again), ["s/2"]);
    }

    #[tokio::test]
    async fn a_reconnection_waits_no_longer_than_the_interval() {
        let events = MemoryEvents::new(Duration::from_millis(50));
        events
            .store_event("s", &ServerSseMessage::retry(Duration::from_millis(1)))
            .await
            .unwrap();
        let waited: Vec<_> = events
            .replay_events_after("s/0")
            .await
            .unwrap()
            .collect()
            .await;
        assert!(waited.is_empty(), "nothing came: {waited:?}");
    }

    #[tokio::test]
    async fn an_id_it_did_not_give_is_refused() {
        let events = MemoryEvents::new(Duration::from_secs(1));
        for id in ["s/1", "nothing", "/1", "s/x"] {
            assert!(events.replay_events_after(id).await.is_err(), "{id}");
        }
    }
}
