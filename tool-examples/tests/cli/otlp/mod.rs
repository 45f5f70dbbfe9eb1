//! `--otlp-endpoint` end to end: two processes federated over MCP export
//! to a real OTLP/HTTP receiver in this test, which decodes what arrives
//! with the protocol's published types. A call through the upstream is one
//! trace across both processes: the caller's `execute_tool far__echo`, its
//! `tools/call echo` client span, the upstream's `tools/call echo` server
//! span and its `execute_tool echo`, each the parent of the next. Both send
//! the duration histogram, and the caller's JSON log lines carry the ids
//! the receiver saw. [`metrics`]: an HTTP server's MCP and HTTP metrics.

mod metrics;
mod receiver;

use crate::federation::upstream_with_log;
use crate::support::mcp::{binary, bounded, connect_stdio, terminate};
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::metrics::v1::metric::Data;
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use receiver::{Received, Receiver};
use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// The batch processor and the periodic reader send at the latest when
/// each process shuts down; this only bounds a hang.
const EXPORT_WAIT: Duration = Duration::from_secs(60);

const CALLER: &str = "near-agent";
const UPSTREAM: &str = "far-server";

/// One exported span and the service that sent it.
struct Exported {
    service: String,
    span: Span,
}

impl Exported {
    fn attribute(&self, key: &str) -> Option<String> {
        attribute(&self.span.attributes, key)
    }
}

fn attribute(attributes: &[KeyValue], key: &str) -> Option<String> {
    let value = attributes.iter().find(|pair| pair.key == key)?;
    match value.value.as_ref()?.value.as_ref()? {
        AnyValue::StringValue(text) => Some(text.clone()),
        AnyValue::IntValue(number) => Some(number.to_string()),
        AnyValue::BoolValue(flag) => Some(flag.to_string()),
        other => Some(format!("{other:?}")),
    }
}

/// The `service.name` of the process that sent a batch.
fn service_name(resource: Option<&Resource>) -> String {
    resource
        .and_then(|resource| attribute(&resource.attributes, "service.name"))
        .unwrap_or_default()
}

fn spans(received: &Received) -> Vec<Exported> {
    let mut found = Vec::new();
    for request in &received.traces {
        for resource_spans in &request.resource_spans {
            let service = service_name(resource_spans.resource.as_ref());
            for scope in &resource_spans.scope_spans {
                for span in &scope.spans {
                    found.push(Exported {
                        service: service.clone(),
                        span: span.clone(),
                    });
                }
            }
        }
    }
    found
}

/// The span of `service` named `name`, its `attribute` equal to `value`.
fn find<'a>(
    spans: &'a [Exported],
    service: &str,
    name: &str,
    attribute: (&str, &str),
) -> Option<&'a Exported> {
    spans.iter().find(|exported| {
        exported.service == service
            && exported.span.name == name
            && exported.attribute(attribute.0).as_deref() == Some(attribute.1)
    })
}

