//! CORS, so that a web page of an allowed origin can use the server from
//! a browser (the Fetch standard's CORS protocol,
//! <https://fetch.spec.whatwg.org/#http-cors-protocol>):
//!
//! - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an
//!   accepted origin is answered 204 without credentials (a browser never
//!   sends them on a preflight), allowing MCP's methods and the headers
//!   the page asked for.
//! - Every answer to a request from an accepted origin, refusals
//!   included, names that origin in `Access-Control-Allow-Origin` and
//!   exposes `Mcp-Session-Id`, `Mcp-Protocol-Version`, `WWW-Authenticate`
//!   and `Retry-After`, which a page's client must read (the session, the
//!   revision, where to get a token, when to retry).
//! - The protected resource metadata is public: readable from any origin
//!   (`*`), as OAuth clients in a browser discover it before they have a
//!   token (RFC 9728 section 3).
//!
//! Which origins are accepted is the `Origin` check's answer
//! ([`HostPolicy`](super::hosts::HostPolicy)): one decision for both, so a
//! page the server answers is one it lets read the answer. No cookies are
//! used (credentials are a bearer token the page sends itself), so no
//! `Access-Control-Allow-Credentials`. Written here rather than taken from
//! tower-http's `CorsLayer`: the origin decision is the gate's own, and a
//! refusal the gate answers before any inner layer must carry the headers
//! too.

use super::HttpResponse;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ACCESS_CONTROL_REQUEST_HEADERS,
    ACCESS_CONTROL_REQUEST_METHOD, HeaderMap, HeaderValue, ORIGIN, VARY,
};
use hyper::{Method, Response, StatusCode};

/// The headers a page's client must read from an answer.
const EXPOSED: &str = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After";

/// What MCP's endpoint answers: a message, a stream, the end of a session.
const MCP_METHODS: &str = "GET, POST, DELETE, OPTIONS";

/// What a metadata document answers.
const DOCUMENT_METHODS: &str = "GET, HEAD, OPTIONS";

/// The headers a page may send when it does not say which (a preflight
/// without `Access-Control-Request-Headers` needs none; this is only the
/// answer's default).
const ALLOWED_HEADERS: &str =
    "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";

/// How long a browser may keep a preflight's answer.
const MAX_AGE_SECONDS: &str = "600";

/// The most of `Access-Control-Request-Headers` mirrored back: a page
/// sends a few names; anything longer is not a real client's.
const MAX_REQUESTED_HEADERS: usize = 1024;

/// Who may read an answer.
#[derive(Clone)]
pub(super) enum Reader {
    /// A page of this origin, which the `Origin` check accepts.
    Origin(HeaderValue),
    /// Any page: a public document.
    Anyone,
}

impl Reader {
    /// The reader of an answer to `headers`' request: its origin when
    /// `accepted` says so; `None` without an `Origin` (not a browser's
    /// cross-origin request) or for an origin not accepted.
    pub(super) fn of(headers: &HeaderMap, accepted: impl Fn(&str) -> bool) -> Option<Reader> {
        let origin = headers.get(ORIGIN)?;
        let text = origin.to_str().ok()?;
        accepted(text).then(|| Reader::Origin(origin.clone()))
    }

    fn allow_origin(&self) -> HeaderValue {
        match self {
            Reader::Origin(origin) => origin.clone(),
            Reader::Anyone => HeaderValue::from_static("*"),
        }
    }
}

/// Whether a request is a CORS preflight: `OPTIONS` from a page, asking
/// whether a method may be sent.
pub(super) fn is_preflight(method: &Method, headers: &HeaderMap) -> bool {
    method == Method::OPTIONS
        && headers.contains_key(ORIGIN)
        && headers.contains_key(ACCESS_CONTROL_REQUEST_METHOD)
}

/// The 204 answer to a preflight from `reader`, for MCP's endpoint or
/// (`document`) a metadata document.
pub(super) fn preflight(reader: &Reader, request: &HeaderMap, document: bool) -> HttpResponse {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, reader.allow_origin());
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(if document {
            DOCUMENT_METHODS
        } else {
            MCP_METHODS
        }),
    );
    // The page's own list, when it is a list of header names: whatever
    // it sends (a `traceparent`, its own) the server ignores or reads, and
    // the origin is one the server answers anyway.
    let requested = request
        .get(ACCESS_CONTROL_REQUEST_HEADERS)
        .filter(|value| value.len() <= MAX_REQUESTED_HEADERS && is_name_list(value.as_bytes()))
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static(ALLOWED_HEADERS));
    headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, requested);
    headers.insert(
        ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(MAX_AGE_SECONDS),
    );
    headers.insert(
        VARY,
        HeaderValue::from_static(
            "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        ),
    );
    response
}

/// Lets `reader` read `response`: its origin allowed, MCP's headers
/// exposed, and caches told the answer depends on the origin.
pub(super) fn allow(response: &mut HttpResponse, reader: &Reader) {
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, reader.allow_origin());
    headers.insert(
        ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSED),
    );
    if matches!(reader, Reader::Origin(_)) {
        headers.append(VARY, HeaderValue::from_static("Origin"));
    }
}

/// `a, b-c, D`: header names (RFC 9110's tokens) separated by commas.
fn is_name_list(value: &[u8]) -> bool {
    value.split(|byte| *byte == b',').all(|name| {
        let name = name.trim_ascii();
        !name.is_empty()
            && name
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(byte))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_header_names_are_mirrored() {
        assert!(is_name_list(b"authorization, content-type,mcp-session-id"));
        assert!(!is_name_list(b"authorization, "));
        assert!(!is_name_list(b"x: y"));
        assert!(!is_name_list(b""));
    }

    #[test]
    fn a_preflight_needs_an_origin_and_a_method_asked() {
        let mut headers = HeaderMap::new();
        headers.insert(ORIGIN, HeaderValue::from_static("https://app.example"));
        assert!(!is_preflight(&Method::OPTIONS, &headers));
        headers.insert(
            ACCESS_CONTROL_REQUEST_METHOD,
            HeaderValue::from_static("POST"),
        );
        assert!(is_preflight(&Method::OPTIONS, &headers));
        assert!(!is_preflight(&Method::POST, &headers));
    }
}
