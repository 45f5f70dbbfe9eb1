//! The client the official MCP conformance suite's client scenarios run
//! (npm `@modelcontextprotocol/conformance`, pinned in
//! interop/conformance/package.json): `tool_mcp::client::McpClient`, used
//! as an application uses it, through the public API only.
//!
//! The suite starts a test server for a scenario, then runs this program
//! with the server's URL as its last argument and the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO` (its README, "Client Testing"); the server
//! records what the client did and checks it. What each scenario's server
//! offers, and so what is done here, is read from its class in the
//! package's `dist/index.js`.
//!
//! Run: `conformance client --command "target/debug/examples/conformance_client" --scenario tools_call`
//! (interop/checks/conformance.sh runs every client scenario).

use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use tool_core::{Elicited, RunOptions, ToolCall, ToolRegistry, execute_tool_call};
use tool_mcp::client::{McpClient, Upstream};

/// Connects (`initialize`, `notifications/initialized`, `tools/list`),
/// calls the scenario's tool if it has one, and checks the answer.
async fn run(scenario: &str, url: &str) -> Result<(), String> {
    // The suite's revisions: it checks the offered one is among them.
    // `elicitation-sep1034-client-defaults` asks with a form whose every
    // field has a default and checks each arrives: the person accepts the
    // form as it was pre-filled.
    let upstream = Upstream::http(url)
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
        .with_elicitation(|question| async move {
            Ok(Elicited::Accept(Value::Object(question.defaults())))
        });
    let client = McpClient::connect(upstream)
        .await
        .map_err(|error| format!("connecting to {url}: {error}"))?;
    let mut tools = ToolRegistry::new();
    client
        .register_into(&mut tools, None)
        .map_err(|error| format!("registering the server's tools: {error}"))?;
    let (tool, arguments, expected) = match scenario {
        // `initialize`: the server checks the client's `initialize` request
        // (a protocol version it knows, clientInfo); connecting is all of it.
        "initialize" => {
            client.close().await;
            return Ok(());
        }
        // `tools_call`: the server offers `add_numbers` (a, b: numbers) and
        // answers "The sum of {a} and {b} is {a+b}"; the check is that it
        // was called.
        "tools_call" => (
            "add_numbers",
            json!({"a": 5, "b": 3}),
            "The sum of 5 and 3 is 8",
        ),
        // `sse-retry` (SEP-1699): the server offers `test_reconnection`,
        // closes the call's SSE stream after its priming event (`retry:
        // 500`), and checks that the client reconnects with a GET carrying
        // `Last-Event-ID`, no sooner than the retry wait.
        "sse-retry" => ("test_reconnection", json!({}), ""),
        // `elicitation-sep1034-client-defaults` (SEP-1034): the server's
        // `test_client_elicitation_defaults` asks a form of five fields,
        // each with a default, and checks the accepted answer has them all.
        "elicitation-sep1034-client-defaults" => (
            "test_client_elicitation_defaults",
            json!({}),
            "Elicitation completed",
        ),
        other => {
            return Err(format!(
                "scenario {other} is not one this client takes part in \
                 (interop/conformance/expected-failures.txt says why)"
            ));
        }
    };
    let call = ToolCall::new("conformance-1", tool, arguments);
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    let text: String = result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .collect();
    println!("{tool}: {text}");
    client.close().await;
    if result.is_error {
        return Err(format!("{tool} failed: {text}"));
    }
    if !text.contains(expected) {
        return Err(format!("{tool} answered {text:?}, expected {expected:?}"));
    }
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: MCP_CONFORMANCE_SCENARIO=NAME conformance_client URL");
        std::process::exit(2);
    };
    if let Err(error) = run(&scenario, &url).await {
        eprintln!("conformance_client ({scenario}): {error}");
        std::process::exit(1);
    }
}
