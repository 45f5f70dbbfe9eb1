//! Compile tests of `#[derive(ToolParams)]`: every misuse in `ui/fail` is a
//! compile error at the offending tokens (the committed `.stderr`), and every
//! program in `ui/pass` compiles and runs its own assertions.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
