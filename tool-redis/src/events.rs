//! Resumable event streams on Redis: each SSE stream of a session (rmcp
//! names them: `SESSION:common`, or a UUID per request) one Redis stream
//! under `prefix:events:STREAM`, trimmed to about [`KEPT_PER_STREAM`]
//! events and kept for a while after its last one. An event's id is
//! `STREAM/ENTRY` (the Redis entry id), unique across every stream and
//! process, and naming its stream, as rmcp's [`EventStore`] asks: a client
//! reconnecting with `Last-Event-ID` to any process gets what followed.

use crate::RedisStore;
use crate::sessions::millis;
use redis::Script;
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::store::{
    EventId, EventStore, EventStoreError, EventStream,
};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

static ADD: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/event_add.lua")));

/// About how many events of one stream are kept (Redis trims the oldest,
/// `MAXLEN ~`): a client that missed more than that resumes with a gap.
pub const KEPT_PER_STREAM: usize = 1000;

/// rmcp's [`EventStore`] in a [`RedisStore`].
#[derive(Clone, Debug)]
pub struct RedisEvents {
    store: RedisStore,
    /// How long a stream is kept after its last event.
    kept_for: Duration,
}

impl RedisEvents {
    pub(crate) fn new(store: RedisStore, kept_for: Duration) -> Self {
        RedisEvents { store, kept_for }
    }
}

#[async_trait::async_trait]
impl EventStore for RedisEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let message = match &event.message {
            Some(message) => serde_json::to_string(message.as_ref())?,
            None => String::new(),
        };
        let retry = event
            .retry
            .map(|retry| millis(retry).to_string())
            .unwrap_or_default();
        let mut connection = self.store.connection();
        let entry: String = ADD
            .key(self.store.key("events", stream_id))
            .arg(KEPT_PER_STREAM)
            .arg(message)
            .arg(retry)
            .arg(millis(self.kept_for))
            .invoke_async(&mut connection)
            .await?;
        Ok(format!("{stream_id}/{entry}"))
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (stream_id, entry) = split_event_id(last_event_id)?;
        let mut connection = self.store.connection();
        let entries: Vec<(String, Vec<(String, String)>)> = redis::cmd("XRANGE")
            .arg(self.store.key("events", stream_id))
            .arg(format!("({entry}"))
            .arg("+")
            .query_async(&mut connection)
            .await?;
        let mut events = Vec::with_capacity(entries.len());
        for (entry, fields) in entries {
            events.push(read_event(stream_id, &entry, &fields)?);
        }
        Ok(Box::pin(futures_util::stream::iter(events)))
    }
}

/// `STREAM/ENTRY` as its two parts; the entry must be a Redis stream id
/// (`MILLIS-SEQ`): anything else is a client's invention.
fn split_event_id(id: &str) -> Result<(&str, &str), EventStoreError> {
    let refused = || format!("the event id {id:?} is not one this store gave").into();
    let (stream, entry) = id.rsplit_once('/').ok_or_else(refused)?;
    let (time, sequence) = entry.split_once('-').ok_or_else(refused)?;
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    if stream.is_empty() || !digits(time) || !digits(sequence) {
        return Err(refused());
    }
    Ok((stream, entry))
}

/// One stored entry as the event rmcp sent.
fn read_event(
    stream: &str,
    entry: &str,
    fields: &[(String, String)],
) -> Result<ServerSseMessage, EventStoreError> {
    let field = |name: &str| {
        fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
            .filter(|value| !value.is_empty())
    };
    let message = match field("m") {
        Some(json) => Some(Arc::new(serde_json::from_str::<ServerJsonRpcMessage>(
            json,
        )?)),
        None => None,
    };
    let retry = match field("r") {
        Some(millis) => Some(Duration::from_millis(millis.parse()?)),
        None => None,
    };
    let mut event = ServerSseMessage::priming(format!("{stream}/{entry}"), Duration::ZERO);
    event.message = message;
    event.retry = retry;
    Ok(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_their_stream_and_entry() {
        assert_eq!(
            split_event_id("s1:common/1733580000000-0").unwrap(),
            ("s1:common", "1733580000000-0")
        );
        let uuid = "0b6e8d52-1a51-4b2c-9d51-0d1f7c3c1e22/12-3";
        assert_eq!(
            split_event_id(uuid).unwrap(),
            ("0b6e8d52-1a51-4b2c-9d51-0d1f7c3c1e22", "12-3")
        );
        for invented in [
            "", "s1", "/1-0", "s1/1", "s1/a-0", "s1/1-", "s1/-1", "s1/1-0 +",
        ] {
            assert!(split_event_id(invented).is_err(), "{invented:?}");
        }
    }

    #[test]
    fn a_stored_event_reads_back_as_sent() {
        let message: ServerJsonRpcMessage = serde_json::from_value(serde_json::json!({
            "jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 2.0}
        }))
        .unwrap();
        let stored = serde_json::to_string(&message).unwrap();
        let event = read_event(
            "s",
            "5-1",
            &[("m".into(), stored), ("r".into(), String::new())],
        )
        .unwrap();
        assert_eq!(event.event_id.as_deref(), Some("s/5-1"));
        assert_eq!(
            serde_json::to_value(event.message.unwrap().as_ref()).unwrap(),
            serde_json::to_value(&message).unwrap()
        );
        assert_eq!(event.retry, None);

        let priming = read_event(
            "s",
            "6-0",
            &[("m".into(), String::new()), ("r".into(), "3000".into())],
        )
        .unwrap();
        assert!(priming.message.is_none());
        assert_eq!(priming.retry, Some(Duration::from_secs(3)));
    }
}
