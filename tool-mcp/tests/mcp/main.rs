//! tool-mcp's server and client against each other and against rmcp's own,
//! over real connections. One test binary (each binary links the whole
//! server and client, and CI builds them on two cores).
//!
//! - [`server`]: the HTTP server met by real clients: safety, protocol
//!   revisions, limits, shutdown, served call options.
//! - [`client`]: `tool_mcp::client` against our own server, in process and
//!   in child processes that are this test binary.
//! - [`client_questions`]: a server's questions answered by the client's asker.
//! - [`oauth`]: the server as an OAuth resource server: metadata, tokens
//!   signed by the test, scopes, the caller in the before hook.
//! - [`toolsets`]: imported servers as toolsets: deferred behind
//!   `tool_search`, prefixed against collisions.

mod client;
mod client_oauth;
mod client_questions;
mod oauth;
mod server;
mod toolsets;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
