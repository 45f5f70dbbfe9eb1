//! Holds the compile tests of the derive and `#[tool]` (`tests/ui.rs`,
//! with the programs in `ui/fail` and `ui/pass`); nothing else.

#![forbid(unsafe_code)]
