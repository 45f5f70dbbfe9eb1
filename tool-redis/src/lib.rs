//! Shared state on Redis for the tool-calling stack served by several
//! processes, on one machine or many: what tool-core and tool-mcp keep in
//! one process's memory by default, kept where every process sees it.
//!
//! Today that is the approval ledger ([`RedisLedger`], tool-core's
//! [`SuspensionLedger`]): a suspended batch is resumed at most once
//! across every process sharing the store, a 2026-07-28 MCP `requestState`
//! is used once, and a resume whose process died is answered
//! `interrupted` by the next one instead of running again. Every key
//! starts with the store's prefix (one per deployment) and every entry
//! expires: nothing grows without bound.
//!
//! ```no_run
//! use tool_core::approval::{ApprovalKey, Approvals};
//! use tool_redis::RedisStore;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let store = RedisStore::connect("redis://127.0.0.1:6379/0", "my-agent").await?;
//! let key = ApprovalKey::new(std::fs::read("/run/secrets/approval-key")?)?;
//! let approvals = Approvals::suspend(key).with_ledger(store.ledger());
//! # let _ = approvals;
//! # Ok(()) }
//! ```
//!
//! [`SuspensionLedger`]: tool_core::approval::SuspensionLedger

mod events;
mod ledger;
mod quotas;
mod sessions;

pub use events::{KEPT_PER_STREAM, RedisEvents};
pub use ledger::RedisLedger;
pub use quotas::RedisQuotas;
pub use sessions::RedisSessions;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// How long one Redis command may take before it fails (and the ledger,
/// failing closed, refuses the resume rather than guess).
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long connecting may take.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection to the shared store, and the prefix of every key this
/// deployment writes. Clones share the connection (redis-rs's
/// `ConnectionManager`: one multiplexed connection, reconnected when it
/// drops).
#[derive(Clone)]
pub struct RedisStore {
    client: redis::Client,
    connection: ConnectionManager,
    prefix: String,
    /// The store for people (and logs): its address and database, never
    /// the URL (which may hold a password).
    described: Arc<str>,
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://HOST:PORT/DB`), every key
    /// this store writes starting with `prefix` and `:`. Fails when the
    /// URL does not parse or the server does not answer.
    pub async fn connect(url: &str, prefix: &str) -> Result<Self, StoreError> {
        Self::connect_with_password(url, None, prefix).await
    }

    /// [`connect`](Self::connect) with the password given apart from the
    /// URL (read from a file, say, where a URL on a command line would
    /// show it to every user of the machine); it replaces any in the URL.
    /// `rediss://` connects with TLS (feature `tls`), the server's
    /// certificate checked against the system's roots.
    pub async fn connect_with_password(
        url: &str,
        password: Option<&str>,
        prefix: &str,
    ) -> Result<Self, StoreError> {
        use redis::IntoConnectionInfo;
        let mut info = url
            .into_connection_info()
            .map_err(|error| StoreError::url(&error))?;
        if let Some(password) = password {
            let settings = info.redis_settings().clone().set_password(password);
            info = info.set_redis_settings(settings);
        }
        let client = redis::Client::open(info).map_err(|error| StoreError::url(&error))?;
        let described = describe(&client).into();
        // Reconnects are retried a few times, at most a second apart: a
        // step that still cannot reach the store fails, and the ledger
        // refuses what it was asked (it never guesses).
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_connection_timeout(Some(CONNECTION_TIMEOUT))
            .set_number_of_retries(3)
            .set_max_delay(Duration::from_secs(1));
        let connection = client
            .get_connection_manager_with_config(config)
            .await
            .map_err(|error| StoreError::unreachable(&client, &error))?;
        Ok(RedisStore {
            client,
            connection,
            prefix: prefix.to_owned(),
            described,
        })
    }

