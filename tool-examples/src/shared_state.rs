//! The binary's shared state (`--state-url`): the approval ledger every
//! process given the same approval key must share, and (`mcp --http`)
//! the sessions every process serves, on Redis (tool-redis), or this
//! process's memory.
//!
//! A key file lets other processes resume (or, over MCP, answer) the same
//! approvals, so a ledger in memory would let each of them run a replayed
//! approval once: the binary refuses that unless told
//! `--approval-ledger none`.

use crate::cli::{SharedState, UsageError};
use crate::token_file::read_token_file;
use std::path::Path;
use std::time::Duration;
use tool_redis::{RedisLedger, RedisStore};

/// The prefix of the store's keys unless `--state-prefix` names another.
pub const DEFAULT_PREFIX: &str = "tool-examples";

/// How long a request's event stream is kept after its last event, for a
/// client whose connection broke to reconnect (`Last-Event-ID`) to any
/// process: clients reconnect within seconds (the SSE retry hint); two
/// minutes leaves room without keeping every call's stream for the whole
/// idle time of its session.
pub const EVENTS_KEPT_FOR: Duration = Duration::from_secs(120);

/// The store `--state-url` names, connected, or `None` without it (state
/// stays in this process's memory). A usage error when the URL does not
/// parse; an error naming the store's address (never the URL, which may
/// hold a password) when it does not answer.
pub async fn connect(
    state: &SharedState,
    command: &'static str,
) -> std::io::Result<Option<RedisStore>> {
    let Some(url) = &state.url else {
        return Ok(None);
    };
    let password = match &state.password_file {
        Some(file) => Some(read_token_file(
            &format!("--state-password-file {}", file.display()),
            file,
        )?),
        None => None,
    };
    let prefix = state.prefix.as_deref().unwrap_or(DEFAULT_PREFIX);
    let store = RedisStore::connect_with_password(url, password.as_deref(), prefix)
        .await
        .map_err(|error| {
            let message = format!("--state-url: {error}");
            if error.url_is_wrong() {
                UsageError::new(command, message).into()
            } else {
                std::io::Error::other(message)
            }
        })?;
    tracing::info!(
        prefix,
        store = store.describe(),
        "shared state in the store"
    );
    Ok(Some(store))
}

/// The approval ledger `command` uses: `store`'s when there is one, else
/// `None` (this process's memory). A usage error when a key file is given
/// with neither a store nor `--approval-ledger none`.
pub fn approval_ledger(
    key_file: Option<&Path>,
    store: Option<&RedisStore>,
    state: &SharedState,
    command: &'static str,
) -> std::io::Result<Option<RedisLedger>> {
    match store {
        Some(store) => Ok(Some(store.ledger())),
        None if key_file.is_some() && state.approval_ledger.is_none() => {
            Err(UsageError::new(command, NO_LEDGER).into())
        }
        None => Ok(None),
    }
}

/// Why a key file alone is refused.
const NO_LEDGER: &str = "--approval-key-file lets every process given the key resume the same \
    approvals, and each would run a replayed one again: give them a shared ledger \
    (--state-url redis://HOST:PORT/DB), or say --approval-ledger none to keep one per process";
