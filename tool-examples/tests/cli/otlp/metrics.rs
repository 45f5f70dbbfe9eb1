//! `mcp --http --otlp-endpoint`: the MCP server's metrics as a collector
//! receives them, after real requests over HTTP: a refused token, two
//! sessions (each closed by its client), calls that succeed and fail, and
//! one held in flight until the receiver has seen it counted.

use super::receiver::{Received, Receiver};
use super::{EXPORT_WAIT, attribute, service_name};
use crate::support::mcp::{Client, binary, bounded, call, client_info, served_address, terminate};
use opentelemetry_proto::tonic::metrics::v1::metric::Data;
use opentelemetry_proto::tonic::metrics::v1::number_data_point::Value as Number;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CancelledNotificationParam, ClientRequest, Request};
use rmcp::service::PeerRequestOptions;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};

const SERVICE: &str = "metrics-server";
const TOKEN: &str = "the-server-token";

/// One data point of a metric as received: its attributes as sorted
/// `key=value` text, and its count (histogram) or value (sum).
#[derive(Debug, Clone, PartialEq)]
struct Point {
    attributes: Vec<String>,
    value: i64,
}

impl Point {
    fn has(&self, pair: &str) -> bool {
        self.attributes.iter().any(|attribute| attribute == pair)
    }
}

/// A metric of [`SERVICE`] as the last export holding it says (each
/// export is cumulative): its unit, its points, and the first and last
/// bucket bounds of a histogram's points.
#[derive(Debug, Clone)]
struct Reading {
    unit: String,
    points: Vec<Point>,
    bounds: Vec<(f64, f64)>,
}

fn latest(received: &Received, name: &str) -> Option<Reading> {
    let mut found = None;
    for request in &received.metrics {
        for resource in &request.resource_metrics {
            if service_name(resource.resource.as_ref()) != SERVICE {
                continue;
            }
            for scope in &resource.scope_metrics {
                for metric in scope.metrics.iter().filter(|metric| metric.name == name) {
                    found = Some(reading(metric));
                }
            }
        }
    }
    found
}

fn reading(metric: &opentelemetry_proto::tonic::metrics::v1::Metric) -> Reading {
    let text = |attributes: &[opentelemetry_proto::tonic::common::v1::KeyValue]| {
        let mut text: Vec<String> = attributes
            .iter()
            .map(|pair| {
                let value = attribute(attributes, &pair.key).unwrap_or_default();
                format!("{}={value}", pair.key)
            })
            .collect();
        text.sort();
        text
    };
    let (points, bounds) = match &metric.data {
        Some(Data::Histogram(histogram)) => histogram
            .data_points
            .iter()
            .map(|point| {
                (
                    Point {
                        attributes: text(&point.attributes),
                        value: i64::try_from(point.count).unwrap(),
                    },
                    (
                        point.explicit_bounds.first().copied().unwrap_or_default(),
                        point.explicit_bounds.last().copied().unwrap_or_default(),
                    ),
                )
            })
            .unzip(),
        Some(Data::Sum(sum)) => (
            sum.data_points
                .iter()
                .map(|point| Point {
                    attributes: text(&point.attributes),
                    value: match point.value {
                        Some(Number::AsInt(value)) => value,
                        other => panic!("{}: not an integer: {other:?}", metric.name),
                    },
                })
                .collect(),
            Vec::new(),
        ),
        other => panic!("{}: unexpected data {other:?}", metric.name),
    };
    Reading {
        unit: metric.unit.clone(),
        points,
        bounds,
    }
}

/// The value of `name`'s point that has every attribute of `pairs`.
fn value(reading: &Reading, pairs: &[&str]) -> Option<i64> {
    let matching: Vec<&Point> = reading
        .points
        .iter()
        .filter(|point| pairs.iter().all(|pair| point.has(pair)))
        .collect();
    match matching[..] {
        [] => None,
        [point] => Some(point.value),
        _ => panic!("more than one point has {pairs:?}: {reading:?}"),
    }
}

