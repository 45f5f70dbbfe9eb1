//! Federation: other MCP servers' tools served or called beside the
//! example tools, each server's under a prefix of its own
//! (`docs__read`). A server is a URL (streamable HTTP) or a command line
//! (stdio), optionally named: `docs=http://10.0.0.5:8080/mcp`,
//! `files=tool-examples mcp --root /srv`.
//!
//! A stdio upstream starts with a minimal environment
//! ([`tool_mcp::client::INHERITED_ENV`]) plus the `--upstream-env`
//! variables ([`UpstreamEnv`]), never this program's own settings and
//! secrets. An HTTP upstream is sent its own token, read from its
//! `--upstream-token-file` ([`TokenFile`]), else
//! [`UPSTREAM_TOKEN_VARIABLE`]'s. A remote call that takes longer than
//! [`tool_mcp::client::DEFAULT_CALL_TIMEOUT`] is answered `timed out`.

use crate::token_file::read_token_file;
use std::io;
use std::path::PathBuf;
use tool_core::ToolRegistry;
use tool_mcp::client::{McpClient, Upstream};

/// The environment variable holding the bearer token for HTTP upstreams
/// that have no `--upstream-token-file` of their own (never a flag: a
/// command line is visible to every user of the machine).
pub const UPSTREAM_TOKEN_VARIABLE: &str = "TOOL_EXAMPLES_UPSTREAM_TOKEN";

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

    /// The library's upstream: an HTTP one with `token`, a command with the
    /// `env` variables, in order.
    fn upstream(&self, token: Option<&UpstreamToken>, env: &[UpstreamEnv]) -> Upstream {
        match &self.target {
            Target::Url(url) => {
                let upstream = Upstream::http(url.clone());
                match token {
                    Some(UpstreamToken::Shared(token)) => upstream.with_bearer_token(token),
                    // Read again when it changes: rotated without a restart.
                    Some(UpstreamToken::File(path)) => upstream.with_bearer_token_file(path),
                    None => upstream,
                }
            }
            Target::Command(program, args) => {
                env.iter()
                    .fold(
                        Upstream::command(program, args),
                        |upstream, variable| match variable {
                            UpstreamEnv::Set(name, value) => upstream.with_env(name, value),
                            UpstreamEnv::Inherit(name) => upstream.with_inherited_env(name),
                        },
                    )
            }
        }
    }
}

/// One `--upstream-env` value: a variable every stdio upstream gets besides
/// the minimal environment ([`tool_mcp::client::INHERITED_ENV`]), for what
/// a server needs (its API key, a proxy) and is not given by default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpstreamEnv {
    /// `NAME=VALUE`: set to this value.
    Set(String, String),
    /// `NAME`: this program's own value, when it has one, so a secret need
    /// not be written on the command line.
    Inherit(String),
}

impl UpstreamEnv {
    /// Reads `NAME=VALUE` or `NAME`: clap's value parser of
    /// `--upstream-env`. NAME is a portable variable name (letters, digits
    /// and `_`, not starting with a digit); VALUE is everything after the
    /// first `=`, and may be empty.
    ///
    /// ```
    /// use tool_examples::upstream::UpstreamEnv;
    ///
    /// assert_eq!(
    ///     UpstreamEnv::parse("LOG_LEVEL=debug").unwrap(),
    ///     UpstreamEnv::Set("LOG_LEVEL".into(), "debug".into())
    /// );
    /// assert_eq!(
    ///     UpstreamEnv::parse("URL=http://x/?a=b").unwrap(),
    ///     UpstreamEnv::Set("URL".into(), "http://x/?a=b".into())
    /// );
    /// assert_eq!(
    ///     UpstreamEnv::parse("GITHUB_TOKEN").unwrap(),
    ///     UpstreamEnv::Inherit("GITHUB_TOKEN".into())
    /// );
    /// assert_eq!(
    ///     UpstreamEnv::parse("=x").unwrap_err(),
    ///     "'=x' names no variable: give NAME=VALUE, or NAME to pass this program's own value on"
    /// );
    /// assert_eq!(
    ///     UpstreamEnv::parse("MY VAR=1").unwrap_err(),
    ///     "'MY VAR' is not a variable name: use letters, digits and _, not starting with a digit"
    /// );
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let (name, value) = match text.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(format!(
                "'{text}' names no variable: give NAME=VALUE, or NAME to pass this program's own \
                 value on"
            ));
        }
        let portable = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if !portable {
            return Err(format!(
                "'{name}' is not a variable name: use letters, digits and _, not starting with a \
                 digit"
            ));
        }
        Ok(match value {
            Some(value) => UpstreamEnv::Set(name.to_owned(), value.to_owned()),
            None => UpstreamEnv::Inherit(name.to_owned()),
        })
    }
}

