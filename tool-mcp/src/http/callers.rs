//! The gate's side of the limits per caller: who a request's caller is,
//! and the places it takes (a rate's turn, a session, a request in
//! flight) in the [`QuotaStore`], answered 429 with `Retry-After` when
//! there are none, 503 when the store cannot be asked.

use super::Refusal;
use super::grant::Grant;
use super::quotas::{CallerLimits, QuotaStore};
use super::shared::{StateError, store_failed};
use hyper::StatusCode;
use hyper::header::{HeaderValue, RETRY_AFTER};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a request in flight holds its caller's place when its process
/// never gives it back (it died): a call running longer stops counting.
pub(super) const IN_FLIGHT_LEASE: Duration = Duration::from_secs(15 * 60);

pub(super) struct CallerQuotas {
    pub store: Arc<dyn QuotaStore>,
    pub limits: CallerLimits,
    /// A session's place lasts as long as the session would, unused.
    pub idle: Duration,
    /// Names this process's places in flight apart from other processes'.
    pub process: String,
    pub next: AtomicU64,
    /// When this process last renewed each session's place.
    pub renewed: Mutex<HashMap<String, Instant>>,
}

/// How many sessions' renewals are remembered before the old ones are
/// swept.
const RENEWED_SWEEP_AT: usize = 1024;

/// A request's place among its caller's in flight: given back before the
/// answer's last bytes go out ([`give_back`](Self::give_back)), so a client
/// that sends its next request once it has the answer never finds its own
/// place still taken; or, when the body is dropped first (the client went
/// away), by a task, since the store may be remote.
pub(super) struct CallerInFlight {
    store: Arc<dyn QuotaStore>,
    key: String,
    holder: String,
}

impl CallerInFlight {
    /// Gives the place back; done when the store has it.
    pub(super) fn give_back(mut self) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let store = Arc::clone(&self.store);
        let key = std::mem::take(&mut self.key);
        let holder = std::mem::take(&mut self.holder);
        Box::pin(async move { log_unreleased(store.release(&key, &holder).await) })
    }
}

impl Drop for CallerInFlight {
    /// Gives the place back unless it was: at once when the store answers
    /// at once (in memory), else on a task, since a remote store's answer
    /// must not hold the response body's drop.
    fn drop(&mut self) {
        if self.key.is_empty() {
            return;
        }
        let store = Arc::clone(&self.store);
        let key = std::mem::take(&mut self.key);
        let holder = std::mem::take(&mut self.holder);
        let mut release = Box::pin(async move { store.release(&key, &holder).await });
        let mut now = std::task::Context::from_waker(std::task::Waker::noop());
        let released = match release.as_mut().poll(&mut now) {
            std::task::Poll::Ready(released) => released,
            std::task::Poll::Pending => {
                if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                    runtime.spawn(async move { log_unreleased(release.await) });
                }
                return;
            }
        };
        log_unreleased(released);
    }
}

fn log_unreleased(released: Result<(), StateError>) {
    if let Err(error) = released {
        tracing::warn!(%error, "a request's place in flight was not given back: it frees when its lease ends");
    }
}

impl CallerQuotas {
    /// Who is calling: the credentials' owner, or without credentials the
    /// client's address (`unknown` when the server was not told it).
    pub(super) fn caller(&self, grant: Option<&Grant>, client: Option<IpAddr>) -> String {
        match (grant, client) {
            (Some(grant), _) => grant.owner().key(),
            (None, Some(client)) => format!("addr:{client}"),
            (None, None) => "addr:unknown".to_owned(),
        }
    }

    /// One more request of `caller` at its rate.
    pub(super) async fn admit(&self, caller: &str) -> Result<(), Refusal> {
        let Some(rate) = self.limits.rate else {
            return Ok(());
        };
        match self.store.admit(&format!("rate:{caller}"), rate).await {
            Ok(None) => Ok(()),
            Ok(Some(wait)) => Err(too_many(
                wait,
                format!(
                    "Too Many Requests: at most {} requests a second ({} at once) per caller; \
                     retry after the time Retry-After gives\n",
                    rate.per_second, rate.burst
                ),
            )),
            Err(error) => Err(self.unavailable("count a request", &error)),
        }
    }

