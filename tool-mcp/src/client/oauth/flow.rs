//! One upstream's authorization: what happens on a 401 (discovery, client
//! identity, the code flow), on a 403 `insufficient_scope` (step-up), and
//! before each request (the current token, refreshed when it expires).
//!
//! The protocol is rmcp's `AuthorizationManager`: it reads the
//! `WWW-Authenticate` challenge, fetches the protected resource metadata
//! (RFC 9728, the challenge's `resource_metadata` first, then the
//! well-known URLs with and without the MCP path) and the authorization
//! server's (RFC 8414 and OpenID discovery with the path-insertion variants,
//! in the spec's order), checks the resource the metadata names is this
//! server, takes the client identity it is given (pre-registered, or a
//! Client ID Metadata Document URL as the client id), makes the
//! authorization URL with PKCE S256, `state` and the RFC 8707
//! `resource`, checks the `state` (and RFC 9207 `iss`) of the redirect,
//! exchanges the code (`client_secret_basic`, or `client_secret_post` when
//! the server lists only that, or `none` for a public client), and refreshes.
//! What it does not do, and is done here:
//!
//! - Refuse an authorization server without S256 in
//!   `code_challenge_methods_supported`, the field absent included: rmcp
//!   proceeds without the field, the spec says "If
//!   `code_challenge_methods_supported` is absent, the authorization server
//!   does not support PKCE and MCP clients MUST refuse to proceed"
//!   (<https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection>).
//!   The same for a server with no metadata at all (rmcp's fallback to
//!   2025-03-26's default endpoints).
//! - The choice of the client's identity in the spec's order
//!   (pre-registered, then a Client ID Metadata Document URL when the
//!   server advertises `client_id_metadata_document_supported`, then RFC
//!   7591 registration: "Client Registration Approaches"), and the
//!   registration itself (register.rs: rmcp's drops the registered
//!   `token_endpoint_auth_method`).
//! - The person's step: the application's callback gets the authorization
//!   URL and gives back the redirect.
//! - Step-up on 403 (rmcp leaves when to re-authorize to its caller):
//!   "Scope Challenge Handling", the union of the scopes held and the
//!   challenge's, at most [`OAuthClient::with_max_step_ups`] times for one
//!   request, so a server that never accepts ends it
//!   (<https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling>).
//! - One authorization at a time for all of a connection's requests: those
//!   that got a 401 while another authorized take its token.

use super::guard::{self, Guarded};
use super::{OAuthClient, SharedStore};
use crate::client::start::with_causes;
use rmcp::transport::auth::{
    AuthError, AuthorizationCallback, AuthorizationManager, AuthorizationMetadata,
    AuthorizationMetadataSource, AuthorizationRequest, AuthorizationSession, OAuthClientConfig,
    WWWAuthenticateParams,
};
use std::sync::Arc;
use tokio::sync::Mutex;

/// The authorization of one HTTP upstream.
pub(crate) struct Authorizer {
    config: OAuthClient,
    /// The MCP server's URL: the protected resource.
    resource: reqwest::Url,
    http: Arc<Guarded>,
    /// After the first authorization: rmcp's manager, with the metadata,
    /// the client's identity and (in the store) the tokens.
    manager: Mutex<Option<AuthorizationManager>>,
}

impl Authorizer {
    /// For the MCP server at `url`, which must be `https` (or loopback).
    pub(crate) fn new(
        config: OAuthClient,
        url: &str,
        root_certificates: &[Vec<u8>],
    ) -> Result<Authorizer, String> {
        let resource = reqwest::Url::parse(url)
            .map_err(|error| format!("the MCP server's URL {url} is not a URL: {error}"))?;
        guard::check_url(&resource, "the MCP server")?;
        Ok(Authorizer {
            config,
            resource,
            http: Arc::new(Guarded::new(root_certificates)?),
            manager: Mutex::new(None),
        })
    }

    /// The token to send now: none before the first authorization (the
    /// server's 401 starts it), refreshed when it has expired (rmcp
    /// refreshes 30 s before); none when it expired and cannot be
    /// refreshed, so the server's 401 starts a new authorization.
    pub(crate) async fn token(&self) -> Result<Option<String>, String> {
        let manager = self.manager.lock().await;
        let Some(manager) = manager.as_ref() else {
            return Ok(None);
        };
        match manager.get_access_token().await {
            Ok(token) => Ok(Some(token)),
            Err(AuthError::AuthorizationRequired) => Ok(None),
            Err(error) => Err(self.failed("refreshing the access token", &error)),
        }
    }

