//! A call's trace across MCP hops: the client's `tools/call` span (CLIENT)
//! sends its context in `params._meta`, the server's `tools/call` span
//! (SERVER) takes it as its parent, and the tool's spans are inside that:
//! one trace, one chain of parents, from the agent's span to the tool's.

use crate::collector::{self, ancestry, attribute, has, named, one};
use crate::support::{bounded, call, open_session, post, send, start_with};
use opentelemetry::Context;
use opentelemetry::trace::{
    SpanContext, SpanId, SpanKind, Status, TraceContextExt, TraceFlags, TraceId, TraceState,
};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tool_core::{DynamicTool, RunOptions, ToolCall, ToolOutput, ToolRegistry, execute_tool_call};
use tool_mcp::client::{McpClient, Upstream};
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The client side of an MCP call of `tool`: the executor's `execute_tool`
/// span, with the MCP client's attributes, as the conventions ask when an
/// outer instrumentation already traces the tool's execution; never a
/// span of kind client beside it.
fn mcp_client<'a>(
    spans: &'a [opentelemetry_sdk::trace::SpanData],
    tool: &str,
) -> &'a opentelemetry_sdk::trace::SpanData {
    assert!(
        spans.iter().all(|span| span.span_kind != SpanKind::Client),
        "no second span for the call: {:#?}",
        collector::names(&spans.iter().collect::<Vec<_>>())
    );
    let name = format!("execute_tool {tool}");
    let clients: Vec<_> = spans
        .iter()
        .filter(|span| span.name == name && attribute(span, "mcp.method.name").is_some())
        .collect();
    assert_eq!(clients.len(), 1, "{:#?}", collector::names(&clients));
    clients[0]
}

/// The span every tool here opens while it runs.
const INSIDE: &str = "inside_tool";

/// A registry of one tool, `name`, that runs inside a span of its own.
fn traced(name: &'static str) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register(DynamicTool::new(
            name,
            "Answer inside a span",
            |_args, _ctx| async {
                let span = tracing::info_span!("inside_tool");
                let _entered = span.enter();
                tracing::info!("working");
                Ok(ToolOutput::text("done"))
            },
        ))
        .unwrap();
    tools
}

/// Serves `tools` on loopback: the server and its URL.
async fn serve(tools: ToolRegistry) -> (crate::support::Running, String) {
    let running = start_with(tools, |server| server).await;
    let url = format!("http://{}/mcp", running.address);
    (running, url)
}

/// `tools`' registry as a client of `url` registers it.
async fn imported(url: String) -> (McpClient, ToolRegistry) {
    let client = McpClient::connect(Upstream::http(url))
        .await
        .expect("the client connects");
    let mut tools = ToolRegistry::new();
    client.register_into(&mut tools, None).unwrap();
    (client, tools)
}

/// Runs `name` from `tools` inside `root`, the agent's span, and gives the
/// trace id.
async fn run_in(root: tracing::Span, tools: &ToolRegistry, name: &str) -> TraceId {
    let call = ToolCall::new("call-1", name, json!({}));
    let result = execute_tool_call(&call, tools, RunOptions::new())
        .instrument(root.clone())
        .await;
    assert!(!result.is_error, "{result:?}");
    root.context().span().span_context().trace_id()
}

