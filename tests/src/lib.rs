//! Holds the workspace's integration tests (see `tests/`), the registries
//! the MCP end-to-end tests serve ([`mcp_fixture`], [`approval_fixture`]),
//! the struct of every field type the property tests and the fuzz target
//! share ([`everything`]), what every approval ledger must do
//! ([`ledger_check`]) and a ledger in a file that outlives a killed
//! process ([`file_ledger`]),
//! and the wire shapes the tests compare against ([`wire`]).
//! The Rust examples of the README, the `docs/` pages and the crates'
//! READMEs (`tool-core`'s and `tool-mcp`'s, shown on crates.io) run here
//! as doctests, so what they show stays true (a markdown file is nobody's
//! rustdoc, so nothing else would compile its blocks).

#![forbid(unsafe_code)]
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/tools.md")]
mod docs_tools {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/running.md")]
mod docs_running {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/tool-context.md")]
mod docs_tool_context {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/code-mode.md")]
mod docs_code_mode {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/approvals.md")]
mod docs_approvals {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/providers.md")]
mod docs_providers {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/wire-format.md")]
mod docs_wire_format {}

#[cfg(doctest)]
#[doc = include_str!("../../docs/deploying.md")]
mod docs_deploying {}

#[cfg(doctest)]
#[doc = include_str!("../../tool-core/README.md")]
mod tool_core_readme {}

#[cfg(doctest)]
#[doc = include_str!("../../tool-mcp/README.md")]
mod tool_mcp_readme {}

#[cfg(doctest)]
#[doc = include_str!("../../tool-redis/README.md")]
mod tool_redis_readme {}

pub mod approval_fixture;
pub mod everything;
pub mod file_ledger;
pub mod ledger_check;
pub mod mcp_fixture;
pub mod wire;
