//! The binary driven by rmcp's client (`cli::mcp_cli`, `cli::federation`):
//! the binary as an async child process, a ceiling that turns a hang into
//! a failure, and calls whose results are read as they go over the wire.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::future::Future;
use std::time::Duration;
use tokio::process::Command;

/// The binary (async), none of the developer's
/// [`DEPLOYMENT_VARIABLES`](super::DEPLOYMENT_VARIABLES) passed on.
pub(crate) fn binary() -> Command {
    let mut command = Command::new(super::BIN);
    for name in super::DEPLOYMENT_VARIABLES {
        command.env_remove(name);
    }
    command
}

/// Far more than any test needs; only there so a hang fails the test.
pub(crate) const TEST_TIMEOUT: Duration = Duration::from_secs(20);

/// `future`'s output, failing the test, which names it `what`, if it takes
/// longer than [`TEST_TIMEOUT`].
pub(crate) async fn bounded<F: Future>(what: &str, future: F) -> F::Output {
    tokio::time::timeout(TEST_TIMEOUT, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: not within {TEST_TIMEOUT:?}"))
}

/// A client of the binary's MCP server.
pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

/// What a test's client says it is: `name`, with no capabilities.
pub(crate) fn client_info(name: &str) -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new(name, "0.1.0"),
    )
}

/// A client named `name`, initialized over the stdio of `child` (started
/// with piped stdin and stdout).
pub(crate) async fn connect_stdio(child: &mut tokio::process::Child, name: &str) -> Client {
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    bounded("initialize", client_info(name).serve(transport))
        .await
        .expect("initialize succeeds")
}

/// A `tools/call` of `name`; `arguments` must be an object.
pub(crate) fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

/// Calls `name` with `arguments`; the result as it goes over the wire.
pub(crate) async fn call_json<S: rmcp::Service<RoleClient>>(
    client: &RunningService<RoleClient, S>,
    name: &str,
    arguments: Value,
) -> Value {
    let result: CallToolResult = client
        .call_tool(call(name, arguments))
        .await
        .unwrap_or_else(|error| panic!("{name} answers: {error}"));
    serde_json::to_value(&result).unwrap()
}

/// Sends SIGTERM, as an orchestrator stopping the process does.
#[cfg(unix)]
pub(crate) fn terminate(child: &tokio::process::Child) {
    let pid = child.id().expect("still running").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -TERM {pid}: {sent}");
}

/// The address `mcp --http` says it serves on, from its first line on
/// stderr (`serving MCP on http://ADDR/mcp (Ctrl-C to stop)`); a line
/// that is not that one fails the test, quoting it.
pub(crate) fn served_address(first_line: &str) -> std::net::SocketAddr {
    first_line
        .trim_end()
        .split_once("serving MCP on http://")
        .and_then(|(_, rest)| rest.strip_suffix("/mcp (Ctrl-C to stop)"))
        .unwrap_or_else(|| panic!("unexpected first line on stderr: {first_line:?}"))
        .parse()
        .expect("a socket address")
}
