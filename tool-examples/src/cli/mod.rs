//! The binary's command line, declared with clap's derive: a flag's name,
//! type, environment variable and help are one declaration, so the parser,
//! `--help`, the shell completions and the CLI reference of
//! `tool-examples/README.md` (checked by `tests/cli/cli_reference.rs`) cannot
//! disagree.
//!
//! The doc comments of the commands' fields are the help clap prints for
//! them; the longer texts are the constants of [`help`].

mod commands;
mod format;
pub mod help;
mod oauth;
mod refused;
mod usage;

pub use commands::{
    ApprovalArgs, CallArgs, CompletionsArgs, Deferral, DefinitionsArgs, HttpLimits, LedgerChoice,
    McpArgs, Root, SharedState, Upstreams,
};
pub use format::Format;
pub use oauth::{AUDIENCE_VARIABLE, JWKS_FILE_VARIABLE, OAUTH_ISSUER_VARIABLE, OAuthArgs};
pub use usage::UsageError;

use crate::logging::LogFormat;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// `--root` of `call` and `mcp`: a deployment sets the directory once.
pub const ROOT_VARIABLE: &str = "TOOL_EXAMPLES_ROOT";
/// `--http` of `mcp`: a deployment sets the address once.
pub const HTTP_VARIABLE: &str = "TOOL_EXAMPLES_HTTP";
/// `--token-file` of `mcp`: where a deployment mounts its secret.
pub const TOKEN_FILE_VARIABLE: &str = "TOOL_EXAMPLES_TOKEN_FILE";
/// `--stateless` of `mcp`: a deployment behind a balancer sets it once.
pub const STATELESS_VARIABLE: &str = "TOOL_EXAMPLES_STATELESS";
/// `--approval-key-file` of `call` and `mcp`: where a deployment mounts
/// the key every process resuming approvals shares.
pub const APPROVAL_KEY_VARIABLE: &str = "TOOL_EXAMPLES_APPROVAL_KEY_FILE";
/// `--state-url` of `call` and `mcp`: where a deployment names its shared
/// store (the place for a URL with a password).
pub const STATE_URL_VARIABLE: &str = "TOOL_EXAMPLES_STATE_URL";
/// `--state-password-file` of `call` and `mcp`: where a deployment mounts
/// the store's password.
pub const STATE_PASSWORD_VARIABLE: &str = "TOOL_EXAMPLES_STATE_PASSWORD_FILE";

/// The whole command line. Without a command, the walkthrough runs, so
/// that `cargo run -p tool-examples` shows the main job.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "tool-examples",
    // The usage line says `tool-examples` however the binary was started,
    // so the help tool-examples/README.md holds is the help every user sees.
    bin_name = "tool-examples",
    version,
    about = help::ABOUT,
    long_about = help::LONG_ABOUT,
    after_long_help = help::LOGGING,
    // Help wraps at 100 columns whatever the terminal: the CLI reference of
    // tool-examples/README.md holds it verbatim, and a test compares the two.
    term_width = 100
)]
pub struct Cli {
    /// How log lines are written on stderr
    #[arg(
        long,
        global = true,
        // Apart from each command's own options, which it would otherwise
        // be sorted among.
        help_heading = "Global options",
        value_enum,
        value_name = "FORMAT",
        default_value_t = LogFormat::Text
    )]
    pub log_format: LogFormat,
    /// Send traces and metrics to the OpenTelemetry collector at URL, with OTLP over
    /// HTTP/protobuf (to URL/v1/traces and URL/v1/metrics) [default: OTEL_EXPORTER_OTLP_ENDPOINT]
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "URL"
    )]
    pub otlp_endpoint: Option<String>,
    /// What to do; none is the walkthrough.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// This process's command line, as clap's `Parser::parse` reads one: a
    /// usage error exits 2 with clap's message, `--help` and `--version`
    /// print and exit 0.
    pub fn from_env() -> Cli {
        Cli::try_from_args(std::env::args_os()).unwrap_or_else(|error| error.exit())
    }

    /// Reads `args` (the program's name first) as the binary does: the
    /// derive's parser, plus the refusal of `mcp --token` and its
    /// look-alikes with the reason. Testable: nothing exits.
    pub fn try_from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut command = refused::add_to(Cli::command());
        let matches = command.try_get_matches_from_mut(args)?;
        Cli::from_arg_matches(&matches).map_err(|error| error.format(&mut command))
    }
}

/// The commands, each with its own flags.
#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run tool calls: ToolCall JSON lines on stdin, one result line each on stdout
    #[command(long_about = help::CALL, after_help = help::CALL_ENVIRONMENT)]
    Call(CallArgs),
    /// Print the tools' definitions, in a provider's format
    #[command(long_about = help::DEFINITIONS)]
    Definitions(DefinitionsArgs),
    /// Serve the tools over MCP (stdio, or streamable HTTP with --http)
    #[command(
        long_about = help::MCP,
        after_help = help::MCP_ENVIRONMENT,
        after_long_help = help::MCP_AFTER
    )]
    Mcp(McpArgs),
    /// Print a shell's completion script for tool-examples
    #[command(long_about = help::COMPLETIONS)]
    Completions(CompletionsArgs),
}

#[cfg(test)]
mod tests;
