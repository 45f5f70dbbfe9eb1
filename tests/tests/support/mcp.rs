//! What the MCP server must do, whatever the transport: the scenarios
//! `mcp::stdio` (a child process on stdio) and `mcp::http` (streamable
//! HTTP on loopback) both run, and the client machinery they share. Every
//! message the client receives is recorded on a [`Wire`], so the order it
//! arrived in (progress before the result, no answer to a cancelled call)
//! can be checked, not only what rmcp hands over.
//!
//! A transport's test module defines `connect() -> Session` and
//! `Session::close`, with `client` and `wire` fields, then invokes
//! `transport_scenarios!()` to get one `#[tokio::test]` per scenario: a
//! scenario listed there runs over every transport.

use futures_util::future::join_all;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest,
    ErrorCode, Implementation, ProgressNotificationParam, ProgressToken, Request, RequestId,
    ServerResult,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestHandle, RunningService, RxJsonRpcMessage,
    TxJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tests::mcp_fixture::{EchoTool, SLOW_STEPS, fixture_registry, slow_step};
use tool_core::providers::mcp;
use tool_core::{RunOptions, Tool, ToolCall, execute_tool_call};

/// One `#[tokio::test]` per shared scenario, each on a fresh connection
/// from the invoking module's `connect()`.
macro_rules! transport_scenarios {
    () => {
        transport_scenarios!(
            @each
            initialize_then_list_gives_the_registry_definitions,
            echo_answers_with_its_content_and_structured_content,
            bad_arguments_are_an_error_result_not_a_protocol_error,
            an_unknown_tool_is_the_invalid_params_error,
            fifty_concurrent_calls_each_get_their_own_answer,
            progress_notifications_arrive_in_order_before_the_result,
            a_cancelled_call_cancels_the_tool_and_gets_no_answer,
        );
    };
    (@each $($scenario:ident),* $(,)?) => {$(
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $scenario() {
            $crate::support::bounded::bounded(async {
                let session = connect().await;
                $crate::support::mcp::$scenario(&session.client, &session.wire).await;
                session.close().await;
            })
            .await;
        }
    )*};
}
pub(crate) use transport_scenarios;

/// Initializes a client over `transport`, recording what it receives.
pub(crate) async fn connect_over<T>(transport: T) -> (Client, Wire)
where
    T: Transport<RoleClient> + Send + 'static,
{
    let wire = Wire::default();
    let recorded = Recorded {
        inner: transport,
        wire: wire.clone(),
    };
    let client = TestClient::default()
        .serve(recorded)
        .await
        .expect("initialize succeeds");
    (client, wire)
}

/// How long [`eventually`] waits: less than a whole scenario's ceiling
/// ([`HANG`](super::bounded::HANG)), so that its message, which says what
/// did not happen, is the one shown.
pub(crate) const WAIT_TIMEOUT: Duration = Duration::from_secs(5);

