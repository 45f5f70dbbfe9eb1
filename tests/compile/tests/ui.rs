//! Compile tests of the macros: every misuse under `ui/fail` is a compile
//! error at the offending tokens (the committed `.stderr`), and every
//! program in `ui/pass` compiles and runs its own assertions.
//!
//! The failures are filed by macro and construct: `derive/` (attributes,
//! constraints, enums, fields, types) for `#[derive(ToolParams)]`,
//! `tool/` (attributes, signature, returns) for `#[tool]`, and `tools/`
//! for `#[tools]`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/**/*.rs");
    t.pass("ui/pass/*.rs");
}