    /// A place among `caller`'s requests in flight, or 429.
    pub(super) async fn start(&self, caller: &str) -> Result<Option<CallerInFlight>, Refusal> {
        let Some(max) = self.limits.in_flight else {
            return Ok(None);
        };
        let key = format!("calls:{caller}");
        let holder = format!(
            "{}-{}",
            self.process,
            self.next.fetch_add(1, Ordering::Relaxed)
        );
        match self
            .store
            .acquire(&key, &holder, max, IN_FLIGHT_LEASE)
            .await
        {
            Ok(true) => Ok(Some(CallerInFlight {
                store: Arc::clone(&self.store),
                key,
                holder,
            })),
            Ok(false) => Err(too_many(
                Duration::from_secs(1),
                format!(
                    "Too Many Requests: this caller already has {max} requests in flight, the \
                     most this server allows; retry when one has been answered\n"
                ),
            )),
            Err(error) => Err(self.unavailable("count a request in flight", &error)),
        }
    }

    /// `session`, just opened, takes one of `caller`'s session places for
    /// the idle time from now; 429 when all are taken.
    pub(super) async fn open_session(&self, caller: &str, session: &str) -> Result<(), Refusal> {
        if self.limits.sessions.is_none() {
            return Ok(());
        }
        self.hold_session(caller, session).await?;
        self.renewed(session);
        Ok(())
    }

    /// `session` is in use: its place is renewed for the idle time, at
    /// most once a quarter of it per process (every request would cost
    /// the shared store a round trip for a lease that has most of its time
    /// left).
    pub(super) async fn keep_session(&self, caller: &str, session: &str) -> Result<(), Refusal> {
        if self.limits.sessions.is_none() || self.recently_renewed(session) {
            return Ok(());
        }
        self.hold_session(caller, session).await?;
        self.renewed(session);
        Ok(())
    }

    fn recently_renewed(&self, session: &str) -> bool {
        let renewed = self.renewed.lock().unwrap_or_else(PoisonError::into_inner);
        renewed
            .get(session)
            .is_some_and(|at| at.elapsed() < self.idle / 4)
    }

    /// Notes that `session`'s place was renewed now; entries older than
    /// the idle time (their sessions' places expired anyway) are dropped
    /// as the map grows.
    fn renewed(&self, session: &str) {
        let mut renewed = self.renewed.lock().unwrap_or_else(PoisonError::into_inner);
        if renewed.len() >= RENEWED_SWEEP_AT {
            renewed.retain(|_, at| at.elapsed() < self.idle);
        }
        renewed.insert(session.to_owned(), Instant::now());
    }

    /// Takes (or renews) `session`'s place among `caller`'s.
    async fn hold_session(&self, caller: &str, session: &str) -> Result<(), Refusal> {
        let Some(max) = self.limits.sessions else {
            return Ok(());
        };
        match self
            .store
            // A quarter more than the idle time: renewed at most a quarter
            // of it apart, the place outlives its session's last use.
            .acquire(
                &format!("sessions:{caller}"),
                session,
                max,
                self.idle + self.idle / 4,
            )
            .await
        {
            Ok(true) => Ok(()),
            Ok(false) => Err(too_many(
                Duration::from_secs(1),
                format!(
                    "Too Many Requests: this caller already has {max} sessions open, the most \
                     this server allows; close one (DELETE with its Mcp-Session-Id) or retry later\n"
                ),
            )),
            Err(error) => Err(self.unavailable("count a session", &error)),
        }
    }

    /// `session` was closed: its place is free.
    pub(super) async fn session_closed(&self, caller: &str, session: &str) {
        if self.limits.sessions.is_none() {
            return;
        }
        if let Err(error) = self
            .store
            .release(&format!("sessions:{caller}"), session)
            .await
        {
            tracing::warn!(%error, "a closed session's place was not given back: it frees when its lease ends");
        }
    }
}

/// 429 with `Retry-After` in whole seconds (at least 1).
fn too_many(wait: Duration, message: String) -> Refusal {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Refusal::new(StatusCode::TOO_MANY_REQUESTS, message)
        .with_header(RETRY_AFTER, HeaderValue::from(seconds.max(1)))
}

impl CallerQuotas {
    /// 503, and an error naming the store in the logs.
    fn unavailable(&self, what: &str, error: &StateError) -> Refusal {
        store_failed(&self.store.describe(), what, error)
    }
}
