//! What the server sends on each protocol revision, and what it answers to
//! messages that are not right: with rmcp's own client on 2026-07-28 (no
//! session, `server/discover`) and on 2025-11-25 (a session after
//! `initialize`), and with HTTP written by hand where the bytes matter.

use crate::support::*;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ErrorCode, Implementation,
    ProtocolVersion, ResultType,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use tool_core::{
    Content, Json, Tool, ToolContext, ToolError, ToolFailure, ToolOutput, ToolParams, ToolRegistry,
    tool,
};

/// What `measure` reports.
#[derive(ToolParams)]
struct Measure {
    /// How long, in metres.
    metres: f64,
}

/// Measure something, or fail when told to; say it in words when asked
#[tool]
async fn measure(
    fail: bool,
    #[param(default = false)] in_words: bool,
) -> Result<Json<Measure>, ToolError> {
    if fail {
        return Err(ToolFailure::retry("nothing to measure here").into());
    }
    let measured = Json(Measure { metres: 2.5 });
    Ok(if in_words {
        measured.with_text("two and a half metres")
    } else {
        measured
    })
}

/// A tool whose results break its own output schema: what a hand-written
/// tool can do, and a client must not be sent.
struct Liar;

impl Tool for Liar {
    type Params = Map<String, Value>;
    type Details = Value;

    fn name(&self) -> &str {
        "liar"
    }

    fn description(&self) -> &str {
        "Claims an output schema it does not keep"
    }

    fn output_schema(&self) -> Option<Value> {
        Some(json!({
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"]
        }))
    }

    async fn execute(
        &self,
        _params: Map<String, Value>,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        Ok(ToolOutput::new(vec![Content::text("counted")]).with_details(json!({"count": "many"})))
    }
}

fn tools() -> ToolRegistry {
    let mut tools = registry();
    tools.register(MeasureTool).unwrap();
    tools.register(Liar).unwrap();
    tools
}

/// A client that asks for one revision in `initialize`.
#[derive(Clone)]
struct Plain(ProtocolVersion);

impl ClientHandler for Plain {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("http-protocol-test", "0.1.0"),
        )
        .with_protocol_version(self.0.clone())
    }
}

type Client = RunningService<RoleClient, Plain>;

/// A client of the server at `url` on `revision`: 2026-07-28 by discovery,
/// older ones with `initialize`.
async fn connect(url: &str, revision: ProtocolVersion) -> Client {
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = if revision == ProtocolVersion::V_2026_07_28 {
        Plain(revision.clone())
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![revision.clone()],
                },
            )
            .await
    } else {
        Plain(revision.clone()).serve(transport).await
    }
    .expect("the client connects");
    let negotiated = client
        .peer()
        .peer_info()
        .map(|info| info.protocol_version.clone());
    assert_eq!(negotiated, Some(revision), "the revision negotiated");
    client
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

/// Every result a 2026-07-28 client gets says `resultType: "complete"`;
/// an older client never sees the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_carry_result_type_on_2026_07_28_only() {
    bounded(async {
        for stateless in [false, true] {
            let server = start_with(tools(), |server| {
                if stateless {
                    server.stateless()
                } else {
                    server
                }
            })
            .await;
            let url = format!("http://{}/mcp", server.address);
            for (revision, expected) in [
                (ProtocolVersion::V_2026_07_28, Some(ResultType::COMPLETE)),
                (ProtocolVersion::V_2025_11_25, None),
                (ProtocolVersion::V_2025_06_18, None),
            ] {
                let client = connect(&url, revision.clone()).await;
                let echoed = client
                    .call_tool(call("echo", json!({"value": "Pi"})))
                    .await
                    .unwrap();
                assert_eq!(
                    echoed.result_type, expected,
                    "{revision:?}, stateless: {stateless}"
                );
                let failed = client.call_tool(call("echo", json!({}))).await.unwrap();
                assert_eq!(failed.is_error, Some(true));
                assert_eq!(
                    failed.result_type, expected,
                    "{revision:?}, stateless: {stateless}"
                );
                client.cancel().await.unwrap();
            }
            server.stop().await;
        }
    })
    .await;
}

