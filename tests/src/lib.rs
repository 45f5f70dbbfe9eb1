//! Holds the workspace's integration tests (see `tests/`), and the registry
//! the MCP end-to-end tests serve ([`mcp_fixture`]).
//! The README's Rust examples run here as doctests, so they stay true.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}

pub mod mcp_fixture;
