//! An HTTP upstream's bearer token read from a file, and read again when
//! the file changes ([`Upstream::with_bearer_token_file`](super::Upstream::with_bearer_token_file)):
//! a token rotated by whoever writes the file (a secrets agent, an
//! operator) is sent from the next request on, with no restart and no new
//! connection to the upstream.
//!
//! rmcp's transport takes one `Authorization` value when it is built and
//! hands it to its HTTP client with every request; the client here is
//! reqwest's, wrapped to put the file's current token in its place. The
//! file is authoritative as the server's token file is
//! ([`crate::watched`]): emptied or deleted, no token is sent (the
//! upstream refuses, and the calls fail saying so); unreadable or
//! invalid, the last good token is sent for the stale limit, then none.

use crate::watched::Watched;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// How long an unreadable or invalid token file keeps sending its last
/// good token: the server's default for its own credential files.
pub(super) const STALE_LIMIT: Duration = Duration::from_secs(300);

/// reqwest's client, sending the token the file holds now.
#[derive(Clone)]
pub(super) struct TokenFromFile {
    inner: reqwest::Client,
    token: Arc<Watched<String>>,
}

impl TokenFromFile {
    /// `inner` with the token of the file at `path`; an error naming the
    /// file when it cannot be read or holds no usable token.
    pub(super) fn open(inner: reqwest::Client, path: &Path) -> std::io::Result<Self> {
        let token = Watched::open(path, "the upstream token file", parse_token, STALE_LIMIT)?;
        Ok(TokenFromFile {
            inner,
            token: Arc::new(token),
        })
    }

    /// The token to send now, whatever the transport was built with.
    fn current(&self) -> Option<String> {
        self.token.current().map(|token| token.as_ref().clone())
    }
}

/// A token file's token, without surrounding whitespace; `None` for an
/// empty file (no token is to be sent).
fn parse_token(bytes: &[u8]) -> Result<Option<String>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the token is not UTF-8".to_owned())?;
    let token = text.trim();
    if token.is_empty() {
        return Ok(None);
    }
    if !token.bytes().all(|byte| byte.is_ascii_graphic()) {
        return Err("the token must be visible ASCII without spaces".to_owned());
    }
    Ok(Some(token.to_owned()))
}

impl StreamableHttpClient for TokenFromFile {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.inner
            .post_message(uri, message, session_id, self.current(), custom_headers)
            .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.inner
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                self.current(),
                custom_headers,
                max_sse_event_size,
            )
            .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                self.current(),
                custom_headers,
                limits,
            )
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.inner
            .delete_session(uri, session_id, self.current(), custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, StreamableHttpError<Self::Error>> {
        self.inner
            .get_stream(
                uri,
                session_id,
                last_event_id,
                self.current(),
                custom_headers,
            )
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxedSseResponse, StreamableHttpError<Self::Error>> {
        self.inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                self.current(),
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::parse_token;

    #[test]
    fn a_token_file_holds_one_token_or_none() {
        assert_eq!(parse_token(b" s3cret \n"), Ok(Some("s3cret".to_owned())));
        assert_eq!(parse_token(b"\n"), Ok(None));
        assert!(parse_token(b"two words").is_err());
        assert!(parse_token(&[0xff]).is_err());
    }
}
