//! The one place single use lives: which suspensions were resumed, which
//! resume is running, and which finished. A sealed state stays valid until
//! it expires, so without this record the same state resumed twice (a
//! replayed request, a double click, a second process) would run an
//! approved call twice; and a resume that never finished (its future
//! dropped, its process gone) would leave its calls with no result.
//!
//! A resume **claims** the state's id with the calls it is about to run,
//! holding it under a lease it **renews** while they run, then
//! **finishes** it. A later claim of the same id finds one of: nothing
//! (the first resume), a resume still running (refused for now), one
//! whose lease ran out or was released without finishing (its calls are
//! answered `interrupted`, never run again), or a finished one (refused).

use super::key::ApprovalKey;
use crate::model::now_millis;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What a ledger's methods return: `Err` when the ledger cannot tell
/// (the resume is then refused: better a person asked again than a call
/// run twice).
pub type LedgerFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, String>> + Send + 'a>>;

/// A resume about to run calls of suspension `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Claim<'a> {
    /// The state's id (each state has its own; a resume that leaves calls
    /// waiting seals a new one).
    pub id: &'a str,
    /// Who runs them: unique per resume, so that only its holder renews
    /// or finishes a claim.
    pub holder: &'a str,
    /// The ids of the calls this resume may run.
    pub running: &'a [String],
    /// Until when the claim is held unless renewed (milliseconds since the
    /// Unix epoch).
    pub lease_until_ms: u64,
    /// Until when the record must be kept: past the state's expiry, so
    /// that a suspension closed later still learns which calls may have run.
    pub keep_until_ms: u64,
}

/// What a claim found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Claimed {
    /// No resume of this state before: it is recorded as running, held by
    /// the claim's holder.
    Fresh,
    /// Another resume of this state is running, holding it until
    /// `lease_until_ms`; nothing was recorded.
    Busy {
        /// When its lease runs out unless renewed.
        lease_until_ms: u64,
    },
    /// A resume of this state started and never finished (its lease ran
    /// out, or it was released): the claim's holder now holds it, and the
    /// calls that resume may have run are listed, to be answered
    /// `interrupted`.
    TakenOver {
        /// The calls the earlier resume (or resumes) may have run.
        interrupted: Vec<String>,
    },
    /// A resume of this state finished: it may not run again.
    Finished,
}

/// Records resumes, so a state is resumed once and a lost resume is
/// answered, not repeated. Every process that resumes batches with the
/// same key must share one: the default is this process's memory
/// ([`MemoryLedger::for_key`]); several processes need one in a store they
/// share (`tool-redis` has one on Redis).
///
/// A ledger must make each method atomic per id: two claims of one id at
/// once must not both be `Fresh` (a Redis script, a database transaction).
///
/// ```
/// use tool_core::approval::{Claim, Claimed, MemoryLedger, SuspensionLedger};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let ledger = MemoryLedger::default();
/// let running = ["c1".to_owned()];
/// let claim = |holder| Claim::new("s1", holder, &running, u64::MAX);
/// assert_eq!(ledger.claim(&claim("a")).await, Ok(Claimed::Fresh));
/// assert!(matches!(ledger.claim(&claim("b")).await, Ok(Claimed::Busy { .. })));
/// ledger.finish("s1", "a").await.unwrap();
/// assert_eq!(ledger.claim(&claim("b")).await, Ok(Claimed::Finished));
/// # });
/// ```
pub trait SuspensionLedger: Send + Sync + 'static {
    /// Claims state `claim.id` for a resume (see [`Claimed`]).
    fn claim<'a>(&'a self, claim: &'a Claim<'a>) -> LedgerFuture<'a, Claimed>;

    /// Extends the holder's lease to `lease_until_ms`; `false` when it no
    /// longer holds the claim. A lease of 0 releases it: the next claim
    /// takes it over at once (a resume whose future was dropped).
    fn renew<'a>(
        &'a self,
        id: &'a str,
        holder: &'a str,
        lease_until_ms: u64,
    ) -> LedgerFuture<'a, bool>;

    /// Marks the holder's resume of `id` finished: later claims are
    /// [`Claimed::Finished`].
    fn finish<'a>(&'a self, id: &'a str, holder: &'a str) -> LedgerFuture<'a, ()>;
}

impl<'a> Claim<'a> {
    /// A claim of `id` by `holder` for `running`, leased until
    /// `lease_until_ms` and kept as long.
    pub fn new(id: &'a str, holder: &'a str, running: &'a [String], lease_until_ms: u64) -> Self {
        Claim {
            id,
            holder,
            running,
            lease_until_ms,
            keep_until_ms: lease_until_ms,
        }
    }

    /// The same, kept until `keep_until_ms`.
    pub fn kept_until(mut self, keep_until_ms: u64) -> Self {
        self.keep_until_ms = keep_until_ms;
        self
    }
}

/// One state's record.
#[derive(Clone, Debug)]
struct Record {
    holder: String,
    lease_until_ms: u64,
    running: Vec<String>,
    finished: bool,
    keep_until_ms: u64,
}

/// The records of one process, each kept until its `keep_until_ms`. Clones
/// share them. [`MemoryLedger::for_key`] is the one every suspending
/// [`Approvals`](super::Approvals) of a key uses unless given another, so
/// a web handler that builds its options per request still resumes a
/// state once in this process.
#[derive(Clone, Debug, Default)]
pub struct MemoryLedger {
    records: Arc<Mutex<HashMap<String, Record>>>,
}