async fn connect(uri: &str) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(uri.to_owned()).auth_header(TOKEN);
    let transport = StreamableHttpClientTransport::from_config(config);
    bounded("initialize", client_info("otlp-metrics").serve(transport))
        .await
        .expect("initialize succeeds with the token")
}

fn wait(ms: u64) -> ClientRequest {
    let arguments = json!({ "ms": ms }).as_object().cloned().unwrap();
    ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("wait").with_arguments(arguments),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_exports_its_operations_responses_sessions_and_refusals() {
    let receiver = Receiver::start().await;
    let root = tempfile::tempdir().unwrap();
    let mut server = binary()
        .args([
            "mcp",
            "--http",
            "127.0.0.1:0",
            "--otlp-endpoint",
            &receiver.url,
        ])
        .arg("--root")
        .arg(root.path())
        .env("TOOL_EXAMPLES_TOKEN", TOKEN)
        .env("OTEL_SERVICE_NAME", SERVICE)
        // A reading every 100 ms, so one comes while a call is held.
        .env("OTEL_METRIC_EXPORT_INTERVAL", "100")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(server.stderr.take().unwrap()).lines();
    let first = bounded("the address", stderr.next_line())
        .await
        .unwrap()
        .expect("a line on stderr");
    let address = served_address(&first);
    tokio::spawn(async move { while let Ok(Some(_)) = stderr.next_line().await {} });
    let uri = format!("http://{address}/mcp");

    // One refused token: a 401, and its reason counted.
    let refused = bounded(
        "the refused request",
        reqwest::Client::new()
            .post(&uri)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer not-the-token")
            .body(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string())
            .send(),
    )
    .await
    .unwrap();
    assert_eq!(refused.status().as_u16(), 401);

    // A session with a call that succeeds and one that fails, closed.
    let first = connect(&uri).await;
    let echoed = bounded("echo", first.call_tool(call("echo", json!({"value": "v"}))))
        .await
        .unwrap();
    assert_eq!(echoed.is_error, Some(false));
    let missing = bounded(
        "read",
        first.call_tool(call("read", json!({"path": "missing.txt"}))),
    )
    .await
    .unwrap();
    assert_eq!(missing.is_error, Some(true));
    bounded("the first client closes", first.cancel())
        .await
        .unwrap();

    // A second session, a call held in flight until a reading counts it.
    let second = connect(&uri).await;
    let held = second
        .send_request_with_option(wait(60_000), PeerRequestOptions::no_options())
        .await
        .expect("the request is sent");
    let during = receiver
        .wait_for(
            "a reading with the call in flight",
            EXPORT_WAIT,
            |received| {
                latest(received, "mcp.server.active_operations")
                    .is_some_and(|active| value(&active, &["gen_ai.tool.name=wait"]) == Some(1))
            },
        )
        .await;
    let sessions = latest(&during, "mcp.server.active_sessions").expect("the sessions' count");
    assert_eq!(sessions.unit, "{session}");
    assert_eq!(
        value(&sessions, &[]),
        Some(1),
        "one closed, one open: {sessions:?}"
    );
    second
        .notify_cancelled(CancelledNotificationParam::new(
            Some(held.id.clone()),
            Some("test".into()),
        ))
        .await
        .expect("the cancellation is sent");
    let _ = bounded("the held call ends", held.await_response()).await;
    bounded("the second client closes", second.cancel())
        .await
        .unwrap();

    // The last reading goes out as the server stops.
    terminate(&server);
    let exited = bounded("the server exits", server.wait()).await.unwrap();
    assert!(exited.success(), "{exited}");
    let received = receiver
        .wait_for("the last reading", EXPORT_WAIT, |received| {
            latest(received, "http.server.request.duration").is_some()
        })
        .await;
    let metric = |name: &str| latest(&received, name).unwrap_or_else(|| panic!("no {name}"));

    // mcp.server.operation.duration: one point per call, the conventions'
    // unit, buckets and attributes.
    let operations = metric("mcp.server.operation.duration");
    assert_eq!(operations.unit, "s");
    assert!(
        operations
            .bounds
            .iter()
            .all(|bounds| *bounds == (0.01, 300.0)),
        "{operations:?}"
    );
    // Every request is an operation (initialize, tools/list too); the
    // calls carry the GenAI attributes besides.
    let calls = [
        "mcp.method.name=tools/call",
        "gen_ai.operation.name=execute_tool",
    ];
    assert!(
        operations
            .points
            .iter()
            .any(|point| point.has("mcp.method.name=initialize")),
        "{operations:?}"
    );
    for point in &operations.points {
        assert!(point.has("network.transport=tcp"), "{point:?}");
        if point.has("mcp.method.name=tools/call") {
            assert!(calls.iter().all(|pair| point.has(pair)), "{point:?}");
        }
        assert!(
            point
                .attributes
                .iter()
                .any(|pair| pair.starts_with("mcp.protocol.version=")),
            "{point:?}"
        );
        assert!(
            !point
                .attributes
                .iter()
                .any(|pair| pair.starts_with("mcp.session.id=")),
            "{point:?}"
        );
    }
    let echo = operations
        .points
        .iter()
        .find(|point| point.has("gen_ai.tool.name=echo"))
        .expect("echo's point");
    assert_eq!(echo.value, 1);
    assert!(
        !echo
            .attributes
            .iter()
            .any(|pair| pair.starts_with("error.type=")),
        "{echo:?}"
    );
    assert_eq!(
        value(
            &operations,
            &["gen_ai.tool.name=read", "error.type=tool_error"]
        ),
        Some(1),
        "{operations:?}"
    );
    let waited: i64 = operations
        .points
        .iter()
        .filter(|point| point.has("gen_ai.tool.name=wait"))
        .map(|point| point.value)
        .sum();
    assert_eq!(waited, 1, "{operations:?}");

    // Nothing in flight any more, and both sessions closed by their client.
    let active = metric("mcp.server.active_operations");
    assert_eq!(active.unit, "{operation}");
    for tool in ["echo", "read", "wait"] {
        let pair = format!("gen_ai.tool.name={tool}");
        assert_eq!(value(&active, &[&pair]), Some(0), "{active:?}");
    }
    assert_eq!(value(&metric("mcp.server.active_sessions"), &[]), Some(0));

    // The refusal, by its reason.
    let refusals = metric("mcp.server.refused_credentials");
    assert_eq!(refusals.unit, "{credential}");
    assert_eq!(
        refusals.points,
        [Point {
            attributes: vec!["reason=the bearer token is not valid".to_owned()],
            value: 1
        }]
    );

    // http.server.request.duration: the responses by method and status.
    let http = metric("http.server.request.duration");
    assert_eq!(http.unit, "s");
    assert!(
        http.bounds.iter().all(|bounds| *bounds == (0.005, 10.0)),
        "{http:?}"
    );
    assert_eq!(
        value(
            &http,
            &["http.request.method=POST", "http.response.status_code=401"]
        ),
        Some(1),
        "{http:?}"
    );
    // Two initialize, echo, read, wait: at least five POSTs answered 200.
    assert!(
        value(
            &http,
            &["http.request.method=POST", "http.response.status_code=200"]
        )
        .is_some_and(|count| count >= 5),
        "{http:?}"
    );
    assert_eq!(
        value(
            &http,
            &[
                "http.request.method=DELETE",
                "http.response.status_code=200"
            ]
        ),
        Some(2),
        "{http:?}"
    );
    for point in &http.points {
        assert!(
            point
                .attributes
                .iter()
                .any(|pair| pair.starts_with("http.response.status_code=")),
            "every request was answered: {point:?}"
        );
        assert!(
            !point
                .attributes
                .iter()
                .any(|pair| pair.starts_with("error.type=")),
            "no 5xx: {point:?}"
        );
    }
}
