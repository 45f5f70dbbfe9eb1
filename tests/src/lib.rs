//! Holds the workspace's integration tests (see `tests/`), the registry
//! the MCP end-to-end tests serve ([`mcp_fixture`]), and the struct of every
//! field type the property tests and the fuzz target share ([`everything`]),
//! and the wire shapes the tests compare against ([`wire`]).
//! The README's Rust examples run here as doctests, so they stay true.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}

pub mod everything;
pub mod mcp_fixture;
pub mod wire;
