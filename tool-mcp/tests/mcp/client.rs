//! `tool_mcp::client` against our own server: in-process over streamable
//! HTTP (`HttpServer` on loopback, where the server's counters can be read
//! directly; behind a TLS terminator for `https`), and in child processes
//! that are this very test binary: run with `TOOL_MCP_CLIENT_TEST_SERVER`
//! set and filtered to the `stdio_server_child` test alone
//! ([`server_child_args`]), that test serves instead of returning at once:
//! the fixture registry on stdin and stdout (`1`; libtest's own `running 1
//! test` line on stdout is not JSON, and rmcp skips it), a registry whose
//! tool reports the process's environment (`env`), or the fixture over HTTP
//! on an address (`http 127.0.0.1:PORT`), so no binary target is needed.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tool_core::repair::{Repair, RepairPolicy, RepairRule};
use tool_core::{
    Content, DynamicTool, RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput,
    ToolRegistry, ToolResultMessage, execute_tool_call,
};
use tool_mcp::client::{ClientError, DEFAULT_CALL_TIMEOUT, INHERITED_ENV, McpClient, Upstream};
use tool_mcp::{HttpServer, McpServer};

const CHILD_ENV: &str = "TOOL_MCP_CLIENT_TEST_SERVER";
/// Only there so a hang fails the test instead of stalling the suite.
const TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What the server side saw.
#[derive(Clone, Default)]
struct Seen {
    calls: Arc<AtomicUsize>,
    cancelled: Arc<AtomicUsize>,
}

fn fixture(seen: &Seen) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    let calls = Arc::clone(&seen.calls);
    tools
        .register(
            DynamicTool::new(
                "echo",
                "Echo one value",
                move |args: Map<String, Value>, _ctx| {
                    calls.fetch_add(1, Ordering::SeqCst);
                    async move {
                        let value = args["value"].as_str().unwrap_or_default().to_owned();
                        Ok(ToolOutput::text(value.clone()).with_details(json!({"echo": value})))
                    }
                },
            )
            .with_parameters(json!({
                "type": "object",
                "properties": {"value": {"type": "string"}},
                "required": ["value"],
            })),
        )
        .unwrap();
    let calls = Arc::clone(&seen.calls);
    tools
        .register(
            DynamicTool::new("search", "Search items", move |_args, _ctx| {
                calls.fetch_add(1, Ordering::SeqCst);
                async { Ok(ToolOutput::text("found")) }
            })
            .with_parameters(json!({
                "type": "object",
                "properties": {
                    "limit": {"type": "integer", "minimum": 1},
                    "items": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"],
                    }},
                },
                "required": ["limit"],
            })),
        )
        .unwrap();
    tools
        .register(DynamicTool::new(
            "fail",
            "Fail as a domain error",
            |_args, _ctx| async {
                Ok(ToolOutput::text("no such issue")
                    .with_details(json!({"code": 404}))
                    .into_error())
            },
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "media",
            "Media of every kind",
            |_args, _ctx| async {
                Ok(ToolOutput::new(vec![
                    Content::text("look"),
                    Content::image(b"\x89PNG", "image/png"),
                    Content::audio(b"RIFF", "audio/wav"),
                    Content::resource_link("file:///a.txt", "a.txt").with_mime_type("text/plain"),
                ]))
            },
        ))
        .unwrap();
    let cancelled = Arc::clone(&seen.cancelled);
    tools
        .register(DynamicTool::new(
            "wait",
            "Wait to be cancelled",
            move |_args, ctx| {
                let cancelled = Arc::clone(&cancelled);
                async move {
                    ctx.report_progress(vec![Content::text("waiting")]);
                    ctx.cancelled().await;
                    cancelled.fetch_add(1, Ordering::SeqCst);
                    Ok(ToolOutput::text("cancelled"))
                }
            },
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "steps",
            "Report two steps",
            |_args, ctx| async move {
                ctx.report_progress(vec![Content::text("step 1")]);
                ctx.report_progress(vec![Content::text("step 2")]);
                tokio::time::sleep(Duration::from_millis(100)).await;
                Ok(ToolOutput::text("done"))
            },
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "die",
            "Exit the server process",
            |_args, _ctx| async { std::process::exit(3) },
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "garbage",
            "Write garbage on stdout",
            |_args, ctx| async move {
                {
                    let mut stdout = std::io::stdout().lock();
                    let _ = stdout.write_all(
                        b"this is not JSON\n{\"jsonrpc\": \"2.0\", \"id\": \n\xff\xfe\n",
                    );
                    let _ = stdout.flush();
                }
                ctx.cancelled().await;
                Ok(ToolOutput::text("never read"))
            },
        ))
        .unwrap();
    tools
}