    /// After a 401 with `challenge` (its `WWW-Authenticate`) to a request
    /// sent with `sent`: a token to send it again with.
    pub(crate) async fn authorize(
        &self,
        challenge: &str,
        sent: Option<&str>,
    ) -> Result<String, String> {
        let mut held = self.manager.lock().await;
        if let Some(manager) = held.as_ref() {
            // Another request authorized (or refreshed) while this one
            // waited; or the token was refused before it expired (revoked):
            // one refresh, and only a new token counts.
            if let Some(token) = fresh(manager.get_access_token().await, sent) {
                return Ok(token);
            }
            if manager.refresh_token().await.is_ok()
                && let Some(token) = fresh(manager.get_access_token().await, sent)
            {
                return Ok(token);
            }
        }
        let (mut manager, metadata) = self.discover(challenge).await?;
        if let Some(token) = self.stored_token(&mut manager, sent).await? {
            *held = Some(manager);
            return Ok(token);
        }
        let manager = self.code_flow(manager, metadata).await?;
        let token = manager
            .get_access_token()
            .await
            .map_err(|error| self.failed("reading the new access token", &error))?;
        *held = Some(manager);
        Ok(token)
    }

    /// After a 403 `insufficient_scope` with `challenge` to a request sent
    /// with `sent`: authorizes again for the scopes held and those the
    /// challenge asks, and gives the new token.
    pub(crate) async fn step_up(
        &self,
        challenge: &str,
        sent: Option<&str>,
    ) -> Result<String, String> {
        let held = self.manager.lock().await;
        let Some(manager) = held.as_ref() else {
            // A 403 before any authorization: a server that wants a token
            // answers 401; nothing to step up from.
            return Err(format!(
                "the MCP server at {} refused the request (403, {challenge}) before any \
                 authorization",
                self.resource
            ));
        };
        // rmcp's transport gives any 403 with a challenge as a lack of
        // scope; only `insufficient_scope` is one a new authorization may
        // cure (RFC 6750 section 3.1).
        let params = WWWAuthenticateParams::parse(challenge, &self.resource);
        if !params.is_insufficient_scope() {
            return Err(format!(
                "the MCP server at {} refused the request (403): {challenge}",
                self.resource
            ));
        }
        if let Some(token) = fresh(manager.get_access_token().await, sent) {
            return Ok(token); // another request stepped up meanwhile
        }
        let asked = params.scope.unwrap_or_default();
        let mut scopes = manager.get_current_scopes().await;
        for scope in asked.split_whitespace() {
            if !scopes.iter().any(|held| held == scope) {
                scopes.push(scope.to_owned());
            }
        }
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        tracing::info!(
            server = %self.resource,
            scopes = %scopes.join(" "),
            "the MCP server asks for more scopes (403 insufficient_scope): authorizing again"
        );
        let url = manager
            .get_authorization_url(&scopes)
            .await
            .map_err(|error| self.failed("making the step-up's authorization URL", &error))?;
        self.person_step(manager, &url).await?;
        manager
            .get_access_token()
            .await
            .map_err(|error| self.failed("reading the stepped-up access token", &error))
    }

    /// rmcp's manager for this resource, on our HTTP client and the
    /// application's store, with the authorization server's metadata found
    /// from `challenge` and checked.
    async fn discover(
        &self,
        challenge: &str,
    ) -> Result<(AuthorizationManager, AuthorizationMetadata), String> {
        let http: Arc<Guarded> = Arc::clone(&self.http);
        let mut manager =
            AuthorizationManager::new_with_oauth_http_client(self.resource.as_str(), http)
                .await
                .map_err(|error| self.failed("starting the authorization", &error))?;
        manager.set_credential_store(SharedStore(Arc::clone(&self.config.store)));
        let resolution = manager
            .resolve_metadata_from_challenge(Some(challenge))
            .await
            .map_err(|error| self.failed("discovering its authorization server", &error))?;
        if resolution.source == AuthorizationMetadataSource::LegacyEndpointFallback {
            return Err(format!(
                "the MCP server at {} asks for authorization (401) but publishes no protected \
                 resource metadata (RFC 9728) naming an authorization server with metadata \
                 (RFC 8414 or OpenID discovery)",
                self.resource
            ));
        }
        check_metadata(&resolution.metadata)?;
        manager.set_metadata(resolution.metadata.clone());
        Ok((manager, resolution.metadata))
    }

