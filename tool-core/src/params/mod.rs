//! Arguments: how a call's JSON is parsed into typed parameters and how
//! those parameters are described to the model, from one definition.
//!
//! The traits ([`ToolParams`], [`ParamValue`], [`MapKey`]), the field-type impls, the
//! constraints attributes add, the errors with their paths, and the
//! near-miss hints. Nothing here knows about tools or calls.

pub(crate) mod constraints;
mod context;
mod decimal_range;
pub(crate) mod derive_support;
pub(crate) mod describe;
pub(crate) mod error;
mod formats;
pub(crate) mod impls;
mod map_key;
mod path;
mod schema_check;
pub(crate) mod schema_refs;
pub(crate) mod suggest;
mod traits;

pub use context::{MAX_UNTAGGED_ATTEMPTS, ParseContext};
pub use derive_support::MAX_NESTING;
pub use describe::{MAX_ECHO_CHARS, Received, json_type};
pub use error::{MAX_PROBLEMS, ParamError, ParamProblem};
pub use formats::Format;
pub use impls::MAX_JSON_DEPTH;
pub use map_key::MapKey;
pub use path::ParamPath;
#[cfg(feature = "schema-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema-check")))]
pub use schema_check::SchemaCheck;
pub use schema_check::SchemaError;
pub use traits::{ParamValue, ToolParams};
