//! MCP authorization: the server as an OAuth 2.1 resource server, as the
//! specification describes
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization>;
//! the same rules in 2025-11-25,
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization>).
//! Its protected resource metadata (RFC 9728) names the authorization
//! server; access tokens are JWTs checked here against the issuer's keys
//! (fetched from it, or read from a JWKS file), with no call to the
//! authorization server per token; opaque tokens, when configured, are
//! asked about at its introspection endpoint (RFC 7662); each tool needs a
//! scope.

mod challenge;
mod fetch;
mod introspection;
mod issuer;
mod keys;
mod metadata;
mod scopes;
mod token;

pub(super) use metadata::Metadata;
pub use scopes::UnknownTool;
pub(crate) use scopes::{ScopeTable, check_tool_scopes};
pub(super) use token::Verifier;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How [`HttpServer::with_oauth`](crate::HttpServer::with_oauth) checks
/// OAuth access tokens: which authorization server issues them (`issuer`),
/// which resource they must be for (`audience`, this server's canonical
/// URI, RFC 8707), the keys that sign them (fetched from the issuer, or a
/// JWKS file), optionally where opaque tokens are introspected, and which
/// scope each tool needs.
///
/// ```
/// use tool_mcp::OAuthConfig;
///
/// // The keys from the issuer's metadata (its `jwks_uri`).
/// let oauth = OAuthConfig::from_issuer(
///     "https://auth.example.com",     // the `iss` of its tokens
///     "https://mcp.example.com/mcp",  // the `aud` they must contain
/// )
/// .with_read_scope("files:read")
/// .with_write_scope("files:write")
/// .with_tool_scope("delete", "files:admin");
/// assert_eq!(oauth.scopes_supported(), ["files:read", "files:write", "files:admin"]);
///
/// // Air-gapped: the keys from a file kept current by the deployment.
/// let offline = OAuthConfig::new(
///     "https://auth.example.com",
///     "https://mcp.example.com/mcp",
///     "/etc/mcp/jwks.json",
/// );
/// assert_eq!(offline.jwks_file(), Some(std::path::Path::new("/etc/mcp/jwks.json")));
/// ```
///
/// A token is accepted only if all of these hold:
///
/// - it came in the `Authorization: Bearer` header (one in the query
///   string, `?access_token=`, is refused: the specification forbids it);
/// - it is a JWS signed with an asymmetric algorithm (RS256, RS384, RS512,
///   PS256, PS384, PS512, ES256, ES384, EdDSA) by a key of the issuer's
///   key set: the key its `kid` names, or, with no `kid`, any key of the
///   set; `alg: none` and the HMAC algorithms are refused (a public key is
///   no secret), and a key's own `alg`, when the JWKS gives one, is the
///   only one it verifies;
/// - `iss` is the issuer, exactly;
/// - `aud` is, or contains, the audience, exactly;
/// - `exp` is present and not past, `nbf` (when present) not ahead, each
///   within the leeway ([`with_leeway`](Self::with_leeway), 30 s by default).
///
/// ## Keys from the issuer
///
/// With [`from_issuer`](Self::from_issuer), the server reads the issuer's
/// metadata where MCP clients look for it (RFC 8414's
/// `/.well-known/oauth-authorization-server`, put between the host and
/// the issuer's path, then OpenID Connect's `/.well-known/openid-configuration`),
/// uses it only if its `issuer` is the configured one exactly (RFC 8414
/// section 3.3), and fetches the key set its `jwks_uri` names. Only https
/// is fetched, or plain http to a loopback address (for a test or a local
/// issuer); redirects are not followed; each request has 5 s, and an
/// answer at most 256 KiB.
///
/// The key set is kept as long as its `Cache-Control: max-age` says, but
/// at least the key refresh interval
/// ([`with_key_refresh_interval`](Self::with_key_refresh_interval), 30 s)
/// and at most an hour (5 minutes when it says nothing), then fetched
/// again. A token whose `kid` the set lacks (the issuer rotated its key)
/// has the set fetched again at once, but at most once per key refresh
/// interval, so a flood of made-up `kid`s cannot hammer the issuer.
///
/// Fetching starts when the server does, on a task of its own; a request
/// that arrives before the first fetch ended waits for it (10 s at most).
///
/// ## The issuer or the file decides
///
/// A key set with no keys (`{"keys": []}`), fetched or in the file, or a
/// JWKS file deleted, accepts no token, at once (how a leaked key is
/// revoked). An issuer that cannot be reached or answers what is not a key
/// set, or a JWKS file that becomes unreadable or invalid, keeps the last
/// good set for the stale limit (5 minutes;
/// `HttpServer::with_credential_stale_limit`), with a warning each minute,
/// then accepts no token until a good set is back.
///
/// The JWKS file ([`new`](Self::new), for air-gapped setups) is looked at
/// again at most once a second as requests arrive, and read again when it
/// changed, so keys rotate without a restart: write the new set (old and
/// new keys) before the issuer signs with the new key, and drop the old
/// key once its tokens have expired.
///
/// ## Opaque tokens
///
/// A token that is not a JWT is refused, unless
/// [`with_introspection`](Self::with_introspection) names the issuer's
/// introspection endpoint (RFC 7662): it is then sent there (`POST`, this
/// server authenticated with HTTP Basic by the client credentials of a
/// file), and accepted if the answer says `active: true`, names this
/// audience in `aud`, and its `exp`, `nbf`, `iss` and required claims hold
/// as a JWT's would. Each answer, active or not, is kept (by the token's
/// SHA-256) until the token's `exp` and at most the introspection cache
/// limit ([`with_introspection_cache_limit`](Self::with_introspection_cache_limit),
/// 60 s): a token revoked at the issuer is refused within that time.
///
/// ```
/// use std::time::Duration;
/// use tool_mcp::OAuthConfig;
///
/// let oauth = OAuthConfig::from_issuer("https://auth.example.com", "https://mcp.example.com/mcp")
///     // The file holds `CLIENT_ID:CLIENT_SECRET`, read again when it changes.
///     .with_introspection(
///         "https://auth.example.com/oauth2/introspect",
///         "/etc/mcp/introspection-client",
///     )
///     .with_introspection_cache_limit(Duration::from_secs(30));
/// assert_eq!(oauth.jwks_file(), None);
/// ```
///
/// ## Scopes
///
/// A tool whose annotations say it is read-only needs the read scope
/// (`tools:read`), any other the write scope (`tools:write`), unless
/// [`with_tool_scope`](Self::with_tool_scope) names its own. A tool
/// imported from another MCP server needs the write scope whatever its
/// annotations say: they are that server's hints, which MCP says not to
/// trust unless the server is (`Upstream::with_trusted_hints`, or the
/// binary's `--upstream-trust NAME`, take its word; or name the tool's
/// scope). The write
/// scope includes the read scope (the specification asks servers to honour
/// such hierarchies): a token with `tools:write` may call read-only tools
/// too. `tools/list` shows a token only the tools it may call; calling
/// another is answered 403 with `error="insufficient_scope"` and the scope
/// it needs. The built-in `tool_search` (with deferred tools) is
/// read-only, so the read scope calls it, and it finds only the tools the
/// token may call: its calls run with only those enabled
/// ([`RunOptions::with_enabled`](tool_core::RunOptions::with_enabled),
/// within the server's own). The caller (`sub`, `client_id`, `iss`, the scopes) reaches the
/// before hook as [`BeforeCall::caller`](tool_core::executor::BeforeCall::caller).
#[derive(Clone, Debug)]
pub struct OAuthConfig {
    pub(crate) issuer: String,
    pub(crate) audience: String,
    pub(crate) keys: KeySource,
    /// The least time between two fetches of the issuer's keys outside
    /// their cache time (an unknown `kid`, a failed fetch).
    pub(crate) key_refresh_interval: Duration,
    pub(crate) introspection: Option<IntrospectionConfig>,
    pub(crate) introspection_cache_limit: Duration,
    pub(crate) read_scope: String,
    pub(crate) write_scope: String,
    pub(crate) tool_scopes: BTreeMap<String, String>,
    pub(crate) leeway: Duration,
    /// The JWT header `typ` values accepted (lowercase, without
    /// `application/`); `None`: any, or none at all.
    pub(crate) token_types: Option<Vec<String>>,
    /// Claims a token must carry with these values, checked before scopes.
    pub(crate) required_claims: Vec<(String, String)>,
}

