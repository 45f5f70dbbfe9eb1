//! reqwest's client under rmcp's streamable HTTP transport, sending the
//! upstream's OAuth access token and reacting to the server's verdicts:
//! a 401 authorizes (once for a request) and sends it again, a 403
//! `insufficient_scope` steps up (at most
//! [`OAuthClient::with_max_step_ups`](super::OAuthClient::with_max_step_ups)
//! times for a request) and sends it again. The token goes only to the MCP
//! server's URL: rmcp's transport sends every request there, and this
//! client follows redirects to the same origin only (start.rs).
//!
//! rmcp's own `AuthClient` does the refresh and gives the 401 back to its
//! caller; here the whole flow runs inside the transport, so an
//! application's calls authorize as they go, and a connection started
//! again (`Connection`'s reconnection) keeps its tokens.

use super::flow::Authorizer;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::auth::AuthError;
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

type Error = StreamableHttpError<reqwest::Error>;

/// reqwest's client, with the upstream's authorization.
#[derive(Clone)]
pub(crate) struct WithOAuth {
    inner: reqwest::Client,
    authorizer: Arc<Authorizer>,
    max_step_ups: u32,
}

impl WithOAuth {
    /// `inner` sending `authorizer`'s tokens.
    pub(crate) fn new(inner: reqwest::Client, authorizer: Arc<Authorizer>, max_step_ups: u32) -> Self {
        WithOAuth {
            inner,
            authorizer,
            max_step_ups,
        }
    }

    /// Runs `call` with the current token, then as the server's verdicts
    /// say: authorized once after a 401, stepped up after each 403
    /// `insufficient_scope` up to the limit; any other answer (and the
    /// last refusal) is the request's.
    async fn send<T, F, Fut>(&self, call: F) -> Result<T, Error>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let mut token = self.authorizer.token().await.map_err(failed)?;
        let mut authorized = false;
        let mut step_ups = 0;
        loop {
            match call(token.clone()).await {
                Err(StreamableHttpError::AuthRequired(refusal)) if !authorized => {
                    authorized = true;
                    let challenge = &refusal.www_authenticate_header;
                    token = Some(
                        self.authorizer
                            .authorize(challenge, token.as_deref())
                            .await
                            .map_err(failed)?,
                    );
                }
                Err(StreamableHttpError::AuthRequired(refusal)) => {
                    return Err(failed(format!(
                        "the MCP server refused the access token it asked for (401 after \
                         the authorization): {}",
                        refusal.www_authenticate_header
                    )));
                }
                Err(StreamableHttpError::InsufficientScope(refusal))
                    if step_ups < self.max_step_ups =>
                {
                    step_ups += 1;
                    let challenge = &refusal.www_authenticate_header;
                    token = Some(
                        self.authorizer
                            .step_up(challenge, token.as_deref())
                            .await
                            .map_err(failed)?,
                    );
                }
                Err(StreamableHttpError::InsufficientScope(refusal)) => {
                    return Err(failed(format!(
                        "the MCP server still refuses for lack of scope after {step_ups} \
                         step-up authorizations: {}",
                        refusal.www_authenticate_header
                    )));
                }
                other => return other,
            }
        }
    }
}

/// Our message as the transport's error.
fn failed(message: String) -> Error {
    StreamableHttpError::Auth(AuthError::AuthorizationFailed(message))
}

impl StreamableHttpClient for WithOAuth {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        self.send(|token| {
            self.inner.post_message(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
    ) -> Result<StreamableHttpPostResponse, Error> {
        self.send(|token| {
            self.inner.post_message_with_max_sse_event_size(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
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
    ) -> Result<StreamableHttpPostResponse, Error> {
        self.send(|token| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                limits,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Error> {
        // Ending a session never starts an authorization: the current
        // token, or none.
        let token = self.authorizer.token().await.map_err(failed)?;
        self.inner
            .delete_session(uri, session_id, token, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, Error> {
        self.send(|token| {
            self.inner.get_stream(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
    ) -> Result<BoxedSseResponse, Error> {
        self.send(|token| {
            self.inner.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
