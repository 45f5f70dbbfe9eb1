//! Which suspensions were already resumed: a signed state stays valid
//! until it expires, so without a record of the ones used, resuming the
//! same state twice would run an approved call twice.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

/// What a ledger's `claim` returns: `Ok(true)` the first time an id is
/// claimed, `Ok(false)` after, `Err` when the ledger cannot tell (the
/// resume is refused then: better a person asked again than a call run
/// twice).
pub type ClaimFuture<'a> = Pin<Box<dyn Future<Output = Result<bool, String>> + Send + 'a>>;

/// Records the suspensions resumed, so a state is used once. Every process
/// that resumes batches must share it: the default ([`MemoryLedger`]) is
/// one process's memory; several processes behind a balancer need one in
/// their shared store (an `INSERT` that fails on a duplicate key, a Redis
/// `SET NX` with the expiry).
///
/// ```
/// use tool_core::approval::{ClaimFuture, SuspensionLedger};
/// use std::collections::HashSet;
/// use std::sync::Mutex;
///
/// /// A ledger in a table; here a set stands for it.
/// #[derive(Default)]
/// struct Table(Mutex<HashSet<String>>);
///
/// impl SuspensionLedger for Table {
///     fn claim(&self, id: &str, _expires_at_ms: u64) -> ClaimFuture<'_> {
///         let first = self.0.lock().unwrap().insert(id.to_owned());
///         Box::pin(async move { Ok(first) })
///     }
/// }
/// ```
pub trait SuspensionLedger: Send + Sync + 'static {
    /// Claims suspension `id` (valid until `expires_at_ms`, milliseconds
    /// since the Unix epoch; it may be forgotten after that, as the state
    /// is refused anyway).
    fn claim(&self, id: &str, expires_at_ms: u64) -> ClaimFuture<'_>;
}

/// The ids claimed in this process, each kept until it expires.
#[derive(Clone, Debug, Default)]
pub struct MemoryLedger {
    claimed: Arc<Mutex<HashMap<String, u64>>>,
}

impl SuspensionLedger for MemoryLedger {
    fn claim(&self, id: &str, expires_at_ms: u64) -> ClaimFuture<'_> {
        let now = crate::message::now_millis();
        let mut claimed = self.claimed.lock().unwrap_or_else(PoisonError::into_inner);
        claimed.retain(|_, expires| *expires > now);
        let first = claimed.insert(id.to_owned(), expires_at_ms).is_none();
        Box::pin(std::future::ready(Ok(first)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_id_is_claimed_once() {
        let ledger = MemoryLedger::default();
        let later = crate::message::now_millis() + 60_000;
        assert_eq!(ledger.claim("a", later).await, Ok(true));
        assert_eq!(ledger.claim("a", later).await, Ok(false));
        assert_eq!(ledger.claim("b", later).await, Ok(true));
        assert_eq!(ledger.clone().claim("b", later).await, Ok(false));
    }

    #[tokio::test]
    async fn expired_ids_are_forgotten() {
        let ledger = MemoryLedger::default();
        assert_eq!(ledger.claim("old", 1).await, Ok(true));
        assert_eq!(ledger.claimed.lock().unwrap().len(), 1);
        let _ = ledger.claim("new", u64::MAX).await;
        assert!(!ledger.claimed.lock().unwrap().contains_key("old"));
    }
}