/// Where the keys that sign tokens come from.
#[derive(Clone, Debug)]
pub(crate) enum KeySource {
    /// A JWKS file, read again when it changes.
    File(PathBuf),
    /// The issuer's metadata, then its `jwks_uri`.
    Issuer,
}

/// Where opaque tokens are introspected, and with which credentials.
#[derive(Clone, Debug)]
pub(crate) struct IntrospectionConfig {
    pub url: String,
    pub credentials_file: PathBuf,
}

/// A `typ` as compared: lowercase, without `application/`.
pub(crate) fn token_type(typ: &str) -> String {
    let typ = typ.trim().to_ascii_lowercase();
    typ.strip_prefix("application/")
        .map_or(typ.clone(), str::to_owned)
}

impl OAuthConfig {
    /// The scope a read-only tool needs, unless configured otherwise.
    pub const DEFAULT_READ_SCOPE: &str = "tools:read";
    /// The scope any other tool needs, unless configured otherwise.
    pub const DEFAULT_WRITE_SCOPE: &str = "tools:write";
    /// How far a token's `exp` and `nbf` may be off, by default: the
    /// clocks of the authorization server and of this one disagree a little.
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);
    /// The least time between two fetches of the issuer's keys that their
    /// cache time did not ask for, by default.
    pub const DEFAULT_KEY_REFRESH_INTERVAL: Duration = Duration::from_secs(30);
    /// The shortest key refresh interval accepted: anything shorter would
    /// let requests keep the issuer busy.
    pub const MIN_KEY_REFRESH_INTERVAL: Duration = Duration::from_millis(100);
    /// How long an introspection answer is kept at most, by default.
    pub const DEFAULT_INTROSPECTION_CACHE_LIMIT: Duration = Duration::from_secs(60);

    /// Tokens issued by `issuer` (their `iss`, exactly; the authorization
    /// server the metadata names), for `audience` (their `aud`: this
    /// server's canonical URI as clients name it in their `resource`
    /// parameter, such as `https://mcp.example.com/mcp`), signed by a key
    /// of the JWKS document in the file `jwks_file`: for a server that
    /// cannot reach its issuer (air-gapped), or whose deployment writes
    /// the keys. Checked when the server starts
    /// ([`HttpServer::run`](crate::HttpServer::run)).
    pub fn new(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        jwks_file: impl Into<PathBuf>,
    ) -> Self {
        Self::with_keys(
            issuer.into(),
            audience.into(),
            KeySource::File(jwks_file.into()),
        )
    }

    /// Tokens issued by `issuer`, for `audience` (as in [`new`](Self::new)),
    /// signed by a key of the set the issuer's metadata names
    /// (`jwks_uri`), fetched from it and kept current (see
    /// [Keys from the issuer](Self#keys-from-the-issuer)). `issuer` must be
    /// https (or http to a loopback address), without a query or fragment.
    pub fn from_issuer(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        Self::with_keys(issuer.into(), audience.into(), KeySource::Issuer)
    }

    fn with_keys(issuer: String, audience: String, keys: KeySource) -> Self {
        OAuthConfig {
            issuer,
            audience,
            keys,
            key_refresh_interval: Self::DEFAULT_KEY_REFRESH_INTERVAL,
            introspection: None,
            introspection_cache_limit: Self::DEFAULT_INTROSPECTION_CACHE_LIMIT,
            read_scope: Self::DEFAULT_READ_SCOPE.to_owned(),
            write_scope: Self::DEFAULT_WRITE_SCOPE.to_owned(),
            tool_scopes: BTreeMap::new(),
            leeway: Self::DEFAULT_LEEWAY,
            token_types: Some(vec![Self::ACCESS_TOKEN_TYPE.to_owned()]),
            required_claims: Vec::new(),
        }
    }

    /// The JWT `typ` of an access token (RFC 9068, section 2.1: "Resource
    /// servers MUST verify that the typ header value is at+jwt or
    /// application/at+jwt and reject tokens carrying any other value"),
    /// which is all that is accepted by default: an ID token or any other
    /// JWT the issuer signs is not an access token for this server.
    pub const ACCESS_TOKEN_TYPE: &str = "at+jwt";

    /// Accepts these JWT `typ` values instead of `at+jwt` alone, for an
    /// authorization server that does not follow RFC 9068 (some issue
    /// access tokens as `JWT`). Compared as RFC 8725 asks: without case,
    /// `application/` optional. Prefer keeping `at+jwt` among them, and
    /// an audience only access tokens carry.
    pub fn with_token_types(mut self, types: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.token_types = Some(
            types
                .into_iter()
                .map(|typ| token_type(&typ.into()))
                .collect(),
        );
        self
    }

    /// Accepts a token whatever its `typ`, or none: for an authorization
    /// server that sets none. Then only the audience tells an access token
    /// from the issuer's other JWTs (ID tokens carry the client as theirs).
    pub fn with_any_token_type(mut self) -> Self {
        self.token_types = None;
        self
    }

    /// Requires the claim `name` to be `value` (a string equal to it, or an
    /// array holding it, as `groups` is), checked before the scopes: a
    /// token without it is refused as not valid for this server. For an
    /// `azp` or `client_id` naming the one client allowed, a `groups`
    /// entry, a tenant. Repeat for more; all must hold.
    pub fn with_required_claim(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.required_claims.push((name.into(), value.into()));
        self
    }

    /// The scope read-only tools need (default `tools:read`).
    pub fn with_read_scope(mut self, scope: impl Into<String>) -> Self {
        self.read_scope = scope.into();
        self
    }

    /// The scope every other tool needs (default `tools:write`); it
    /// includes the read scope.
    pub fn with_write_scope(mut self, scope: impl Into<String>) -> Self {
        self.write_scope = scope.into();
        self
    }

    /// The scope the tool named `tool` needs, whatever its annotations say.
    pub fn with_tool_scope(mut self, tool: impl Into<String>, scope: impl Into<String>) -> Self {
        self.tool_scopes.insert(tool.into(), scope.into());
        self
    }

    /// How far `exp` and `nbf` may be off (default 30 s).
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The least time between two fetches of the issuer's keys that their
    /// `Cache-Control` did not ask for (default 30 s, at least
    /// [`MIN_KEY_REFRESH_INTERVAL`](Self::MIN_KEY_REFRESH_INTERVAL)): how
    /// soon a token with a `kid` the set lacks may have it fetched again,
    /// how soon a failed fetch is tried again, and the shortest time a set
    /// is kept. With [`from_issuer`](Self::from_issuer) only.
    pub fn with_key_refresh_interval(mut self, interval: Duration) -> Self {
        self.key_refresh_interval = interval;
        self
    }

    /// Introspects opaque tokens (those that are not JWTs) at `url`, the
    /// issuer's RFC 7662 endpoint (https, or http to a loopback address),
    /// authenticated as the client whose credentials the file
    /// `credentials_file` holds as `CLIENT_ID:CLIENT_SECRET` on one line
    /// (read again when it changes; emptied, no opaque token is accepted).
    /// JWTs are still checked against the keys, with no request.
    pub fn with_introspection(
        mut self,
        url: impl Into<String>,
        credentials_file: impl Into<PathBuf>,
    ) -> Self {
        self.introspection = Some(IntrospectionConfig {
            url: url.into(),
            credentials_file: credentials_file.into(),
        });
        self
    }

    /// How long an introspection answer is kept at most (default 60 s; and
    /// never past the token's `exp`): a token revoked at the issuer is
    /// refused within this time; a shorter one asks the issuer more often.
    /// Zero asks about every request.
    pub fn with_introspection_cache_limit(mut self, limit: Duration) -> Self {
        self.introspection_cache_limit = limit;
        self
    }

    /// The JWKS file the keys are read from; `None` when they are fetched
    /// from the issuer ([`from_issuer`](Self::from_issuer)).
    pub fn jwks_file(&self) -> Option<&Path> {
        match &self.keys {
            KeySource::File(path) => Some(path),
            KeySource::Issuer => None,
        }
    }

    /// The issuer its tokens must name.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The audience its tokens must name: this server's canonical URI.
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// The scopes the metadata lists (`scopes_supported`): the read scope,
    /// the write scope, then those of [`with_tool_scope`](Self::with_tool_scope),
    /// each once.
    pub fn scopes_supported(&self) -> Vec<String> {
        let mut scopes: Vec<String> = Vec::new();
        let all = [&self.read_scope, &self.write_scope]
            .into_iter()
            .chain(self.tool_scopes.values());
        for scope in all {
            if !scopes.contains(scope) {
                scopes.push(scope.clone());
            }
        }
        scopes
    }
}
