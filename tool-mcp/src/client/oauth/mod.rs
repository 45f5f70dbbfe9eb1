//! The client's OAuth (feature `client-oauth`): an HTTP upstream that
//! answers 401 is authorized as the MCP authorization spec (revision
//! 2025-11-25) describes, with the application's part, the person's step,
//! as a callback.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization>
//!
//! ```no_run
//! use tool_mcp::client::oauth::OAuthClient;
//! use tool_mcp::client::{McpClient, Upstream};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let oauth = OAuthClient::new("http://127.0.0.1:8976/callback", |url: String| async move {
//!     // Show `url` to the person (open their browser on it), and give
//!     // back the URL the authorization server sent the browser to:
//!     // http://127.0.0.1:8976/callback?code=...&state=...
//!     println!("open {url}");
//!     let redirect: String = wait_for_the_redirect().await?;
//!     Ok(redirect)
//! })
//! .with_client_metadata_url("https://app.example.com/oauth/client-metadata.json");
//! let client = McpClient::connect(Upstream::http("https://mcp.example.com/mcp").with_oauth(oauth)).await?;
//! # Ok(())
//! # }
//! # async fn wait_for_the_redirect() -> Result<String, Box<dyn std::error::Error + Send + Sync>> { todo!() }
//! ```
//!
//! What happens, and where the spec says so:
//!
//! - A request answered 401 starts the authorization, then is sent again
//!   with the token. The `WWW-Authenticate` header's `resource_metadata`
//!   (else the well-known URLs, with the MCP path then without) gives the
//!   protected resource metadata (RFC 9728), which names the authorization
//!   server; its metadata is found at RFC 8414's and OpenID discovery's
//!   URLs, path-insertion variants first ("Authorization Server Metadata
//!   Discovery"). The resource the metadata names must be this server.
//! - The client's identity, in the spec's order of preference ("Client
//!   Registration Approaches"): the credentials the application gives
//!   ([`OAuthClient::with_client_credentials`]); else a Client ID Metadata
//!   Document URL ([`OAuthClient::with_client_metadata_url`]) when the
//!   authorization server advertises `client_id_metadata_document_supported`;
//!   else dynamic client registration (RFC 7591) when it has a
//!   `registration_endpoint`; else an error saying none is possible.
//! - The authorization code with PKCE S256: an authorization server whose
//!   metadata lacks S256 in `code_challenge_methods_supported` is refused
//!   ("Authorization Code Protection"). The `resource` parameter (RFC
//!   8707) goes with the authorization and token requests, the `state` of
//!   the redirect is checked. The token endpoint is authenticated with
//!   `client_secret_basic`, or `client_secret_post` when the server lists
//!   only that, or not at all (`none`) for a client without a secret.
//! - Scopes: the 401's `scope`, else the resource metadata's
//!   `scopes_supported`, else none sent ("Scope Selection Strategy"). A 403
//!   with `error="insufficient_scope"` authorizes again for the scopes held
//!   and those it names, at most [`DEFAULT_MAX_STEP_UPS`] times for one
//!   request ("Scope Challenge Handling").
//! - Tokens live in a [`CredentialStore`] ([`InMemoryCredentialStore`]
//!   unless [`OAuthClient::with_token_store`] gives one), are refreshed
//!   when they expire, and a stored token from an earlier run is used (and
//!   refreshed) before the person is asked again.
//! - The servers are untrusted: every OAuth request is `https`, or `http`
//!   on loopback only, answers are read to 256 KiB at most, redirects are
//!   not followed to another origin (nor at all from the token endpoint),
//!   and the access token is sent to the MCP server only. Each failure is
//!   a [`ClientError::Connect`](super::ClientError::Connect) (or the call's
//!   failure) naming the server, the document or field, or the HTTP status.
//!
//! The protocol is rmcp's `auth` feature (`AuthorizationManager`,
//! `AuthorizationSession`, on the `oauth2` crate): it already does the
//! discovery order, the resource check, pre-registered and metadata
//! document client ids, PKCE, `resource`, the `state` and `iss` checks, the
//! token endpoint's authentication and the refresh, and is tested against
//! the same conformance suite by its authors; writing them again would be
//! a second copy to keep right. Ours: the HTTP policy above (rmcp's
//! `OAuthHttpClient`), the refusal of a server without S256 (rmcp
//! tolerates the field absent), the choice of the client's identity and
//! the dynamic registration (rmcp's drops the `token_endpoint_auth_method`
//! the server registered), the person's step as a callback, and the flow
//! inside the transport (rmcp's `AuthClient` hands the 401 back to its
//! caller), step-up and its limit included.