/// The duration histogram's data points each service sent, with their
/// tool names.
fn duration_points(received: &Received) -> Vec<(String, String, Option<String>, u64)> {
    let mut points = Vec::new();
    for request in &received.metrics {
        for resource_metrics in &request.resource_metrics {
            let service = service_name(resource_metrics.resource.as_ref());
            for scope in &resource_metrics.scope_metrics {
                for metric in &scope.metrics {
                    if metric.name != "gen_ai.execute_tool.duration" {
                        continue;
                    }
                    assert_eq!(metric.unit, "s", "{metric:?}");
                    let Some(Data::Histogram(histogram)) = &metric.data else {
                        panic!("not a histogram: {metric:?}");
                    };
                    for point in &histogram.data_points {
                        assert_eq!(point.explicit_bounds.first(), Some(&0.01), "{point:?}");
                        assert_eq!(point.explicit_bounds.last(), Some(&81.92), "{point:?}");
                        points.push((
                            service.clone(),
                            attribute(&point.attributes, "gen_ai.tool.name").unwrap_or_default(),
                            attribute(&point.attributes, "error.type"),
                            point.count,
                        ));
                    }
                }
            }
        }
    }
    points
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_an_upstream_is_one_trace_in_the_collector() {
    let receiver = Receiver::start().await;
    let remote_root = tempfile::tempdir().unwrap();
    std::fs::write(remote_root.path().join("remote.txt"), "far").unwrap();
    // The upstream finds the collector as every OpenTelemetry SDK does,
    // through the variable; the caller through the flag.
    let (mut upstream, address, _log) = upstream_with_log(
        remote_root.path(),
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url.as_str()),
            ("OTEL_SERVICE_NAME", UPSTREAM),
        ],
    )
    .await;

    let upstream_flag = format!("far=http://{address}/mcp");
    let lines = concat!(
        r#"{"id":"call-ok","name":"far__echo","arguments":{"value":"hello"}}"#,
        "\n",
        r#"{"id":"call-bad","name":"far__read","arguments":{"path":"missing.txt"}}"#,
        "\n",
        r#"{"id":"call-repaired","name":"far__wait","arguments":{"ms":"1"}}"#,
        "\n",
    );
    let (status, stdout, stderr) = run_call(
        &[
            "--repair",
            "--log-format",
            "json",
            "--upstream",
            &upstream_flag,
            "--otlp-endpoint",
            &receiver.url,
        ],
        &[
            ("OTEL_SERVICE_NAME", CALLER),
            // A hosted collector's key, as every SDK reads it.
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "authorization=Bearer%20collector-key",
            ),
            // tool-core's info: the repair of call-repaired, logged inside its span.
            ("RUST_LOG", "warn,tool_core=info"),
        ],
        lines,
    )
    .await;
    assert!(status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    // The upstream flushes what it holds when it is stopped.
    terminate(&upstream);
    let stopped = bounded("the upstream exits", upstream.wait())
        .await
        .unwrap();
    assert!(stopped.success(), "{stopped}");

    let received = receiver
        .wait_for(
            "both services' spans and metrics",
            EXPORT_WAIT,
            |received| {
                let points = duration_points(received);
                [CALLER, UPSTREAM]
                    .iter()
                    .all(|service| points.iter().any(|point| point.0 == *service))
                    && find(
                        &spans(received),
                        UPSTREAM,
                        "execute_tool echo",
                        ("gen_ai.tool.name", "echo"),
                    )
                    .is_some()
            },
        )
        .await;
    let spans = spans(&received);
    assert!(
        received
            .authorizations
            .iter()
            .any(|value| value == "Bearer collector-key"),
        "OTEL_EXPORTER_OTLP_HEADERS: {:?}",
        received.authorizations
    );

    // The three spans of call-ok, one trace, each the parent of the next.
    let near = find(
        &spans,
        CALLER,
        "execute_tool far__echo",
        ("gen_ai.tool.call.id", "call-ok"),
    )
    .expect("the caller's execute_tool span");
    let trace = &near.span.trace_id;
    assert_eq!(trace.len(), 16);
    assert_eq!(
        near.span.parent_span_id,
        Vec::<u8>::new(),
        "a call of `call` starts its trace"
    );
    let in_trace = |service: &str, name: &str, kind: SpanKind| -> &Exported {
        spans
            .iter()
            .find(|exported| {
                exported.service == service
                    && exported.span.name == name
                    && &exported.span.trace_id == trace
            })
            .filter(|exported| exported.span.kind == kind as i32)
            .unwrap_or_else(|| panic!("{service}: no {kind:?} span {name} in the trace"))
    };
    let server = in_trace(UPSTREAM, "tools/call echo", SpanKind::Server);
    let far = in_trace(UPSTREAM, "execute_tool echo", SpanKind::Internal);
    assert_eq!(near.span.kind, SpanKind::Internal as i32);
    // No span of the client's own: the caller's execute_tool span is the
    // MCP client's (the conventions' rule when a GenAI span already traces
    // the tool's execution), and the server's parent.
    assert!(
        spans
            .iter()
            .filter(|exported| exported.span.trace_id == *trace)
            .all(|exported| exported.span.kind != SpanKind::Client as i32),
        "no second span for the call"
    );
    let client = near;
    assert_eq!(server.span.parent_span_id, client.span.span_id);
    assert_eq!(far.span.parent_span_id, server.span.span_id);

    // The GenAI conventions' attributes, on both execute_tool spans.
    for (span, tool) in [(near, "far__echo"), (far, "echo")] {
        assert_eq!(
            span.attribute("gen_ai.operation.name").as_deref(),
            Some("execute_tool")
        );
        assert_eq!(span.attribute("gen_ai.tool.name").as_deref(), Some(tool));
        assert_eq!(
            span.attribute("gen_ai.tool.type").as_deref(),
            Some("function")
        );
        assert!(
            span.attribute("gen_ai.tool.call.id")
                .is_some_and(|id| !id.is_empty())
        );
        assert_eq!(span.attribute("error.type"), None);
        let status = span.span.status.clone().unwrap_or_default();
        assert_ne!(status.code, StatusCode::Error as i32);
    }
    assert_eq!(
        client.attribute("mcp.method.name").as_deref(),
        Some("tools/call")
    );
    assert_eq!(
        server.attribute("mcp.method.name").as_deref(),
        Some("tools/call")
    );

    // A failing call: error.type and an error status on both sides.
    let near_bad = find(
        &spans,
        CALLER,
        "execute_tool far__read",
        ("gen_ai.tool.call.id", "call-bad"),
    )
    .expect("the failing call's span");
    assert_ne!(
        &near_bad.span.trace_id, trace,
        "each call of `call` is its own trace"
    );
    let far_bad = spans
        .iter()
        .find(|exported| {
            exported.service == UPSTREAM
                && exported.span.name == "execute_tool read"
                && exported.span.trace_id == near_bad.span.trace_id
        })
        .expect("the upstream's span of the failing call, in its trace");
    for bad in [near_bad, far_bad] {
        assert!(bad.attribute("error.type").is_some(), "{:?}", bad.span);
        let status = bad.span.status.clone().unwrap_or_default();
        assert_eq!(status.code, StatusCode::Error as i32, "{:?}", bad.span);
    }

    // The duration histogram from both processes, per tool, with the error.
    let points = duration_points(&received);
    let point = |service: &str, tool: &str| {
        points
            .iter()
            .filter(|point| point.0 == service && point.1 == tool)
            .collect::<Vec<_>>()
    };
    let near_echo = point(CALLER, "far__echo");
    assert_eq!(
        near_echo.iter().map(|point| point.3).sum::<u64>(),
        1,
        "{points:?}"
    );
    assert!(
        point(UPSTREAM, "echo")
            .iter()
            .all(|point| point.2.is_none()),
        "{points:?}"
    );
    assert!(
        point(UPSTREAM, "read")
            .iter()
            .any(|point| point.2.is_some()),
        "{points:?}"
    );
    assert!(
        point(CALLER, "far__read")
            .iter()
            .any(|point| point.2.is_some()),
        "{points:?}"
    );

    // The caller's JSON log line inside call-repaired's span names it.
    let repaired = find(
        &spans,
        CALLER,
        "execute_tool far__wait",
        ("gen_ai.tool.call.id", "call-repaired"),
    )
    .expect("the repaired call's span");
    let line: Value = stderr
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| line["fields"]["message"] == "the arguments were repaired")
        .unwrap_or_else(|| panic!("no repair line in {stderr}"));
    assert_eq!(line["trace_id"], hex(&repaired.span.trace_id), "{line}");
    assert_eq!(line["span_id"], hex(&repaired.span.span_id), "{line}");
    // Lines outside any span have neither.
    assert!(
        stderr
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|line| line.get("span").is_none())
            .all(|line| line.get("trace_id").is_none()),
        "{stderr}"
    );
}