/// One `--upstream-token-file` value: the file holding the bearer token of
/// one HTTP upstream, so that each can have its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenFile {
    /// The upstream's name: the prefix of its tools, as `--upstream` gives
    /// it (`docs` for `--upstream docs=http://...`).
    pub upstream: String,
    /// The file; its content, without surrounding whitespace, is the token.
    pub path: PathBuf,
}

impl TokenFile {
    /// Reads `NAME=FILE`: clap's value parser of `--upstream-token-file`.
    /// Only the shape is checked here; the file is read when the upstreams
    /// are connected ([`add_upstreams`]), which also checks that NAME is an
    /// HTTP upstream.
    ///
    /// ```
    /// use tool_examples::upstream::TokenFile;
    ///
    /// let file = TokenFile::parse("docs=/run/secrets/docs-token").unwrap();
    /// assert_eq!(file.upstream, "docs");
    /// assert_eq!(file.path, std::path::Path::new("/run/secrets/docs-token"));
    /// assert_eq!(
    ///     TokenFile::parse("/run/secrets/docs-token").unwrap_err(),
    ///     "'/run/secrets/docs-token' names no upstream: give NAME=FILE, NAME being the \
    ///      upstream's name as --upstream gives it"
    /// );
    /// assert_eq!(
    ///     TokenFile::parse("docs=").unwrap_err(),
    ///     "'docs=' names no file: give NAME=FILE"
    /// );
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let Some((name, path)) = text.split_once('=').filter(|(name, _)| is_name(name)) else {
            return Err(format!(
                "'{text}' names no upstream: give NAME=FILE, NAME being the upstream's name as \
                 --upstream gives it"
            ));
        };
        if path.is_empty() {
            return Err(format!("'{text}' names no file: give NAME=FILE"));
        }
        Ok(TokenFile {
            upstream: name.to_owned(),
            path: PathBuf::from(path),
        })
    }

    /// How errors and warnings name it: as it was given.
    fn label(&self) -> String {
        format!(
            "--upstream-token-file {}={}",
            self.upstream,
            self.path.display()
        )
    }
}

/// What the upstreams get besides their `--upstream` values: the
/// variables of every stdio upstream (`--upstream-env`, in order, a later
/// one winning) and the token files of HTTP upstreams
/// (`--upstream-token-file`).
///
/// ```
/// use tool_examples::upstream::{TokenFile, UpstreamEnv, UpstreamSettings};
///
/// let settings = UpstreamSettings {
///     env: vec![UpstreamEnv::parse("HTTPS_PROXY").unwrap()],
///     token_files: vec![TokenFile::parse("docs=/run/secrets/docs-token").unwrap()],
///     trusted: vec!["docs".to_owned()],
/// };
/// assert_ne!(settings, UpstreamSettings::default());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpstreamSettings {
    /// Added to every stdio upstream's environment.
    pub env: Vec<UpstreamEnv>,
    /// At most one per HTTP upstream.
    pub token_files: Vec<TokenFile>,
    /// The upstreams (by name) whose tools' annotations are taken as
    /// true; every other upstream's are hints that decide nothing.
    pub trusted: Vec<String>,
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
/// its prefix (a prefix given twice gets `_2`, `_3`, ...), each with what
/// `settings` gives it. The token files are checked and read before any
/// upstream is started: one naming no upstream, or a stdio one, or an
/// upstream that already has one, is an error naming it; so is an empty
/// or unreadable file. The clients are returned: keep them for as long as
/// the registry serves (dropping the last handle of a stdio server stops
/// it).
///
/// ```no_run
/// use tool_core::ToolRegistry;
/// use tool_examples::upstream::{TokenFile, UpstreamSettings, UpstreamSpec, add_upstreams};
///
/// # async fn run() -> std::io::Result<()> {
/// let specs = [
///     UpstreamSpec::parse("docs=https://docs.example.com/mcp").unwrap(),
///     UpstreamSpec::parse("git=mcp-git --repo .").unwrap(),
/// ];
/// let settings = UpstreamSettings {
///     token_files: vec![TokenFile::parse("docs=/run/secrets/docs-token").unwrap()],
///     ..UpstreamSettings::default()
/// };
/// let mut tools = ToolRegistry::new();
/// let _clients = add_upstreams(&mut tools, &specs, &settings).await?;
/// # Ok(())
/// # }
/// ```
pub async fn add_upstreams(
    registry: &mut ToolRegistry,
    specs: &[UpstreamSpec],
    settings: &UpstreamSettings,
) -> io::Result<Vec<McpClient>> {
    let mut clients = Vec::with_capacity(specs.len());
    for (prefix, upstream) in prepare(specs, settings)? {
        let client = McpClient::connect(upstream)
            .await
            .map_err(|error| io::Error::other(format!("--upstream {prefix}: {error}")))?;
        register(&client, registry, &prefix, &[])?;
        clients.push(client);
    }
    Ok(clients)
}