/// Polls `check` every 10 ms until it holds; panics after [`WAIT_TIMEOUT`].
pub(crate) async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let waited = tokio::time::timeout(WAIT_TIMEOUT, async {
        while !check().await {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "{what}: not within {WAIT_TIMEOUT:?}");
}

/// The client side: records the progress notifications rmcp hands over.
#[derive(Clone, Default)]
pub(crate) struct TestClient {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl TestClient {
    pub(crate) fn progress_of(&self, token: &ProgressToken) -> Vec<ProgressNotificationParam> {
        let progress = self.progress.lock().unwrap();
        progress
            .iter()
            .filter(|update| &update.progress_token == token)
            .cloned()
            .collect()
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("mcp-transport-test", "0.1.0"),
        )
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

/// Every message the client received, as JSON, in the order received.
#[derive(Clone, Default)]
pub(crate) struct Wire(pub Arc<Mutex<Vec<Value>>>);

impl Wire {
    pub(crate) fn messages(&self) -> Vec<Value> {
        self.0.lock().unwrap().clone()
    }

    /// `(position, progress, message)` of each progress notification for
    /// `token`.
    pub(crate) fn progress(&self, token: &ProgressToken) -> Vec<(usize, f64, String)> {
        let token = serde_json::to_value(token).unwrap();
        self.messages()
            .iter()
            .enumerate()
            .filter(|(_, message)| {
                message["method"] == "notifications/progress"
                    && message["params"]["progressToken"] == token
            })
            .map(|(position, message)| {
                let params = &message["params"];
                (
                    position,
                    params["progress"].as_f64().unwrap(),
                    params["message"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect()
    }

    /// Where the answer (result or error) to request `id` was received.
    pub(crate) fn answer(&self, id: &RequestId) -> Option<usize> {
        let id = serde_json::to_value(id).unwrap();
        self.messages().iter().position(|message| {
            message["id"] == id
                && (message.get("result").is_some() || message.get("error").is_some())
        })
    }
}

/// A transport that records every message it receives on a [`Wire`].
pub(crate) struct Recorded<T> {
    pub inner: T,
    pub wire: Wire,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recorded<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        let json = serde_json::to_value(&message).expect("a received message serializes");
        self.wire.0.lock().unwrap().push(json);
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

pub(crate) type Client = RunningService<RoleClient, TestClient>;

pub(crate) fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

/// What the executor itself answers to `name(arguments)`, as MCP's
/// `CallToolResult`: the server must send exactly this.
pub(crate) async fn expected_result(name: &str, arguments: Value) -> Value {
    let call = ToolCall::new("local", name, arguments);
    let result = execute_tool_call(&call, &fixture_registry(), RunOptions::new()).await;
    mcp::write_result(&result)
}

pub(crate) fn wire_json(result: &CallToolResult) -> Value {
    serde_json::to_value(result).unwrap()
}

/// Calls `name(arguments)`: the result (not a JSON-RPC error) is `expected`
/// on the wire, and is what the executor itself answers.
pub(crate) async fn assert_answer(client: &Client, name: &str, arguments: Value, expected: Value) {
    let result = client
        .call_tool(call(name, arguments.clone()))
        .await
        .unwrap_or_else(|error| panic!("{name} answers with a result: {error}"));
    assert_eq!(wire_json(&result), expected);
    assert_eq!(wire_json(&result), expected_result(name, arguments).await);
}

/// The server-side count of `slow` calls that saw their cancellation.
pub(crate) async fn cancelled_count(client: &Client) -> u64 {
    let result = client
        .call_tool(call("stats", json!({})))
        .await
        .expect("stats answers");
    let text = &result.content[0]
        .as_text()
        .expect("stats answers in text")
        .text;
    text.parse().unwrap_or_else(|_| panic!("stats: {text:?}"))
}

/// Sends a `slow` call of `millis`, with a progress token, not waiting for
/// its answer.
async fn send_slow(client: &Client, millis: u64) -> RequestHandle<RoleClient> {
    client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(call("slow", json!({"millis": millis})))),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("the call is sent")
}

pub(crate) async fn initialize_then_list_gives_the_registry_definitions(
    client: &Client,
    _wire: &Wire,
) {
    let info = client.peer_info().expect("initialized");
    let server_info = info.server_info.as_ref().expect("server info");
    assert_eq!(server_info.name, "tool-mcp");
    assert_eq!(server_info.version, env!("CARGO_PKG_VERSION"));
    assert!(info.capabilities.tools.is_some(), "tools capability");

    let tools = client.list_all_tools().await.expect("tools/list answers");
    let listed: Vec<Value> = tools
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": Value::Object(tool.input_schema.as_ref().clone()),
            })
        })
        .collect();
    let expected: Vec<Value> = fixture_registry()
        .definitions()
        .into_iter()
        .map(|definition| {
            json!({
                "name": definition.name,
                "description": definition.description,
                "inputSchema": definition.parameters,
            })
        })
        .collect();
    assert_eq!(listed, expected);
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["echo", "slow", "stats"]);

    let echo = &tools[0];
    let schema = Value::Object(echo.input_schema.as_ref().clone());
    assert_eq!(schema, EchoTool.parameters());
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {"value": {"type": "string"}},
            "required": ["value"],
            "additionalProperties": false,
        })
    );
    assert_eq!(
        serde_json::to_string(&schema).unwrap(),
        serde_json::to_string(&EchoTool.parameters()).unwrap(),
        "the schema keeps its key order too"
    );
}

pub(crate) async fn echo_answers_with_its_content_and_structured_content(
    client: &Client,
    _wire: &Wire,
) {
    assert_answer(
        client,
        "echo",
        json!({"value": "Pi"}),
        json!({
            "content": [{"type": "text", "text": "Pi"}],
            "structuredContent": {"echo": "Pi"},
            "isError": false,
        }),
    )
    .await;
}

