//! `ParamValue` for the standard types of the field table in the crate docs.

mod containers;
mod duration;
mod foreign;
mod json;
mod maps;
mod net;
mod numbers;
pub(crate) mod scalars;
mod sequences;
mod sets;
mod shared;
mod text;

pub use json::MAX_JSON_DEPTH;
