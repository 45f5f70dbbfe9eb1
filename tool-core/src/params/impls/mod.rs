//! `ParamValue` for the standard types of the field table in the crate docs.

mod containers;
mod json;
mod numbers;
mod scalars;

pub use json::MAX_JSON_DEPTH;
