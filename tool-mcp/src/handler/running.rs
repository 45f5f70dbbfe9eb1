//! The calls a server is running, so it can stop: refuse new ones, wait
//! for those running, and cancel what outlasts the grace period.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// Shared by every clone of one server (the HTTP transport makes one per
/// session or request).
#[derive(Default)]
pub(super) struct RunningCalls {
    count: AtomicUsize,
    /// Woken when the last running call ends.
    idle: Notify,
    stopping: AtomicBool,
    /// Cancelled when the calls still running must end: the signal of
    /// every call is a child of it.
    cancel: CancellationToken,
}

/// One running call, counted until dropped (answered, or dropped with its
/// request).
pub(super) struct Running(Arc<RunningCalls>);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl RunningCalls {
    /// Counts a new call, or `None` when the server is stopping.
    pub(super) fn start(self: &Arc<Self>) -> Option<Running> {
        self.count.fetch_add(1, Ordering::AcqRel);
        let running = Running(Arc::clone(self));
        // Checked after counting, so a stop cannot miss a call that got in.
        (!self.stopping.load(Ordering::Acquire)).then_some(running)
    }

    /// A signal for one call: cancelled when the server cancels its calls.
    pub(super) fn signal(&self) -> CancellationToken {
        self.cancel.child_token()
    }

    /// Refuses new calls, waits up to `grace` for the running ones, then
    /// cancels those still running and waits up to `answering` for them to
    /// be answered. `true` when every call ended within the grace period.
    pub(super) async fn stop(&self, grace: Duration, answering: Duration) -> bool {
        self.stopping.store(true, Ordering::Release);
        if tokio::time::timeout(grace, self.idle()).await.is_ok() {
            return true;
        }
        tracing::warn!(
            running = self.count.load(Ordering::Acquire),
            "the grace period is over; cancelling the calls still running"
        );
        self.cancel.cancel();
        let _ = tokio::time::timeout(answering, self.idle()).await;
        false
    }

    /// How many calls are running now.
    pub(super) fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    async fn idle(&self) {
        crate::idle::until_idle(&self.idle, || self.count() == 0).await;
    }
}
