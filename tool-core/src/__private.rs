//! The only items generated code names (`::tool_core::__private::…`). Not
//! public API: may change in any release.

pub use crate::ToolParams;
pub use crate::params::constraints::{
    Bound, Constraints, FloatLike, HasItems, HasLength, ItemConstraints, LengthOf, Literal,
    Numeric, Pattern, StringLike, assert_listed, assert_shown,
};
pub use crate::params::derive_support::*;
pub use crate::params::schema_refs::recursion_safe_schema;
pub use crate::params::{Format, ParamPath, ParamValue, ParseContext};
#[cfg(feature = "runtime")]
pub use crate::tool::tool_fn_support::IntoToolResult;
pub use core::option::Option::{self, None, Some};
pub use serde_json::{Map, Value};

/// The annotations `#[tool(title, read_only, ...)]` wrote.
pub fn annotations(
    title: Option<String>,
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
    open_world: Option<bool>,
) -> crate::ToolAnnotations {
    let mut hints = crate::ToolAnnotations::new();
    hints.title = title;
    hints.read_only = read_only;
    hints.destructive = destructive;
    hints.idempotent = idempotent;
    hints.open_world = open_world;
    hints
}

/// A toolbox's tools, each holding a clone of the one `Arc`.
pub use std::sync::Arc;
