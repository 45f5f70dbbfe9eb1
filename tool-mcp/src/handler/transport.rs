//! What the transport tells a call besides its message: over HTTP, the
//! grant the gate found the request's credentials allow, and the session.
//! Over stdio, and without the feature `http`, neither: a stand-in
//! [`Grant`] that cannot exist keeps the handler's code the same in every
//! build.

use rmcp::RoleServer;
use rmcp::service::RequestContext;

#[cfg(feature = "http")]
pub(super) use crate::http::Grant;

/// What the HTTP gate found the request's credentials allow: `None` over
/// stdio, and over HTTP without authentication. rmcp puts the request's
/// `http::request::Parts` in the context's extensions, the gate its grant
/// in theirs.
#[cfg(feature = "http")]
pub(super) fn grant_of(context: &RequestContext<RoleServer>) -> Option<&Grant> {
    context
        .extensions
        .get::<hyper::http::request::Parts>()?
        .extensions
        .get::<Grant>()
}

/// The store every process shares, when the request's session lives
/// there (`McpHttp::with_shared_state`).
#[cfg(feature = "http")]
pub(super) fn shared_loads(context: &RequestContext<RoleServer>) -> Option<&SharedLoads> {
    context
        .extensions
        .get::<hyper::http::request::Parts>()?
        .extensions
        .get::<SharedLoads>()
}

#[cfg(feature = "http")]
pub(super) use crate::http::SharedLoads;

/// Whether the request came over HTTP (`Some`), with the session it names
/// when it names one.
#[cfg(feature = "http")]
pub(super) fn http_session(context: &RequestContext<RoleServer>) -> Option<Option<&str>> {
    let parts = context.extensions.get::<hyper::http::request::Parts>()?;
    Some(crate::http::session_of(&parts.headers))
}

/// Who the call is in the audit log: the credentials' owner, `anonymous`
/// over HTTP without credentials, `local` over stdio.
pub(super) fn audit_caller(context: &RequestContext<RoleServer>) -> String {
    match (grant_of(context), http_session(context)) {
        #[cfg(feature = "http")]
        (Some(grant), _) => grant.owner().key(),
        #[cfg(not(feature = "http"))]
        (Some(grant), _) => match *grant {},
        (None, Some(_)) => crate::audit::ANONYMOUS.to_owned(),
        (None, None) => crate::audit::LOCAL.to_owned(),
    }
}

/// The conventions' `network.transport` of a notification: `tcp` when it
/// came over HTTP, `pipe` otherwise.
pub(super) fn notification_transport(
    context: &rmcp::service::NotificationContext<RoleServer>,
) -> &'static str {
    #[cfg(feature = "http")]
    if context
        .extensions
        .get::<hyper::http::request::Parts>()
        .is_some()
    {
        return "tcp";
    }
    let _ = context;
    "pipe"
}

/// The client's address, as the HTTP gate found it.
#[cfg(feature = "http")]
pub(super) fn client_of(context: &RequestContext<RoleServer>) -> Option<std::net::IpAddr> {
    let parts = context.extensions.get::<hyper::http::request::Parts>()?;
    parts
        .extensions
        .get::<crate::http::ClientIp>()
        .map(|client| client.0)
}

#[cfg(not(feature = "http"))]
pub(super) fn client_of(_context: &RequestContext<RoleServer>) -> Option<std::net::IpAddr> {
    None
}

#[cfg(not(feature = "http"))]
pub(super) use no_http::{Grant, SharedLoads, grant_of, http_session, shared_loads};

#[cfg(not(feature = "http"))]
mod no_http {
    use super::{RequestContext, RoleServer};
    use std::sync::Arc;
    use tool_core::RunOptions;
    use tool_core::executor::Caller;

    /// No credentials without HTTP: no value of it exists.
    pub(in crate::handler) enum Grant {}

    impl Grant {
        pub(in crate::handler) fn missing(&self, _tool: &str) -> Option<&str> {
            match *self {}
        }

        pub(in crate::handler) fn call_options(&self) -> Option<RunOptions> {
            match *self {}
        }

        pub(in crate::handler) fn caller(&self) -> Option<&Arc<Caller>> {
            match *self {}
        }

        pub(in crate::handler) fn binding(&self) -> String {
            match *self {}
        }
    }

    pub(in crate::handler) fn grant_of(_context: &RequestContext<RoleServer>) -> Option<&Grant> {
        None
    }

    /// No shared store without HTTP: no value of it exists.
    pub(in crate::handler) enum SharedLoads {}

    impl SharedLoads {
        pub(in crate::handler) async fn load(
            &self,
            _session: &str,
            _names: &[String],
        ) -> Result<Vec<String>, String> {
            match *self {}
        }

        pub(in crate::handler) async fn loaded(&self, _session: &str) -> Result<Vec<String>, String> {
            match *self {}
        }
    }

    pub(in crate::handler) fn shared_loads(
        _context: &RequestContext<RoleServer>,
    ) -> Option<&SharedLoads> {
        None
    }

    pub(in crate::handler) fn http_session(
        _context: &RequestContext<RoleServer>,
    ) -> Option<Option<&str>> {
        None
    }
}
