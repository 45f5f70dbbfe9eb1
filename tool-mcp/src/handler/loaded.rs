//! The deferred tools a session has loaded: what its `tool_search` calls
//! found joins its `tools/list`, and its client is told
//! (`notifications/tools/list_changed`), so a host that offers its model
//! only the tools it listed (desktop clients, IDEs, the SDKs' agent
//! helpers) can call what the search found.
//!
//! Where the set lives is the session's scope:
//!
//! - over stdio, and over HTTP with sessions kept in one process, in the
//!   session's clone of the server (each session has its own, and it ends
//!   with the session);
//! - with sessions in a store every process shares
//!   (`McpHttp::with_shared_state`), in the store
//!   ([`SessionDirectory::load_tools`](crate::SessionDirectory::load_tools)):
//!   a search answered by one process shows in the `tools/list` any other
//!   answers. The `list_changed` is sent by the process that ran the
//!   search, on the session's event stream there; a client whose stream is
//!   held by another process learns of the tools at its next `tools/list`;
//! - without a session (stateless HTTP, or MCP 2026-07-28, which has none)
//!   there is nothing to keep a set in: `tools/list` shows every tool,
//!   deferred ones after the others, unless the server keeps deferral
//!   ([`McpServer::with_deferral_without_sessions`]).
//!
//! A deferred tool stays callable by name whether or not it was loaded:
//! the set decides what is listed, never what may be called.

use super::listing::Listing;
use super::mcp_tool;
use super::transport::{SharedLoads, http_session, shared_loads};
use super::McpServer;
use rmcp::model::{ProtocolVersion, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use std::sync::{Mutex, PoisonError};
use tool_core::ToolResultMessage;
use tool_core::toolset::SEARCH_TOOL_NAME;

/// One session's loaded tools, in the order loaded, kept in its clone of
/// the server.
#[derive(Default)]
pub(super) struct LoadedHere(Mutex<Vec<String>>);

impl LoadedHere {
    fn names(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Adds the names not loaded yet; gives back those.
    fn add(&self, names: &[String]) -> Vec<String> {
        let mut loaded = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut added = Vec::new();
        for name in names {
            if !loaded.contains(name) {
                loaded.push(name.clone());
                added.push(name.clone());
            }
        }
        added
    }
}

/// Where the request's session keeps its loaded tools.
enum Keeper<'a> {
    /// No session: stateless HTTP, or MCP 2026-07-28.
    Sessionless,
    /// This clone of the server is the session's.
    Here(&'a LoadedHere),
    /// The store every process shares, under the session's id.
    Shared(&'a SharedLoads, &'a str),
}

impl McpServer {
    fn keeper<'a>(&'a self, context: &'a RequestContext<RoleServer>) -> Keeper<'a> {
        let modern = context
            .protocol_version()
            .is_some_and(|revision| revision >= ProtocolVersion::V_2026_07_28);
        if self.without_sessions || modern {
            return Keeper::Sessionless;
        }
        match http_session(context) {
            // stdio: the connection is the session.
            None => Keeper::Here(&self.loaded),
            Some(None) => Keeper::Sessionless,
            Some(Some(session)) => match shared_loads(context) {
                Some(shared) => Keeper::Shared(shared, session),
                None => Keeper::Here(&self.loaded),
            },
        }
    }

    /// What `tools/list` shows this request's client (before its grant's
    /// filter): the listed tools, then those its session loaded; every
    /// tool without a session.
    pub(super) async fn session_tools(
        &self,
        listing: &Listing,
        context: &RequestContext<RoleServer>,
    ) -> Result<Vec<Tool>, ErrorData> {
        // Nothing deferred: nothing to load.
        if !listing.has_deferred {
            return Ok(listing.listed.clone());
        }
        let loaded = match self.keeper(context) {
            Keeper::Sessionless if self.defer_without_sessions => return Ok(listing.listed.clone()),
            Keeper::Sessionless => return Ok(self.every_tool(listing).clone()),
            Keeper::Here(here) => here.names(),
            Keeper::Shared(store, session) => store.loaded(session).await.map_err(|error| {
                tracing::error!(%error, "the session's loaded tools could not be read");
                ErrorData::internal_error(
                    format!("this session's tools could not be read from {error}; retry"),
                    None,
                )
            })?,
        };
        if loaded.is_empty() {
            return Ok(listing.listed.clone());
        }
        let turn = self.options.clone().with_loaded(loaded);
        Ok(listing
            .registry
            .definitions_for(&turn)
            .iter()
            .map(mcp_tool)
            .collect())
    }

    /// `listed`, then every deferred tool the options enable, by name: what
    /// a client without a session lists.
    fn every_tool<'a>(&self, listing: &'a Listing) -> &'a Vec<Tool> {
        listing.with_deferred.get_or_init(|| {
            let deferred = listing
                .registry
                .definitions_for_native_search(&self.options)
                .into_iter()
                .filter(|definition| definition.defer_loading)
                .map(|definition| mcp_tool(&definition));
            listing.listed.iter().cloned().chain(deferred).collect()
        })
    }

    /// After a call of `tool_search` in a session: what it found joins
    /// the session's `tools/list`, and the client is told when that
    /// changed it. Only tools the call could run are found (the search
    /// answers within the caller's turn), and only deferred ones loaded.
    pub(super) async fn load_found(
        &self,
        listing: &Listing,
        result: &ToolResultMessage,
        context: &RequestContext<RoleServer>,
    ) {
        let found = found_deferred(listing, result);
        if found.is_empty() {
            return;
        }
        let added = match self.keeper(context) {
            Keeper::Sessionless => return,
            Keeper::Here(here) => here.add(&found),
            Keeper::Shared(store, session) => match store.load(session, &found).await {
                Ok(added) => added,
                Err(error) => {
                    // The search's answer still carries the definitions;
                    // only the listing misses them.
                    tracing::error!(%error, "the tools a search found could not be loaded");
                    return;
                }
            },
        };
        if added.is_empty() {
            return;
        }
        tracing::debug!(?added, "loaded into the session's tools/list");
        let peer = context.peer.clone();
        tokio::spawn(async move {
            if let Err(error) = peer.notify_tool_list_changed().await {
                tracing::debug!(%error, "the client was not told its tools changed");
            }
        });
    }
}

/// The deferred tools a successful `tool_search` result names
/// (`details.found`).
fn found_deferred(listing: &Listing, result: &ToolResultMessage) -> Vec<String> {
    if result.tool_name != SEARCH_TOOL_NAME || result.is_error {
        return Vec::new();
    }
    let Some(found) = result
        .details
        .as_ref()
        .and_then(|details| details.get("found"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    found
        .iter()
        .filter_map(Value::as_str)
        .filter(|name| {
            listing
                .registry
                .get(name)
                .is_some_and(|tool| tool.is_deferred())
        })
        .map(str::to_owned)
        .collect()
}
