//! Who opened each session, so that only that caller uses it. MCP's
//! security best practices, "Session Hijacking": servers "MUST NOT use
//! sessions for authentication" and "SHOULD bind session IDs to
//! user-specific information", the user being derived from the token, not
//! from anything the client says
//! (<https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking>).
//! A token alone is checked on every request already; this keeps a valid
//! token of one caller from driving, reading or closing the session of
//! another whose `Mcp-Session-Id` it learned.
//!
//! A request naming a session its caller did not open is answered as if
//! the session did not exist: rmcp's own 404 for an unknown session, byte
//! for byte, so an id cannot be probed for whether it is someone's.

use super::{HttpResponse, Refusal};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// Who a request's credentials say it is, as far as sessions go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The static token: whoever holds it is one caller.
    StaticToken,
    /// An access token's subject (`sub`) at its issuer: a new token of the
    /// same subject (a refreshed one) keeps using the session.
    #[cfg(feature = "oauth")]
    Subject { issuer: String, subject: String },
    /// An access token without `sub`: its client (`client_id`, or `azp`).
    #[cfg(feature = "oauth")]
    Client { issuer: String, client: String },
    /// An access token naming neither: that token alone (the first half
    /// of its SHA-256, never the token itself; the same in every process,
    /// so a session in a shared store keeps its owner).
    #[cfg(feature = "oauth")]
    Token([u8; 16]),
}

impl Owner {
    /// The owner as a shared store keeps it (and an approval is bound to):
    /// one string per owner, the same in every process, in which no two
    /// owners meet (a JSON array of its parts).
    pub(crate) fn key(&self) -> String {
        let parts: Vec<&str> = match self {
            Owner::StaticToken => vec!["static"],
            #[cfg(feature = "oauth")]
            Owner::Subject { issuer, subject } => vec!["sub", issuer, subject],
            #[cfg(feature = "oauth")]
            Owner::Client { issuer, client } => vec!["client", issuer, client],
            #[cfg(feature = "oauth")]
            Owner::Token(digest) => {
                let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
                return serde_json::json!(["token", hex]).to_string();
            }
        };
        serde_json::to_string(&parts).unwrap_or_default()
    }
}

impl fmt::Display for Owner {
    /// For the logs: quoted, so a claim cannot forge a log line.
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::StaticToken => out.write_str("the static token"),
            #[cfg(feature = "oauth")]
            Owner::Subject { issuer, subject } => write!(out, "sub {subject:?} of {issuer:?}"),
            #[cfg(feature = "oauth")]
            Owner::Client { issuer, client } => write!(out, "client {client:?} of {issuer:?}"),
            #[cfg(feature = "oauth")]
            Owner::Token(_) => out.write_str("an access token with neither sub nor client_id"),
        }
    }
}

/// The owner of each open session.
pub(super) struct SessionOwners {
    /// rmcp's sessions: an entry whose session is no longer there is
    /// dropped.
    sessions: Arc<LocalSessionManager>,
    owners: Mutex<HashMap<String, Owner>>,
}

impl SessionOwners {
    pub(super) fn new(sessions: Arc<LocalSessionManager>) -> Self {
        SessionOwners {
            sessions,
            owners: Mutex::default(),
        }
    }

    /// Whether `caller` may use `session`: it opened it. Otherwise the 404
    /// of an unknown session, and, when another caller opened it, a
    /// warning. A session with no owner here is one this server never
    /// opened or one that has ended: rmcp would answer the same 404.
    pub(super) fn check(&self, session: &str, caller: &Owner) -> Result<(), Refusal> {
        match self.lock().get(session) {
            Some(owner) if owner == caller => Ok(()),
            Some(owner) => {
                tracing::warn!(
                    %caller,
                    opened_by = %owner,
                    "a request named a session another caller opened: answered 404, as an unknown session"
                );
                Err(unknown_session())
            }
            None => Err(unknown_session()),
        }
    }

    /// `session` was opened by `owner` (the answer to its `initialize`
    /// carries the id). The owners of sessions rmcp no longer has are
    /// dropped first: those closed by the server, or idle longer than the
    /// idle timeout. rmcp's map is the truth here, not an idle time
    /// measured at the gate, which does not see the messages a session
    /// sends its client (those keep it alive too). So the map holds at
    /// most the sessions open, which the session limit bounds, and one.
    pub(super) async fn opened(&self, session: &str, owner: Owner) {
        let open = self.sessions.sessions.read().await;
        let mut owners = self.lock();
        owners.retain(|id, _| open.contains_key(id.as_str()));
        owners.insert(session.to_owned(), owner);
    }

    /// `session` was closed by its owner (DELETE).
    pub(super) fn closed(&self, session: &str) {
        self.lock().remove(session);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Owner>> {
        // A panic while holding it left the map whole: each change is one
        // call on it.
        self.owners.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }
}

/// rmcp's answer to a request naming a session it does not have
/// (`StreamableHttpService`, rmcp 3.11: 404, this text, no other header).
pub(super) fn unknown_session() -> Refusal {
    let mut response: HttpResponse =
        Response::new(Full::new(Bytes::from_static(b"Not Found: Session not found")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    Refusal(Box::new(response))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(subject: &str) -> Owner {
        Owner::Subject {
            issuer: "https://auth.example.com".to_owned(),
            subject: subject.to_owned(),
        }
    }

    #[tokio::test]
    async fn only_the_owner_passes_and_ended_sessions_are_forgotten() {
        let owners = SessionOwners::new(Arc::new(LocalSessionManager::default()));
        owners.opened("s1", subject("alice")).await;
        assert!(owners.check("s1", &subject("alice")).is_ok());
        let refused = owners.check("s1", &subject("bob")).unwrap_err();
        assert_eq!(refused.0.status(), StatusCode::NOT_FOUND);
        assert!(owners.check("s1", &Owner::StaticToken).is_err());
        assert!(owners.check("s2", &subject("alice")).is_err());

        // rmcp holds neither session: opening another drops s1's owner.
        owners.opened("s2", Owner::StaticToken).await;
        assert_eq!(owners.len(), 1);
        assert!(owners.check("s1", &subject("alice")).is_err());
        owners.closed("s2");
        assert_eq!(owners.len(), 0);
    }

    #[test]
    fn owners_are_logged_quoted() {
        let forged = subject("x\nlevel=ERROR");
        assert_eq!(
            forged.to_string(),
            r#"sub "x\nlevel=ERROR" of "https://auth.example.com""#
        );
    }
}
