//! Holding a ledger claim while approved calls run: renewed every third
//! of its lease while they do, finished when they are answered, and
//! released at once when the work is dropped (a client gone, a handler's
//! timeout), so the next claim answers those calls `interrupted` instead
//! of waiting for the lease to run out.

use super::ledger::{Claim, Claimed, SuspensionLedger};
use super::suspension::random_id;
use crate::model::now_millis;
use futures_util::FutureExt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// A ledger claim held by this process: see [`Lease::claim`].
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use tool_core::approval::{Claimed, Lease, MemoryLedger};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let ledger = Arc::new(MemoryLedger::default());
/// let running = ["c1".to_owned()];
/// let (claimed, lease) = Lease::claim(ledger.clone(), "s1", &running, Duration::from_secs(30), u64::MAX).await.unwrap();
/// assert_eq!(claimed, Claimed::Fresh);
/// let lease = lease.unwrap();
/// let ran = lease.hold(async { "the approved call's result" }).await;
/// lease.finish().await.unwrap();
/// let (again, none) = Lease::claim(ledger, "s1", &running, Duration::from_secs(30), u64::MAX).await.unwrap();
/// assert_eq!((again, none.is_none()), (Claimed::Finished, true));
/// # let _ = ran;
/// # });
/// ```
#[must_use = "a lease not finished is released when dropped: its calls are then answered `interrupted`"]
pub struct Lease {
    ledger: Arc<dyn SuspensionLedger>,
    id: String,
    holder: String,
    length: Duration,
    finished: bool,
}

impl Lease {
    /// Claims `id` for a run of `running` (call ids) held for `length` at
    /// a time, its record kept until `keep_until_ms`: what the claim found,
    /// and the lease when this process now holds it ([`Claimed::Fresh`],
    /// [`Claimed::TakenOver`]). `Err` when the ledger cannot tell, or the
    /// system gives no randomness for the holder's id.
    pub async fn claim(
        ledger: Arc<dyn SuspensionLedger>,
        id: &str,
        running: &[String],
        length: Duration,
        keep_until_ms: u64,
    ) -> Result<(Claimed, Option<Lease>), String> {
        let holder = random_id().ok_or("the system gave no randomness for a resume's id")?;
        let lease_until_ms = until(length);
        let claim = Claim::new(id, &holder, running, lease_until_ms)
            .kept_until(keep_until_ms.max(lease_until_ms));
        let claimed = ledger.claim(&claim).await?;
        let held = matches!(claimed, Claimed::Fresh | Claimed::TakenOver { .. });
        let lease = held.then(|| Lease {
            ledger,
            id: id.to_owned(),
            holder,
            length,
            finished: false,
        });
        Ok((claimed, lease))
    }

    /// Runs `work`, renewing the lease every third of its length until it
    /// ends. A renewal the ledger refuses (the lease ran out and another
    /// resume took over) or fails is logged; the work goes on (a call
    /// running cannot be unrun), and the other resume answers it
    /// `interrupted`.
    pub async fn hold<F: Future>(&self, work: F) -> F::Output {
        let every = (self.length / 3).max(Duration::from_millis(1));
        let renewing = async {
            let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            loop {
                ticks.tick().await;
                match self.renew().await {
                    Ok(true) => {}
                    Ok(false) => crate::trace::warn!(
                        id = %self.id,
                        "the approval ledger says this resume no longer holds its claim: another \
                         resume took it over after its lease ran out (the calls still run here)"
                    ),
                    Err(problem) => crate::trace::warn!(
                        id = %self.id,
                        %problem,
                        "the approval ledger could not renew this resume's lease"
                    ),
                }
            }
        };
        tokio::pin!(work);
        tokio::select! {
            biased;
            done = &mut work => done,
            never = renewing => never,
        }
    }

    /// Extends the lease by its length from now: for work that [`hold`](Self::hold)
    /// cannot wrap (the lease is taken while the work already runs). `false`
    /// when this process no longer holds the claim.
    pub async fn renew(&self) -> Result<bool, String> {
        self.ledger
            .renew(&self.id, &self.holder, until(self.length))
            .await
    }

    /// How long the lease lasts unless renewed.
    pub fn length(&self) -> Duration {
        self.length
    }

    /// Records the run finished: later claims are [`Claimed::Finished`].
    pub async fn finish(mut self) -> Result<(), String> {
        self.finished = true;
        self.ledger.finish(&self.id, &self.holder).await
    }
}

impl Drop for Lease {
    /// A lease dropped unfinished releases its claim (a lease of 0): at
    /// once when the ledger answers at once (the memory ledger), else on
    /// the runtime when there is one; without one it runs out by itself.
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        crate::trace::warn!(id = %self.id, "a resume was dropped before its calls were answered; they will be answered `interrupted`");
        let released = self.ledger.renew(&self.id, &self.holder, 0).now_or_never();
        if released.is_some_and(|released| released.is_ok()) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (ledger, id, holder) = (
            Arc::clone(&self.ledger),
            std::mem::take(&mut self.id),
            std::mem::take(&mut self.holder),
        );
        runtime.spawn(async move {
            if let Err(problem) = ledger.renew(&id, &holder, 0).await {
                crate::trace::warn!(%id, %problem, "the approval ledger could not release a dropped resume's claim; it ends with its lease");
            }
        });
    }
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("Lease")
            .field("id", &self.id)
            .field("length", &self.length)
            .finish_non_exhaustive()
    }
}

/// `length` from now, in milliseconds since the Unix epoch.
fn until(length: Duration) -> u64 {
    now_millis().saturating_add(u64::try_from(length.as_millis()).unwrap_or(u64::MAX))
}
