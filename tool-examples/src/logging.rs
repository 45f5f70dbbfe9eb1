//! The binary's logs: `tracing` events on stderr only, because stdout is
//! the protocol (`call`'s result lines, MCP's JSON-RPC over stdio) and a
//! single stray byte there breaks the client reading it.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The filter when `RUST_LOG` is not set: what the binary itself says
/// (where it serves, upstreams, cancellations) and only the warnings and
/// errors of its dependencies, whose `info` is chatter for their own
/// developers.
pub const DEFAULT_FILTER: &str = "warn,tool_examples=info,tool_mcp=info";

/// How log lines are written (`--log-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines: time, level, span, target, message
    #[default]
    Text,
    /// One JSON object per line, for a log collector
    Json,
}

/// Installs the process's subscriber: stderr, `RUST_LOG` (else
/// [`DEFAULT_FILTER`]), in `format`. Colours only on a terminal, so a
/// captured stderr has no escape codes. A second call changes nothing.
pub fn init(format: LogFormat) {
    let filter = match std::env::var("RUST_LOG") {
        // Lossy: a mistyped directive is reported and skipped, the rest
        // still applies, rather than the whole filter being dropped.
        Ok(directives) if !directives.trim().is_empty() => {
            EnvFilter::builder().parse_lossy(directives)
        }
        _ => EnvFilter::new(DEFAULT_FILTER),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // Only fails when a subscriber is already installed: that one stays.
    let _ = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}
