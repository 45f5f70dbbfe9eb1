//! `ParamValue` for the standard types of the field table in the crate docs.

mod containers;
mod foreign;
mod json;
mod net;
mod numbers;
pub(crate) mod scalars;
mod sequences;
mod sets;
mod text;

pub use json::MAX_JSON_DEPTH;
