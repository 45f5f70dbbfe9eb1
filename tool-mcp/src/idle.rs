//! Waiting for a count of things in flight to reach zero, for a stop that
//! lets them finish.

use tokio::sync::Notify;

/// Returns once `is_idle` holds; `notify` is woken (`notify_waiters`)
/// whenever the count drops to zero.
pub(crate) async fn until_idle(notify: &Notify, is_idle: impl Fn() -> bool) {
    loop {
        let notified = notify.notified();
        tokio::pin!(notified);
        // Registered before looking, so an end in between is not missed.
        notified.as_mut().enable();
        if is_idle() {
            return;
        }
        notified.await;
    }
}
