//! The server, met by real clients: HTTP/1.1 written by hand where the
//! bytes matter (with `crate::support`), rmcp's client where a revision's
//! lifecycle does.
//!
//! - [`safety`]: the token, Host and Origin, body limits, sessions, the
//!   refusal to start unauthenticated.
//! - [`protocol`]: what each protocol revision is sent, and JSON-RPC's
//!   errors.
//! - [`limits`]: stateless serving, the process-wide in-flight limit, the
//!   pending-connection limit, `/healthz`.
//! - [`shutdown`]: the stop with its grace period.
//! - [`options`]: served calls run with the server's options (hooks,
//!   repair, enabled tools, a caller's signal).
//! - [`search`]: deferred tools behind `tool_search`: the list, the
//!   search, the call of a found tool, the same bytes in any order.

mod limits;
mod options;
mod protocol;
mod safety;
mod search;
mod shutdown;