/// A TCP relay to `to` that keeps every byte the client sent: the
/// requests as they were on the wire.
async fn relay(to: SocketAddr) -> (SocketAddr, Arc<Mutex<Vec<u8>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let sent = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&sent);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let kept = Arc::clone(&kept);
            tokio::spawn(async move {
                let server = TcpStream::connect(to).await.unwrap();
                let (mut client_read, mut client_write) = client.into_split();
                let (mut server_read, mut server_write) = server.into_split();
                tokio::spawn(async move {
                    let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
                });
                let mut buffer = [0; 8192];
                loop {
                    let read = match client_read.read(&mut buffer).await {
                        Ok(0) | Err(_) => break,
                        Ok(read) => read,
                    };
                    kept.lock().unwrap().extend_from_slice(&buffer[..read]);
                    if server_write.write_all(&buffer[..read]).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (address, sent)
}

/// Every value of `"key":"..."` in `bytes`.
fn values_of(bytes: &[u8], key: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let needle = format!("\"{key}\":\"");
    text.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &text[at + needle.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

/// W3C Trace Context's `traceparent`: `00-<32 hex>-<16 hex>-<2 hex>`,
/// lowercase, neither id all zeros.
fn well_formed_traceparent(value: &str) -> bool {
    let parts: Vec<&str> = value.split('-').collect();
    let hex = |part: &str, len: usize| {
        part.len() == len
            && part
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    parts.len() == 4
        && parts[0] == "00"
        && hex(parts[1], 32)
        && hex(parts[2], 16)
        && hex(parts[3], 2)
        && parts[1].bytes().any(|b| b != b'0')
        && parts[2].bytes().any(|b| b != b'0')
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hop_is_one_trace_and_the_context_is_on_the_wire() {
    collector::install();
    bounded(async {
        let (server, url) = serve(traced("hop_one")).await;
        let (relayed, wire) = relay(server.address).await;
        let (_client, tools) =
            imported(url.replace(&server.address.to_string(), &relayed.to_string())).await;

        // The agent's span continues a trace with a `tracestate`, which
        // goes along with the context.
        let remote = SpanContext::new(
            TraceId::from(0x4bf9_2f35_77b3_4da6_a3ce_929d_0e0e_4736),
            SpanId::from(0x00f0_67aa_0ba9_02b7),
            TraceFlags::SAMPLED,
            true,
            TraceState::from_key_value([("rojo", "00f067aa0ba902b7")]).unwrap(),
        );
        let root = tracing::info_span!("agent");
        root.set_parent(Context::new().with_remote_span_context(remote))
            .unwrap();
        let trace = run_in(root, &tools, "hop_one").await;
        assert_eq!(
            trace,
            TraceId::from(0x4bf9_2f35_77b3_4da6_a3ce_929d_0e0e_4736)
        );

        let spans = collector::trace(trace, |spans| {
            has(spans, INSIDE)
                && has(spans, "agent")
                && spans.iter().any(|s| s.span_kind == SpanKind::Server)
        })
        .await;
        let client = mcp_client(&spans, "hop_one");
        let served = one(&spans, "tools/call hop_one", SpanKind::Server);
        let inside = one(&spans, INSIDE, SpanKind::Internal);

        // One chain: the tool's span, (tool-core's span for the call), the
        // server's, the client's (tool-core's span for the remote tool,
        // with the MCP attributes), the agent's.
        let chain = ancestry(&spans, inside);
        let ids: Vec<SpanId> = chain
            .iter()
            .map(|span| span.span_context.span_id())
            .collect();
        let names = collector::names(&chain);
        let at = |span: &opentelemetry_sdk::trace::SpanData| {
            ids.iter()
                .position(|id| *id == span.span_context.span_id())
                .unwrap_or_else(|| panic!("{} not in the chain {names:#?}", span.name))
        };
        assert!(at(served) < at(client), "{names:#?}");
        // Below the server's span, the executor's own (tool-core's), then
        // the tool's.
        assert!(at(served) >= 2, "{names:#?}");
        assert_eq!(chain[at(served) - 1].span_kind, SpanKind::Internal);
        assert_eq!(chain.last().unwrap().name, "agent", "{names:#?}");
        assert_eq!(served.parent_span_id, client.span_context.span_id());
        assert!(
            served.parent_span_is_remote,
            "the server's parent came over the wire"
        );
        assert!(!client.parent_span_is_remote);

        // On the wire: the client span's context, and the trace state.
        let sent = wire.lock().unwrap().clone();
        let traceparents = values_of(&sent, "traceparent");
        // The W3C shape first, on the raw value, then whose context it is.
        assert!(
            traceparents
                .iter()
                .all(|value| well_formed_traceparent(value)),
            "{traceparents:?}"
        );
        // initialize and tools/list carry their own (the connection was
        // made outside the agent's trace); the call, the client span's.
        assert_eq!(traceparents.len(), 3, "{traceparents:?}");
        let in_trace: Vec<&String> = traceparents
            .iter()
            .filter(|value| value.contains(&trace.to_string()))
            .collect();
        assert_eq!(
            in_trace,
            [&format!("00-{trace}-{}-01", client.span_context.span_id())],
            "one tools/call, with the client span's context"
        );
        assert_eq!(values_of(&sent, "tracestate"), ["rojo=00f067aa0ba902b7"]);
        assert_eq!(
            served.span_context.trace_state().header(),
            "rojo=00f067aa0ba902b7"
        );

        // The conventions' attributes on both sides.
        for span in [client, served] {
            assert_eq!(
                attribute(span, "mcp.method.name").as_deref(),
                Some("tools/call")
            );
            assert_eq!(
                attribute(span, "gen_ai.tool.name").as_deref(),
                Some("hop_one")
            );
            assert_eq!(
                attribute(span, "gen_ai.operation.name").as_deref(),
                Some("execute_tool")
            );
            assert_eq!(attribute(span, "network.transport").as_deref(), Some("tcp"));
            assert_eq!(attribute(span, "error.type"), None);
        }
        let request_id = attribute(served, "jsonrpc.request.id");
        assert!(request_id.is_some());
        assert_eq!(attribute(client, "jsonrpc.request.id"), request_id);
        assert!(attribute(served, "mcp.session.id").is_some_and(|id| !id.is_empty()));
        // The relay's address: the connection's, no proxy being trusted.
        assert_eq!(
            attribute(served, "client.address").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(
            attribute(client, "server.address").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(
            attribute(client, "server.port"),
            Some(relayed.port().to_string())
        );
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hops_through_a_server_that_imports_another_are_one_trace() {
    collector::install();
    bounded(async {
        let (far, far_url) = serve(traced("hop_far")).await;
        let (_far_client, far_tools) = imported(far_url).await;
        let (middle, middle_url) = serve(far_tools).await;
        let (_client, tools) = imported(middle_url).await;

        let trace = run_in(tracing::info_span!("agent"), &tools, "hop_far").await;
        let spans = collector::trace(trace, |spans| {
            has(spans, INSIDE)
                && has(spans, "agent")
                && spans
                    .iter()
                    .filter(|s| s.span_kind == SpanKind::Server)
                    .count()
                    == 2
        })
        .await;
        let inside = one(&spans, INSIDE, SpanKind::Internal);
        let chain = ancestry(&spans, inside);
        let names = collector::names(&chain);
        assert_eq!(chain.last().unwrap().name, "agent", "{names:#?}");
        // From the tool up: the far server, the middle server's call (its
        // executor's span, with the MCP client's attributes), the middle
        // server, our call.
        let hops: Vec<(SpanKind, &str)> = chain
            .iter()
            .filter(|span| attribute(span, "mcp.method.name").is_some())
            .map(|span| (span.span_kind.clone(), span.name.as_ref()))
            .collect();
        assert_eq!(
            hops,
            [
                (SpanKind::Server, "tools/call hop_far"),
                (SpanKind::Internal, "execute_tool hop_far"),
                (SpanKind::Server, "tools/call hop_far"),
                (SpanKind::Internal, "execute_tool hop_far"),
            ],
            "{names:#?}"
        );
        assert!(
            chain.iter().all(|span| span.span_kind != SpanKind::Client),
            "{names:#?}"
        );
        for span in chain
            .iter()
            .filter(|span| span.span_kind == SpanKind::Server)
        {
            assert!(span.parent_span_is_remote, "{}", span.name);
        }
        middle.stop().await;
        far.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_trace_context_starts_a_new_trace() {
    collector::install();
    bounded(async {
        let (server, _url) = serve(traced("hop_none")).await;
        let session = open_session(&server, &[]).await;
        let headers = [("Mcp-Session-Id", session.as_str())];
        // No `_meta`; then a `traceparent` that is not one.
        let bare = call(2, "hop_none", "{}");
        let garbage = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hop_none","arguments":{},"_meta":{"traceparent":"00-not-a-trace-01"}}}"#;
        for body in [bare.as_str(), garbage] {
            let answer = send(server.address, post(&server.host(), &headers, body)).await;
            assert_eq!(answer.status, 200, "{answer:?}");
        }

        let served = named("tools/call hop_none", 2).await;
        assert_ne!(served[0].span_context.trace_id(), served[1].span_context.trace_id());
        for span in &served {
            // The test's subscriber records no span around the handler
            // (tool-mcp's per-request HTTP span is at debug): a root.
            assert_eq!(span.parent_span_id, SpanId::INVALID, "{span:#?}");
            assert_eq!(span.span_kind, SpanKind::Server);
            let trace = span.span_context.trace_id();
            let spans = collector::trace(trace, |spans| has(spans, INSIDE)).await;
            let inside = one(&spans, INSIDE, SpanKind::Internal);
            let chain = ancestry(&spans, inside);
            assert_eq!(
                chain.last().unwrap().span_context.span_id(),
                span.span_context.span_id(),
                "{:#?}",
                collector::names(&chain)
            );
        }
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_are_error_types_with_an_error_status() {
    collector::install();
    bounded(async {
        let mut tools = ToolRegistry::new();
        tools
            .register(DynamicTool::new("hop_fail", "Fail", |_args, _ctx| async {
                Ok(ToolOutput::text("no such issue").into_error())
            }))
            .unwrap();
        let (server, url) = serve(tools).await;
        let (_client, tools) = imported(url).await;

        // A result with `isError`: `tool_error` on both sides.
        let root = tracing::info_span!("agent");
        let failing = ToolCall::new("call-1", "hop_fail", json!({}));
        let result = execute_tool_call(&failing, &tools, RunOptions::new())
            .instrument(root.clone())
            .await;
        assert!(result.is_error);
        let trace = root.context().span().span_context().trace_id();
        drop(root);
        let spans = collector::trace(trace, |spans| {
            has(spans, "agent") && spans.iter().any(|s| s.span_kind == SpanKind::Server)
        })
        .await;
        for span in [
            mcp_client(&spans, "hop_fail"),
            one(&spans, "tools/call hop_fail", SpanKind::Server),
        ] {
            assert_eq!(attribute(span, "error.type").as_deref(), Some("tool_error"));
            assert!(matches!(span.status, Status::Error { .. }), "{span:#?}");
        }

        // A JSON-RPC error (an unknown tool): its code, and its message as
        // the status description.
        let session = open_session(&server, &[]).await;
        let headers = [("Mcp-Session-Id", session.as_str())];
        let answer = send(
            server.address,
            post(&server.host(), &headers, &call(7, "hop_nowhere", "{}")),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let refused = named("tools/call hop_nowhere", 1).await;
        assert_eq!(
            attribute(&refused[0], "error.type").as_deref(),
            Some("-32602")
        );
        assert_eq!(
            attribute(&refused[0], "rpc.response.status_code").as_deref(),
            Some("-32602")
        );
        assert_eq!(
            attribute(&refused[0], "jsonrpc.request.id").as_deref(),
            Some("7")
        );
        assert_eq!(
            refused[0].status,
            Status::error("Unknown tool: hop_nowhere"),
        );
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_over_a_pipe_says_so_and_names_no_client_address() {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    collector::install();
    bounded(async {
        // Served over an in-memory pipe, as stdio is: no HTTP request.
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        let server = tool_mcp::McpServer::new(traced("hop_pipe"));
        let serving = tokio::spawn(async move {
            let running = server.serve(server_end).await.expect("serves");
            running.waiting().await.ok();
        });
        let client = ().serve(client_end).await.expect("the client connects");
        client
            .call_tool(CallToolRequestParams::new("hop_pipe"))
            .await
            .expect("answered");
        client.cancel().await.unwrap();
        serving.await.unwrap();

        let served = named("tools/call hop_pipe", 1).await;
        assert_eq!(
            attribute(&served[0], "network.transport").as_deref(),
            Some("pipe")
        );
        assert_eq!(attribute(&served[0], "client.address"), None);
        assert_eq!(attribute(&served[0], "mcp.session.id"), None);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_and_a_cancellation_carry_their_context() {
    collector::install();
    bounded(async {
        let mut tools = ToolRegistry::new();
        tools
            .register(DynamicTool::new(
                "hop_stuck",
                "Wait until cancelled",
                |_args, ctx| async move {
                    ctx.cancelled().await;
                    Ok(ToolOutput::text("cancelled"))
                },
            ))
            .unwrap();
        let (server, url) = serve(tools).await;
        let (relayed, wire) = relay(server.address).await;
        let url = url.replace(&server.address.to_string(), &relayed.to_string());

        // Connecting (initialize, tools/list) and a call cut short by its
        // timeout (notifications/cancelled), all inside the agent's span.
        let root = tracing::info_span!("agent");
        let (_client, tools) = imported(url).instrument(root.clone()).await;
        let stuck = ToolCall::new("call-1", "hop_stuck", json!({}));
        let result = execute_tool_call(
            &stuck,
            &tools,
            RunOptions::new().with_timeout(std::time::Duration::from_millis(100)),
        )
        .instrument(root.clone())
        .await;
        assert!(result.is_error);
        let trace = root.context().span().span_context().trace_id();
        drop(root);

        let methods = ["initialize", "tools/list"];
        let spans = collector::trace(trace, |spans| {
            let ended = |name: &str, kind: SpanKind| {
                spans
                    .iter()
                    .any(|span| span.name == name && span.span_kind == kind)
            };
            methods.iter().all(|method| ended(method, SpanKind::Server))
                && ended("notifications/cancelled", SpanKind::Client)
        })
        .await;
        for method in methods {
            let sent = one(&spans, method, SpanKind::Client);
            let received = one(&spans, method, SpanKind::Server);
            assert_eq!(
                received.parent_span_id,
                sent.span_context.span_id(),
                "{method}: the server's span is the client's child"
            );
            assert!(received.parent_span_is_remote, "{method}");
            assert_eq!(attribute(sent, "mcp.method.name").as_deref(), Some(method));
            assert_eq!(
                attribute(received, "mcp.method.name").as_deref(),
                Some(method)
            );
        }
        // The cancellation belongs to the call it cancels, and carries its
        // own context on the wire. (The server traces it too, but as a
        // trace of its own: rmcp 3.11 hands the handler of a notification
        // that came over streamable HTTP an empty `_meta`.)
        let without_clients: Vec<_> = spans
            .iter()
            .filter(|span| span.span_kind != SpanKind::Client)
            .cloned()
            .collect();
        let call = mcp_client(&without_clients, "hop_stuck");
        let cancelled = one(&spans, "notifications/cancelled", SpanKind::Client);
        assert_eq!(cancelled.parent_span_id, call.span_context.span_id());
        let sent = String::from_utf8_lossy(&wire.lock().unwrap()).to_string();
        let cancellation = sent
            .lines()
            .find(|line| line.contains("notifications/cancelled"))
            .expect("the cancellation on the wire");
        assert!(
            cancellation.contains(&format!(
                "00-{trace}-{}-01",
                cancelled.span_context.span_id()
            )),
            "{cancellation}"
        );
        server.stop().await;
    })
    .await;
}
