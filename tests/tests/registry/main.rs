//! The registry: what it checks when it adds a tool, and the definitions
//! it gives out. One test binary for the layer (each binary links the
//! whole dependency tree, and CI builds them on two cores).
//!
//! - [`examples`]: `#[tool(example = ..)]` on functions and `#[tools]`
//!   methods, in the definitions and each provider's format, and the
//!   examples a registry refuses.
//! - [`toolsets`]: toolsets as a registry takes them: collisions, name
//!   rules, the sorted order, `prepared`, `approval_required`, `renamed`.
//! - [`tool_search`]: deferred tools, the built-in search, the
//!   prompt-cache property, and each format's deferral.
//! - [`many_tools`]: 10,000 generated tools, deferred behind `tool_search`.

mod examples;
mod many_tools;
mod tool_search;
mod toolsets;
