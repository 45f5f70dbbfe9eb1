//! MCP sessions on Redis: each session one hash under `prefix:session:ID`
//! (`init`: the client's `initialize` params as rmcp's [`SessionState`]
//! JSON; `owner`: who opened it; `loaded`: the deferred tools its searches
//! loaded, one name a line, in order), kept for the idle time after its last
//! request (every request renews it, whichever process serves it), and the
//! messages for calls running in another process published on
//! `prefix:inbox:ID`.

use crate::RedisStore;
use redis::Script;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::mpsc;
use tool_mcp::{Delivered, SessionDirectory, StateFuture};

static OPENED: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("scripts/session_opened.lua")));
static TOUCH: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("scripts/session_touch.lua")));
static LOAD: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("scripts/session_load.lua")));

/// How many delivered messages wait for the gate before the oldest are
/// dropped (the subscription's reader never blocks on the gate).
const INBOX_CAPACITY: usize = 1024;

/// The longest wait between two attempts to subscribe again.
const RESUBSCRIBE_MAX: Duration = Duration::from_secs(2);

/// rmcp's [`SessionStore`] and tool-mcp's [`SessionDirectory`] in a
/// [`RedisStore`]: [`RedisStore::mcp_state`] hands them to
/// `McpHttp::with_shared_state`.
#[derive(Clone, Debug)]
pub struct RedisSessions {
    store: RedisStore,
    /// How long a session stored at `initialize` is kept before its first
    /// request renews it: the server's idle timeout.
    idle: Duration,
}

impl RedisSessions {
    pub(crate) fn new(store: RedisStore, idle: Duration) -> Self {
        RedisSessions { store, idle }
    }

    fn session(&self, id: &str) -> String {
        self.store.key("session", id)
    }

    /// The channel of one session's deliveries; [`subscribe`] listens to
    /// every session's (`prefix:inbox:*`).
    ///
    /// [`subscribe`]: SessionDirectory::subscribe
    fn inbox(&self, id: &str) -> String {
        self.store.key("inbox", id)
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let mut connection = self.store.connection();
        let init: Option<String> = redis::cmd("HGET")
            .arg(self.session(session_id))
            .arg("init")
            .query_async(&mut connection)
            .await?;
        match init {
            None => Ok(None),
            Some(init) => Ok(Some(serde_json::from_str(&init).map_err(|error| {
                format!("the stored state of session {session_id:?} does not read: {error}")
            })?)),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let init = serde_json::to_string(state)?;
        let key = self.session(session_id);
        let mut connection = self.store.connection();
        let () = redis::pipe()
            .atomic()
            .hset(&key, "init", init)
            .ignore()
            .pexpire(&key, i64::try_from(millis(self.idle)).unwrap_or(i64::MAX))
            .ignore()
            .query_async(&mut connection)
            .await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let mut connection = self.store.connection();
        let () = redis::cmd("DEL")
            .arg(self.session(session_id))
            .query_async(&mut connection)
            .await?;
        Ok(())
    }
}

impl SessionDirectory for RedisSessions {
    fn opened<'a>(
        &'a self,
        session: &'a str,
        owner: &'a str,
        idle: Duration,
    ) -> StateFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let kept: i64 = OPENED
                .key(self.session(session))
                .arg(owner)
                .arg(millis(idle))
                .invoke_async(&mut connection)
                .await?;
            Ok(kept == 1)
        })
    }

    fn touch<'a>(&'a self, session: &'a str, idle: Duration) -> StateFuture<'a, Option<String>> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let owner: Option<String> = TOUCH
                .key(self.session(session))
                .arg(millis(idle))
                .invoke_async(&mut connection)
                .await?;
            Ok(owner)
        })
    }

    fn deliver<'a>(&'a self, session: &'a str, message: &'a [u8]) -> StateFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let _receivers: i64 = redis::cmd("PUBLISH")
                .arg(self.inbox(session))
                .arg(message)
                .query_async(&mut connection)
                .await?;
            Ok(())
        })
    }

    fn subscribe(&self) -> mpsc::Receiver<Delivered> {
        let (sender, receiver) = mpsc::channel(INBOX_CAPACITY);
        let client = self.store.client();
        let pattern = self.inbox("*");
        let prefix = self.inbox("");
        let store = self.store.describe();
        tokio::spawn(async move {
            let mut wait = Duration::from_millis(100);
            while !sender.is_closed() {
                match listen(&client, &pattern, &prefix, &sender).await {
                    Ok(()) => return,
                    Err(error) => {
                        tracing::error!(
                            store,
                            %error,
                            "the shared store's delivery of answers to calls is down: subscribing again"
                        );
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(RESUBSCRIBE_MAX);
                    }
                }
            }
        });
        receiver
    }

    fn load_tools<'a>(
        &'a self,
        session: &'a str,
        names: &'a [String],
    ) -> StateFuture<'a, Vec<String>> {
        Box::pin(async move {
            // One name a line: a name with a line break would be two.
            if let Some(name) = names.iter().find(|name| name.contains('\n')) {
                return Err(
                    format!("a tool name with a line break cannot be loaded: {name:?}").into(),
                );
            }
            let mut connection = self.store.connection();
            let mut script = LOAD.key(self.session(session));
            for name in names {
                script.arg(name);
            }
            let added: String = script.invoke_async(&mut connection).await?;
            Ok(lines(&added))
        })
    }

    fn loaded_tools<'a>(&'a self, session: &'a str) -> StateFuture<'a, Vec<String>> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let loaded: Option<String> = redis::cmd("HGET")
                .arg(self.session(session))
                .arg("loaded")
                .query_async(&mut connection)
                .await?;
            Ok(lines(&loaded.unwrap_or_default()))
        })
    }

    fn ready(&self) -> StateFuture<'_, ()> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let _pong: String = redis::cmd("PING").query_async(&mut connection).await?;
            Ok(())
        })
    }

    fn describe(&self) -> String {
        self.store.describe()
    }
}

/// The names of a `loaded` field, one a line.
fn lines(loaded: &str) -> Vec<String> {
    loaded
        .lines()
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Subscribes to every session's inbox and hands on what arrives, until
/// the subscription breaks (`Err`) or the receiver is gone (`Ok`).
async fn listen(
    client: &redis::Client,
    pattern: &str,
    prefix: &str,
    sender: &mpsc::Sender<Delivered>,
) -> redis::RedisResult<()> {
    use futures_util::StreamExt;
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.psubscribe(pattern).await?;
    tracing::debug!(pattern, "subscribed to the sessions' deliveries");
    let mut messages = pubsub.on_message();
    loop {
        let message = tokio::select! {
            message = messages.next() => message,
            // The gate is gone: nothing to hand messages to.
            () = sender.closed() => return Ok(()),
        };
        let Some(message) = message else {
            break;
        };
        let Some(session) = message.get_channel_name().strip_prefix(prefix) else {
            continue;
        };
        let delivered = Delivered {
            session: session.to_owned(),
            message: message.get_payload_bytes().to_vec(),
        };
        match sender.try_send(delivered) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!("a delivered message was dropped: the gate is behind");
            }
            Err(mpsc::error::TrySendError::Closed(_)) => return Ok(()),
        }
    }
    Err(redis::RedisError::from((
        redis::ErrorKind::Io,
        "the subscription ended",
    )))
}

/// A duration as Redis's milliseconds, at least 1 (0 would not expire).
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}
