//! A static bearer token (RFC 6750), checked in constant time.
//!
//! This is not MCP's OAuth authorization flow: there is no protected
//! resource metadata to point at, so the 401 challenge names only the realm.

use super::Refusal;
use hyper::StatusCode;
use hyper::header::{AUTHORIZATION, HeaderMap, HeaderValue, WWW_AUTHENTICATE};

/// The token every request must carry as `Authorization: Bearer <token>`.
pub(super) struct BearerToken(Box<[u8]>);

impl BearerToken {
    /// A token that fits in a header value as it is: visible ASCII, no
    /// spaces (RFC 6750's `b64token` is a subset).
    pub(super) fn new(token: String) -> std::io::Result<Self> {
        if token.is_empty() {
            return Err(invalid("the bearer token is empty"));
        }
        if !token.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err(invalid(
                "the bearer token must be visible ASCII without spaces \
                 (letters, digits and -._~+/= are safest)",
            ));
        }
        Ok(BearerToken(token.into_bytes().into_boxed_slice()))
    }

    /// `Ok` when `headers` carry this token; else the 401 to answer.
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(value) = headers.get(AUTHORIZATION) else {
            return Err(unauthorized(
                None,
                "Unauthorized: send the token as 'Authorization: Bearer <token>'",
            ));
        };
        let presented = bearer_credentials(value.as_bytes());
        match presented {
            Some(token) if constant_time_eq(token, &self.0) => Ok(()),
            _ => Err(unauthorized(
                Some("invalid_token"),
                "Unauthorized: the bearer token is not valid",
            )),
        }
    }
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

/// 401 with the challenge RFC 6750 section 3 describes; `error` only when
/// credentials were sent.
fn unauthorized(error: Option<&str>, message: &str) -> Refusal {
    let challenge = match error {
        Some(error) => format!("Bearer realm=\"mcp\", error=\"{error}\""),
        None => "Bearer realm=\"mcp\"".to_owned(),
    };
    Refusal::new(StatusCode::UNAUTHORIZED, message.to_owned()).with_header(
        WWW_AUTHENTICATE,
        HeaderValue::from_str(&challenge).expect("a fixed challenge is a header value"),
    )
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
    fn tokens_must_fit_a_header() {
        assert!(BearerToken::new("s3cr3t-token".into()).is_ok());
        assert!(BearerToken::new(String::new()).is_err());
        assert!(BearerToken::new("two words".into()).is_err());
        assert!(BearerToken::new("caf\u{e9}".into()).is_err());
    }
}
