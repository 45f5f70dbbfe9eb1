//! The tools a server serves, which may change while it serves (an
//! upstream that connects late brings its tools), and the clients told
//! when they do: `notifications/tools/list_changed` to each session's
//! client on the revisions before 2026-07-28, and on 2026-07-28 to each
//! `subscriptions/listen` that asked for it.
//!
//! Every clone of a server (one per session over HTTP) shares one
//! [`Tools`]: a change made through any of them is what all of them list
//! and call from then on. A call that started before a change finishes
//! with the tools it started with.

use super::mcp_tool;
use super::result::OutputSchemas;
use rmcp::RoleServer;
use rmcp::model::Tool;
use rmcp::service::Peer;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use tokio::sync::watch;
use tool_core::{RunOptions, ToolRegistry};

/// One state of the served tools, whole: what `tools/list` shows, what
/// calls run in, and the output schemas results are checked against.
pub(crate) struct Listing {
    pub registry: Arc<ToolRegistry>,
    /// What `tools/list` shows (deferred tools left out).
    pub listed: Vec<Tool>,
    /// Whether some tool is deferred (and a session's searches may load).
    pub(super) has_deferred: bool,
    /// What `tools/list` shows a client without a session: `listed`, then
    /// the deferred tools, by name. Built the first time such a client
    /// lists (a server with 10,000 deferred tools and only sessions never
    /// holds it).
    pub(super) with_deferred: std::sync::OnceLock<Vec<Tool>>,
    pub(super) output_schemas: OutputSchemas,
}

impl Listing {
    /// `registry` as a turn with `options` shows it.
    fn of(registry: Arc<ToolRegistry>, options: &RunOptions) -> Listing {
        let listed: Vec<Tool> = registry
            .definitions_for(options)
            .iter()
            .map(mcp_tool)
            .collect();
        let every: Vec<Tool> = registry.definitions().iter().map(mcp_tool).collect();
        let has_deferred = registry.iter().any(|tool| tool.is_deferred());
        Listing {
            registry,
            listed,
            has_deferred,
            with_deferred: std::sync::OnceLock::new(),
            output_schemas: OutputSchemas::of(&every),
        }
    }
}

/// The served tools, shared by every clone of a server.
#[derive(Clone)]
pub(crate) struct Tools {
    current: Arc<RwLock<Arc<Listing>>>,
    /// How many times the tools changed: what a listener waits on, and
    /// what a derived table (OAuth's scopes) compares to rebuild.
    version: Arc<watch::Sender<u64>>,
    /// The clients of the sessions opened (before 2026-07-28), told of
    /// each change.
    peers: Arc<Mutex<Vec<Peer<RoleServer>>>>,
    /// 2026-07-28 listeners accepted but not yet listening: the receiver
    /// each took before its acknowledgement went out, by the task that
    /// handles it (rmcp accepts, acknowledges, then listens, in one task).
    accepted: Arc<Mutex<HashMap<tokio::task::Id, watch::Receiver<u64>>>>,
}

/// Listeners accepted and not yet listening, at most: past it the oldest
/// are dropped (a subscription whose acknowledgement failed never
/// listens), and those listeners start from their listen.
const MAX_ACCEPTED: usize = 1024;

impl Tools {
    pub(crate) fn new(registry: ToolRegistry, options: &RunOptions) -> Tools {
        let (version, _) = watch::channel(0);
        Tools {
            current: Arc::new(RwLock::new(Arc::new(Listing::of(
                Arc::new(registry),
                options,
            )))),
            version: Arc::new(version),
            peers: Arc::default(),
            accepted: Arc::default(),
        }
    }

    /// The tools now.
    pub(crate) fn current(&self) -> Arc<Listing> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// How many times they changed.
    #[cfg(feature = "oauth")]
    pub(crate) fn version(&self) -> u64 {
        *self.version.borrow()
    }

    /// A receiver that sees each change.
    pub(super) fn changes(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// A listener of this task is accepted: the changes it must hear
    /// start now, before its acknowledgement is sent, not when it starts
    /// listening (a change in between would be lost).
    pub(super) fn accept_listener(&self) {
        let Some(task) = tokio::task::try_id() else {
            return;
        };
        let mut accepted = self.accepted.lock().unwrap_or_else(PoisonError::into_inner);
        if accepted.len() >= MAX_ACCEPTED {
            accepted.clear();
        }
        accepted.insert(task, self.changes());
    }

    /// The changes this task's listener hears: from its acceptance, or
    /// from now when it was not recorded.
    pub(super) fn listener_changes(&self) -> watch::Receiver<u64> {
        let taken = tokio::task::try_id().and_then(|task| {
            self.accepted
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&task)
        });
        taken.unwrap_or_else(|| self.changes())
    }

    /// Lists the same registry again for `options` (the server's own
    /// options changed while it is being built).
    pub(super) fn relist(&self, options: &RunOptions) {
        let registry = Arc::clone(&self.current().registry);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) =
            Arc::new(Listing::of(registry, options));
    }

    /// Applies `change` to a copy of the registry, serves the copy, and
    /// tells every client that listens. Changes are made one at a time.
    pub(super) fn update<R>(
        &self,
        options: &RunOptions,
        change: impl FnOnce(&mut ToolRegistry) -> R,
    ) -> R {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let mut registry = ToolRegistry::clone(&current.registry);
        let answer = change(&mut registry);
        *current = Arc::new(Listing::of(Arc::new(registry), options));
        drop(current);
        self.version.send_modify(|version| *version += 1);
        self.tell_peers();
        answer
    }

    /// Remembers a session's client, to tell it of changes.
    pub(super) fn remember(&self, peer: Peer<RoleServer>) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.retain(|peer| !peer.is_transport_closed());
        peers.push(peer);
    }

    /// `notifications/tools/list_changed` to each session's client still
    /// there, each on a task of its own (a slow client holds no other).
    fn tell_peers(&self) {
        let mut peers = self.peers.lock().unwrap_or_else(PoisonError::into_inner);
        peers.retain(|peer| !peer.is_transport_closed());
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        for peer in peers.iter() {
            let peer = peer.clone();
            runtime.spawn(async move {
                if let Err(error) = peer.notify_tool_list_changed().await {
                    tracing::debug!(%error, "a client was not told the tools changed");
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// rmcp accepts a listener, sends its acknowledgement, then listens: a
    /// change in between must be heard.
    #[tokio::test]
    async fn a_change_between_acceptance_and_listening_is_heard() {
        let tools = Tools::new(ToolRegistry::new(), &RunOptions::new());
        let options = RunOptions::new();
        let handling = tools.clone();
        tokio::spawn(async move {
            handling.accept_listener();
            handling.update(&options, |_| ());
            let mut changes = handling.listener_changes();
            tokio::time::timeout(Duration::from_secs(5), changes.changed())
                .await
                .expect("the change is heard")
                .expect("the tools are still served");
        })
        .await
        .expect("the listener's task");
        // Taken: another task's listener starts from its own listen.
        assert!(tools.accepted.lock().unwrap().is_empty());
    }
}
