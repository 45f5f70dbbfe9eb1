//! What the test binaries of this crate share. Each binary's `main.rs`
//! declares it the same way, `#[path = "../support/mod.rs"] mod support;`,
//! and reaches it as `crate::support`.
//!
//! Here: the `tool-examples` binary as a child process, starting it,
//! reading what it writes, and waiting for it to exit under a ceiling that
//! only turns a hang into a failure. And:
//! - [`mcp`]: the binary driven by rmcp's client.
//! - [`files`]: a `Files` root with a secret outside it.
//! - [`line_property`]: the properties of one `call` input line (also the
//!   `call_line` fuzz target's, which includes that file by path).

// Each binary uses its own part.
#![allow(dead_code)]

pub(crate) mod files;
pub(crate) mod line_property;
pub(crate) mod mcp;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_tool-examples");

/// The variables that change what the binary does or logs: a test sets
/// the ones it is about, and the developer's own never leak in.
pub(crate) const DEPLOYMENT_VARIABLES: [&str; 28] = [
    "TOOL_EXAMPLES_ROOT",
    "TOOL_EXAMPLES_HTTP",
    "TOOL_EXAMPLES_TOKEN_FILE",
    "TOOL_EXAMPLES_TOKEN",
    "TOOL_EXAMPLES_ALLOWED_HOSTS",
    "TOOL_EXAMPLES_ALLOWED_ORIGINS",
    "TOOL_EXAMPLES_UPSTREAM_TOKEN",
    "TOOL_EXAMPLES_STATELESS",
    "TOOL_EXAMPLES_APPROVAL_KEY_FILE",
    "TOOL_EXAMPLES_STATE_URL",
    "TOOL_EXAMPLES_OAUTH_ISSUER",
    "TOOL_EXAMPLES_AUDIENCE",
    "TOOL_EXAMPLES_JWKS_FILE",
    "TOOL_EXAMPLES_MAX_SESSIONS",
    "TOOL_EXAMPLES_MAX_IN_FLIGHT",
    "TOOL_EXAMPLES_MAX_IN_FLIGHT_PER_SESSION",
    "TOOL_EXAMPLES_MAX_PENDING_CONNECTIONS",
    "TOOL_EXAMPLES_MAX_BODY_BYTES",
    "TOOL_EXAMPLES_SESSION_IDLE_TIMEOUT",
    "TOOL_EXAMPLES_READ_TIMEOUT",
    "TOOL_EXAMPLES_SHUTDOWN_GRACE",
    "RUST_LOG",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_EXPORTER_OTLP_HEADERS",
];

/// The binary with `args`, run in `dir`, none of the
/// [`DEPLOYMENT_VARIABLES`] set.
pub(crate) fn command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(BIN);
    command.args(args).current_dir(dir);
    for name in DEPLOYMENT_VARIABLES {
        command.env_remove(name);
    }
    command
}

/// Starts the binary with `args` in `dir`, stdin and stdout piped, stderr
/// as `stderr` says.
pub(crate) fn spawn(args: &[&str], dir: &Path, stderr: Stdio) -> Child {
    command(args, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the binary starts")
}

/// Starts the binary with `args` in `dir` and the variables `env` set,
/// for commands that serve until stopped: stdin empty, stdout and stderr
/// piped.
pub(crate) fn spawn_serving(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Child {
    let mut command = command(args, dir);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .envs(env.iter().copied());
    command.spawn().expect("the binary starts")
}

/// Sends each line of `source` (its `\n` kept) on the channel returned, from
/// a thread of its own that ends at end of input or once the receiver is
/// gone; output that is not UTF-8 panics that thread, which ends the
/// channel.
pub(crate) fn lines(
    source: impl Read + Send + 'static,
) -> (mpsc::Receiver<String>, thread::JoinHandle<()>) {
    let (sender, lines) = mpsc::channel();
    let reader = thread::spawn(move || {
        let mut source = BufReader::new(source);
        loop {
            let mut line = String::new();
            if source.read_line(&mut line).expect("stdout reads as UTF-8") == 0 {
                return;
            }
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    (lines, reader)
}

/// Waits for `child` to exit; after `timeout`, kills it and fails.
pub(crate) fn wait(child: &mut Child, timeout: Duration) -> ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("tool-examples did not exit within {timeout:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}
