//! `mcp --http`'s OAuth flags: the server as an OAuth resource server
//! (`tool_mcp::OAuthConfig`). The issuer and the audience go together:
//! either alone is a usage error naming the other. The keys come from the
//! issuer's metadata, or from `--jwks-file` where the issuer cannot be
//! reached; opaque tokens are introspected with `--introspection-url` and
//! `--introspection-credentials-file`, which also go together.

use super::UsageError;
use crate::late_upstream::{Later, later_upstream_of};
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
/// `--introspection-url`.
const INTROSPECTION_URL_VARIABLE: &str = "TOOL_EXAMPLES_INTROSPECTION_URL";
/// `--introspection-credentials-file`: where a deployment mounts the
/// server's client credentials.
const INTROSPECTION_CREDENTIALS_VARIABLE: &str = "TOOL_EXAMPLES_INTROSPECTION_CREDENTIALS_FILE";

/// Accept OAuth access tokens (JWTs) besides, or instead of, the static token.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(next_help_heading = "OAuth")]
pub struct OAuthArgs {
    #[allow(rustdoc::bare_urls)]
    /// Accept OAuth access tokens issued by URL, their `iss` (with --audience)
    ///
    /// The server then serves its protected resource metadata (RFC 9728) at
    /// /.well-known/oauth-protected-resource, naming URL as its authorization server, and
    /// every 401 points there. A static token (--token-file) is still accepted beside them.
    ///
    /// The keys that sign tokens are fetched from the issuer: its metadata
    /// (/.well-known/oauth-authorization-server, or openid-configuration) names its jwks_uri.
    /// URL must be https (http only to a loopback address). The keys are kept as their
    /// Cache-Control says (at least 30 s, at most an hour), fetched again for a token naming a
    /// new kid (at most every 30 s), and kept while the issuer is unreachable for at most
    /// --credential-stale-limit; a set with no keys accepts no token.
    #[arg(
        long = "oauth-issuer",
        value_name = "URL",
        requires = "audience",
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
        requires = "issuer",
        env = AUDIENCE_VARIABLE,
        hide_env_values = true,
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub audience: Option<String>,
    /// Read the issuer's public keys from FILE, a JWKS document, instead of fetching them
    ///
    /// For a server that cannot reach its issuer (air-gapped), or whose deployment writes the
    /// keys. Tokens must be signed by one of its keys (RS256, ES256 and the other asymmetric
    /// algorithms; never HMAC or none). Keys rotate without a restart: the file is looked at,
    /// at most once a second. A set with no keys, or a deleted file, accepts no token; one that
    /// becomes invalid keeps the last good keys for --credential-stale-limit, then none.
    #[arg(
        long = "jwks-file",
        value_name = "FILE",
        requires = "issuer",
        env = JWKS_FILE_VARIABLE,
        hide_env_values = true
    )]
    pub jwks_file: Option<PathBuf>,
    /// Introspect opaque access tokens (not JWTs) at URL, the issuer's RFC 7662 endpoint (with
    /// --introspection-credentials-file)
    ///
    /// A token is accepted if the answer is active, names --audience in its aud, and its exp,
    /// iss and required claims hold. Each answer is kept until the token expires, at most 60 s,
    /// so a token revoked at the issuer is refused within a minute. URL must be https (http
    /// only to a loopback address). JWTs are still checked against the keys.
    #[arg(
        long = "introspection-url",
        value_name = "URL",
        requires_all = ["issuer", "introspection_credentials_file"],
        env = INTROSPECTION_URL_VARIABLE,
        hide_env_values = true,
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub introspection_url: Option<String>,
    /// This server's client credentials at the issuer, for introspection: FILE holds
    /// CLIENT_ID:CLIENT_SECRET on one line
    ///
    /// Sent with HTTP Basic. The file is read again when it changes; emptied, no opaque token
    /// is accepted.
    #[arg(
        long = "introspection-credentials-file",
        value_name = "FILE",
        requires = "introspection_url",
        env = INTROSPECTION_CREDENTIALS_VARIABLE,
        hide_env_values = true
    )]
    pub introspection_credentials_file: Option<PathBuf>,
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
    /// already checked that the issuer and the audience come together):
    /// keys from the issuer, or from the JWKS file when one is named.
    ///
    /// ```
    /// use tool_examples::cli::OAuthArgs;
    ///
    /// assert!(OAuthArgs::default().config().is_none());
    /// let args = OAuthArgs {
    ///     issuer: Some("https://auth.example.com".into()),
    ///     audience: Some("https://mcp.example.com/mcp".into()),
    ///     read_scope: Some("files:read".into()),
    ///     ..OAuthArgs::default()
    /// };
    /// let config = args.config().unwrap();
    /// assert_eq!(config.scopes_supported(), ["files:read", "tools:write"]);
    /// assert_eq!(config.jwks_file(), None, "fetched from the issuer");
    /// ```
    pub fn config(&self) -> Option<OAuthConfig> {
        let (Some(issuer), Some(audience)) = (&self.issuer, &self.audience) else {
            return None;
        };
        let mut config = match &self.jwks_file {
            Some(jwks) => OAuthConfig::new(issuer, audience, jwks),
            None => OAuthConfig::from_issuer(issuer, audience),
        };
        if let (Some(url), Some(credentials)) = (
            &self.introspection_url,
            &self.introspection_credentials_file,
        ) {
            config = config.with_introspection(url, credentials);
        }
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
    /// nothing needs. The usage error lists the tools. A tool of an
    /// upstream still connecting (`later`) cannot be checked: naming one
    /// is a usage error saying so.
    pub fn check_tools(&self, tools: &ToolRegistry, later: &[Later]) -> Result<(), UsageError> {
        let Some(config) = self.config() else {
            return Ok(());
        };
        // A scope decided for a tool nobody has seen yet could not be
        // checked: the upstream must be there at the start.
        for (tool, _) in &self.tool_scopes {
            if let Some(upstream) = later_upstream_of(tool, later) {
                return Err(UsageError::new(
                    "mcp",
                    format!(
                        "--tool-scope {tool}=...: upstream {upstream} is not connected yet, and a \
                         scope for one of its tools needs it at the start"
                    ),
                ));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use clap::error::ErrorKind;

    /// The OAuth flags alone, as `mcp --http` has them.
    #[derive(Parser, Debug)]
    struct Flags {
        #[command(flatten)]
        oauth: OAuthArgs,
        /// What `requires = "http"` names.
        #[arg(long)]
        http: Option<String>,
    }

    const ISSUER: [&str; 6] = [
        "mcp",
        "--http",
        "0.0.0.0:8080",
        "--oauth-issuer",
        "https://auth.example.com",
        "--audience",
    ];

    fn parse(args: &[&str]) -> Result<OAuthArgs, clap::Error> {
        Flags::try_parse_from(args).map(|flags| flags.oauth)
    }

    /// The issuer and the audience, then `more`.
    fn with<'a>(more: &[&'a str]) -> Vec<&'a str> {
        let mut args = ISSUER.to_vec();
        args.push("https://mcp.example.com/mcp");
        args.extend(more);
        args
    }

    #[test]
    fn the_issuer_and_audience_alone_fetch_the_keys_from_the_issuer() {
        let config = parse(&with(&[]))
            .unwrap()
            .config()
            .expect("OAuth configured");
        assert_eq!(config.issuer(), "https://auth.example.com");
        assert_eq!(config.audience(), "https://mcp.example.com/mcp");
        assert_eq!(config.jwks_file(), None);

        let air_gapped = parse(&with(&["--jwks-file", "/etc/mcp/jwks.json"])).unwrap();
        let config = air_gapped.config().unwrap();
        assert_eq!(
            config.jwks_file(),
            Some(std::path::Path::new("/etc/mcp/jwks.json"))
        );

        // Either of the issuer and the audience alone names the other.
        let error = parse(&ISSUER[..5]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::MissingRequiredArgument);
        assert!(error.to_string().contains("--audience <URI>"), "{error}");
        let error = parse(&[
            "mcp",
            "--http",
            "x",
            "--audience",
            "https://mcp.example.com/mcp",
        ])
        .unwrap_err();
        assert!(
            error.to_string().contains("--oauth-issuer <URL>"),
            "{error}"
        );
        let error = parse(&["mcp", "--http", "x", "--jwks-file", "/k"]).unwrap_err();
        assert!(
            error.to_string().contains("--oauth-issuer <URL>"),
            "{error}"
        );
    }

    #[test]
    fn introspection_needs_its_url_and_credentials_together() {
        let both = parse(&with(&[
            "--introspection-url",
            "https://auth.example.com/introspect",
            "--introspection-credentials-file",
            "/run/secrets/introspection",
        ]))
        .unwrap();
        assert_eq!(
            both.introspection_url.as_deref(),
            Some("https://auth.example.com/introspect")
        );
        assert!(both.config().is_some());
        for (alone, missing) in [
            (
                ["--introspection-url", "https://auth.example.com/introspect"],
                "--introspection-credentials-file <FILE>",
            ),
            (
                [
                    "--introspection-credentials-file",
                    "/run/secrets/introspection",
                ],
                "--introspection-url <URL>",
            ),
        ] {
            let error = parse(&with(&alone)).unwrap_err();
            assert_eq!(
                error.kind(),
                ErrorKind::MissingRequiredArgument,
                "{alone:?}"
            );
            assert!(error.to_string().contains(missing), "{alone:?}: {error}");
        }
        let no_issuer = parse(&[
            "mcp",
            "--introspection-url",
            "https://auth.example.com/introspect",
            "--introspection-credentials-file",
            "/run/secrets/introspection",
        ])
        .unwrap_err();
        assert!(
            no_issuer.to_string().contains("--oauth-issuer <URL>"),
            "{no_issuer}"
        );
    }
}