pub(crate) async fn bad_arguments_are_an_error_result_not_a_protocol_error(
    client: &Client,
    _wire: &Wire,
) {
    assert_answer(
        client,
        "echo",
        json!({"value": 5}),
        json!({
            "content": [{"type": "text", "text": "Tool echo failed: value: expected string, got number 5"}],
            "structuredContent": {"error": "value: expected string, got number 5"},
            "isError": true,
        }),
    )
    .await;

    let result = client
        .call_tool(CallToolRequestParams::new("echo"))
        .await
        .expect("a result, not a JSON-RPC error");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "Tool echo failed: value: missing required field"
    );
    assert_eq!(wire_json(&result), expected_result("echo", json!({})).await);
}

pub(crate) async fn an_unknown_tool_is_the_invalid_params_error(client: &Client, _wire: &Wire) {
    let error = client
        .call_tool(call("nope", json!({})))
        .await
        .expect_err("a JSON-RPC error");
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error:?}");
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, "Unknown tool: nope");
    // The session goes on.
    let result = client
        .call_tool(call("echo", json!({"value": "still here"})))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "still here");
}

pub(crate) async fn fifty_concurrent_calls_each_get_their_own_answer(
    client: &Client,
    _wire: &Wire,
) {
    let calls = (0..50).map(|i| {
        let peer = client.peer().clone();
        async move {
            peer.call_tool(call("echo", json!({"value": format!("m{i}")})))
                .await
        }
    });
    let results = join_all(calls).await;
    assert_eq!(results.len(), 50);
    for (i, result) in results.into_iter().enumerate() {
        let result = result.unwrap_or_else(|error| panic!("call {i}: {error}"));
        assert_eq!(
            wire_json(&result),
            json!({
                "content": [{"type": "text", "text": format!("m{i}")}],
                "structuredContent": {"echo": format!("m{i}")},
                "isError": false,
            }),
            "call {i}"
        );
    }
}

pub(crate) async fn progress_notifications_arrive_in_order_before_the_result(
    client: &Client,
    wire: &Wire,
) {
    // Ten calls at once, each with its own progress token: the updates
    // race their result only if the server lets them.
    let mut handles = Vec::new();
    for _ in 0..10 {
        handles.push(send_slow(client, 0).await);
    }
    let calls: Vec<(RequestId, ProgressToken)> = handles
        .iter()
        .map(|handle| (handle.id.clone(), handle.progress_token.clone()))
        .collect();
    let responses = join_all(handles.into_iter().map(|handle| handle.await_response())).await;
    for response in responses {
        let response = response.expect("slow answers");
        let ServerResult::CallToolResult(result) = response else {
            panic!("expected a tool result, got {response:?}");
        };
        assert_eq!(result.content[0].as_text().unwrap().text, "slept 0 ms");
    }

    let expected: Vec<(f64, String)> = (1..=SLOW_STEPS)
        .map(|step| (step as f64, slow_step(step)))
        .collect();
    for (id, token) in &calls {
        let answer = wire.answer(id).expect("the answer was received");
        let progress = wire.progress(token);
        let received: Vec<(f64, String)> = progress
            .iter()
            .map(|(_, progress, message)| (*progress, message.clone()))
            .collect();
        assert_eq!(received, expected, "in order on the wire, call {id}");
        assert!(
            progress.iter().all(|(position, ..)| *position < answer),
            "every update before the result of call {id}: {:#?}",
            wire.messages()
        );
    }

    // rmcp hands each notification to the handler on a task of its own:
    // all of them arrive there, in no promised order.
    let (_, token) = &calls[0];
    eventually("the handler sees every update", || async {
        client.service().progress_of(token).len() == SLOW_STEPS
    })
    .await;
    let mut handled: Vec<(f64, String)> = client
        .service()
        .progress_of(token)
        .into_iter()
        .map(|update| (update.progress, update.message.unwrap_or_default()))
        .collect();
    handled.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(handled, expected);
}

pub(crate) async fn a_cancelled_call_cancels_the_tool_and_gets_no_answer(
    client: &Client,
    wire: &Wire,
) {
    assert_eq!(cancelled_count(client).await, 0);
    let handle = send_slow(client, 60_000).await;
    let (id, token) = (handle.id.clone(), handle.progress_token.clone());
    // The tool runs once its progress arrives.
    eventually("slow reports progress", || async {
        wire.progress(&token).len() == SLOW_STEPS
    })
    .await;
    handle
        .cancel(Some("the test gives up".into()))
        .await
        .expect("the cancellation is sent");

    eventually("the tool sees the cancellation", || async {
        cancelled_count(client).await == 1
    })
    .await;
    // The tool has returned; a result it produced would be sent now.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        wire.answer(&id),
        None,
        "a cancelled call is not answered: {:?}",
        wire.messages()
    );
    assert_eq!(cancelled_count(client).await, 1);
}
