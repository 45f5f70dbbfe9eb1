//! The runtime half of `#[derive(ToolParams)]`. Generated code stays small
//! (it is compiled in every user crate) by calling these functions for
//! everything that does not depend on the user's types.

mod annotations;
mod defaults;
mod enums;
mod objects;
mod sequences;
mod untagged;

pub use annotations::{
    describe, describe_if_undescribed, set_default, set_deprecated, set_examples,
};
pub use defaults::{DefaultFromJson, DefaultFromStr, DefaultLiteral, default_from_json};
pub use enums::{
    VariantKind, VariantNames, adjacent_json, any_of, const_string, enum_schema, expected_one_of,
    external_branch, external_json, no_content, null_schema, one_of, read_external, read_tag,
    root_enum_schema,
};
pub use objects::{
    Branch, Checked, FieldNames, MAX_NESTING, ObjectJson, ObjectSchema, ParamObject,
    denies_unknown, deny_unknown_fields, expect_object, missing, other_variants_fields, sent_twice,
};
pub use sequences::{expect_tuple, tuple_schema};
pub use untagged::Untagged;