/// Each upstream as the library connects to it, under its prefix (a
/// prefix given twice gets `_2`, `_3`, ...): its token, its environment,
/// whether its hints are trusted. The token files are checked and read
/// first; a mistake in them or in `--upstream-trust` is an error naming
/// it, before any upstream is started.
pub(crate) fn prepare(
    specs: &[UpstreamSpec],
    settings: &UpstreamSettings,
) -> io::Result<Vec<(String, Upstream)>> {
    let mut prefixes: Vec<String> = Vec::with_capacity(specs.len());
    for spec in specs {
        let prefix = unique(&spec.prefix, &prefixes);
        prefixes.push(prefix);
    }
    let tokens = tokens(specs, &prefixes, &settings.token_files, upstream_token()?)?;
    check_trusted(&settings.trusted, &prefixes)?;
    let mut prepared = Vec::with_capacity(specs.len());
    for ((spec, prefix), token) in specs.iter().zip(prefixes).zip(&tokens) {
        let mut upstream = spec.upstream(token.as_ref(), &settings.env);
        if settings.trusted.contains(&prefix) {
            upstream = upstream.with_trusted_hints();
            tracing::info!(
                "upstream {prefix}: its tools' annotations are trusted (--upstream-trust)"
            );
        }
        prepared.push((prefix, upstream));
    }
    Ok(prepared)
}

/// Registers `client`'s tools in `registry` as `{prefix}__<name>`, those
/// not named in `core` deferred when `core` names any of this upstream's
/// tools or any tool at all (`--defer-all-except`).
pub(crate) fn register(
    client: &McpClient,
    registry: &mut ToolRegistry,
    prefix: &str,
    core: &[String],
) -> io::Result<usize> {
    let failed =
        |error: &dyn std::fmt::Display| io::Error::other(format!("--upstream {prefix}: {error}"));
    let count = if core.is_empty() {
        client
            .register_into(registry, Some(prefix))
            .map_err(|error| failed(&error))?
    } else {
        let mut own = ToolRegistry::new();
        let count = client
            .register_into(&mut own, Some(prefix))
            .map_err(|error| failed(&error))?;
        let kept: Vec<String> = core
            .iter()
            .filter(|name| own.get(name).is_some())
            .cloned()
            .collect();
        let ours = format!("{prefix}{}", tool_mcp::client::PREFIX_SEPARATOR);
        for missing in core
            .iter()
            .filter(|name| name.starts_with(&ours) && own.get(name).is_none())
        {
            tracing::error!(
                "--defer-all-except {missing}: upstream {prefix} has no such tool; its tools \
                 are all deferred"
            );
        }
        let set = tool_core::toolset::IntoToolset::into_toolset(own).deferred_except(&kept);
        registry.register_all(set).map_err(|error| failed(&error))?;
        count
    };
    tracing::info!("upstream {prefix}: {count} tools, as {prefix}__<name>");
    Ok(count)
}

/// Where an HTTP upstream's token comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum UpstreamToken {
    /// [`UPSTREAM_TOKEN_VARIABLE`]'s, the same for every HTTP upstream
    /// without a file.
    Shared(String),
    /// Its own `--upstream-token-file`, read again when it changes.
    File(PathBuf),
}

