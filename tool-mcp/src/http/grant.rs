//! What a request's credentials allow: the gate puts a [`Grant`] in the
//! request's extensions, where the handler finds it (rmcp hands the
//! request's `http::request::Parts` to the handler's context) to filter
//! `tools/list`, to run the call with only the tools it may call enabled,
//! to tell the before hook who called, and to bind an approval to its
//! caller. The static token's is [`Grant::Everything`]; an OAuth access
//! token's (feature `oauth`) is [`Grant::Scoped`].

use super::owners::Owner;
#[cfg(feature = "oauth")]
use super::oauth::ScopeTable;
use std::sync::Arc;
use tool_core::RunOptions;
use tool_core::executor::Caller;

/// What a request's credentials allow.
#[derive(Clone)]
pub(crate) enum Grant {
    /// The static token: every tool, and no one named.
    Everything,
    /// An OAuth access token: the tools its scopes allow.
    #[cfg(feature = "oauth")]
    Scoped {
        caller: Arc<Caller>,
        scopes: Arc<ScopeTable>,
        /// Who it is as far as sessions go.
        owner: Owner,
    },
}

/// The owner of the static token's sessions.
static STATIC_TOKEN: Owner = Owner::StaticToken;

impl Grant {
    /// The scope this grant lacks to call `tool`, if any.
    #[cfg_attr(not(feature = "oauth"), expect(unused_variables))]
    pub(crate) fn missing(&self, tool: &str) -> Option<&str> {
        match self {
            Grant::Everything => None,
            #[cfg(feature = "oauth")]
            Grant::Scoped { caller, scopes, .. } => scopes.missing(caller, tool),
        }
    }

    /// The options a call with this grant runs with, when they are not the
    /// server's own (the static token's are).
    pub(crate) fn call_options(&self) -> Option<RunOptions> {
        match self {
            Grant::Everything => None,
            #[cfg(feature = "oauth")]
            Grant::Scoped { caller, scopes, .. } => Some(scopes.call_options(caller)),
        }
    }

    /// Who may use the sessions this grant opens: the static token's
    /// holders, or the access token's subject.
    pub(crate) fn owner(&self) -> &Owner {
        match self {
            Grant::Everything => &STATIC_TOKEN,
            #[cfg(feature = "oauth")]
            Grant::Scoped { owner, .. } => owner,
        }
    }

    /// The caller, when the credentials named one.
    pub(crate) fn caller(&self) -> Option<&Arc<Caller>> {
        match self {
            Grant::Everything => None,
            #[cfg(feature = "oauth")]
            Grant::Scoped { caller, .. } => Some(caller),
        }
    }

    /// What a 2026-07-28 approval asked under this grant is bound to: who
    /// asked, as the credentials say.
    pub(crate) fn binding(&self) -> String {
        self.owner().key()
    }
}
