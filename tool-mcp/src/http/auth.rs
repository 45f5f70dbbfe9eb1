//! Who a request is: a static bearer token (RFC 6750, compared in
//! constant time), an OAuth access token (feature `oauth`,
//! [`super::oauth`]), either when both are configured, or anyone when
//! neither is. A static token names no one and allows every tool; an
//! access token names its caller and allows the tools its scopes do.

use super::Refusal;
use super::grant::Grant;
#[cfg(feature = "oauth")]
use super::oauth::{Metadata, ScopeTable, Verifier};
#[cfg(feature = "oauth")]
use super::owners::Owner;
use crate::watched::Watched;
use crate::audit;
use hyper::header::{AUTHORIZATION, HeaderMap, HeaderValue, WWW_AUTHENTICATE};
use hyper::{StatusCode, Uri};
use std::net::IpAddr;
use std::path::Path;
#[cfg(feature = "oauth")]
use std::sync::Arc;
use std::time::Duration;
#[cfg(feature = "oauth")]
use tool_core::executor::Caller;

/// The token every request must carry as `Authorization: Bearer <token>`.
pub(super) struct BearerToken(Box<[u8]>);

impl BearerToken {
    /// A token that fits in a header value as it is: visible ASCII, no
    /// spaces (RFC 6750's `b64token` is a subset).
    pub(super) fn new(token: String) -> std::io::Result<Self> {
        Self::checked(token).map_err(|why| invalid(&why))
    }

    /// The token in a file's bytes, without surrounding whitespace.
    /// A token file's token; `None` for an empty file (the operator's
    /// word that no static token is good now).
    fn of_file(bytes: &[u8]) -> Result<Option<Self>, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "the token is not UTF-8".to_owned())?;
        let token = text.trim();
        if token.is_empty() {
            return Ok(None);
        }
        Self::checked(token.to_owned()).map(Some)
    }

    fn checked(token: String) -> Result<Self, String> {
        if token.is_empty() {
            return Err("the bearer token is empty".to_owned());
        }
        if !token.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err("the bearer token must be visible ASCII without spaces \
                 (letters, digits and -._~+/= are safest)"
                .to_owned());
        }
        Ok(BearerToken(token.into_bytes().into_boxed_slice()))
    }

    fn matches(&self, presented: &[u8]) -> bool {
        constant_time_eq(presented, &self.0)
    }
}

/// The static token: given once, or read from a file and read again when
/// the file changes (so it can be rotated without a restart).
pub(super) enum StaticToken {
    Fixed(BearerToken),
    File(Watched<BearerToken>),
}

impl StaticToken {
    /// The token in the file at `path`; an error naming the file when it
    /// cannot be read or holds no usable token.
    pub(super) fn file(path: &Path, stale_limit: Duration) -> std::io::Result<StaticToken> {
        Ok(StaticToken::File(Watched::open(
            path,
            "the bearer token file",
            BearerToken::of_file,
            stale_limit,
        )?))
    }

    fn matches(&self, presented: &[u8]) -> bool {
        match self {
            StaticToken::Fixed(token) => token.matches(presented),
            StaticToken::File(watched) => watched
                .current()
                .is_some_and(|token| token.matches(presented)),
        }
    }
}

/// What OAuth needs at the gate.
#[cfg(feature = "oauth")]
pub(super) struct OAuth {
    pub verifier: Verifier,
    pub metadata: Metadata,
    pub scopes: Arc<ScopeTable>,
}

#[cfg(feature = "oauth")]
impl OAuth {
    /// What an access token that is not the static token allows, or the
    /// 401 saying why it is not accepted (and an audit line).
    async fn verify(&self, presented: &[u8], client: Option<IpAddr>) -> Result<Grant, Refusal> {
        let verified = self.verifier.verify(presented).await;
        match verified {
            Ok(caller) => Ok(Grant::Scoped {
                owner: owner_of(&caller, || token_digest(presented)),
                caller: Arc::new(caller),
                scopes: Arc::clone(&self.scopes),
            }),
            Err(why) => {
                audit::credential_refused(why, client, &claimed_by(presented));
                Err(self.metadata.challenge.invalid_token(why))
            }
        }
    }
}

/// The credentials a server accepts.
pub(super) struct Auth {
    pub token: Option<StaticToken>,
    #[cfg(feature = "oauth")]
    pub oauth: Option<OAuth>,
}

