//! Runs a test's body in a child process: this test binary, filtered to
//! the one test, so that a stack overflow (which aborts the whole process)
//! fails only the test that found it. Shared by `hostile.rs` and
//! `hostile_enums.rs` (each includes this file with `#[path]`).

/// Runs `body` in a child process filtered to `test` (the test's own
/// name); in the child, runs it directly.
pub(crate) fn in_child_process(test: &str, body: impl FnOnce()) {
    if std::env::var_os("HOSTILE_CHILD").is_some() {
        body();
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--test-threads=1"])
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
        "the child process did not run {test}: {stdout}"
    );
}
