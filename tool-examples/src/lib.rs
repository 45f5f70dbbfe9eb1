//! Real example tools and the pieces of the `tool-examples` binary.
//!
//! - [`echo`](echo::echo) and [`upper`](upper::upper): tools written as
//!   `#[tool]` functions.
//! - [`files::Files`]: tools with state (their root directory), written as
//!   `#[tool]` methods of a `#[tools]` impl block: `read` ([`read`]),
//!   `list` ([`list`]) and `write` ([`write`](mod@write), which needs a person's
//!   approval), which open what they touch beneath a handle on the root
//!   ([`sandbox`]).
//! - [`wait`](wait::wait): a long job that reports progress and stops when
//!   cancelled.
//! - [`label`](label::label): the benchmarks' medium parameter struct as a
//!   tool, for the throughput measurements.
//! - [`walkthrough`], [`call`], [`serve`] and [`cli`]: the binary's
//!   commands; [`logging`]: where and how it logs; [`upstream`]: other MCP
//!   servers' tools beside these; [`deferral`]: all but a few tools found
//!   through `tool_search`; [`token_file`]: bearer tokens read from files;
//!   [`shared_state`]: the approval ledger several processes share.

#![forbid(unsafe_code)]
pub mod call;
pub mod cli;
pub mod code_mode;
pub mod deferral;
pub mod echo;
pub mod files;
pub mod label;
pub mod late_upstream;
pub mod list;
pub mod logging;
pub mod read;
pub mod sandbox;
pub mod serve;
pub mod shared_state;
pub mod telemetry;
pub mod token_file;
pub mod upper;
pub mod upstream;
pub mod wait;
pub mod walkthrough;
pub mod write;

use std::path::Path;
use tool_core::ToolRegistry;

/// The example tools, with `read`, `list` and `write` rooted at `root`
/// (which must exist).
pub fn example_registry(root: &Path) -> std::io::Result<ToolRegistry> {
    let mut tools = ToolRegistry::new();
    tools
        .register(echo::EchoTool)
        .map_err(std::io::Error::other)?;
    tools
        .register(upper::UpperTool)
        .map_err(std::io::Error::other)?;
    tools
        .register_all(files::Files::new(root)?)
        .map_err(std::io::Error::other)?;
    tools
        .register(wait::WaitTool)
        .map_err(std::io::Error::other)?;
    tools
        .register(label::LabelTool)
        .map_err(std::io::Error::other)?;
    Ok(tools)
}
