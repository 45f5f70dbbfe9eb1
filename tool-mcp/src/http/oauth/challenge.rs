//! The `WWW-Authenticate` challenges (RFC 6750 section 3): a 401 names the
//! protected resource metadata (RFC 9728 section 5.1), and the error when a
//! token was sent; a 403 names the scope the operation needs, as MCP's
//! scope challenge asks
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#runtime-insufficient-scope-errors>).

use crate::http::Refusal;
use crate::http::auth::{header_value, unauthorized};
use hyper::StatusCode;
use hyper::header::WWW_AUTHENTICATE;

/// The parts every challenge of one server shares.
pub(in crate::http) struct Challenge {
    /// The absolute URL of the metadata document.
    pub resource_metadata: String,
    /// What a client should ask for when it has no token yet.
    pub scopes: String,
}

impl Challenge {
    /// 401 to a request with no credentials: where to learn how to get a
    /// token, and the scopes to ask for.
    pub(in crate::http) fn no_token(&self) -> Refusal {
        let challenge = format!(
            "Bearer resource_metadata=\"{}\", scope=\"{}\"",
            self.resource_metadata, self.scopes
        );
        unauthorized(
            &challenge,
            "Unauthorized: send an OAuth access token as 'Authorization: Bearer <token>'; \
             the authorization server is named in the protected resource metadata",
        )
    }

    /// 401 to a request whose token is not accepted, saying why.
    pub(in crate::http) fn invalid_token(&self, why: &str) -> Refusal {
        let challenge = format!(
            "Bearer resource_metadata=\"{}\", error=\"invalid_token\", error_description=\"{}\"",
            self.resource_metadata,
            quotable(why)
        );
        unauthorized(&challenge, &format!("Unauthorized: {why}"))
    }

    /// 401 to a token sent in the query string: MCP forbids it ("Access
    /// tokens MUST NOT be included in the URI query string"), and a URL is
    /// logged by proxies. A 401 rather than RFC 6750's suggested 400, so the
    /// client also learns where the metadata is.
    pub(in crate::http) fn token_in_query(&self) -> Refusal {
        let why = "send the access token in the Authorization header, not in the query string";
        let challenge = format!(
            "Bearer resource_metadata=\"{}\", error=\"invalid_request\", error_description=\"{why}\"",
            self.resource_metadata
        );
        unauthorized(&challenge, &format!("Unauthorized: {why}"))
    }

    /// 403 to a call the token's scopes do not allow.
    pub(in crate::http) fn insufficient_scope(&self, scope: &str, tool: &str) -> Refusal {
        let why = format!("calling {} needs the scope {scope}", quotable(tool));
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{}\", \
             error_description=\"{why}\"",
            self.resource_metadata
        );
        Refusal::new(StatusCode::FORBIDDEN, format!("Forbidden: {why}\n"))
            .with_header(WWW_AUTHENTICATE, header_value(&challenge))
    }
}

/// `text` as RFC 6750 allows inside `error_description`'s quotes:
/// %x20-21 / %x23-5B / %x5D-7E, anything else as `?`.
fn quotable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c,
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_keep_only_what_a_quoted_string_may_hold() {
        assert_eq!(quotable("say \"hi\"\\ \u{e9}\n"), "say ?hi?? ??");
        assert_eq!(quotable("the token has expired"), "the token has expired");
    }

    #[test]
    fn challenges_name_the_metadata_and_the_error() {
        let challenge = Challenge {
            resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
                .into(),
            scopes: "tools:read tools:write".into(),
        };
        let response = challenge.invalid_token("the token has expired").0;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            response.headers()[WWW_AUTHENTICATE],
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", \
             error=\"invalid_token\", error_description=\"the token has expired\""
        );
        let response = challenge.insufficient_scope("tools:write", "write").0;
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            response.headers()[WWW_AUTHENTICATE],
            "Bearer error=\"insufficient_scope\", scope=\"tools:write\", \
             resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", \
             error_description=\"calling write needs the scope tools:write\""
        );
    }
}
