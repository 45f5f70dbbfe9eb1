//! Each command's flags. A field's doc comment is its `--help` text; its
//! first line is what `-h` shows.

use super::format::Format;
use super::{HTTP_VARIABLE, ROOT_VARIABLE, TOKEN_FILE_VARIABLE};
use crate::upstream::UpstreamSpec;
use clap::Args;
use clap::builder::NonEmptyStringValueParser;
use std::net::SocketAddr;
use std::path::PathBuf;

/// `--root`, which `call` and `mcp` share: where the `Files` tools are
/// rooted.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// The directory `read` and `list` may look in
    #[arg(
        long = "root",
        value_name = "DIR",
        default_value = ".",
        env = ROOT_VARIABLE,
        hide_env_values = true
    )]
    pub dir: PathBuf,
}

/// `call`: the JSON-lines runner.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct CallArgs {
    #[command(flatten)]
    pub root: Root,
    /// Run one call at a time, in input order
    #[arg(long)]
    pub sequential: bool,
    /// Repair near-miss arguments, visibly
    ///
    /// "2" for 2, JSON text for an object, one value for a list, "Fast" for "fast", empty for
    /// {}; each repair is listed in the result's "repairs" and told to the model.
    #[arg(long)]
    pub repair: bool,
    /// Also call another MCP server's tools, as PREFIX__name (repeatable)
    ///
    /// SERVER is [NAME=]URL (streamable HTTP) or [NAME=]"PROGRAM ARGS" (stdio); the prefix is
    /// NAME, else the URL's host and port or the program's name.
    #[arg(long = "upstream", value_name = "SERVER", value_parser = UpstreamSpec::parse)]
    pub upstreams: Vec<UpstreamSpec>,
}

/// `definitions`: what a model is shown.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct DefinitionsArgs {
    /// The provider whose format the definitions are written in
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "neutral")]
    pub format: Format,
}

/// `mcp`: the server. The HTTP-only flags need `--http` (or its variable).
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct McpArgs {
    #[command(flatten)]
    pub root: Root,
    /// Also serve another MCP server's tools, as PREFIX__name (repeatable)
    ///
    /// SERVER is [NAME=]URL (streamable HTTP) or [NAME=]"PROGRAM ARGS" (stdio); the prefix is
    /// NAME, else the URL's host and port or the program's name.
    #[arg(long = "upstream", value_name = "SERVER", value_parser = UpstreamSpec::parse)]
    pub upstreams: Vec<UpstreamSpec>,
    /// Serve streamable HTTP on ADDR, such as 127.0.0.1:8080, instead of stdio
    #[arg(long, value_name = "ADDR", env = HTTP_VARIABLE, hide_env_values = true)]
    pub http: Option<SocketAddr>,
    /// Require `Authorization: Bearer <token>`, the token read from PATH
    ///
    /// Surrounding whitespace is ignored. Without it, the token is TOOL_EXAMPLES_TOKEN's, if set.
    /// The token itself is never accepted on the command line, where other users can see it.
    #[arg(
        long,
        value_name = "PATH",
        requires = "http",
        env = TOKEN_FILE_VARIABLE,
        hide_env_values = true
    )]
    pub token_file: Option<PathBuf>,
    /// A host name clients will put in the URL, HOST or HOST:PORT (repeatable)
    ///
    /// Loopback names and the address bound are always accepted, and on 0.0.0.0 or [::] with
    /// none named, any IP address of this machine.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        requires = "http",
        value_parser = NonEmptyStringValueParser::new()
    )]
    pub allowed_hosts: Vec<String>,
    /// Serve a non-loopback address without a token (else refused)
    #[arg(long, requires = "http")]
    pub allow_unauthenticated: bool,
}

/// `completions`: a script for the user's shell.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
