//! The registry: what it checks when it adds a tool, and the definitions
//! it gives out. One test binary for the layer (each binary links the
//! whole dependency tree, and CI builds them on two cores).
//!
//! - [`examples`]: `#[tool(example = ..)]` on functions and `#[tools]`
//!   methods, in the definitions and each provider's format, and the
//!   examples a registry refuses.

mod examples;