    /// The state tool-mcp's HTTP server keeps here when several processes
    /// serve one deployment (`McpHttp::with_shared_state`): its sessions,
    /// their owners and event streams, the answers to calls running in
    /// another process, and the counts of the limits per caller. `idle` is the server's session idle timeout (a
    /// session unused that long ends everywhere); a request's event stream
    /// is kept for `events_kept_for` after its last event, for a client to
    /// reconnect to it.
    pub fn mcp_state(&self, idle: Duration, events_kept_for: Duration) -> tool_mcp::SharedState {
        let sessions = Arc::new(RedisSessions::new(self.clone(), idle));
        tool_mcp::SharedState::new(
            Arc::clone(&sessions) as _,
            Arc::new(RedisEvents::new(self.clone(), events_kept_for)),
            sessions,
        )
        .with_quotas(Arc::new(RedisQuotas::new(self.clone())))
    }

    /// The store for people: `Redis at 127.0.0.1:6379 (database 0)`.
    pub fn describe(&self) -> String {
        self.described.to_string()
    }

    pub(crate) fn client(&self) -> redis::Client {
        self.client.clone()
    }

    /// The approval ledger in this store.
    pub fn ledger(&self) -> RedisLedger {
        RedisLedger::new(self.clone())
    }

    /// `prefix:kind:id`: a key of this deployment.
    pub(crate) fn key(&self, kind: &str, id: &str) -> String {
        format!("{}:{kind}:{id}", self.prefix)
    }

    pub(crate) fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("RedisStore")
            .field("store", &self.described)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// Why the store could not be reached. Its text never holds the URL
/// itself (which may carry a password, as its user part or a parameter):
/// only what does not parse, or the address that does not answer.
#[derive(Debug)]
pub struct StoreError {
    message: String,
    url_is_wrong: bool,
}

impl StoreError {
    fn url(error: &redis::RedisError) -> Self {
        StoreError {
            message: format!("the state URL does not parse (want redis://HOST:PORT/DB): {error}"),
            url_is_wrong: true,
        }
    }

    fn unreachable(client: &redis::Client, error: &redis::RedisError) -> Self {
        let info = client.get_connection_info();
        StoreError {
            message: format!(
                "the shared store at {} (database {}) does not answer: {error}",
                info.addr(),
                info.redis_settings().db()
            ),
            url_is_wrong: false,
        }
    }
}

/// `Redis at ADDRESS (database N)`: what a log line names the store by.
fn describe(client: &redis::Client) -> String {
    let info = client.get_connection_info();
    format!(
        "Redis at {} (database {})",
        info.addr(),
        info.redis_settings().db()
    )
}

impl StoreError {
    /// Whether the URL itself is wrong (a mistake in how it was given),
    /// rather than the store unreachable.
    pub fn url_is_wrong(&self) -> bool {
        self.url_is_wrong
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_bad_url_is_refused_without_echoing_it() {
        for url in ["http://example/0", "u:hunter2@127.0.0.1:6379"] {
            let error = RedisStore::connect(url, "p").await.unwrap_err();
            assert!(error.url_is_wrong());
            let text = error.to_string();
            assert!(text.starts_with("the state URL does not parse"), "{text}");
            assert!(
                !text.contains("hunter2") && !text.contains("example"),
                "{text}"
            );
        }
    }

    #[tokio::test]
    async fn a_store_that_does_not_answer_is_named_by_its_address_alone() {
        // Port 9 (discard) on loopback: nothing listens there in a test run.
        for url in [
            "redis://user:hunter2@127.0.0.1:9/3",
            "redis://127.0.0.1:9/3?password=hunter2",
        ] {
            let error = RedisStore::connect(url, "p").await.unwrap_err();
            assert!(!error.url_is_wrong());
            let text = error.to_string();
            assert!(
                text.starts_with("the shared store at 127.0.0.1:9 (database 3) does not answer"),
                "{text}"
            );
            assert!(!text.contains("hunter2"), "{text}");
        }
    }
}
