//! The binary's logs: `tracing` events on stderr only, because stdout is
//! the protocol (`call`'s result lines, MCP's JSON-RPC over stdio) and a
//! single stray byte there breaks the client reading it.

mod trace_ids;

use crate::telemetry::Telemetry;
use std::io::IsTerminal;
use tracing_subscriber::prelude::*;
use tracing_subscriber::{EnvFilter, Layer, Registry};

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
/// [`DEFAULT_FILTER`]), in `format`, and, with `telemetry`, its exporting
/// layer, whose own filter `RUST_LOG` does not narrow. Colours only on a
/// terminal, so a captured stderr has no escape codes. JSON lines written
/// inside an exported span carry its `trace_id` and `span_id`. A second
/// call changes nothing.
pub fn init(format: LogFormat, telemetry: Option<&Telemetry>) {
    let filter = match std::env::var("RUST_LOG") {
        // Lossy: a mistyped directive is reported and skipped, the rest
        // still applies, rather than the whole filter being dropped.
        Ok(directives) if !directives.trim().is_empty() => {
            EnvFilter::builder().parse_lossy(directives)
        }
        _ => EnvFilter::new(DEFAULT_FILTER),
    };
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let lines = match format {
        LogFormat::Text => lines.with_ansi(std::io::stderr().is_terminal()).boxed(),
        LogFormat::Json => lines
            .json()
            .map_event_format(trace_ids::WithTraceIds)
            .boxed(),
    };
    let mut layers: Vec<Box<dyn Layer<Registry> + Send + Sync>> =
        vec![lines.with_filter(filter).boxed()];
    layers.extend(telemetry.map(Telemetry::layer));
    // Only fails when a subscriber is already installed: that one stays.
    let _ = tracing_subscriber::registry().with(layers).try_init();
}