/// A tool with an output schema: its failure comes without the
/// `{"error": ..}` details (which the schema does not describe), its text
/// kept; its success with structured content that fits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn structured_content_always_fits_the_output_schema() {
    bounded(async {
        let server = start_with(tools(), |server| server).await;
        let url = format!("http://{}/mcp", server.address);
        for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
            let client = connect(&url, revision.clone()).await;
            let listed = client.list_all_tools().await.unwrap();
            let schema = listed
                .iter()
                .find(|tool| tool.name == "measure")
                .and_then(|tool| tool.output_schema.clone())
                .expect("measure has an output schema");
            let validator = jsonschema::validator_for(&Value::Object((*schema).clone())).unwrap();

            let measured = client
                .call_tool(call("measure", json!({"fail": false})))
                .await
                .unwrap();
            assert_eq!(measured.is_error, Some(false));
            let structured = measured
                .structured_content
                .expect("a success has structured content");
            assert!(validator.is_valid(&structured), "{structured}");
            // Without a text of its own, the content is the same JSON.
            let said = &measured.content[0].as_text().unwrap().text;
            assert_eq!(serde_json::from_str::<Value>(said).unwrap(), structured);

            // A text of its own is the content; the structured content is
            // the same JSON, checked against the same schema.
            let worded = client
                .call_tool(call("measure", json!({"fail": false, "in_words": true})))
                .await
                .unwrap();
            assert_eq!(worded.is_error, Some(false));
            assert_eq!(worded.content.len(), 1);
            assert_eq!(
                worded.content[0].as_text().unwrap().text,
                "two and a half metres"
            );
            assert_eq!(worded.structured_content, Some(structured));

            let failed = client
                .call_tool(call("measure", json!({"fail": true})))
                .await
                .unwrap();
            assert_eq!(failed.is_error, Some(true));
            assert_eq!(failed.structured_content, None, "{revision:?}");
            let said = &failed.content[0].as_text().unwrap().text;
            assert!(said.contains("nothing to measure here"), "{said}");

            // Arguments that do not parse: the same.
            let refused = client
                .call_tool(call("measure", json!({"fail": "yes"})))
                .await
                .unwrap();
            assert_eq!(refused.is_error, Some(true));
            assert_eq!(refused.structured_content, None);

            // A success that breaks the schema is not sent as a success.
            let lied = client.call_tool(call("liar", json!({}))).await.unwrap();
            assert_eq!(lied.is_error, Some(true), "{lied:?}");
            assert_eq!(lied.structured_content, None);
            let texts: Vec<&str> = lied
                .content
                .iter()
                .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
                .collect();
            assert_eq!(texts[0], "counted");
            assert!(
                texts[1].starts_with(
                    "The tool's structured result does not match its output schema (at '/count'"
                ),
                "{texts:?}"
            );
            client.cancel().await.unwrap();
        }
        server.stop().await;
    })
    .await;
}

/// `tools/call` whose params are not an object, or whose arguments are
/// not: invalid params (-32602) naming what is wrong, never "method not
/// found".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_that_are_not_objects_are_invalid_params() {
    bounded(async {
        let server = start_with(tools(), |server| server).await;
        let session = open_session(&server, &[]).await;
        let headers = [("Mcp-Session-Id", session.as_str())];
        for (arguments, says) in [
            (
                "[1]",
                "tools/call: params.arguments must be an object, got array [1]",
            ),
            (
                "\"x\"",
                "tools/call: params.arguments must be an object, got string \"x\"",
            ),
            (
                "7",
                "tools/call: params.arguments must be an object, got number 7",
            ),
        ] {
            let answer = send(
                server.address,
                post(
                    &server.host(),
                    &headers,
                    &crate::support::call(5, "echo", arguments),
                ),
            )
            .await;
            let error = answer_json(&answer);
            assert_eq!(error["id"], 5, "{answer:?}");
            assert_eq!(
                error["error"]["code"],
                ErrorCode::INVALID_PARAMS.0,
                "{answer:?}"
            );
            assert_eq!(error["error"]["message"], says);
        }
        server.stop().await;
    })
    .await;
}

/// A body that is not JSON, or JSON that is not JSON-RPC: JSON-RPC's own
/// errors, as JSON with HTTP 400, in either mode.
#[tokio::test]
async fn bodies_that_are_not_json_rpc_get_json_rpc_errors() {
    bounded(async {
        for stateless in [false, true] {
            let server = start_with(tools(), |server| {
                if stateless {
                    server.stateless()
                } else {
                    server
                }
            })
            .await;
            for (body, code) in [
                (r#"{"jsonrpc":"2.0","id":2,"#, -32700),
                ("not json at all", -32700),
                ("\"a string\"", -32600),
                (r#"{"jsonrpc":"2.0","id":2}"#, -32600),
            ] {
                let answer = send(server.address, post(&server.host(), &[], body)).await;
                assert_eq!(answer.status, 400, "{body}: {answer:?}");
                assert_eq!(answer.header("content-type"), Some("application/json"));
                let error: Value = serde_json::from_str(&answer.body).unwrap();
                assert_eq!(error["jsonrpc"], "2.0");
                assert_eq!(error["id"], Value::Null);
                assert_eq!(error["error"]["code"], code, "{body}: {error}");
            }
            server.stop().await;
        }
    })
    .await;
}

/// A client that ends its session is told it did with 200 (rmcp's 202
/// makes the Python SDK warn that termination failed).
#[tokio::test]
async fn ending_a_session_answers_200() {
    bounded(async {
        let server = start_with(tools(), |server| server).await;
        let session = open_session(&server, &[]).await;
        let request = format!(
            "DELETE /mcp HTTP/1.1\r\nHost: {}\r\nMcp-Session-Id: {session}\r\nConnection: close\r\n\r\n",
            server.host()
        );
        let answer = send(server.address, request.into_bytes()).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let after = send(
            server.address,
            post(&server.host(), &[("Mcp-Session-Id", &session)], LIST),
        )
        .await;
        assert_eq!(after.status, 404, "the session is gone: {after:?}");
        server.stop().await;
    })
    .await;
}
