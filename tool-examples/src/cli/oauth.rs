//! `mcp --http`'s OAuth flags: the server as an OAuth resource server
//! (`tool_mcp::OAuthConfig`). The three that say which tokens are accepted
//! go together: any one alone is a usage error naming the others.

use super::UsageError;
use clap::Args;
use clap::builder::NonEmptyStringValueParser;
use std::path::PathBuf;
use tool_core::ToolRegistry;
use tool_mcp::OAuthConfig;

/// `--oauth-issuer`: a deployment sets it once.
pub const OAUTH_ISSUER_VARIABLE: &str = "TOOL_EXAMPLES_OAUTH_ISSUER";
/// `--audience`.
pub const AUDIENCE_VARIABLE: &str = "TOOL_EXAMPLES_AUDIENCE";
/// `--jwks-file`: where a deployment mounts the issuer's keys.
pub const JWKS_FILE_VARIABLE: &str = "TOOL_EXAMPLES_JWKS_FILE";

/// Accept OAuth access tokens (JWTs) besides, or instead of, the static token.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(next_help_heading = "OAuth")]
pub struct OAuthArgs {
    #[allow(rustdoc::bare_urls)]
    /// Accept OAuth access tokens issued by URL, their `iss` (with --audience and --jwks-file)
    ///
    /// The server then serves its protected resource metadata (RFC 9728) at
    /// /.well-known/oauth-protected-resource, naming URL as its authorization server, and
    /// every 401 points there. A static token (--token-file) is still accepted beside them.
    #[arg(
        long = "oauth-issuer",
        value_name = "URL",
        requires_all = ["audience", "jwks_file"],
        requires = "http",
        env = OAUTH_ISSUER_VARIABLE,
        hide_env_values = true,
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub issuer: Option<String>,
    #[allow(rustdoc::bare_urls)]
    /// This server's canonical URI, which a token's `aud` must contain (RFC 8707)
    ///
    /// The URL clients reach the MCP endpoint at, such as https://mcp.example.com/mcp; also the
    /// metadata's `resource`.
    #[arg(
        long,
        value_name = "URI",
        requires_all = ["issuer", "jwks_file"],
        env = AUDIENCE_VARIABLE,
        hide_env_values = true,
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub audience: Option<String>,
    /// The issuer's public keys, a JWKS document, read again when the file changes
    ///
    /// Tokens must be signed by one of its keys (RS256, ES256 and the other asymmetric
    /// algorithms; never HMAC or none). Keys rotate without a restart: the file is looked at,
    /// at most once a second. A set with no keys, or a deleted file, accepts no token; one that
    /// becomes invalid keeps the last good keys for --credential-stale-limit, then none.
    #[arg(
        long = "jwks-file",
        value_name = "FILE",
        requires_all = ["issuer", "audience"],
        env = JWKS_FILE_VARIABLE,
        hide_env_values = true
    )]
    pub jwks_file: Option<PathBuf>,
    /// The scope read-only tools need [default: tools:read]
    #[arg(
        long = "read-scope",
        value_name = "SCOPE",
        requires = "issuer",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub read_scope: Option<String>,
    /// The scope every other tool needs; it includes the read scope [default: tools:write]
    #[arg(
        long = "write-scope",
        value_name = "SCOPE",
        requires = "issuer",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub write_scope: Option<String>,
    /// The scope TOOL needs, whatever its annotations say (repeatable)
    #[arg(
        long = "tool-scope",
        value_name = "TOOL=SCOPE",
        requires = "issuer",
        value_parser = parse_tool_scope
    )]
    pub tool_scopes: Vec<(String, String)>,
    /// Accept access tokens whose JWT typ is TYPE, instead of at+jwt alone (repeatable; any: every
    /// type, or none)
    ///
    /// RFC 9068 has resource servers refuse every JWT but an access token (typ at+jwt); for an
    /// authorization server that issues access tokens as JWT, say --token-type at+jwt --token-type
    /// JWT.
    #[arg(
        long = "token-type",
        value_name = "TYPE",
        requires = "issuer",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub token_types: Vec<String>,
    /// Require the claim NAME to be VALUE (or, an array, to hold it), before scopes (repeatable)
    ///
    /// Such as azp=the-one-client or groups=mcp-users; a token without it is refused.
    #[arg(
        long = "require-claim",
        value_name = "NAME=VALUE",
        requires = "issuer",
        value_parser = parse_required_claim
    )]
    pub required_claims: Vec<(String, String)>,
}

impl OAuthArgs {
    /// The library's configuration, when OAuth was asked for (clap has
    /// already checked that the issuer, the audience and the JWKS file come
    /// together).
    ///
    /// ```
    /// use tool_examples::cli::OAuthArgs;
    ///
    /// assert!(OAuthArgs::default().config().is_none());
    /// let args = OAuthArgs {
    ///     issuer: Some("https://auth.example.com".into()),
    ///     audience: Some("https://mcp.example.com/mcp".into()),
    ///     jwks_file: Some("/etc/mcp/jwks.json".into()),
    ///     read_scope: Some("files:read".into()),
    ///     ..OAuthArgs::default()
    /// };
    /// let config = args.config().unwrap();
    /// assert_eq!(config.scopes_supported(), ["files:read", "tools:write"]);
    /// ```
    pub fn config(&self) -> Option<OAuthConfig> {
        let (Some(issuer), Some(audience), Some(jwks)) =
            (&self.issuer, &self.audience, &self.jwks_file)
        else {
            return None;
        };
        let mut config = OAuthConfig::new(issuer, audience, jwks);
        if let Some(scope) = &self.read_scope {
            config = config.with_read_scope(scope);
        }
        if let Some(scope) = &self.write_scope {
            config = config.with_write_scope(scope);
        }
        for (tool, scope) in &self.tool_scopes {
            config = config.with_tool_scope(tool, scope);
        }
        if self.token_types.iter().any(|typ| typ == "any") {
            config = config.with_any_token_type();
        } else if !self.token_types.is_empty() {
            config = config.with_token_types(&self.token_types);
        }
        for (name, value) in &self.required_claims {
            config = config.with_required_claim(name, value);
        }
        Some(config)
    }

    /// Every `--tool-scope` names one of `tools`: a misspelt one would
    /// leave the tool it meant at the default scope and advertise a scope
    /// nothing needs. The usage error lists the tools.
    pub fn check_tools(&self, tools: &ToolRegistry) -> Result<(), UsageError> {
        let Some(config) = self.config() else {
            return Ok(());
        };
        config.check_tool_scopes(tools).map_err(|unknown| {
            UsageError::new(
                "mcp",
                format!("--tool-scope {}=...: {unknown}", unknown.name),
            )
        })
    }
}

/// `TOOL=SCOPE`, both non-empty.
fn parse_tool_scope(text: &str) -> Result<(String, String), String> {
    pair(text, "TOOL=SCOPE, such as write=files:write")
}

/// `NAME=VALUE`, both non-empty.
fn parse_required_claim(text: &str) -> Result<(String, String), String> {
    pair(text, "NAME=VALUE, such as azp=agent-7")
}

/// `LEFT=RIGHT`, both non-empty once trimmed; else says it is not `shape`.
fn pair(text: &str, shape: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((left, right)) if !left.trim().is_empty() && !right.trim().is_empty() => {
            Ok((left.trim().to_owned(), right.trim().to_owned()))
        }
        _ => Err(format!("'{text}' is not {shape}")),
    }
}