    /// A token the store holds for this server from before (another run),
    /// refreshed when it expired, unless it is the one just refused.
    async fn stored_token(
        &self,
        manager: &mut AuthorizationManager,
        sent: Option<&str>,
    ) -> Result<Option<String>, String> {
        let stored = manager
            .initialize_from_store()
            .await
            .map_err(|error| self.failed("reading the token store", &error))?;
        if !stored {
            return Ok(None);
        }
        // rmcp configures the stored client id alone; a confidential
        // client refreshes with its secret.
        if let Some((id, Some(secret))) = &self.config.credentials {
            let config = OAuthClientConfig::new(id.clone(), self.config.redirect_uri.clone())
                .with_client_secret(secret.clone());
            manager
                .configure_client(config)
                .map_err(|error| self.failed("configuring the client", &error))?;
        }
        Ok(fresh(manager.get_access_token().await, sent))
    }

    /// The authorization code flow: the client's identity, the person's
    /// step, the token.
    async fn code_flow(
        &self,
        mut manager: AuthorizationManager,
        mut metadata: AuthorizationMetadata,
    ) -> Result<AuthorizationManager, String> {
        let mut request = AuthorizationRequest::new(self.config.redirect_uri.clone())
            // Scopes: the 401's `scope`, else the resource metadata's
            // `scopes_supported`, else none sent ("Scope Selection
            // Strategy"); not the authorization server's list.
            .with_initial_scope_selection()
            .with_client_name(self.config.client_name.clone());
        // The client's identity, in the spec's order ("Client Registration
        // Approaches"): pre-registered, a metadata document the server
        // accepts, a registration.
        let metadata_document = metadata
            .additional_fields
            .get("client_id_metadata_document_supported")
            .and_then(serde_json::Value::as_bool)
            == Some(true);
        if let Some((id, secret)) = &self.config.credentials {
            request = request.with_preregistered_client(id.clone());
            if let Some(secret) = secret {
                request = request.with_client_secret(secret.clone());
            }
        } else if let Some(url) = self
            .config
            .client_metadata_url
            .as_ref()
            .filter(|_| metadata_document)
        {
            request = request.with_client_metadata_url(url.clone());
        } else if let Some(endpoint) = metadata.registration_endpoint.clone() {
            let scopes = manager.select_initial_scopes(&[]).await;
            let registered = super::register::register(
                &self.http,
                &endpoint,
                &self.config.client_name,
                &self.config.redirect_uri,
                &scopes,
            )
            .await
            .map_err(|error| format!("OAuth with the MCP server at {}: {error}", self.resource))?;
            // The token request authenticates as registered: rmcp picks
            // from the metadata's list, narrowed here to that method.
            if let Some(method) = &registered.method {
                metadata.additional_fields.insert(
                    "token_endpoint_auth_methods_supported".to_owned(),
                    serde_json::json!([method]),
                );
                manager.set_metadata(metadata);
            }
            request = request.with_preregistered_client(registered.client_id);
            if let Some(secret) = registered.client_secret {
                request = request.with_client_secret(secret);
            }
        } else {
            let server = metadata.issuer.unwrap_or(metadata.authorization_endpoint);
            return Err(format!(
                "OAuth with the MCP server at {}: no way to identify this client to the \
                 authorization server {server}: no client credentials were given \
                 (OAuthClient::with_client_credentials), {}, and its metadata has no \
                 registration_endpoint",
                self.resource,
                if self.config.client_metadata_url.is_none() {
                    "no client metadata document URL was given"
                } else {
                    "its metadata does not say client_id_metadata_document_supported"
                }
            ));
        }
        let session = AuthorizationSession::new(manager, request)
            .await
            .map_err(|(_, error)| self.failed("identifying the client", &error))?;
        let url = session.auth_url.clone();
        self.person_step(&session.auth_manager, &url).await?;
        Ok(session.auth_manager)
    }

