//! The end of a session the client did not end: rmcp's session manager
//! closes a session left idle past its timeout (and every session when the
//! server stops) and tells no one. The audit log must still say that a
//! session it saw opened was closed, and by whom, or the open sessions a
//! reader counts from it only grow.
//!
//! The sessions opened in this process are remembered with their caller;
//! a sweep every second finds those no longer in rmcp's map and logs
//! their close (`closed_by="server"`). A session the client ends (DELETE)
//! is logged and forgotten at once by the gate.

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often the sessions are looked at.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Who opened a session, for its close line.
struct Opener {
    caller: String,
    client: Option<IpAddr>,
}

/// The sessions opened in this process and not known to be closed.
#[derive(Default)]
pub(super) struct OpenSessions {
    open: Mutex<HashMap<String, Opener>>,
}

impl OpenSessions {
    /// `session` was opened by `caller`, from `client`.
    pub(super) fn opened(&self, session: &str, caller: String, client: Option<IpAddr>) {
        self.lock()
            .insert(session.to_owned(), Opener { caller, client });
    }

    /// `session` was closed, and its close logged, by the gate.
    pub(super) fn forget(&self, session: &str) {
        self.lock().remove(session);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Opener>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Logs the close of each remembered session that `local` no longer
    /// has, and forgets it.
    async fn sweep(&self, local: &LocalSessionManager) {
        let live = local.sessions.read().await;
        let ended: Vec<(String, Opener)> = {
            let mut open = self.lock();
            let gone: Vec<String> = open
                .keys()
                .filter(|session| !live.contains_key(session.as_str()))
                .cloned()
                .collect();
            gone.into_iter()
                .filter_map(|session| open.remove(&session).map(|opener| (session, opener)))
                .collect()
        };
        drop(live);
        for (session, opener) in ended {
            crate::audit::session_closed(&session, &opener.caller, opener.client, "server");
        }
    }
}

/// Sweeps `open` against `local` until `end` is cancelled, then once more
/// (the sessions the stop closed). Needs a tokio runtime; without one
/// (a service built outside any), nothing is swept.
pub(super) fn spawn_sweeper(
    open: Arc<OpenSessions>,
    local: Arc<LocalSessionManager>,
    end: CancellationToken,
) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        loop {
            tokio::select! {
                () = end.cancelled() => break,
                () = tokio::time::sleep(SWEEP_EVERY) => open.sweep(&local).await,
            }
        }
        // rmcp ends the sessions on the same signal: let it.
        tokio::time::sleep(Duration::from_millis(100)).await;
        open.sweep(&local).await;
    });
}