/// Why a request's credentials are not even looked at.
#[derive(Clone, Copy)]
enum Unusable {
    /// A token in the query string.
    InQuery,
    /// No `Authorization` header.
    Missing,
    /// An `Authorization` header that is not `Bearer <token>`.
    NotBearer,
}

impl Unusable {
    /// Why, as the audit line says it.
    fn reason(self) -> &'static str {
        match self {
            Unusable::InQuery => "a token in the query string",
            Unusable::Missing => "no credentials",
            Unusable::NotBearer => "an Authorization header that is not 'Bearer <token>'",
        }
    }
}

impl Auth {
    /// Whether any credentials are asked for: a static token, or OAuth.
    pub(super) fn required(&self) -> bool {
        #[cfg(feature = "oauth")]
        if self.oauth.is_some() {
            return true;
        }
        self.token.is_some()
    }

    /// The protected resource metadata, when OAuth is configured.
    #[cfg(feature = "oauth")]
    pub(super) fn metadata(&self) -> Option<&Metadata> {
        self.oauth.as_ref().map(|oauth| &oauth.metadata)
    }

    /// What the request's credentials allow (`None`: no authentication is
    /// configured), or the 401 to answer. Credentials that were presented
    /// and refused are an audit line naming `client`; a request with none
    /// (every client's first, to find the metadata) is not.
    pub(super) async fn check(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
        client: Option<IpAddr>,
    ) -> Result<Option<Grant>, Refusal> {
        if !self.required() {
            return Ok(None);
        }
        let refused = |why: Unusable| {
            if !matches!(why, Unusable::Missing) {
                audit::credential_refused(why.reason(), client, &audit::ClaimedBy::default());
            }
            self.unusable(why)
        };
        if uri.query().is_some_and(has_access_token) {
            return Err(refused(Unusable::InQuery));
        }
        let Some(value) = headers.get(AUTHORIZATION) else {
            return Err(refused(Unusable::Missing));
        };
        let Some(presented) = bearer_credentials(value.as_bytes()) else {
            return Err(refused(Unusable::NotBearer));
        };
        if let Some(token) = &self.token
            && token.matches(presented)
        {
            return Ok(Some(Grant::Everything));
        }
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            return oauth.verify(presented, client).await.map(Some);
        }
        audit::credential_refused(
            "the bearer token is not valid",
            client,
            &audit::ClaimedBy::default(),
        );
        Err(not_valid())
    }

    /// The 401 to credentials that cannot be used: with OAuth, a challenge
    /// naming the protected resource metadata; with a static token only,
    /// `realm="mcp"`.
    fn unusable(&self, why: Unusable) -> Refusal {
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            let challenge = &oauth.metadata.challenge;
            return match why {
                Unusable::InQuery => challenge.token_in_query(),
                Unusable::Missing => challenge.no_token(),
                Unusable::NotBearer => challenge
                    .invalid_token("send the access token as 'Authorization: Bearer <token>'"),
            };
        }
        match why {
            Unusable::InQuery => static_unauthorized(
                Some("invalid_request"),
                "Unauthorized: send the token in the Authorization header, not in the query string",
            ),
            Unusable::Missing => static_unauthorized(
                None,
                "Unauthorized: send the token as 'Authorization: Bearer <token>'",
            ),
            Unusable::NotBearer => not_valid(),
        }
    }
}

/// The `kid` and `iss` a refused token names, when it is a JWT they can
/// be read from: the audit line's leads to a misconfigured issuer or a
/// retired key. Read without trusting it; never the token itself.
#[cfg(feature = "oauth")]
fn claimed_by(presented: &[u8]) -> audit::ClaimedBy {
    #[derive(serde::Deserialize)]
    struct Issuer {
        iss: Option<String>,
    }
    // Bounded: an attacker's value goes into a log line.
    fn short(value: String) -> String {
        value.chars().take(200).collect()
    }
    let kid = jsonwebtoken::decode_header(presented)
        .ok()
        .and_then(|header| header.kid)
        .map(short);
    let iss = jsonwebtoken::dangerous::insecure_decode_claims::<Issuer>(presented)
        .ok()
        .and_then(|claims| claims.iss)
        .map(short);
    audit::ClaimedBy { kid, iss }
}

/// Who an access token's sessions belong to: its subject at its issuer;
/// without `sub`, its client; without either, the token itself.
#[cfg(feature = "oauth")]
fn owner_of(caller: &Caller, token_hash: impl FnOnce() -> [u8; 16]) -> Owner {
    let issuer = caller.issuer.clone().unwrap_or_default();
    match (&caller.subject, &caller.client_id) {
        (Some(subject), _) => Owner::Subject {
            issuer,
            subject: subject.clone(),
        },
        (None, Some(client)) => Owner::Client {
            issuer,
            client: client.clone(),
        },
        (None, None) => Owner::Token(token_hash()),
    }
}

