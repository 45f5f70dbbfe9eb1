//! The server, met by real clients: HTTP/1.1 written by hand where the
//! bytes matter, rmcp's client where a revision's lifecycle does. One test
//! binary for all of it (each binary links the whole server and client,
//! and CI builds them on two cores).
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

mod limits;
mod options;
mod protocol;
mod safety;
mod shutdown;
mod support;
