//! The only items generated code names (`::tool_core::__private::…`). Not
//! public API: may change in any release.

pub use crate::params::constraints::{
    Bound, HasLength, Numeric, apply_max, apply_max_length, apply_min, apply_min_length, check_max,
    check_max_length, check_min, check_min_length,
};
pub use crate::params::derive_support::{
    ObjectJson, ObjectSchema, deny_unknown_fields, describe, enum_schema, expect_object,
    expected_one_of, missing, set_default,
};
pub use crate::params::schema_refs::recursion_safe_schema;
pub use crate::tool::tool_fn_support::IntoToolResult;
pub use crate::{ParamError, ParamPath, ParamValue, ToolParams};
pub use core::option::Option::{self, None, Some};
pub use serde_json::{Map, Value};