async fn bounded<F: Future>(test: F) -> F::Output {
    tokio::time::timeout(TEST_TIMEOUT, test)
        .await
        .expect("the test finishes in time")
}

/// Our server on loopback; cancelled when the guard drops.
struct Http {
    address: SocketAddr,
    shutdown: CancellationToken,
}

impl Drop for Http {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn serve_http(registry: ToolRegistry, address: SocketAddr) -> Http {
    let server = HttpServer::bind(registry, address).await.expect("binds");
    let address = server.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    tokio::spawn(server.run(shutdown.clone()));
    Http { address, shutdown }
}

fn url(http: &Http) -> String {
    format!("http://{}/mcp", http.address)
}

async fn call(tools: &ToolRegistry, name: &str, arguments: Value) -> ToolResultMessage {
    call_with(tools, name, arguments, RunOptions::new()).await
}

async fn call_with(
    tools: &ToolRegistry,
    name: &str,
    arguments: Value,
    ctx: RunOptions,
) -> ToolResultMessage {
    execute_tool_call(&ToolCall::new("c1", name, arguments), tools, ctx).await
}

fn first_text(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().expect("a text item")
}

async fn eventually(what: &str, check: impl Fn() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{what}: not within 5 s"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn http_client(seen: &Seen) -> (Http, McpClient, ToolRegistry) {
    let http = serve_http(fixture(seen), "127.0.0.1:0".parse().unwrap()).await;
    let client = McpClient::connect(Upstream::http(url(&http)).with_bearer_token("t0ken"))
        .await
        .expect("connects");
    let mut tools = ToolRegistry::new();
    client.register_into(&mut tools, Some("srv")).unwrap();
    (http, client, tools)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_registers_under_a_prefix() {
    bounded(async {
        let seen = Seen::default();
        let (_http, client, tools) = http_client(&seen).await;
        let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
        assert_eq!(
            names,
            [
                "srv__die",
                "srv__echo",
                "srv__fail",
                "srv__garbage",
                "srv__media",
                "srv__search",
                "srv__steps",
                "srv__wait"
            ]
        );
        let echo = tools.get("srv__echo").unwrap();
        assert_eq!(echo.description(), "Echo one value");
        assert_eq!(echo.parameters()["required"], json!(["value"]));

        // Two servers share a registry under two prefixes; a name taken
        // registers nothing.
        let mut again = tools.clone();
        let error = client.register_into(&mut again, Some("srv")).unwrap_err();
        assert!(matches!(error, ClientError::Registry(_)), "{error}");
        // Both sides are the same server, named by its address.
        let message = error.to_string();
        assert!(
            message.starts_with("Tool already exists: srv__"),
            "{message}"
        );
        assert!(
            message.contains("(registered from MCP server http://"),
            "{message}"
        );
        assert_eq!(again.len(), 8);
        assert_eq!(client.register_into(&mut again, Some("other")).unwrap(), 8);
        assert_eq!(again.len(), 16);
        let mut plain = ToolRegistry::new();
        client.register_into(&mut plain, None).unwrap();
        assert!(plain.get("echo").is_some());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_round_trips_content_details_and_is_error() {
    bounded(async {
        let seen = Seen::default();
        let (_http, _client, tools) = http_client(&seen).await;

        let result = call(&tools, "srv__echo", json!({"value": "Pi"})).await;
        assert!(!result.is_error, "{result:?}");
        assert_eq!(result.content, vec![Content::text("Pi")]);
        assert_eq!(result.details, Some(json!({"echo": "Pi"})));

        let result = call(&tools, "srv__fail", json!({})).await;
        assert!(result.is_error);
        assert_eq!(result.content, vec![Content::text("no such issue")]);
        assert_eq!(result.details, Some(json!({"code": 404})));

        let result = call(&tools, "srv__media", json!({})).await;
        assert_eq!(
            result.content,
            vec![
                Content::text("look"),
                Content::image(b"\x89PNG", "image/png"),
                Content::audio(b"RIFF", "audio/wav"),
                Content::resource_link("file:///a.txt", "a.txt").with_mime_type("text/plain"),
            ] as Vec<Content>
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_fail_locally_like_a_derived_tool() {
    bounded(async {
        let seen = Seen::default();
        let (_http, _client, tools) = http_client(&seen).await;

        let result = call(&tools, "srv__search", json!({"limit": "3"})).await;
        assert!(result.is_error);
        assert_eq!(
            first_text(&result),
            "Tool srv__search failed: limit: expected integer, got string \"3\""
        );
        let result = call(&tools, "srv__echo", json!({})).await;
        assert_eq!(
            first_text(&result),
            "Tool srv__echo failed: value: missing required field"
        );
        let result = call(
            &tools,
            "srv__search",
            json!({"limit": 0, "items": [{"name": "a"}, {}, {"name": 7}]}),
        )
        .await;
        assert_eq!(
            first_text(&result),
            "Tool srv__search failed: limit: expected integer >= 1, got 0\n\
             items[1].name: missing required field\n\
             items[2].name: expected string, got number 7"
        );
        assert_eq!(
            seen.calls.load(Ordering::SeqCst),
            0,
            "nothing reached the server"
        );

        let result = call(&tools, "srv__search", json!({"limit": 2})).await;
        assert_eq!(first_text(&result), "found");
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);
    })
    .await;
}

/// A server tool that lists a schema which is not JSON Schema. A registry
/// refuses a `DynamicTool` with such a schema; a hand-written tool's
/// `parameters` is only shown, never compiled, so it can serve one.
struct BrokenSchema;

impl Tool for BrokenSchema {
    type Params = Map<String, Value>;
    type Details = ();

    fn name(&self) -> &str {
        "broken"
    }

    fn description(&self) -> &str {
        "Broken schema"
    }

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"a": {"type": 12}}})
    }

    async fn execute(
        &self,
        _params: Map<String, Value>,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<()>, ToolError> {
        Ok(ToolOutput::text("x"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imported_tools_are_repaired_against_the_servers_schema() {
    bounded(async {
        let seen = Seen::default();
        let (_http, _client, tools) = http_client(&seen).await;
        let repairing = RunOptions::new().with_repair(RepairPolicy::all());

        // The server's own DynamicTool checks its schema too: "found" is
        // only answered for an integer `limit`.
        let result = call_with(
            &tools,
            "srv__search",
            json!({"limit": "2"}),
            repairing.clone(),
        )
        .await;
        assert!(!result.is_error, "{result:?}");
        assert_eq!(first_text(&result), "found");
        assert_eq!(
            result.repairs,
            [Repair::new(
                "limit",
                &json!("2"),
                &json!(2),
                RepairRule::StringToScalar
            )]
        );
        assert!(
            result.content[1]
                .as_text()
                .unwrap()
                .starts_with("[Arguments repaired: limit: \"2\" read as 2 "),
            "{result:?}"
        );
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);

        // What repair cannot fix is refused, with the bound the repaired
        // value breaks said of what was sent, and nothing is sent.
        let result = call_with(&tools, "srv__search", json!({"limit": "0"}), repairing).await;
        assert_eq!(
            first_text(&result),
            "Tool srv__search failed: limit: expected integer >= 1, got string \"0\""
        );
        assert!(result.repairs.is_empty());
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_that_is_not_json_schema_is_a_registration_error() {
    bounded(async {
        let mut registry = fixture(&Seen::default());
        registry.register(BrokenSchema).unwrap();
        let http = serve_http(registry, "127.0.0.1:0".parse().unwrap()).await;
        let client = McpClient::connect(Upstream::http(url(&http)))
            .await
            .unwrap();
        let mut tools = ToolRegistry::new();
        let error = client.register_into(&mut tools, None).unwrap_err();
        let ClientError::InvalidSchema { tool, .. } = &error else {
            panic!("expected InvalidSchema, got {error:?}");
        };
        assert_eq!(tool, "broken");
        assert!(
            error.to_string().starts_with(
                "the MCP server's tool broken has an input schema that is not valid JSON Schema: "
            ),
            "{error}"
        );
        assert!(tools.is_empty(), "all or nothing");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_and_progress_reach_across() {
    bounded(async {
        let seen = Seen::default();
        let (_http, _client, tools) = http_client(&seen).await;

        // Progress: the server's notifications become the call's updates.
        let updates = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&updates);
        let ctx = RunOptions::new().with_progress(move |event| {
            sink.lock()
                .unwrap()
                .push(event.content[0].as_text().unwrap_or_default().to_owned());
        });
        let result = call_with(&tools, "srv__steps", json!({}), ctx).await;
        assert_eq!(first_text(&result), "done");
        // rmcp hands each notification to a task of its own, so an update
        // may come after the result (then it is dropped) or out of order:
        // what arrives is the server's updates, and the first one, sent 100
        // ms before the result, always does.
        let received = updates.lock().unwrap().clone();
        assert!(received.contains(&"step 1".to_owned()), "{received:?}");
        assert!(
            received
                .iter()
                .all(|update| update == "step 1" || update == "step 2"),
            "{received:?}"
        );

        // Cancellation: the caller's signal cancels the server's tool.
        let signal = CancellationToken::new();
        let waiting = Arc::new(AtomicUsize::new(0));
        let started = Arc::clone(&waiting);
        let ctx = RunOptions::new()
            .with_signal(signal.clone())
            .with_progress(move |_| {
                started.fetch_add(1, Ordering::SeqCst);
            });
        let running = tokio::spawn({
            let tools = tools.clone();
            async move { call_with(&tools, "srv__wait", json!({}), ctx).await }
        });
        eventually("the tool starts", || waiting.load(Ordering::SeqCst) == 1).await;
        signal.cancel();
        let result = running.await.unwrap();
        assert!(result.is_error);
        assert_eq!(first_text(&result), "Tool srv__wait failed: cancelled");
        eventually("the server's tool sees its cancellation", || {
            seen.cancelled.load(Ordering::SeqCst) == 1
        })
        .await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_answers_promptly_and_cancels_the_server_side() {
    bounded(async {
        let seen = Seen::default();
        let http = serve_http(fixture(&seen), "127.0.0.1:0".parse().unwrap()).await;
        let client =
            McpClient::connect(Upstream::http(url(&http)).with_timeout(Duration::from_millis(300)))
                .await
                .unwrap();
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();
        assert_eq!(
            tools.get("wait").unwrap().timeout(),
            Some(Duration::from_millis(300))
        );

        let start = Instant::now();
        let result = call(&tools, "wait", json!({})).await;
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(
            first_text(&result),
            "Tool wait failed: timed out after 300 ms"
        );
        // The future was dropped at the deadline: the server is told.
        eventually("the server's tool is cancelled", || {
            seen.cancelled.load(Ordering::SeqCst) == 1
        })
        .await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_that_goes_away_is_reached_again() {
    bounded(async {
        let seen = Seen::default();
        let (http, _client, tools) = http_client(&seen).await;
        let address = http.address;
        drop(http);
        tokio::time::sleep(Duration::from_millis(100)).await;

        let result = call_with(
            &tools,
            "srv__echo",
            json!({"value": "anyone?"}),
            RunOptions::new().with_timeout(Duration::from_secs(5)),
        )
        .await;
        assert!(result.is_error, "{result:?}");
        let message = first_text(&result);
        assert!(
            message.starts_with("Tool srv__echo failed: cannot send to the MCP server: ")
                && message.ends_with("; the next call connects again"),
            "{message}"
        );

        let _back = serve_http(fixture(&seen), address).await;
        let mut answer = None;
        for _ in 0..20 {
            let result = call(&tools, "srv__echo", json!({"value": "back"})).await;
            if !result.is_error {
                answer = Some(result);
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let answer = answer.expect("a call succeeds once the server is back");
        assert_eq!(answer.content, vec![Content::text("back")]);
    })
    .await;
}

// --- stdio: this test binary as the server ---------------------------------

/// The server side of the stdio tests; returns at once in a normal run.
#[test]
fn stdio_server_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let registry = fixture(&Seen::default());
    let mode = std::env::var(CHILD_ENV).unwrap_or_default();
    if let Some(address) = mode.strip_prefix("http ") {
        runtime.block_on(async {
            let server = HttpServer::bind(registry, address.parse().unwrap())
                .await
                .unwrap();
            let _ = server.run(CancellationToken::new()).await;
        });
    } else if mode == "env" {
        let _ = runtime.block_on(tool_mcp::serve_stdio(environment_registry()));
    } else if mode == "changing" {
        runtime.block_on(async {
            let server = Changing {
                inner: McpServer::new(registry),
                shrunk: Arc::default(),
            };
            let running = server.serve(rmcp::transport::stdio()).await.unwrap();
            let _ = running.waiting().await;
        });
    } else {
        let _ = runtime.block_on(tool_mcp::serve_stdio(registry));
    }
    std::process::exit(0);
}

/// Our server, plus a `shrink` tool that stops offering `echo` and says so
/// with `notifications/tools/list_changed`.
#[derive(Clone)]
struct Changing {
    inner: McpServer,
    shrunk: Arc<AtomicBool>,
}

impl ServerHandler for Changing {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut listed = self.inner.list_tools(request, context).await?;
        listed.tools.push(rmcp::model::Tool::new(
            "shrink",
            "Stop offering echo",
            Arc::new(Map::from_iter([("type".to_owned(), json!("object"))])),
        ));
        if self.shrunk.load(Ordering::SeqCst) {
            listed.tools.retain(|tool| tool.name != "echo");
        }
        Ok(listed)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "shrink" {
            self.shrunk.store(true, Ordering::SeqCst);
            let _ = context.peer.notify_tool_list_changed().await;
            return Ok(
                CallToolResult::success(vec![rmcp::model::ContentBlock::text("shrunk")]).into(),
            );
        }
        self.inner.call_tool(request, context).await
    }
}

/// The arguments that run this test binary as a server: only
/// [`stdio_server_child`], by its full name (its module path in this
/// binary, then its own), so a name that matched no test would fail every
/// test that starts one. More than one test thread: libtest then names a
/// test only when it ends, so nothing but its `running 1 test` header
/// precedes the server's first message.
fn server_child_args() -> [String; 3] {
    let module = module_path!()
        .split_once("::")
        .map_or("", |(_crate, path)| path);
    [
        "--exact".to_owned(),
        format!("{module}::stdio_server_child"),
        "--test-threads=2".to_owned(),
    ]
}

fn stdio_upstream() -> Upstream {
    Upstream::command(std::env::current_exe().unwrap(), server_child_args())
        .with_env(CHILD_ENV, "1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_round_trip_and_a_server_that_exits_is_restarted() {
    bounded(async {
        let client = McpClient::connect(stdio_upstream()).await.expect("starts");
        let mut tools = ToolRegistry::new();
        assert_eq!(client.register_into(&mut tools, Some("local")).unwrap(), 8);

        let result = call(&tools, "local__echo", json!({"value": "over stdio"})).await;
        assert_eq!(result.content, vec![Content::text("over stdio")]);
        assert_eq!(result.details, Some(json!({"echo": "over stdio"})));

        let result = call(&tools, "local__die", json!({})).await;
        assert!(result.is_error);
        assert_eq!(
            first_text(&result),
            "Tool local__die failed: the MCP server closed the connection; the next call connects again"
        );

        let result = call(&tools, "local__echo", json!({"value": "restarted"})).await;
        assert_eq!(result.content, vec![Content::text("restarted")], "{result:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_on_stdout_is_a_paired_error_not_a_hang() {
    bounded(async {
        let client = McpClient::connect(stdio_upstream().with_timeout(Duration::from_millis(500)))
            .await
            .expect("starts");
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();

        let start = Instant::now();
        let result = call(&tools, "garbage", json!({})).await;
        assert!(start.elapsed() < Duration::from_secs(3));
        assert_eq!(
            first_text(&result),
            "Tool garbage failed: timed out after 500 ms"
        );
        // The session survives the garbage.
        let result = call(&tools, "echo", json!({"value": "still here"})).await;
        assert_eq!(result.content, vec![Content::text("still here")]);
        client.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_refreshes_the_registered_tools() {
    bounded(async {
        let client = McpClient::connect(
            Upstream::command(std::env::current_exe().unwrap(), server_child_args())
                .with_env(CHILD_ENV, "changing"),
        )
        .await
        .expect("starts");
        let mut tools = ToolRegistry::new();
        assert_eq!(client.register_into(&mut tools, None).unwrap(), 9);
        assert!(client.tool_names().contains(&"echo".to_owned()));

        let result = call(&tools, "shrink", json!({})).await;
        assert_eq!(result.content, vec![Content::text("shrunk")]);
        eventually("the client lists the tools again", || {
            !client.tool_names().contains(&"echo".to_owned())
        })
        .await;
        assert_eq!(client.tool_names().len(), 8);

        // The registry is the caller's: the tool is still there, and says why
        // it cannot run.
        let result = call(&tools, "echo", json!({"value": "hi"})).await;
        assert!(result.is_error);
        assert_eq!(
            first_text(&result),
            "Tool echo failed: no longer offered by the server"
        );
        assert_eq!(client.refresh().await.unwrap(), 8);
    })
    .await;
}

// --- servers that die, environments, https --------------------------------

/// A tool reporting the environment it runs in, for the `env` child.
fn environment_registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register(DynamicTool::new(
            "env",
            "This process's environment",
            |_args, _ctx| async {
                let variables: Map<String, Value> = std::env::vars_os()
                    .map(|(name, value)| {
                        (
                            name.to_string_lossy().into_owned(),
                            Value::String(value.to_string_lossy().into_owned()),
                        )
                    })
                    .collect();
                Ok(ToolOutput::text("env").with_details(Value::Object(variables)))
            },
        ))
        .unwrap();
    tools
}

/// This test binary serving the fixture over HTTP at `address`, in a
/// process of its own that dies with the handle.
async fn http_child(address: SocketAddr) -> tokio::process::Child {
    let child = tokio::process::Command::new(std::env::current_exe().unwrap())
        .args(server_child_args())
        .env(CHILD_ENV, format!("http {address}"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    // Serving once a connection is taken.
    let start = Instant::now();
    while tokio::net::TcpStream::connect(address).await.is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the server child listens"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child
}

/// A loopback address free now.
fn free_address() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// Starts `srv__wait`-like `name` in the background with a long timeout of
/// its own, and returns once the server has begun it (its first progress).
fn start_waiting(
    tools: &ToolRegistry,
    name: &str,
    timeout: Duration,
) -> (tokio::task::JoinHandle<ToolResultMessage>, Arc<AtomicUsize>) {
    let waiting = Arc::new(AtomicUsize::new(0));
    let started = Arc::clone(&waiting);
    let ctx = RunOptions::new()
        .with_timeout(timeout)
        .with_progress(move |_| {
            started.fetch_add(1, Ordering::SeqCst);
        });
    let tools = tools.clone();
    let name = name.to_owned();
    let running = tokio::spawn(async move { call_with(&tools, &name, json!({}), ctx).await });
    (running, waiting)
}

/// Far longer than the answer may take: the call's own timeout, so a call
/// that is not failed fast ends as `timed out` instead of hanging.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The bound a dead server's calls must be answered in: well under
/// [`CALL_TIMEOUT`], and loose enough for a loaded machine.
const FAIL_FAST_BOUND: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_killed_mid_call_fails_the_call_at_once() {
    bounded(async {
        let address = free_address();
        let mut server = http_child(address).await;
        let client = McpClient::connect(
            Upstream::http(format!("http://{address}/mcp")).with_timeout(CALL_TIMEOUT),
        )
        .await
        .expect("connects");
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();

        let (running, waiting) = start_waiting(&tools, "wait", CALL_TIMEOUT);
        eventually("the server begins the call", || {
            waiting.load(Ordering::SeqCst) == 1
        })
        .await;
        server.start_kill().unwrap();
        let _ = server.wait().await;
        let result = tokio::time::timeout(FAIL_FAST_BOUND, running)
            .await
            .unwrap_or_else(|_| panic!("no answer within {FAIL_FAST_BOUND:?} of the kill"))
            .unwrap();
        assert!(result.is_error, "{result:?}");
        assert_eq!(
            first_text(&result),
            "Tool wait failed: the MCP server closed the connection; the next call connects again"
        );

        // The connection was marked: the next call connects again, to the
        // server started anew at the same address.
        let _server = http_child(address).await;
        let result = call(&tools, "echo", json!({"value": "again"})).await;
        assert_eq!(result.content, vec![Content::text("again")], "{result:?}");
    })
    .await;
}

/// A server that stops mid-call (its grace period over at once) answers
/// the call, cancelled, instead of leaving the caller to its timeout; the
/// next call reaches the server started anew at the same address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_stopping_mid_call_answers_it_soon() {
    bounded(async {
        let seen = Seen::default();
        let server = HttpServer::bind(fixture(&seen), "127.0.0.1:0".parse().unwrap())
            .await
            .expect("binds")
            .with_shutdown_grace(Duration::ZERO);
        let address = server.local_addr().unwrap();
        let http = Http {
            address,
            shutdown: CancellationToken::new(),
        };
        tokio::spawn(server.run(http.shutdown.clone()));
        let client = McpClient::connect(Upstream::http(url(&http)).with_timeout(CALL_TIMEOUT))
            .await
            .expect("connects");
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();

        let (running, waiting) = start_waiting(&tools, "wait", CALL_TIMEOUT);
        eventually("the server begins the call", || {
            waiting.load(Ordering::SeqCst) == 1
        })
        .await;
        drop(http);
        let result = tokio::time::timeout(FAIL_FAST_BOUND, running)
            .await
            .unwrap_or_else(|_| panic!("no answer within {FAIL_FAST_BOUND:?} of the shutdown"))
            .unwrap();
        // The fixture's `wait` answers "cancelled" when its signal fires:
        // the stopping server cancelled it, and sent its answer.
        assert_eq!(first_text(&result), "cancelled", "{result:?}");
        assert_eq!(seen.cancelled.load(Ordering::SeqCst), 1);

        let _back = serve_http(fixture(&seen), address).await;
        let result = call(&tools, "echo", json!({"value": "back"})).await;
        assert_eq!(result.content, vec![Content::text("back")], "{result:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_calls_have_a_default_timeout_that_can_be_changed_or_turned_off() {
    assert_eq!(DEFAULT_CALL_TIMEOUT, Duration::from_secs(120));
    bounded(async {
        let seen = Seen::default();
        let http = serve_http(fixture(&seen), "127.0.0.1:0".parse().unwrap()).await;
        let timeout_of = |upstream: Upstream| async {
            let client = McpClient::connect(upstream).await.expect("connects");
            let mut tools = ToolRegistry::new();
            client.register_into(&mut tools, None).unwrap();
            tools.get("echo").unwrap().timeout()
        };
        assert_eq!(
            timeout_of(Upstream::http(url(&http))).await,
            Some(DEFAULT_CALL_TIMEOUT)
        );
        assert_eq!(
            timeout_of(Upstream::http(url(&http)).with_timeout(Duration::from_secs(7))).await,
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            timeout_of(Upstream::http(url(&http)).without_timeout()).await,
            None
        );
    })
    .await;
}

/// The `env` child's environment, as its tool reports it.
async fn child_environment(upstream: Upstream) -> Map<String, Value> {
    let client = McpClient::connect(upstream).await.expect("starts");
    let mut tools = ToolRegistry::new();
    client.register_into(&mut tools, None).unwrap();
    let result = call(&tools, "env", json!({})).await;
    client.close().await;
    match result.details {
        Some(Value::Object(variables)) => variables,
        other => panic!("the env tool answers an object, not {other:?}"),
    }
}

fn env_child() -> Upstream {
    Upstream::command(std::env::current_exe().unwrap(), server_child_args())
        .with_env(CHILD_ENV, "env")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_started_server_sees_only_the_minimal_environment_and_its_own() {
    bounded(async {
        // `cargo test` sets CARGO_PKG_NAME for the test; run by hand, it
        // may be unset, and then the child must not have it either.
        let inherited = std::env::var("CARGO_PKG_NAME").ok();
        let variables = child_environment(
            env_child()
                .with_env("UPSTREAM_SETTING", "on")
                .with_env("HOME", "/nowhere")
                .with_inherited_env("CARGO_PKG_NAME")
                .with_inherited_env("TOOL_MCP_SURELY_UNSET_VARIABLE"),
        )
        .await;

        let mut expected: Map<String, Value> = INHERITED_ENV
            .iter()
            .filter_map(|name| Some(((*name).to_owned(), json!(std::env::var(name).ok()?))))
            .collect();
        expected.insert(CHILD_ENV.to_owned(), json!("env"));
        expected.insert("UPSTREAM_SETTING".to_owned(), json!("on"));
        expected.insert("HOME".to_owned(), json!("/nowhere"));
        if let Some(name) = inherited {
            expected.insert("CARGO_PKG_NAME".to_owned(), json!(name));
        }
        // The process's own additions: libtest and the Rust runtime set
        // none, so the environment is exactly what was given.
        let got: BTreeMap<String, Value> = variables.into_iter().collect();
        let want: BTreeMap<String, Value> = expected.into_iter().collect();
        assert_eq!(got, want);
    })
    .await;
}

/// A certificate authority made for one test, and a server certificate it
/// signed for `localhost` and 127.0.0.1.
struct TestPki {
    ca_pem: String,
    server_chain: Vec<tokio_rustls::rustls::pki_types::CertificateDer<'static>>,
    server_key: tokio_rustls::rustls::pki_types::PrivateKeyDer<'static>,
}

fn test_pki() -> TestPki {
    use rcgen::{
        BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose,
    };
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "tool-mcp test CA");
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_key = KeyPair::generate().unwrap();
    let ca_certificate = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);

    let mut server =
        CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).unwrap();
    server
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    server.use_authority_key_identifier_extension = true;
    let server_key = KeyPair::generate().unwrap();
    let server_certificate = server.signed_by(&server_key, &issuer).unwrap();
    TestPki {
        ca_pem: ca_certificate.pem(),
        server_chain: vec![server_certificate.der().clone()],
        server_key: tokio_rustls::rustls::pki_types::PrivatePkcs8KeyDer::from(
            server_key.serialize_der(),
        )
        .into(),
    }
}

/// TLS on a loopback port of its own, each connection carried to the
/// plain HTTP server at `behind` (as a reverse proxy in front of a
/// server does); stops with the returned handle.
async fn tls_terminator(
    pki: &TestPki,
    behind: SocketAddr,
) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let config = tokio_rustls::rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(pki.server_chain.clone(), pki.server_key.clone_key())
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A client that refuses the certificate ends the handshake.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(behind).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    (address, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_server_signed_by_a_given_root_is_reached() {
    bounded(async {
        let pki = test_pki();
        let seen = Seen::default();
        let http = serve_http(fixture(&seen), "127.0.0.1:0".parse().unwrap()).await;
        let (tls, terminator) = tls_terminator(&pki, http.address).await;
        let url = format!("https://localhost:{}/mcp", tls.port());

        let client = McpClient::connect(
            Upstream::http(&url)
                .with_bearer_token("t0ken")
                .with_root_certificate(pki.ca_pem.clone()),
        )
        .await
        .expect("connects over https");
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();
        let result = call(&tools, "echo", json!({"value": "sealed"})).await;
        assert_eq!(result.content, vec![Content::text("sealed")], "{result:?}");
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);

        // Without the root, the certificate is refused: the roots are
        // checked, not waved through.
        let error =
            McpClient::connect(Upstream::http(&url).with_connect_timeout(Duration::from_secs(10)))
                .await
                .expect_err("an unknown issuer is refused");
        assert!(matches!(error, ClientError::Connect(_)), "{error}");
        let message = error.to_string();
        assert!(
            message
                .starts_with("cannot connect to the MCP server: cannot send initialize request: ")
                && message.ends_with("invalid peer certificate: UnknownIssuer"),
            "{message}"
        );
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);

        // Text that is not a certificate is named as such.
        let error =
            McpClient::connect(Upstream::http(&url).with_root_certificate("not a certificate"))
                .await
                .expect_err("no certificate, no client");
        assert_eq!(
            error.to_string(),
            "cannot connect to the MCP server: root certificate 1 of 1 holds no certificate \
             (expected -----BEGIN CERTIFICATE-----)"
        );
        terminator.abort();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_file_is_read_again_when_it_changes() {
    bounded(async {
        let dir =
            std::env::temp_dir().join(format!("tool-mcp-upstream-token-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (server_file, client_file) = (dir.join("server"), dir.join("client"));
        std::fs::write(&server_file, "first-token").unwrap();
        std::fs::write(&client_file, "first-token\n").unwrap();
        let mut registry = ToolRegistry::new();
        registry
            .register(DynamicTool::new(
                "ping",
                "Answer pong",
                |_args, _ctx| async { Ok(ToolOutput::text("pong")) },
            ))
            .unwrap();
        let server = HttpServer::bind(registry, "127.0.0.1:0".parse().unwrap())
            .await
            .expect("binds")
            .with_bearer_token_file(&server_file);
        let address = server.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        tokio::spawn(server.run(shutdown.clone()));
        let http = Http { address, shutdown };

        let client =
            McpClient::connect(Upstream::http(url(&http)).with_bearer_token_file(&client_file))
                .await
                .expect("connects with the file's token");
        let mut tools = ToolRegistry::new();
        client.register_into(&mut tools, None).unwrap();
        assert_eq!(first_text(&call(&tools, "ping", json!({})).await), "pong");

        // Both rotated: the server accepts only the new token, which the
        // client sends once it has looked at its file again (at most once
        // a second).
        std::fs::write(&server_file, "second-token").unwrap();
        std::fs::write(&client_file, "second-token\n").unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let rotated = call(&tools, "ping", json!({})).await;
        assert!(!rotated.is_error, "{rotated:?}");
        assert_eq!(first_text(&rotated), "pong");
        std::fs::remove_dir_all(&dir).ok();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_file_that_cannot_be_read_fails_the_connection_naming_it() {
    let missing = std::env::temp_dir().join("tool-mcp-no-such-token-file");
    let error = McpClient::connect(
        Upstream::http("http://127.0.0.1:9/mcp").with_bearer_token_file(&missing),
    )
    .await
    .expect_err("refused");
    let message = error.to_string();
    assert!(message.contains("the upstream token file"), "{message}");
    assert!(message.contains("tool-mcp-no-such-token-file"), "{message}");
}
