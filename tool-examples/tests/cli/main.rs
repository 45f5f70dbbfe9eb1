//! The `tool-examples` binary and its commands: end to end as a child
//! process (`call`, `mcp` over stdio and HTTP, federation, logs, hostile
//! input lines), the CLI reference in the README, and `call`'s line
//! handling in process. One test binary (each binary links the whole
//! dependency tree, and CI builds them on two cores); each test starts its
//! own child processes with the variables it sets on them, never on this
//! process.
//!
//! - [`approval_lines`]: `call`'s approval-request, decision and close lines.
//! - [`cli`]: the commands end to end.
//! - [`cli_reference`]: the README's CLI reference is clap's help.
//! - [`hostile_cli`]: `call` fed hostile JSON lines.
//! - [`run_calls`]: `call::run_calls` in process.
//! - [`line_properties`]: `call::classify` on random lines.
//! - [`logging`]: the logs, on stderr only.
//! - [`mcp_cli`]: `tool-examples mcp` driven by an rmcp client.
//! - [`federation`]: an aggregator in front of upstream servers.
//! - [`late_upstream`]: an upstream down at the start, served when it is up.
//! - [`oauth`]: `mcp --http` with OAuth flags; no token passed upstream.
//! - [`many_tools`]: `--defer-all-except`, the tools found through
//!   `tool_search` in `definitions`, `call` and `mcp`.
//! - [`otlp`]: `--otlp-endpoint`, two federated processes exporting to an
//!   OTLP/HTTP receiver in the test: one trace, the metric, the log ids.

mod approval_lines;
mod cli;
mod cli_reference;
mod federation;
mod hostile_cli;
mod late_upstream;
mod line_properties;
mod logging;
mod many_tools;
mod mcp_cli;
mod oauth;
mod otlp;
mod run_calls;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
