//! Every program under `ui/pass` compiles and runs its own assertions: each
//! is a module here (public, so lints such as `missing_docs` see its items
//! as a crate's root would) and its `main` a test.
//!
//! Not in trybuild (`ui.rs`): one program to build and run makes trybuild
//! build every dependency with code generation and run each of its ~150
//! cases as a cargo invocation of its own; with compile failures only, it
//! checks them all in one `cargo check --keep-going`. Here they are built
//! with the workspace's test build, and `.ci/run` checks them with clippy
//! in the lean configuration too (`cargo clippy -p compile-tests
//! --all-targets`: tool-core with `derive` and `runtime` only, as a user
//! who turns the rest off builds them).

// The programs are a user's code, whose lints are the user's: the
// workspace's `missing_docs` and `missing_debug_implementations` are not
// theirs. Those that deny a lint (`#![deny(missing_docs)]`) say so
// themselves, and that still holds in their module.
#![allow(missing_docs, missing_debug_implementations, unreachable_pub)]

#[path = "../ui/pass/container_attributes.rs"]
pub mod container_attributes;
#[path = "../ui/pass/default_literals.rs"]
pub mod default_literals;
#[path = "../ui/pass/doc_comment.rs"]
pub mod doc_comment;
#[path = "../ui/pass/empty_structs.rs"]
pub mod empty_structs;
#[path = "../ui/pass/enum_adjacent.rs"]
pub mod enum_adjacent;
#[path = "../ui/pass/enum_external.rs"]
pub mod enum_external;
#[path = "../ui/pass/enum_internal.rs"]
pub mod enum_internal;
#[path = "../ui/pass/enum_untagged.rs"]
pub mod enum_untagged;
#[path = "../ui/pass/field_attributes.rs"]
pub mod field_attributes;
#[path = "../ui/pass/field_types.rs"]
pub mod field_types;
#[path = "../ui/pass/flatten_skip_deprecated.rs"]
pub mod flatten_skip_deprecated;
#[path = "../ui/pass/generic_bounds.rs"]
pub mod generic_bounds;
#[path = "../ui/pass/generic_struct.rs"]
pub mod generic_struct;
#[path = "../ui/pass/raw_identifier.rs"]
pub mod raw_identifier;
#[path = "../ui/pass/tool_callers.rs"]
pub mod tool_callers;
#[path = "../ui/pass/tool_context_parameter.rs"]
pub mod tool_context_parameter;
#[path = "../ui/pass/tool_deny_missing_docs.rs"]
pub mod tool_deny_missing_docs;
#[path = "../ui/pass/tool_error_types.rs"]
pub mod tool_error_types;
#[path = "../ui/pass/tool_mut_parameter.rs"]
pub mod tool_mut_parameter;
#[path = "../ui/pass/tool_name_override.rs"]
pub mod tool_name_override;
#[path = "../ui/pass/tool_return_types.rs"]
pub mod tool_return_types;
#[path = "../ui/pass/tool_snake_case_name.rs"]
pub mod tool_snake_case_name;
#[path = "../ui/pass/tool_visibility.rs"]
pub mod tool_visibility;
#[path = "../ui/pass/tools_impl.rs"]
pub mod tools_impl;
#[path = "../ui/pass/unit_enum.rs"]
pub mod unit_enum;
#[path = "../ui/pass/value_attributes.rs"]
pub mod value_attributes;
#[path = "../ui/pass/value_checks.rs"]
pub mod value_checks;

/// A test per program, running its `main`.
macro_rules! programs {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                crate::$name::main();
            }
        )*

        /// The programs listed above, to compare with the folder.
        pub(crate) const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

mod runs {
    programs!(
        container_attributes,
        default_literals,
        doc_comment,
        empty_structs,
        enum_adjacent,
        enum_external,
        enum_internal,
        enum_untagged,
        field_attributes,
        field_types,
        flatten_skip_deprecated,
        generic_bounds,
        generic_struct,
        raw_identifier,
        tool_callers,
        tool_context_parameter,
        tool_deny_missing_docs,
        tool_error_types,
        tool_mut_parameter,
        tool_name_override,
        tool_return_types,
        tool_snake_case_name,
        tool_visibility,
        tools_impl,
        unit_enum,
        value_attributes,
        value_checks,
    );
}

/// A program added to `ui/pass` and not listed here would never be built:
/// the list must be the folder's.
#[test]
fn every_program_in_the_folder_is_listed() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/pass");
    let mut found: Vec<String> = std::fs::read_dir(folder)
        .expect("ui/pass is readable")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .collect();
    found.sort();
    assert_eq!(found, runs::LISTED);
}