    /// The person's step: the application's callback opens `url` and
    /// gives back the redirect, whose code `manager` exchanges (checking
    /// its `state` against the one it sent).
    async fn person_step(&self, manager: &AuthorizationManager, url: &str) -> Result<(), String> {
        let redirect = (self.config.authorize)(url.to_owned())
            .await
            .map_err(|error| format!("the authorization was not completed: {error}"))?;
        self.check_redirect(&redirect)?;
        let callback = AuthorizationCallback::from_redirect_url(&redirect)
            .map_err(|error| self.failed("reading the authorization's redirect", &error))?;
        manager
            .exchange_code_for_token_with_issuer(
                &callback.code,
                &callback.csrf_token,
                callback.issuer.as_deref(),
            )
            .await
            .map_err(|error| self.failed("exchanging the authorization code", &error))?;
        Ok(())
    }

    /// The redirect the callback gave goes to our redirect URI (scheme,
    /// host, port and path), and is not an error answer.
    fn check_redirect(&self, redirect: &str) -> Result<(), String> {
        let ours = reqwest::Url::parse(&self.config.redirect_uri).map_err(|error| {
            format!(
                "the redirect URI {} is not a URL: {error}",
                self.config.redirect_uri
            )
        })?;
        let got = reqwest::Url::parse(redirect).map_err(|error| {
            format!("the authorization's redirect {redirect:?} is not a URL: {error}")
        })?;
        if got.origin() != ours.origin() || got.path() != ours.path() {
            return Err(format!(
                "the authorization redirected to {}{}, not to the redirect URI {ours}",
                got.origin().ascii_serialization(),
                got.path()
            ));
        }
        if let Some((_, error)) = got.query_pairs().find(|(name, _)| name == "error") {
            let description = got
                .query_pairs()
                .find(|(name, _)| name == "error_description")
                .map(|(_, text)| format!(": {text}"))
                .unwrap_or_default();
            return Err(format!(
                "the authorization server refused the authorization: {error}{description}"
            ));
        }
        Ok(())
    }

    /// `error`, what was being done, and the server's URL.
    fn failed(&self, doing: &str, error: &AuthError) -> String {
        format!(
            "OAuth with the MCP server at {}: {doing}: {}",
            self.resource,
            with_causes(error)
        )
    }
}

/// `token` when it is one, and not the one `sent`.
fn fresh(token: Result<String, AuthError>, sent: Option<&str>) -> Option<String> {
    token.ok().filter(|token| Some(token.as_str()) != sent)
}

/// The authorization server's metadata, checked before any use: PKCE with
/// S256, and every endpoint https (or loopback).
fn check_metadata(metadata: &AuthorizationMetadata) -> Result<(), String> {
    let server = metadata
        .issuer
        .clone()
        .unwrap_or_else(|| metadata.authorization_endpoint.clone());
    match &metadata.code_challenge_methods_supported {
        Some(methods) if methods.iter().any(|method| method == "S256") => {}
        Some(methods) => {
            return Err(format!(
                "the authorization server {server} does not support PKCE with S256: its \
                 metadata's code_challenge_methods_supported is {methods:?} (MCP clients \
                 MUST use S256 and refuse to proceed without it)"
            ));
        }
        None => {
            return Err(format!(
                "the authorization server {server} does not say it supports PKCE: its \
                 metadata has no code_challenge_methods_supported (MCP clients MUST refuse \
                 to proceed without S256)"
            ));
        }
    }
    let endpoints = [
        ("authorization_endpoint", Some(&metadata.authorization_endpoint)),
        ("token_endpoint", Some(&metadata.token_endpoint)),
        ("registration_endpoint", metadata.registration_endpoint.as_ref()),
    ];
    for (field, value) in endpoints {
        let Some(value) = value else { continue };
        let url = reqwest::Url::parse(value).map_err(|error| {
            format!("the authorization server {server}'s {field} {value:?} is not a URL: {error}")
        })?;
        guard::check_url(&url, &format!("the authorization server {server}'s {field}"))?;
    }
    Ok(())
}