/// Each upstream's token, by position: its own file's, else (HTTP only)
/// `shared`, [`UPSTREAM_TOKEN_VARIABLE`]'s.
fn tokens(
    specs: &[UpstreamSpec],
    prefixes: &[String],
    files: &[TokenFile],
    shared: Option<String>,
) -> io::Result<Vec<Option<UpstreamToken>>> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    let mut own: Vec<Option<&TokenFile>> = vec![None; specs.len()];
    for file in files {
        let Some(index) = prefixes.iter().position(|prefix| *prefix == file.upstream) else {
            let names = if prefixes.is_empty() {
                "there is none".to_owned()
            } else {
                format!("the upstreams are {}", prefixes.join(", "))
            };
            return Err(invalid(format!(
                "{}: no --upstream is named {} ({names})",
                file.label(),
                file.upstream
            )));
        };
        if let Target::Command(..) = specs[index].target {
            return Err(invalid(format!(
                "{}: {} is a stdio upstream (a command), which is sent no token; give it \
                 variables with --upstream-env",
                file.label(),
                file.upstream
            )));
        }
        if let Some(first) = own[index] {
            return Err(invalid(format!(
                "{}: {} already has a token file ({})",
                file.label(),
                file.upstream,
                first.path.display()
            )));
        }
        own[index] = Some(file);
    }
    specs
        .iter()
        .zip(own)
        .map(|(spec, file)| match (file, &spec.target) {
            // Read now to refuse a bad file before anything starts; the
            // client reads it again as it changes.
            (Some(file), _) => read_token_file(&file.label(), &file.path)
                .map(|_| Some(UpstreamToken::File(file.path.clone()))),
            (None, Target::Url(_)) => Ok(shared.clone().map(UpstreamToken::Shared)),
            (None, Target::Command(..)) => Ok(None),
        })
        .collect()
}

/// Every `--upstream-trust` must name an upstream: a misspelt name would
/// leave the upstream untrusted without a word.
fn check_trusted(trusted: &[String], prefixes: &[String]) -> io::Result<()> {
    for name in trusted {
        if !prefixes.contains(name) {
            let names = if prefixes.is_empty() {
                "there is none".to_owned()
            } else {
                format!("the upstreams are {}", prefixes.join(", "))
            };
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("--upstream-trust {name}: no --upstream is named {name} ({names})"),
            ));
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_http_upstream_s_own_file_wins_over_the_shared_token() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("docs-token");
        std::fs::write(&path, "docs-own\n").unwrap();
        let specs = [
            UpstreamSpec::parse("docs=http://127.0.0.1:9/mcp").unwrap(),
            UpstreamSpec::parse("wiki=https://wiki.example/mcp").unwrap(),
            UpstreamSpec::parse("git=mcp-git --repo .").unwrap(),
        ];
        let prefixes: Vec<String> = specs.iter().map(|spec| spec.prefix.clone()).collect();
        let files = [TokenFile {
            upstream: "docs".to_owned(),
            path: path.clone(),
        }];
        assert_eq!(
            tokens(&specs, &prefixes, &files, Some("shared".to_owned())).unwrap(),
            [
                Some(UpstreamToken::File(path.clone())),
                Some(UpstreamToken::Shared("shared".to_owned())),
                None
            ]
        );
        // A file that cannot be read is refused before anything starts.
        std::fs::remove_file(&path).unwrap();
        assert!(tokens(&specs, &prefixes, &files, None).is_err());
        assert_eq!(
            tokens(&specs, &prefixes, &[], None).unwrap(),
            [None, None, None]
        );
    }

    #[test]
    fn a_token_file_names_an_upstream_by_the_prefix_its_tools_get() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "second").unwrap();
        // Two upstreams named alike: the second one's tools are docs_2__*.
        let specs = [
            UpstreamSpec::parse("docs=http://127.0.0.1:9/mcp").unwrap(),
            UpstreamSpec::parse("docs=http://127.0.0.1:10/mcp").unwrap(),
        ];
        let prefixes = ["docs".to_owned(), "docs_2".to_owned()];
        let files = [TokenFile {
            upstream: "docs_2".to_owned(),
            path: path.clone(),
        }];
        assert_eq!(
            tokens(&specs, &prefixes, &files, None).unwrap(),
            [None, Some(UpstreamToken::File(path))]
        );
    }
}