impl MemoryLedger {
    /// This process's ledger for `key`: every call with the same key gets
    /// the same records, whoever built the options.
    pub fn for_key(key: &ApprovalKey) -> Self {
        static BY_KEY: OnceLock<Mutex<HashMap<[u8; 32], MemoryLedger>>> = OnceLock::new();
        let ledgers = BY_KEY.get_or_init(Mutex::default);
        let mut ledgers = ledgers.lock().unwrap_or_else(PoisonError::into_inner);
        ledgers.entry(key.fingerprint()).or_default().clone()
    }

    fn claim_now(&self, claim: &Claim<'_>) -> Claimed {
        let now = now_millis();
        let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        records.retain(|_, record| record.keep_until_ms > now);
        let Some(record) = records.get_mut(claim.id) else {
            records.insert(
                claim.id.to_owned(),
                Record {
                    holder: claim.holder.to_owned(),
                    lease_until_ms: claim.lease_until_ms,
                    running: claim.running.to_vec(),
                    finished: false,
                    keep_until_ms: claim.keep_until_ms,
                },
            );
            return Claimed::Fresh;
        };
        if record.finished {
            return Claimed::Finished;
        }
        if record.lease_until_ms > now {
            return Claimed::Busy {
                lease_until_ms: record.lease_until_ms,
            };
        }
        let interrupted = record.running.clone();
        for id in claim.running {
            if !record.running.contains(id) {
                record.running.push(id.clone());
            }
        }
        record.holder = claim.holder.to_owned();
        record.lease_until_ms = claim.lease_until_ms;
        record.keep_until_ms = record.keep_until_ms.max(claim.keep_until_ms);
        Claimed::TakenOver { interrupted }
    }

    fn held<T>(&self, id: &str, holder: &str, change: impl FnOnce(&mut Record) -> T) -> Option<T> {
        let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
        let record = records.get_mut(id)?;
        (record.holder == holder && !record.finished).then(|| change(record))
    }
}

impl SuspensionLedger for MemoryLedger {
    fn claim<'a>(&'a self, claim: &'a Claim<'a>) -> LedgerFuture<'a, Claimed> {
        Box::pin(std::future::ready(Ok(self.claim_now(claim))))
    }

    fn renew<'a>(
        &'a self,
        id: &'a str,
        holder: &'a str,
        lease_until_ms: u64,
    ) -> LedgerFuture<'a, bool> {
        let renewed = self
            .held(id, holder, |record| record.lease_until_ms = lease_until_ms)
            .is_some();
        Box::pin(std::future::ready(Ok(renewed)))
    }

    fn finish<'a>(&'a self, id: &'a str, holder: &'a str) -> LedgerFuture<'a, ()> {
        self.held(id, holder, |record| record.finished = true);
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LATER: u64 = u64::MAX;

    fn claim<'a>(holder: &'a str, running: &'a [String], lease: u64) -> Claim<'a> {
        Claim::new("s", holder, running, lease).kept_until(LATER)
    }

    fn ids(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[tokio::test]
    async fn a_state_is_claimed_once_then_busy_then_finished() {
        let ledger = MemoryLedger::default();
        let running = ids(&["c1"]);
        assert_eq!(
            ledger.claim(&claim("a", &running, LATER)).await,
            Ok(Claimed::Fresh)
        );
        assert_eq!(
            ledger.claim(&claim("b", &running, LATER)).await,
            Ok(Claimed::Busy {
                lease_until_ms: LATER
            })
        );
        assert_eq!(ledger.finish("s", "b").await, Ok(()), "not b's: no change");
        assert_eq!(ledger.renew("s", "b", LATER).await, Ok(false));
        assert_eq!(ledger.renew("s", "a", LATER).await, Ok(true));
        ledger.finish("s", "a").await.unwrap();
        assert_eq!(
            ledger.claim(&claim("b", &running, LATER)).await,
            Ok(Claimed::Finished)
        );
        assert_eq!(ledger.renew("s", "a", LATER).await, Ok(false), "finished");
    }

    #[tokio::test]
    async fn a_released_or_lapsed_claim_is_taken_over_with_its_calls() {
        let ledger = MemoryLedger::default();
        ledger
            .claim(&claim("a", &ids(&["c1", "c2"]), LATER))
            .await
            .unwrap();
        assert_eq!(ledger.renew("s", "a", 0).await, Ok(true));
        assert_eq!(
            ledger.claim(&claim("b", &ids(&["c2", "c3"]), 1)).await,
            Ok(Claimed::TakenOver {
                interrupted: ids(&["c1", "c2"])
            })
        );
        // b's lease (1 ms after the epoch) is long over: c taking over
        // learns every call either may have run.
        assert_eq!(
            ledger.claim(&claim("c", &[], LATER)).await,
            Ok(Claimed::TakenOver {
                interrupted: ids(&["c1", "c2", "c3"])
            })
        );
        assert_eq!(ledger.renew("s", "a", LATER).await, Ok(false), "a lost it");
    }

    #[tokio::test]
    async fn records_are_forgotten_after_they_are_kept() {
        let ledger = MemoryLedger::default();
        let old = Claim::new("old", "a", &[], 1);
        ledger.claim(&old).await.unwrap();
        let new = Claim::new("new", "a", &[], LATER);
        ledger.claim(&new).await.unwrap();
        let records = ledger.records.lock().unwrap();
        assert!(!records.contains_key("old"));
        assert!(records.contains_key("new"));
    }

    #[tokio::test]
    async fn one_key_one_ledger_in_a_process() {
        let key = ApprovalKey::new(vec![9; 32]).unwrap();
        let first = MemoryLedger::for_key(&key);
        let second = MemoryLedger::for_key(&key.clone());
        assert!(Arc::ptr_eq(&first.records, &second.records));
        let other = MemoryLedger::for_key(&ApprovalKey::new(vec![8; 32]).unwrap());
        assert!(!Arc::ptr_eq(&first.records, &other.records));
    }
}
