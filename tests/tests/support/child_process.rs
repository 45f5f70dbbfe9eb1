//! Runs a test's body in a child process: this test binary, filtered to
//! the one test, so that a stack overflow (which aborts the whole process)
//! fails only the test that found it. Used by `params::hostile` and
//! `params::hostile_enums`.

/// Runs `body` in a child process filtered to the test `test` of the module
/// `module` (the caller's `module_path!()`); in the child, runs it directly.
/// A name that matches no test fails, rather than passing having run
/// nothing.
pub(crate) fn in_child_process(module: &str, test: &str, body: impl FnOnce()) {
    if std::env::var_os("HOSTILE_CHILD").is_some() {
        body();
        return;
    }
    let name = test_name(module, test);
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name.as_str(), "--exact", "--test-threads=1"])
        .env("HOSTILE_CHILD", "1")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the child process failed ({}): {}{stdout}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // A filter that matched nothing would succeed too, having run nothing.
    assert!(
        stdout.contains("test result: ok. 1 passed;"),
        "the child process did not run {name}: {stdout}"
    );
}

/// The name libtest gives the test function `test` of `module`: the module
/// path without the crate (the test binary) it starts with.
fn test_name(module: &str, test: &str) -> String {
    match module.split_once("::") {
        Some((_crate, path)) => format!("{path}::{test}"),
        None => test.to_owned(),
    }
}
