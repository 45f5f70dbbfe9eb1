//! Compile tests of the macros: every misuse under `ui/fail` is a compile
//! error at the offending tokens (the committed `.stderr`). The programs in
//! `ui/pass`, which must compile and run, are `pass.rs`'s: with compile
//! failures only, trybuild checks them all in one `cargo check`, its
//! dependencies never built with code generation.
//!
//! The failures are filed by macro and construct: `derive/` (attributes,
//! constraints, enums, fields, types) for `#[derive(ToolParams)]`,
//! `tool/` (attributes, signature, returns) for `#[tool]`, and `tools/`
//! for `#[tools]`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/**/*.rs");
}
