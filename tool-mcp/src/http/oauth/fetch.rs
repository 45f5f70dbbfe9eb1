//! What this server asks of its authorization server (its metadata, its
//! keys, a token's introspection), and the limits every such request
//! keeps: https, or plain http to this machine only (a key set or an
//! introspection answer read in the clear could be forged on the way);
//! no redirects followed (a redirect could lead there); a timeout on each
//! request; a bounded body (an answer is a small JSON document).

use reqwest::Url;
use reqwest::header::{CACHE_CONTROL, HeaderMap};
use std::net::IpAddr;
use std::time::Duration;

/// How long one request may take, from connecting to its last byte.
pub(super) const TIMEOUT: Duration = Duration::from_secs(5);

/// The longest body read: a metadata document, a key set or an
/// introspection answer is a few KiB; a key set of many RSA keys some tens.
pub(super) const MAX_BODY: usize = 256 * 1024;

/// The client every request to the authorization server goes through.
pub(super) fn client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .connect_timeout(TIMEOUT)
        // A redirect is answered as it is, an error: following it could
        // lead to plain http, or to another server.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| format!("cannot build the HTTP client: {error}"))
}

/// `text` as a URL this server may fetch: https, or http to a loopback
/// address (`localhost`, `127.0.0.0/8`, `::1`); no user name or password
/// (they would end up in logs) and no fragment. The error says what is
/// wrong, to follow the URL's name.
pub(super) fn checked_url(text: &str) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|error| format!("is not a URL ({error})"))?;
    let loopback = is_loopback(&url);
    match url.scheme() {
        "https" => {}
        "http" if loopback => {}
        "http" => {
            return Err(
                "must be https: plain http is allowed to a loopback address only".to_owned(),
            );
        }
        other => return Err(format!("must be an https URL, not {other}:")),
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("has no host".to_owned());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("must not carry a user name or password".to_owned());
    }
    if url.fragment().is_some() {
        return Err("must have no fragment (#...)".to_owned());
    }
    Ok(url)
}

/// Whether `url`'s host is this machine: `localhost` or a loopback address.
fn is_loopback(url: &Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A failed request, said with its causes (reqwest's own text is only
/// "error sending request"), without the URL (the caller names it).
pub(super) fn describe(error: reqwest::Error) -> String {
    if error.is_timeout() {
        return format!("no answer within {} s", TIMEOUT.as_secs());
    }
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The whole body of `response`, or an error when it is longer than
/// [`MAX_BODY`] (said by its `Content-Length`, or found while reading).
pub(super) async fn body(mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    let too_long = || format!("its answer is longer than {} KiB", MAX_BODY / 1024);
    if response
        .content_length()
        .is_some_and(|length| length > MAX_BODY as u64)
    {
        return Err(too_long());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(describe)? {
        if body.len() + chunk.len() > MAX_BODY {
            return Err(too_long());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// How long an answer may be kept, as its `Cache-Control` says
/// (RFC 9111 section 5.2.2): `max-age` seconds; zero for `no-store` or
/// `no-cache`; `None` when it says neither.
pub(super) fn max_age(headers: &HeaderMap) -> Option<Duration> {
    let mut age = None;
    let directives = headers
        .get_all(CACHE_CONTROL)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','));
    for directive in directives {
        let (name, argument) = match directive.split_once('=') {
            Some((name, argument)) => (name.trim(), Some(argument.trim().trim_matches('"'))),
            None => (directive.trim(), None),
        };
        if name.eq_ignore_ascii_case("no-store") || name.eq_ignore_ascii_case("no-cache") {
            return Some(Duration::ZERO);
        }
        if name.eq_ignore_ascii_case("max-age")
            && let Some(seconds) = argument.and_then(|seconds| seconds.parse().ok())
        {
            age = Some(Duration::from_secs(seconds));
        }
    }
    age
}

/// `bytes` as `application/x-www-form-urlencoded` writes them (the WHATWG
/// URL standard's byte serializer): letters, digits and `*-._` as they are,
/// a space as `+`, any other byte as `%XX`.
pub(super) fn form_encoded(bytes: &[u8]) -> String {
    let mut encoded = String::with_capacity(bytes.len());
    for &byte in bytes {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                encoded.push(char::from(byte));
            }
            b' ' => encoded.push('+'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn only_https_or_http_to_this_machine_is_fetched() {
        for good in [
            "https://auth.example.com/realms/mcp",
            "http://127.0.0.1:8080/keys",
            "http://127.1.2.3/keys",
            "http://localhost:9000",
            "http://[::1]:9000/jwks",
        ] {
            assert!(checked_url(good).is_ok(), "{good}");
        }
        for (bad, says) in [
            ("http://auth.example.com/keys", "must be https"),
            ("http://10.0.0.1/keys", "must be https"),
            (
                "ftp://auth.example.com/keys",
                "must be an https URL, not ftp:",
            ),
            (
                "https://user:secret@auth.example.com",
                "user name or password",
            ),
            ("https://auth.example.com/keys#x", "no fragment"),
            ("/keys", "is not a URL"),
        ] {
            let error = checked_url(bad).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn cache_control_gives_max_age_and_no_store_or_no_cache_give_zero() {
        let of = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for value in values {
                headers.append(CACHE_CONTROL, HeaderValue::from_str(value).unwrap());
            }
            max_age(&headers)
        };
        assert_eq!(of(&[]), None);
        assert_eq!(
            of(&["public, max-age=3600"]),
            Some(Duration::from_secs(3600))
        );
        assert_eq!(of(&["MAX-AGE = \"60\""]), Some(Duration::from_secs(60)));
        assert_eq!(
            of(&["public", "max-age=5, must-revalidate"]),
            Some(Duration::from_secs(5))
        );
        assert_eq!(of(&["max-age=600, no-cache"]), Some(Duration::ZERO));
        assert_eq!(of(&["no-store"]), Some(Duration::ZERO));
        assert_eq!(of(&["max-age=soon"]), None);
    }

    #[test]
    fn form_encoding_keeps_only_the_safe_bytes() {
        assert_eq!(form_encoded(b"abc-XYZ_0.9*"), "abc-XYZ_0.9*");
        assert_eq!(
            form_encoded(b"a b+c/d=e&f:g~"),
            "a+b%2Bc%2Fd%3De%26f%3Ag%7E"
        );
        assert_eq!(form_encoded("é".as_bytes()), "%C3%A9");
    }
}
