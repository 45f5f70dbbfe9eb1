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
//! The `auth/*` scenarios put an OAuth authorization server and a resource
//! server before the MCP server: the client authorizes with
//! `Upstream::with_oauth` (`oauth_client` below), its person's step done
//! headless as the suite's own TypeScript example client does it (the
//! authorization URL fetched without following redirects, the `Location`
//! read), then lists and calls the tools it is given.
//!
//! Run: `conformance client --command "target/debug/examples/conformance_client" --scenario tools_call`
//! (interop/checks/conformance.sh runs every client scenario).

use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use tool_core::{Elicited, RunOptions, ToolCall, ToolRegistry, execute_tool_call};
use tool_mcp::client::oauth::{AuthorizeError, OAuthClient};
use tool_mcp::client::{McpClient, Upstream};

/// The Client ID Metadata Document URL the `auth/basic-cimd` scenario
/// expects as the client id (the suite's `conformance-test.local`); a
/// server that does not advertise CIMD gets a dynamic registration.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Where the authorization server sends the (headless) browser back.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The OAuth side of the `auth/*` scenarios: pre-registered credentials
/// when the suite gives them (`MCP_CONFORMANCE_CONTEXT`'s `client_id` and
/// `client_secret`: `auth/pre-registration`), the CIMD URL, and the
/// headless person.
fn oauth_client() -> OAuthClient {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let mut oauth = OAuthClient::new(REDIRECT_URI, headless_person)
        .with_client_metadata_url(CLIENT_METADATA_URL)
        .with_client_name("tool-mcp conformance client");
    if let Some(id) = context["client_id"].as_str() {
        oauth = match context["client_secret"].as_str() {
            Some(secret) => oauth.with_client_credentials(id, secret),
            None => oauth.with_client_id(id),
        };
    }
    oauth
}

/// The person's step without a person: the suite's authorization
/// endpoint consents at once, answering the authorization URL with a
/// redirect to ours; its `Location` is what a browser would have come back
/// with.
async fn headless_person(url: String) -> Result<String, AuthorizeError> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let response = http.get(&url).send().await?;
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .ok_or_else(|| {
            format!(
                "the authorization endpoint answered {} without a redirect",
                response.status()
            )
        })?;
    Ok(location.to_str()?.to_owned())
}

/// Connects (`initialize`, `notifications/initialized`, `tools/list`),
/// calls the scenario's tool if it has one, and checks the answer.
async fn run(scenario: &str, url: &str) -> Result<(), String> {
    // The suite's revisions: it checks the offered one is among them.
    // `elicitation-sep1034-client-defaults` asks with a form whose every
    // field has a default and checks each arrives: the person accepts the
    // form as it was pre-filled.
    let mut upstream = Upstream::http(url)
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
        .with_elicitation(|question| async move {
            Ok(Elicited::Accept(Value::Object(question.defaults())))
        });
    if scenario.starts_with("auth/") {
        upstream = upstream.with_oauth(oauth_client());
    }
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
        // `auth/*`: the MCP server behind the authorization offers
        // `test-tool`, answering "test"; `auth/scope-step-up` asks for more
        // scope on `tools/call` (403 insufficient_scope) than on
        // `tools/list`. (`auth/scope-retry-limit` never accepts: connecting
        // fails after the step-up limit, which is the scenario's check.)
        auth if auth.starts_with("auth/") => ("test-tool", json!({}), "test"),
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
