//! Federation: other MCP servers' tools served or called beside the
//! example tools, each server's under a prefix of its own
//! (`docs__read`). A server is a URL (streamable HTTP) or a command line
//! (stdio), optionally named: `docs=http://10.0.0.5:8080/mcp`,
//! `files=tool-examples mcp --root /srv`.

use std::io;
use std::time::Duration;
use tool_core::ToolRegistry;
use tool_mcp::client::{McpClient, Upstream};

/// The environment variable holding the bearer token for HTTP upstreams
/// (never a flag: a command line is visible to every user of the machine).
pub const UPSTREAM_TOKEN_VARIABLE: &str = "TOOL_EXAMPLES_UPSTREAM_TOKEN";

/// How long a remote call may take before it is answered `timed out`: a
/// server that hangs must not hang the caller.
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(120);

/// One `--upstream` value, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamSpec {
    /// The prefix of its tools' names (before `__`).
    pub prefix: String,
    /// Where the server is.
    pub target: Target,
}

/// A server's place: an HTTP endpoint, or a program to start on stdio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `http://host:port/mcp`.
    Url(String),
    /// The program and its arguments.
    Command(String, Vec<String>),
}

impl UpstreamSpec {
    /// Reads `[NAME=]URL` or `[NAME=]PROGRAM ARGS...` (split on whitespace).
    /// Without a name, the prefix is the URL's host and port or the
    /// program's file name, with anything but letters, digits, `_` and `-`
    /// written as `_`.
    ///
    /// ```
    /// use tool_examples::upstream::{Target, UpstreamSpec};
    ///
    /// let named = UpstreamSpec::parse("docs=http://10.0.0.5:8080/mcp").unwrap();
    /// assert_eq!(named.prefix, "docs");
    /// let local = UpstreamSpec::parse("/usr/bin/mcp-files --root /srv").unwrap();
    /// assert_eq!(local.prefix, "mcp-files");
    /// assert_eq!(local.target, Target::Command("/usr/bin/mcp-files".into(), vec!["--root".into(), "/srv".into()]));
    /// assert_eq!(UpstreamSpec::parse("http://127.0.0.1:9000/mcp").unwrap().prefix, "127_0_0_1_9000");
    /// ```
    pub fn parse(spec: &str) -> Result<Self, String> {
        let spec = spec.trim();
        let (name, rest) = match spec.split_once('=') {
            Some((name, rest)) if is_name(name) => (Some(name.to_owned()), rest.trim()),
            _ => (None, spec),
        };
        if rest.is_empty() {
            return Err(format!("'{spec}' names no server: give a URL or a command"));
        }
        let target = if rest.starts_with("http://") || rest.starts_with("https://") {
            Target::Url(rest.to_owned())
        } else {
            let mut words = rest.split_whitespace().map(str::to_owned);
            let program = words.next().unwrap_or_default();
            Target::Command(program, words.collect())
        };
        let prefix = name.unwrap_or_else(|| derived_prefix(&target));
        if prefix.is_empty() {
            return Err(format!(
                "'{spec}': give the server a name, as in NAME={rest}"
            ));
        }
        Ok(UpstreamSpec { prefix, target })
    }

    fn upstream(&self, token: Option<&str>) -> Upstream {
        let upstream = match &self.target {
            Target::Url(url) => {
                let upstream = Upstream::http(url.clone());
                match token {
                    Some(token) => upstream.with_bearer_token(token),
                    None => upstream,
                }
            }
            Target::Command(program, args) => Upstream::command(program, args),
        };
        upstream.with_timeout(UPSTREAM_TIMEOUT)
    }
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn derived_prefix(target: &Target) -> String {
    let raw = match target {
        Target::Url(url) => {
            let after_scheme = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
            after_scheme
                .split('/')
                .next()
                .unwrap_or_default()
                .to_owned()
        }
        Target::Command(program, _) => std::path::Path::new(program)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let mut prefix: String = raw
        .chars()
        .map(|c| if is_name(&c.to_string()) { c } else { '_' })
        .collect();
    prefix = prefix.trim_matches('_').to_owned();
    prefix
}

/// Connects to every upstream and registers its tools in `registry` under
/// its prefix (a prefix given twice gets `_2`, `_3`, ...). The clients are
/// returned: keep them for as long as the registry serves (dropping the
/// last handle of a stdio server stops it).
pub async fn add_upstreams(
    registry: &mut ToolRegistry,
    specs: &[UpstreamSpec],
) -> io::Result<Vec<McpClient>> {
    let token = upstream_token()?;
    let mut clients = Vec::with_capacity(specs.len());
    let mut prefixes: Vec<String> = Vec::new();
    for spec in specs {
        let prefix = unique(&spec.prefix, &prefixes);
        let client = McpClient::connect(spec.upstream(token.as_deref()))
            .await
            .map_err(|error| io::Error::other(format!("--upstream {}: {error}", spec.prefix)))?;
        let count = client
            .register_into(registry, Some(&prefix))
            .map_err(|error| io::Error::other(format!("--upstream {}: {error}", spec.prefix)))?;
        tracing::info!("upstream {prefix}: {count} tools, as {prefix}__<name>");
        prefixes.push(prefix);
        clients.push(client);
    }
    Ok(clients)
}

fn unique(prefix: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == prefix) {
        return prefix.to_owned();
    }
    (2..)
        .map(|n| format!("{prefix}_{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_default()
}

fn upstream_token() -> io::Result<Option<String>> {
    match std::env::var(UPSTREAM_TOKEN_VARIABLE) {
        Ok(token) if token.trim().is_empty() => Ok(None),
        Ok(token) => Ok(Some(token.trim().to_owned())),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{UPSTREAM_TOKEN_VARIABLE} is not UTF-8"),
        )),
    }
}
