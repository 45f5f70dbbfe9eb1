//! Holds the workspace's integration tests (see `tests/`); no library code.
//! The README's Rust examples run here as doctests, so they stay true.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}
