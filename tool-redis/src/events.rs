//! Resumable event streams on Redis: each SSE stream of a session (rmcp
//! names them: `SESSION:common`, or a UUID per request) one list under
//! `prefix:events:STREAM`, holding about the newest [`KEPT_PER_STREAM`]
//! events and kept for a while after its last one. An event's id is
//! `STREAM/N`, N its number in the stream (from 1), unique across every
//! stream and process and naming its stream, as rmcp's [`EventStore`]
//! asks: a client reconnecting with `Last-Event-ID` to any process gets
//! what followed.
//!
//! A list, not a Redis stream: a stream preallocates a node of 4 KiB
//! (`stream-node-max-bytes`), and most of these streams are one call's,
//! holding one event (measured: 4,784 bytes for a two-event stream, where
//! the list of the same is about 200). A stream's opening event (rmcp's
//! priming event: no message, a retry hint) is not stored at all: its id is
//! `STREAM/0`, and what follows it is the whole stream. That saves a round
//! trip to Redis on every request.

use crate::RedisStore;
use crate::sessions::millis;
use redis::Script;
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::store::{
    EventId, EventStore, EventStoreError, EventStream,
};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

static ADD: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/event_add.lua")));
static REPLAY: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("scripts/event_replay.lua")));

/// How many events of one stream are kept: a client that missed more than
/// that resumes with a gap.
pub const KEPT_PER_STREAM: usize = 1000;

/// rmcp's [`EventStore`] in a [`RedisStore`].
#[derive(Clone, Debug)]
pub struct RedisEvents {
    store: RedisStore,
    /// How long a stream is kept after its last event.
    kept_for: Duration,
}

/// One event as stored: its message (none for a retry hint alone) and
/// its retry hint in milliseconds.
#[derive(Serialize, Deserialize)]
struct Stored {
    #[serde(rename = "m", default, skip_serializing_if = "Option::is_none")]
    message: Option<ServerJsonRpcMessage>,
    #[serde(rename = "r", default, skip_serializing_if = "Option::is_none")]
    retry_ms: Option<u64>,
}

impl RedisEvents {
    pub(crate) fn new(store: RedisStore, kept_for: Duration) -> Self {
        RedisEvents { store, kept_for }
    }

    /// The stream's list, and the count of the events dropped from it.
    fn keys(&self, stream_id: &str) -> (String, String) {
        let list = self.store.key("events", stream_id);
        let dropped = format!("{list}:dropped");
        (list, dropped)
    }
}

#[async_trait::async_trait]
impl EventStore for RedisEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let Some(message) = &event.message else {
            // The opening event: what follows it is the whole stream.
            return Ok(tool_mcp::event_id(stream_id, 0));
        };
        let stored = serde_json::to_string(&Stored {
            message: Some(message.as_ref().clone()),
            retry_ms: event.retry.map(millis),
        })?;
        let (list, dropped) = self.keys(stream_id);
        let mut connection = self.store.connection();
        let number: u64 = ADD
            .key(list)
            .key(dropped)
            .arg(stored)
            .arg(KEPT_PER_STREAM)
            .arg(millis(self.kept_for))
            .invoke_async(&mut connection)
            .await?;
        Ok(tool_mcp::event_id(stream_id, number))
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (stream_id, after) = tool_mcp::split_event_id(last_event_id)?;
        let (list, dropped) = self.keys(stream_id);
        let mut connection = self.store.connection();
        let answer: Vec<String> = REPLAY
            .key(list)
            .key(dropped)
            .arg(after)
            .invoke_async(&mut connection)
            .await?;
        let events = read_replay(stream_id, &answer)?;
        Ok(Box::pin(futures_util::stream::iter(events)))
    }
}

/// The replay script's answer (the number before the first event, then
/// the events) as the events rmcp sent, with their ids.
fn read_replay(stream: &str, answer: &[String]) -> Result<Vec<ServerSseMessage>, EventStoreError> {
    let Some((before, events)) = answer.split_first() else {
        return Err("the replay script answered nothing".into());
    };
    let before: u64 = before.parse()?;
    let mut replayed = Vec::with_capacity(events.len());
    for (number, event) in (before + 1..).zip(events) {
        let stored: Stored = serde_json::from_str(event)?;
        let mut event = ServerSseMessage::priming(format!("{stream}/{number}"), Duration::ZERO);
        event.message = stored.message.map(Arc::new);
        event.retry = stored.retry_ms.map(Duration::from_millis);
        replayed.push(event);
    }
    Ok(replayed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tool_mcp::split_event_id;

    #[test]
    fn event_ids_name_their_stream_and_number() {
        assert_eq!(split_event_id("s1:common/17").unwrap(), ("s1:common", 17));
        let uuid = "0b6e8d52-1a51-4b2c-9d51-0d1f7c3c1e22/0";
        assert_eq!(
            split_event_id(uuid).unwrap(),
            ("0b6e8d52-1a51-4b2c-9d51-0d1f7c3c1e22", 0)
        );
        for invented in [
            "",
            "s1",
            "/1",
            "s1/",
            "s1/a",
            "s1/1-0",
            "s1/-1",
            "s1/1 ",
            "s1/99999999999999999999999",
        ] {
            assert!(split_event_id(invented).is_err(), "{invented:?}");
        }
    }

    #[test]
    fn a_replay_reads_back_as_sent_with_its_numbers() {
        let message: ServerJsonRpcMessage = serde_json::from_value(serde_json::json!({
            "jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 2.0}
        }))
        .unwrap();
        let stored = serde_json::to_string(&Stored {
            message: Some(message.clone()),
            retry_ms: None,
        })
        .unwrap();
        let with_retry = serde_json::to_string(&Stored {
            message: Some(message.clone()),
            retry_ms: Some(3000),
        })
        .unwrap();
        let events = read_replay("s", &["4".to_owned(), stored, with_retry]).unwrap();
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].event_id.as_deref(), Some("s/5"));
        assert_eq!(events[1].event_id.as_deref(), Some("s/6"));
        assert_eq!(
            serde_json::to_value(events[0].message.as_deref().unwrap()).unwrap(),
            serde_json::to_value(&message).unwrap()
        );
        assert_eq!(events[0].retry, None);
        assert_eq!(events[1].retry, Some(Duration::from_secs(3)));
        assert!(read_replay("s", &[]).is_err());
        assert!(read_replay("s", &["x".to_owned()]).is_err());
    }
}
