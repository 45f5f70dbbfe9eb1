//! The binary's shared state (`--state-url`): the approval ledger every
//! process given the same approval key must share, on Redis
//! (tool-redis), or this process's memory.
//!
//! A key file lets other processes resume (or, over MCP, answer) the same
//! approvals, so a ledger in memory would let each of them run a replayed
//! approval once: the binary refuses that unless told
//! `--approval-ledger none`.

use crate::cli::{SharedState, UsageError};
use std::path::Path;
use tool_redis::{RedisLedger, RedisStore};

/// The prefix of the store's keys unless `--state-prefix` names another.
pub const DEFAULT_PREFIX: &str = "tool-examples";

/// The approval ledger `command` uses: the store's when `--state-url` is
/// given, else `None` (this process's memory). A usage error when a key
/// file is given with neither `--state-url` nor `--approval-ledger none`.
pub async fn approval_ledger(
    key_file: Option<&Path>,
    state: &SharedState,
    command: &'static str,
) -> std::io::Result<Option<RedisLedger>> {
    let Some(url) = &state.url else {
        if key_file.is_some() && state.approval_ledger.is_none() {
            return Err(UsageError::new(command, NO_LEDGER).into());
        }
        return Ok(None);
    };
    let prefix = state.prefix.as_deref().unwrap_or(DEFAULT_PREFIX);
    let store = RedisStore::connect(url, prefix).await.map_err(|error| {
        let message = format!("--state-url: {error}");
        if error.url_is_wrong() {
            UsageError::new(command, message).into()
        } else {
            std::io::Error::other(message)
        }
    })?;
    tracing::info!(prefix, "the approval ledger is in the shared store");
    Ok(Some(store.ledger()))
}

/// Why a key file alone is refused.
const NO_LEDGER: &str = "--approval-key-file lets every process given the key resume the same \
    approvals, and each would run a replayed one again: give them a shared ledger \
    (--state-url redis://HOST:PORT/DB), or say --approval-ledger none to keep one per process";