/// The first half of `token`'s SHA-256: the same in every process (a
/// session in a shared store keeps its owner), and nothing an attacker
/// reading the store could turn back into the token.
#[cfg(feature = "oauth")]
fn token_digest(token: &[u8]) -> [u8; 16] {
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, token);
    let mut half = [0; 16];
    half.copy_from_slice(&digest.as_ref()[..16]);
    half
}

fn not_valid() -> Refusal {
    static_unauthorized(
        Some("invalid_token"),
        "Unauthorized: the bearer token is not valid",
    )
}

/// 401 of a server with a static token only: no metadata to point at.
fn static_unauthorized(error: Option<&str>, message: &str) -> Refusal {
    let challenge = match error {
        Some(error) => format!("Bearer realm=\"mcp\", error=\"{error}\""),
        None => "Bearer realm=\"mcp\"".to_owned(),
    };
    unauthorized(&challenge, message)
}

/// 401 with the challenge `challenge` and a line of text.
pub(super) fn unauthorized(challenge: &str, message: &str) -> Refusal {
    Refusal::new(StatusCode::UNAUTHORIZED, format!("{message}\n"))
        .with_header(WWW_AUTHENTICATE, header_value(challenge))
}

/// A header value of the challenge; its parts were checked or made
/// quotable, so this cannot fail, but a mistake would still give a
/// challenge rather than a panic.
pub(super) fn header_value(challenge: &str) -> HeaderValue {
    HeaderValue::from_str(challenge).unwrap_or_else(|_| HeaderValue::from_static("Bearer"))
}

/// Whether a query string has an `access_token` parameter (RFC 6750
/// section 2.3's form, which MCP forbids).
fn has_access_token(query: &str) -> bool {
    query
        .split('&')
        .any(|pair| pair.split('=').next() == Some("access_token"))
}

/// The credentials of `Bearer <credentials>` (the scheme is
/// case-insensitive, RFC 9110 section 11.1).
fn bearer_credentials(value: &[u8]) -> Option<&[u8]> {
    let scheme = value.get(..7)?;
    if !scheme.eq_ignore_ascii_case(b"bearer ") {
        return None;
    }
    let credentials = value[7..].trim_ascii();
    (!credentials.is_empty()).then_some(credentials)
}

/// `a == b`, in a time that depends on the lengths only: the bytes are all
/// compared whatever the first difference, so response times do not tell
/// an attacker how much of a guess was right. The length of the presented
/// token is the attacker's own; the length of ours shows only as whether the
/// lengths differ, the same answer as a wrong byte.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        difference |= usize::from(x ^ y);
    }
    // Keeps the optimizer from turning the loop into an early exit.
    std::hint::black_box(difference) == 0
}

fn invalid(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_only_when_every_byte_and_the_length_agree() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(constant_time_eq(b"", b""));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"secret", b"secre"));
        assert!(!constant_time_eq(b"", b"x"));
        // A longer guess whose extra bytes are zero is still different.
        assert!(!constant_time_eq(b"ab", b"ab\0"));
    }

    #[test]
    fn credentials_follow_a_case_insensitive_scheme() {
        assert_eq!(bearer_credentials(b"Bearer abc"), Some(&b"abc"[..]));
        assert_eq!(bearer_credentials(b"bearer   abc "), Some(&b"abc"[..]));
        assert_eq!(bearer_credentials(b"BEARER abc"), Some(&b"abc"[..]));
        assert_eq!(bearer_credentials(b"Basic abc"), None);
        assert_eq!(bearer_credentials(b"Bearer "), None);
        assert_eq!(bearer_credentials(b"Bearerabc"), None);
    }

    #[test]
    fn a_query_string_token_is_found_by_its_name() {
        assert!(has_access_token("access_token=abc"));
        assert!(has_access_token("x=1&access_token"));
        assert!(!has_access_token("x=access_token"));
        assert!(!has_access_token("my_access_token=1"));
    }

    #[test]
    fn tokens_must_fit_a_header() {
        assert!(BearerToken::new("s3cr3t-token".into()).is_ok());
        assert!(BearerToken::new(String::new()).is_err());
        assert!(BearerToken::new("two words".into()).is_err());
        assert!(BearerToken::new("caf\u{e9}".into()).is_err());
    }
}
