// Doc-only, as `clap::_derive` is: the keys of three macros and the field
// types of one trait's implementations need one page that holds them all,
// and a single copy cannot drift from another.

//! The reference of the derive and the attribute macros: every key, every
//! field type.
//!
#![doc = include_str!("docs/derive.md")]
