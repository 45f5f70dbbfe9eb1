//! The HTTP client every OAuth request goes through (discovery, client
//! registration, the token endpoint): rmcp's `AuthorizationManager` takes
//! one ([`OAuthHttpClient`]), and ours is where the servers are treated as
//! untrusted, in one place:
//!
//! - `https` only, but for loopback (`localhost`, `127.0.0.0/8`, `::1`):
//!   the 2025-11-25 authorization spec, "Communication Security": "All
//!   authorization server endpoints MUST be served over HTTPS", and
//!   "Redirect URIs MUST be either localhost URLs or HTTPS URLs"
//!   (<https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#communication-security>).
//!   A metadata document naming an `http` endpoint elsewhere fails the
//!   request that would reach it, before anything is sent.
//! - Bodies bounded ([`MAX_BODY`]): a metadata document or a token answer
//!   is a few kilobytes; a server streaming more is cut off with an error.
//! - Redirects: none when rmcp asks for none (the token endpoint); else to
//!   the same origin only, at most [`MAX_REDIRECTS`], so a credential in a
//!   request body never follows a redirect to another host.
//! - A timeout on each request ([`TIMEOUT`], or rmcp's shorter one).

use rmcp::transport::auth::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRedirectPolicy,
    OAuthHttpRequest,
};
use std::net::IpAddr;
use std::time::Duration;

/// The most bytes of an OAuth response read: metadata documents and token
/// answers are a few kilobytes.
pub(super) const MAX_BODY: usize = 256 * 1024;

/// The most redirects followed where rmcp allows them (discovery).
const MAX_REDIRECTS: usize = 5;

/// How long one OAuth request may take, at most.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Whether `url` may carry OAuth traffic: `https`, or `http` to a loopback
/// host. An error naming `what` and the URL otherwise.
pub(super) fn check_url(url: &reqwest::Url, what: &str) -> Result<(), String> {
    match url.scheme() {
        "https" => Ok(()),
        "http" if is_loopback(url) => Ok(()),
        "http" => Err(format!(
            "{what} {url} is plain http on a host that is not loopback: OAuth needs https \
             (MCP authorization, 2025-11-25, \"Communication Security\")"
        )),
        other => Err(format!("{what} {url} has the scheme {other}, not https")),
    }
}

/// `localhost`, or an address of 127.0.0.0/8 or `::1`.
fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    // An IPv6 host comes in brackets.
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

/// The guarded client: two reqwest clients, one following same-origin
/// redirects, one following none.
pub(super) struct Guarded {
    follow: reqwest::Client,
    stop: reqwest::Client,
}

impl Guarded {
    /// With the policies above, trusting `roots` beside the system's (the
    /// upstream's own, [`Upstream::with_root_certificate`](crate::client::Upstream::with_root_certificate)).
    pub(super) fn new(root_certificates: &[Vec<u8>]) -> Result<Guarded, String> {
        let mut roots = Vec::new();
        for pem in root_certificates {
            // The transport's client was built from the same text first, and
            // said what is wrong with it.
            roots.extend(reqwest::Certificate::from_pem_bundle(pem).map_err(|error| {
                format!("a root certificate is not PEM: {error}")
            })?);
        }
        let build = |policy: reqwest::redirect::Policy| {
            let mut builder = reqwest::Client::builder().timeout(TIMEOUT).redirect(policy);
            for root in &roots {
                builder = builder.add_root_certificate(root.clone());
            }
            builder
                .build()
                .map_err(|error| format!("cannot build the OAuth HTTP client: {error}"))
        };
        let same_origin = reqwest::redirect::Policy::custom(|attempt| {
            let same = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !same {
                attempt.stop()
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        });
        Ok(Guarded {
            follow: build(same_origin)?,
            stop: build(reqwest::redirect::Policy::none())?,
        })
    }
}

/// An error of ours, in rmcp's boxed form.
fn boxed(message: String) -> OAuthHttpClientError {
    message.into()
}

impl Guarded {
    /// Sends `request` under the policies above: its answer's head and its
    /// body, read whole (to [`MAX_BODY`]).
    async fn send(
        &self,
        request: reqwest::Request,
        redirects: OAuthHttpRedirectPolicy,
        timeout: Duration,
    ) -> Result<(reqwest::Response, Vec<u8>), String> {
        check_url(request.url(), "the OAuth request to")?;
        let place = request.url().clone();
        let client = match redirects {
            OAuthHttpRedirectPolicy::Stop => &self.stop,
            _ => &self.follow,
        };
        let mut response = tokio::time::timeout(timeout, client.execute(request))
            .await
            .map_err(|_| format!("{place} did not answer within {timeout:?}"))?
            .map_err(|error| format!("cannot reach {place}: {error}"))?;
        let mut body = Vec::new();
        loop {
            let chunk = tokio::time::timeout(timeout, response.chunk())
                .await
                .map_err(|_| format!("{place} did not finish its answer in time"))?
                .map_err(|error| format!("reading {place}: {error}"))?;
            let Some(chunk) = chunk else { break };
            if body.len() + chunk.len() > MAX_BODY {
                return Err(format!(
                    "{place} answered more than {MAX_BODY} bytes, more than any OAuth \
                     document needs"
                ));
            }
            body.extend_from_slice(&chunk);
        }
        Ok((response, body))
    }

    /// POSTs `document` as JSON to `url` (no redirects): the status and
    /// the body.
    pub(super) async fn post_json(
        &self,
        url: &str,
        document: &serde_json::Value,
    ) -> Result<(reqwest::StatusCode, Vec<u8>), String> {
        let request = self
            .stop
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(document.to_string())
            .build()
            .map_err(|error| format!("cannot make a request to {url}: {error}"))?;
        let (response, body) = self
            .send(request, OAuthHttpRedirectPolicy::Stop, TIMEOUT)
            .await?;
        Ok((response.status(), body))
    }
}

impl OAuthHttpClient for Guarded {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(async move {
            let redirects = request.redirect_policy;
            let timeout = request.timeout.map_or(TIMEOUT, |asked| asked.min(TIMEOUT));
            let request = reqwest::Request::try_from(request.request)
                .map_err(|error| boxed(format!("not a valid OAuth request: {error}")))?;
            let place = request.url().clone();
            let (response, body) = self.send(request, redirects, timeout).await.map_err(boxed)?;
            let mut answer = http_types::Response::builder()
                .status(response.status())
                .version(response.version());
            for (name, value) in response.headers() {
                answer = answer.header(name, value);
            }
            answer
                .body(body)
                .map_err(|error| boxed(format!("the answer of {place}: {error}")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::check_url;

    #[test]
    fn only_https_or_loopback_carries_oauth() {
        let ok = |url: &str| check_url(&url.parse().unwrap(), "the endpoint").is_ok();
        assert!(ok("https://auth.example.com/token"));
        assert!(ok("http://localhost:8080/token"));
        assert!(ok("http://127.0.0.1:9/token"));
        assert!(ok("http://[::1]:9/token"));
        assert!(!ok("http://auth.example.com/token"));
        assert!(!ok("http://10.0.0.1/token"));
        assert!(!ok("ftp://auth.example.com/token"));
        let error = check_url(&"http://auth.example.com/t".parse().unwrap(), "the token endpoint")
            .unwrap_err();
        assert!(error.starts_with("the token endpoint http://auth.example.com/t is plain http"));
    }
}
