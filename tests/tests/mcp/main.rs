//! The MCP server end to end, through an rmcp client: the scenarios of
//! `support::mcp`, over every transport. One test binary (each binary links
//! the whole dependency tree, and CI builds them on two cores).
//!
//! - [`stdio`]: the `mcp_fixture` binary as a child process.
//! - [`http`]: streamable HTTP on loopback, in process.
//! - [`approval`]: calls that need a person's approval, asked of the
//!   client on every revision, over both transports.

mod approval;
mod http;
mod stdio;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