mod flow;
mod guard;
mod register;
mod transport;

pub(crate) use flow::Authorizer;
pub(crate) use transport::WithOAuth;

pub use rmcp::transport::auth::{
    AuthError, CredentialStore, InMemoryCredentialStore, StoredCredentials,
};

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// How many times one request may be authorized again for more scopes (a
/// 403 `insufficient_scope` each time) before its refusal is its answer:
/// with the first authorization, three times the person is asked at most.
pub const DEFAULT_MAX_STEP_UPS: u32 = 2;

/// The connect timeout of an upstream with OAuth, at least
/// ([`Upstream::with_oauth`](super::Upstream::with_oauth)): connecting
/// includes the person's step, logging in at the authorization server.
pub const OAUTH_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// The name a dynamically registered client gives itself, unless
/// [`OAuthClient::with_client_name`] says otherwise.
pub const DEFAULT_CLIENT_NAME: &str = "tool-mcp";

/// Why the person's step did not give a redirect: any error, shown in the
/// connection's or the call's failure.
pub type AuthorizeError = Box<dyn std::error::Error + Send + Sync>;

/// The person's step, as [`OAuthClient::new`] keeps it.
pub type AuthorizeFn = Arc<
    dyn Fn(String) -> Pin<Box<dyn Future<Output = Result<String, AuthorizeError>> + Send>>
        + Send
        + Sync,
>;

/// How an HTTP upstream is authorized: the redirect URI, the person's
/// step, and the client's identity and token store. Give it to
/// [`Upstream::with_oauth`](super::Upstream::with_oauth).
///
/// ```
/// use tool_mcp::client::oauth::{InMemoryCredentialStore, OAuthClient};
///
/// // A client registered with the authorization server beforehand.
/// let oauth = OAuthClient::new("http://127.0.0.1:8976/callback", |url: String| async move {
///     Err(format!("no person here to open {url}").into())
/// })
/// .with_client_credentials("my-app", "s3cret")
/// .with_token_store(InMemoryCredentialStore::new())
/// .with_max_step_ups(1);
/// // The secret never shows in logs.
/// assert!(!format!("{oauth:?}").contains("s3cret"));
/// ```
#[derive(Clone)]
pub struct OAuthClient {
    redirect_uri: String,
    authorize: AuthorizeFn,
    /// Pre-registered: the client id and its secret, if it has one.
    credentials: Option<(String, Option<String>)>,
    client_metadata_url: Option<String>,
    client_name: String,
    store: Arc<dyn CredentialStore>,
    max_step_ups: u32,
}

