//! The protected resource metadata (RFC 9728,
//! <https://datatracker.ietf.org/doc/html/rfc9728>): which resource this
//! is, which authorization server issues its tokens, which scopes it uses,
//! and that tokens go in the `Authorization` header. Served with no token
//! at the well-known path, with and without the MCP endpoint's path as
//! suffix: MCP clients try both
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements>).

use super::OAuthConfig;
use super::challenge::Challenge;
use crate::http::MCP_PATH;
use hyper::Uri;
use hyper::body::Bytes;
use serde_json::json;

/// RFC 9728 section 3's well-known path.
pub(in crate::http) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The document, where it is served, and the challenges that point at it.
pub(in crate::http) struct Metadata {
    pub document: Bytes,
    /// The paths that answer it.
    paths: Vec<String>,
    pub challenge: Challenge,
}

impl Metadata {
    /// Checks `config`'s issuer, audience and scopes, and writes the
    /// document. The `resource` is the audience, so the token a client
    /// asks for with it (RFC 8707's `resource` parameter) is one this
    /// server accepts.
    pub(in crate::http) fn new(config: &OAuthConfig) -> std::io::Result<Metadata> {
        let audience = absolute_url("the audience", &config.audience)?;
        absolute_url("the issuer", &config.issuer)?;
        let scopes = config.scopes_supported();
        for scope in &scopes {
            check_scope(scope)?;
        }
        // RFC 9728 section 3.1: the well-known path goes between the
        // host and the resource's path.
        let path = audience.path().trim_end_matches('/');
        let origin = format!(
            "{}://{}",
            audience.scheme_str().unwrap_or("https"),
            audience
                .authority()
                .map_or("", |authority| authority.as_str())
        );
        let resource_metadata = format!("{origin}{WELL_KNOWN}{path}");
        let mut paths = vec![WELL_KNOWN.to_owned(), format!("{WELL_KNOWN}{MCP_PATH}")];
        let own = format!("{WELL_KNOWN}{path}");
        if !paths.contains(&own) {
            paths.push(own);
        }
        let document = json!({
            "resource": config.audience,
            "authorization_servers": [config.issuer],
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        });
        Ok(Metadata {
            document: Bytes::from(document.to_string()),
            paths,
            challenge: Challenge {
                resource_metadata,
                scopes: scopes.join(" "),
            },
        })
    }

    /// Whether `path` is one the document is served at.
    pub(in crate::http) fn serves(&self, path: &str) -> bool {
        self.paths.iter().any(|served| served == path)
    }

    /// The paths the document is served at.
    pub(in crate::http) fn paths(&self) -> &[String] {
        &self.paths
    }
}

/// An `http` or `https` URL with a host and no fragment, that fits in a
/// challenge's quotes.
fn absolute_url(what: &str, text: &str) -> std::io::Result<Uri> {
    let invalid = |why: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{what} {text:?} {why}"),
        )
    };
    if text.contains(['"', '\\', '#']) || !text.bytes().all(|byte| byte.is_ascii_graphic()) {
        return Err(invalid(
            "must be an absolute URL without a fragment, quotes or spaces",
        ));
    }
    let uri: Uri = text
        .parse()
        .map_err(|_| invalid("is not a URL (such as https://mcp.example.com/mcp)"))?;
    match uri.scheme_str() {
        Some("https" | "http") if uri.host().is_some_and(|host| !host.is_empty()) => Ok(uri),
        _ => Err(invalid(
            "must be an absolute http or https URL (such as https://mcp.example.com/mcp)",
        )),
    }
}

/// RFC 6749 section 3.3's scope-token: visible ASCII but `"` and `\`.
fn check_scope(scope: &str) -> std::io::Result<()> {
    if scope.is_empty()
        || !scope
            .bytes()
            .all(|byte| byte.is_ascii_graphic() && byte != b'"' && byte != b'\\')
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "the scope {scope:?} is not a scope name: visible ASCII without spaces, quotes or backslashes"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_puts_the_well_known_path_before_the_resources() {
        let config = OAuthConfig::new(
            "https://auth.example.com",
            "https://mcp.example.com/mcp",
            "k",
        );
        let metadata = Metadata::new(&config).unwrap();
        assert_eq!(
            metadata.challenge.resource_metadata,
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert!(metadata.serves("/.well-known/oauth-protected-resource"));
        assert!(metadata.serves("/.well-known/oauth-protected-resource/mcp"));
        assert!(!metadata.serves("/.well-known/oauth-protected-resource/other"));

        let proxied = OAuthConfig::new(
            "https://auth.example.com",
            "https://example.com:8443/team/mcp",
            "k",
        );
        let metadata = Metadata::new(&proxied).unwrap();
        assert_eq!(
            metadata.challenge.resource_metadata,
            "https://example.com:8443/.well-known/oauth-protected-resource/team/mcp"
        );
        assert!(metadata.serves("/.well-known/oauth-protected-resource/team/mcp"));

        let bare = OAuthConfig::new("https://auth.example.com", "https://mcp.example.com", "k");
        assert_eq!(
            Metadata::new(&bare).unwrap().challenge.resource_metadata,
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn urls_and_scopes_that_cannot_be_used_are_named() {
        for audience in [
            "mcp.example.com",
            "https://mcp.example.com/#x",
            "ftp://x/",
            "https://a b",
        ] {
            let config = OAuthConfig::new("https://auth.example.com", audience, "k");
            let error = Metadata::new(&config).err().unwrap().to_string();
            assert!(error.starts_with("the audience "), "{audience}: {error}");
        }
        let config = OAuthConfig::new("https://auth.example.com", "https://mcp.example.com", "k")
            .with_read_scope("read all");
        let error = Metadata::new(&config).err().unwrap().to_string();
        assert!(error.starts_with("the scope \"read all\""), "{error}");
    }
}
