//! The only items generated code names (`::tool_core::__private::…`). Not
//! public API: may change in any release.

pub use crate::params::constraints::{
    Bound, Constraints, FloatLike, HasItems, HasLength, ItemConstraints, LengthOf, Literal,
    Numeric, Pattern, StringLike,
};
pub use crate::params::derive_support::*;
pub use crate::params::schema_refs::recursion_safe_schema;
pub use crate::tool::tool_fn_support::IntoToolResult;
pub use crate::{Format, ParamError, ParamPath, ParamValue, ToolParams};
pub use core::option::Option::{self, None, Some};
pub use serde_json::{Map, Value};