impl OAuthClient {
    /// Authorizes with `redirect_uri` (where the authorization server sends
    /// the person's browser back: `http://localhost:PORT/...` or
    /// `http://127.0.0.1:PORT/...` for an application on their machine,
    /// `https://...` otherwise) and `authorize`, the person's step: it gets
    /// the authorization URL, has the person open it (a browser), and gives
    /// back the redirect URL the browser was sent to, with its `code` and
    /// `state`. An error from it fails the authorization, and the request.
    ///
    /// ```
    /// use tool_mcp::client::oauth::OAuthClient;
    ///
    /// let oauth = OAuthClient::new("http://localhost:8976/callback", |url: String| async move {
    ///     eprintln!("open {url} in a browser, then paste where it sends you:");
    ///     let mut line = String::new();
    ///     std::io::stdin().read_line(&mut line)?;
    ///     Ok(line.trim().to_owned())
    /// });
    /// # let _ = oauth;
    /// ```
    pub fn new<F, Redirect>(redirect_uri: impl Into<String>, authorize: F) -> Self
    where
        F: Fn(String) -> Redirect + Send + Sync + 'static,
        Redirect: Future<Output = Result<String, AuthorizeError>> + Send + 'static,
    {
        OAuthClient {
            redirect_uri: redirect_uri.into(),
            authorize: Arc::new(move |url| Box::pin(authorize(url))),
            credentials: None,
            client_metadata_url: None,
            client_name: DEFAULT_CLIENT_NAME.to_owned(),
            store: Arc::new(InMemoryCredentialStore::new()),
            max_step_ups: DEFAULT_MAX_STEP_UPS,
        }
    }

    /// The confidential client registered with the authorization server
    /// beforehand: its id and secret. Preferred over a metadata document
    /// and over registration, as the spec says ("Client Registration
    /// Approaches": "Use pre-registered client information for the server
    /// if the client has it available").
    pub fn with_client_credentials(
        mut self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        self.credentials = Some((client_id.into(), Some(client_secret.into())));
        self
    }

    /// The public client registered with the authorization server
    /// beforehand, with no secret (the token endpoint's `none`): its id.
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.credentials = Some((client_id.into(), None));
        self
    }

    /// The URL of this application's Client ID Metadata Document (an
    /// `https` URL with a path, serving the JSON document that describes
    /// the client): used as the client id with an authorization server that
    /// advertises `client_id_metadata_document_supported`, instead of
    /// registering.
    pub fn with_client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// The `client_name` a dynamic registration sends
    /// ([`DEFAULT_CLIENT_NAME`] unless set).
    pub fn with_client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// Keeps the tokens (and the registered client id) in `store`: one of
    /// the application's, to keep them across runs (a keychain, a file);
    /// [`InMemoryCredentialStore`] by default. rmcp's trait, implemented
    /// with `#[async_trait]`.
    pub fn with_token_store(mut self, store: impl CredentialStore + 'static) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// How many step-ups one request may have ([`DEFAULT_MAX_STEP_UPS`]
    /// unless set; 0: a 403 `insufficient_scope` is the request's answer).
    pub fn with_max_step_ups(mut self, limit: u32) -> Self {
        self.max_step_ups = limit;
        self
    }

    /// The redirect URI given to [`OAuthClient::new`].
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// The step-up limit.
    pub(crate) fn max_step_ups(&self) -> u32 {
        self.max_step_ups
    }
}

impl fmt::Debug for OAuthClient {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("OAuthClient")
            .field("redirect_uri", &self.redirect_uri)
            .field(
                "client_id",
                &self.credentials.as_ref().map(|(id, _)| id.as_str()),
            )
            .field(
                "client_secret",
                &self
                    .credentials
                    .as_ref()
                    .and_then(|(_, secret)| secret.as_ref().map(|_| "<redacted>")),
            )
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_name", &self.client_name)
            .field("max_step_ups", &self.max_step_ups)
            .finish_non_exhaustive()
    }
}

/// The application's store, shared by every authorization of the upstream
/// (rmcp's manager takes its store by value).
struct SharedStore(Arc<dyn CredentialStore>);

#[async_trait::async_trait]
impl CredentialStore for SharedStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        self.0.load().await
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        self.0.save(credentials).await
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.0.clear().await
    }

    async fn on_refresh_token_rejected(
        &self,
        credentials: &StoredCredentials,
    ) -> Result<(), AuthError> {
        self.0.on_refresh_token_rejected(credentials).await
    }

    async fn acquire_refresh_guard(
        &self,
    ) -> Result<Option<rmcp::transport::auth::CredentialRefreshGuard>, AuthError> {
        self.0.acquire_refresh_guard().await
    }
}