/// Runs `call` with `args` and the variables `env` on `lines`, in an
/// empty root; its exit status, stdout and stderr.
async fn run_call(
    args: &[&str],
    env: &[(&str, &str)],
    lines: &str,
) -> (std::process::ExitStatus, String, String) {
    let root = tempfile::tempdir().unwrap();
    let mut caller = binary()
        .arg("call")
        .args(args)
        .arg("--root")
        .arg(root.path())
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the caller starts");
    let mut stdin = caller.stdin.take().unwrap();
    stdin.write_all(lines.as_bytes()).await.unwrap();
    drop(stdin);
    let output = bounded("the caller exits", caller.wait_with_output())
        .await
        .unwrap();
    (
        output.status,
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collector_that_is_down_is_one_warning_per_signal_not_a_failure() {
    // Nothing listens on a port just released.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let echo = r#"{"id":"c","name":"echo","arguments":{"value":"v"}}"#;
    let lines = format!("{echo}\n{echo}\n{echo}\n");
    let (status, stdout, stderr) = run_call(&["--otlp-endpoint", &closed], &[], &lines).await;
    assert!(status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    let traces = format!("OTLP traces: cannot export to {closed}/v1/traces");
    let metrics = format!("OTLP metrics: cannot export to {closed}/v1/metrics");
    assert_eq!(stderr.matches(&traces).count(), 1, "{stderr}");
    assert_eq!(stderr.matches(&metrics).count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "nothing else: {stderr}");
}

#[tokio::test]
async fn an_endpoint_that_is_not_an_http_url_is_a_usage_error() {
    let (status, stdout, stderr) = run_call(&["--otlp-endpoint", "localhost:4318"], &[], "").await;
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with(
            "error: --otlp-endpoint: \"localhost:4318\" is not an http:// or https:// URL"
        ),
        "{stderr}"
    );
}

/// Over stdio a session lasts as long as its client; its calls are not one
/// trace under it: each call a client sends without a trace context is a
/// trace of its own, and the session's span is not exported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_call_of_a_stdio_session_is_its_own_trace() {
    let receiver = Receiver::start().await;
    let root = tempfile::tempdir().unwrap();
    let mut server = binary()
        .args(["mcp", "--otlp-endpoint", &receiver.url, "--root"])
        .arg(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let client = connect_stdio(&mut server, "otlp-test").await;
    for value in ["one", "two"] {
        let result = bounded(
            "tools/call",
            client.call_tool(crate::support::mcp::call(
                "echo",
                serde_json::json!({ "value": value }),
            )),
        )
        .await
        .unwrap();
        assert_eq!(result.is_error, Some(false));
    }
    // The client leaving ends the session and the process, which flushes.
    bounded("the client stops", client.cancel()).await.unwrap();
    let exited = bounded("the server exits", server.wait()).await.unwrap();
    assert!(exited.success(), "{exited}");

    let received = receiver
        .wait_for("both calls' spans", EXPORT_WAIT, |received| {
            spans(received)
                .iter()
                .filter(|exported| exported.span.name == "execute_tool echo")
                .count()
                == 2
        })
        .await;
    let spans = spans(&received);
    assert!(
        spans
            .iter()
            .all(|exported| exported.span.name != "mcp_session"),
        "the session's span is for the logs only"
    );
    let servers: Vec<&Exported> = spans
        .iter()
        .filter(|exported| exported.span.name == "tools/call echo")
        .collect();
    assert_eq!(servers.len(), 2);
    for server in &servers {
        assert_eq!(server.span.kind, SpanKind::Server as i32);
        assert!(
            server.span.parent_span_id.is_empty(),
            "a root: {:?}",
            server.span
        );
        let execute = spans
            .iter()
            .find(|exported| {
                exported.span.name == "execute_tool echo"
                    && exported.span.parent_span_id == server.span.span_id
            })
            .expect("the call's execute_tool under its tools/call");
        assert_eq!(execute.span.trace_id, server.span.trace_id);
    }
    assert_ne!(servers[0].span.trace_id, servers[1].span.trace_id);
    assert_eq!(
        servers[0].service, "tool-examples",
        "the default service name"
    );
}
