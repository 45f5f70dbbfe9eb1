//! Progress of remote calls: each call's sink by its progress token, and
//! the reports that arrive before their call has said where they go.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tool_core::Content;
use tool_core::executor::ProgressFn;

/// Where each call in flight wants its progress, by progress token, and
/// the updates that came before their call said so: rmcp picks a request's
/// token while sending it, so a fast server's first report can beat the
/// caller's registration.
#[derive(Default)]
pub(super) struct Progress {
    sinks: HashMap<String, ProgressFn>,
    /// Oldest first, at most [`EARLY_PROGRESS_LIMIT`]; reports for calls
    /// that already ended wait here until newer ones push them out.
    early: VecDeque<(String, Vec<Content>)>,
}

/// How many reports with no call (yet) are kept.
const EARLY_PROGRESS_LIMIT: usize = 64;

impl Progress {
    /// Forwards the call's progress to `sink` from now on; returns the
    /// reports that came before, in order, for the caller to deliver.
    pub(super) fn register(&mut self, token: &str, sink: ProgressFn) -> Vec<Vec<Content>> {
        self.sinks.insert(token.to_owned(), sink);
        let mut before = Vec::new();
        self.early.retain(|(early, content)| {
            if early == token {
                before.push(content.clone());
                false
            } else {
                true
            }
        });
        before
    }

    /// The sink of `token`, or `None` when the report was kept for later.
    pub(super) fn report(
        &mut self,
        token: String,
        content: Vec<Content>,
    ) -> Option<(ProgressFn, Vec<Content>)> {
        if let Some(sink) = self.sinks.get(&token) {
            return Some((Arc::clone(sink), content));
        }
        if self.early.len() == EARLY_PROGRESS_LIMIT {
            self.early.pop_front();
        }
        self.early.push_back((token, content));
        None
    }

    /// A new connection numbers its tokens anew: what the old one left
    /// belongs to no call of the new one.
    pub(super) fn reconnected(&mut self) {
        self.early.clear();
    }

    pub(super) fn forget(&mut self, token: &str) {
        self.sinks.remove(token);
        self.early.retain(|(early, _)| early != token);
    }
}
