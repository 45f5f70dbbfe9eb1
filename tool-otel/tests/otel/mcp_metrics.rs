//! `McpMetricsLayer`: the MCP operation histograms, the HTTP request
//! histogram and the audit counts, from spans and events opened as
//! tool-mcp opens them (`tool-mcp/src/handler/span.rs`,
//! `tool-mcp/src/client/span.rs`, `Gate::answer` in
//! `tool-mcp/src/http/gate.rs`, `tool-mcp/src/audit.rs`). The binary
//! exporting them to a real receiver is tested in
//! `tool-examples/tests/cli/otlp/metrics.rs`.

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use tracing::Dispatch;
use tracing::field::Empty;
use tracing_subscriber::prelude::*;

const MCP_BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];
const HTTP_BOUNDARIES: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

struct Meters {
    exporter: InMemoryMetricExporter,
    meters: SdkMeterProvider,
    dispatch: Dispatch,
}

/// One data point as text: its sorted `key=value` attributes, and its
/// count (histograms) or value (sums).
type Points = Vec<(Vec<String>, i64)>;

/// A metric as exported: unit, bucket bounds of its points (histograms),
/// and its points sorted by attributes.
#[derive(Debug)]
struct Snapshot {
    unit: String,
    bounds: Vec<Vec<f64>>,
    points: Points,
}

impl Meters {
    fn new() -> Self {
        let exporter = InMemoryMetricExporter::default();
        let meters = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(exporter.clone()).build())
            .build();
        let layer = tool_otel::McpMetricsLayer::new(&meters.meter("tests"));
        let dispatch = Dispatch::new(tracing_subscriber::registry().with(layer));
        Meters {
            exporter,
            meters,
            dispatch,
        }
    }

    fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        tracing::dispatcher::with_default(&self.dispatch, f)
    }

    /// The metric `name` as it stands now (cumulative), if recorded.
    fn metric(&self, name: &str) -> Option<Snapshot> {
        self.exporter.reset();
        self.meters.force_flush().unwrap();
        let exports = self.exporter.get_finished_metrics().unwrap();
        let metric = exports
            .last()?
            .scope_metrics()
            .flat_map(|scope| scope.metrics())
            .find(|metric| metric.name() == name)?;
        let text = |attributes: &mut dyn Iterator<Item = &opentelemetry::KeyValue>| {
            let mut text: Vec<String> = attributes
                .map(|kv| format!("{}={}", kv.key, kv.value))
                .collect();
            text.sort();
            text
        };
        let (bounds, mut points): (Vec<Vec<f64>>, Points) = match metric.data() {
            AggregatedMetrics::F64(MetricData::Histogram(histogram)) => histogram
                .data_points()
                .map(|point| {
                    (
                        point.bounds().collect(),
                        (
                            text(&mut point.attributes()),
                            i64::try_from(point.count()).unwrap(),
                        ),
                    )
                })
                .unzip(),
            AggregatedMetrics::I64(MetricData::Sum(sum)) => (
                Vec::new(),
                sum.data_points()
                    .map(|point| (text(&mut point.attributes()), point.value()))
                    .collect(),
            ),
            AggregatedMetrics::U64(MetricData::Sum(sum)) => (
                Vec::new(),
                sum.data_points()
                    .map(|point| {
                        (
                            text(&mut point.attributes()),
                            i64::try_from(point.value()).unwrap(),
                        )
                    })
                    .collect(),
            ),
            other => panic!("{name}: unexpected data {other:?}"),
        };
        points.sort();
        Some(Snapshot {
            unit: metric.unit().to_owned(),
            bounds,
            points,
        })
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// The server's span of a `tools/call` of `tool`, as tool-mcp opens it.
fn server_span(tool: &str) -> tracing::Span {
    let span = tracing::info_span!(
        target: "tool_mcp::handler::span",
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        jsonrpc.request.id = "1",
        mcp.session.id = Empty,
        mcp.protocol.version = Empty,
        network.transport = Empty,
        client.address = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    span.record("network.transport", "tcp");
    span.record("mcp.session.id", "a-session-id");
    span.record("client.address", "127.0.0.1");
    span.record("mcp.protocol.version", "2025-06-18");
    span
}

/// The client's span of a call sent upstream, as tool-mcp opens it.
fn client_span(tool: &str) -> tracing::Span {
    let span = tracing::info_span!(
        target: "tool_mcp::client::span",
        "upstream_call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "client",
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        server = "http://far:8080/mcp",
        network.transport = "tcp",
        server.address = Empty,
        server.port = Empty,
        jsonrpc.request.id = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    span.record("server.address", "far");
    span.record("server.port", 8080_i64);
    span
}

#[test]
fn each_operation_is_a_data_point_of_its_side_with_the_conventions_attributes() {
    let meters = Meters::new();
    meters.run(|| {
        drop(server_span("echo").entered());
        let failed = server_span("read");
        failed.record("error.type", "tool_error");
        drop(failed);
        let refused = client_span("echo");
        refused.record("rpc.response.status_code", "-32602");
        refused.record("error.type", "-32602");
        drop(refused);
    });

    let server = meters.metric("mcp.server.operation.duration").unwrap();
    assert_eq!(server.unit, "s");
    assert!(
        server.bounds.iter().all(|b| b == &MCP_BOUNDARIES),
        "{server:?}"
    );
    let common = [
        "gen_ai.operation.name=execute_tool",
        "mcp.method.name=tools/call",
        "mcp.protocol.version=2025-06-18",
        "network.transport=tcp",
    ];
    let with = |extra: &[&str]| {
        let mut all = strings(&common);
        all.extend(strings(extra));
        all.sort();
        all
    };
    // No session id, request id or client address: one series each.
    assert_eq!(
        server.points,
        [
            (with(&["error.type=tool_error", "gen_ai.tool.name=read"]), 1),
            (with(&["gen_ai.tool.name=echo"]), 1),
        ]
    );

    let client = meters.metric("mcp.client.operation.duration").unwrap();
    assert_eq!(client.unit, "s");
    assert!(client.bounds.iter().all(|b| b == &MCP_BOUNDARIES));
    assert_eq!(
        client.points,
        [(
            strings(&[
                "error.type=-32602",
                "gen_ai.operation.name=execute_tool",
                "gen_ai.tool.name=echo",
                "mcp.method.name=tools/call",
                "network.transport=tcp",
                "rpc.response.status_code=-32602",
                "server.address=far",
                "server.port=8080",
            ]),
            1
        )]
    );
}

#[test]
fn a_server_operation_is_in_flight_from_its_span_s_opening_to_its_close() {
    let meters = Meters::new();
    let attributes = strings(&["gen_ai.tool.name=wait", "mcp.method.name=tools/call"]);
    let (first, second) = meters.run(|| (server_span("wait"), server_span("wait")));
    // A client's span is not the server's work.
    let upstream = meters.run(|| client_span("wait"));
    let active = meters.metric("mcp.server.active_operations").unwrap();
    assert_eq!(active.unit, "{operation}");
    assert_eq!(active.points, [(attributes.clone(), 2)]);

    meters.run(|| drop(first));
    assert_eq!(
        meters
            .metric("mcp.server.active_operations")
            .unwrap()
            .points,
        [(attributes.clone(), 1)]
    );
    meters.run(|| {
        drop(second);
        drop(upstream);
    });
    assert_eq!(
        meters
            .metric("mcp.server.active_operations")
            .unwrap()
            .points,
        [(attributes, 0)]
    );
}

/// The gate's span of one request, as `Gate::answer` opens it; `status`
/// recorded once answered, `None` for a request whose client left first.
fn request(method: &str, status: Option<u16>) {
    let span = tracing::debug_span!(
        target: "tool_mcp::http::gate",
        "mcp_http",
        method = %method,
        session = Empty,
        http.response.status_code = Empty,
    );
    if let Some(status) = status {
        span.record("http.response.status_code", status);
    }
}

#[test]
fn each_request_is_counted_by_method_and_status_and_a_5xx_is_an_error() {
    let meters = Meters::new();
    meters.run(|| {
        request("POST", Some(200));
        request("POST", Some(200));
        request("POST", Some(401));
        request("DELETE", Some(503));
        request("BREW", Some(405));
        request("GET", None);
    });

    let http = meters.metric("http.server.request.duration").unwrap();
    assert_eq!(http.unit, "s");
    assert!(http.bounds.iter().all(|b| b == &HTTP_BOUNDARIES));
    assert_eq!(
        http.points,
        [
            (
                strings(&[
                    "error.type=503",
                    "http.request.method=DELETE",
                    "http.response.status_code=503"
                ]),
                1
            ),
            (
                strings(&["error.type=_OTHER", "http.request.method=GET"]),
                1
            ),
            (
                strings(&["http.request.method=POST", "http.response.status_code=200"]),
                2
            ),
            (
                strings(&["http.request.method=POST", "http.response.status_code=401"]),
                1
            ),
            (
                strings(&[
                    "http.request.method=_OTHER",
                    "http.response.status_code=405"
                ]),
                1
            ),
        ]
    );
}

#[test]
fn the_audit_events_count_refusals_by_reason_and_the_sessions_open() {
    let meters = Meters::new();
    meters.run(|| {
        for reason in [
            "the bearer token is not valid",
            "the bearer token is not valid",
            "a token in the query string",
        ] {
            tracing::info!(
                target: "tool_mcp::audit",
                event = "credential_refused",
                reason,
                client.address = "127.0.0.1",
                "credential refused"
            );
        }
        for session in ["s1", "s2"] {
            tracing::info!(target: "tool_mcp::audit", event = "session_opened", mcp.session.id = session, "MCP session opened");
        }
        tracing::info!(target: "tool_mcp::audit", event = "session_closed", mcp.session.id = "s1", closed_by = "client", "MCP session closed");
        // The audit line of a call counts nowhere here (its span does);
        // nor does a line of another target naming the same event.
        tracing::info!(target: "tool_mcp::audit", event = "tool_call", outcome = "ok", "tool call");
        tracing::info!(target: "my_app", event = "session_opened", "not tool-mcp's");
    });

    let refused = meters.metric("mcp.server.refused_credentials").unwrap();
    assert_eq!(refused.unit, "{credential}");
    assert_eq!(
        refused.points,
        [
            (strings(&["reason=a token in the query string"]), 1),
            (strings(&["reason=the bearer token is not valid"]), 2),
        ]
    );
    let sessions = meters.metric("mcp.server.active_sessions").unwrap();
    assert_eq!(sessions.unit, "{session}");
    assert_eq!(sessions.points, [(Vec::new(), 1)]);
}

#[test]
fn spans_that_are_not_tool_mcp_s_record_nothing() {
    let meters = Meters::new();
    meters.run(|| {
        // tool-core's span of a call: ToolDurationLayer's, not this one's.
        drop(tracing::info_span!("execute_tool", gen_ai.tool.name = "echo").entered());
        // A span naming a method but of no side.
        drop(tracing::info_span!("mcp", mcp.method.name = "tools/call").entered());
        drop(tracing::info_span!("mcp_http", other = "field").entered());
    });
    for name in [
        "mcp.server.operation.duration",
        "mcp.client.operation.duration",
        "mcp.server.active_operations",
        "http.server.request.duration",
    ] {
        assert!(meters.metric(name).is_none(), "{name}");
    }
}

/// tool-core's span of a call, as its executor opens it, with the fields
/// an MCP client records on it (`tool-core/src/executor/call_span.rs`).
fn execute_tool_span(tool: &str) -> tracing::Span {
    tracing::info_span!(
        target: "tool_core::executor::call_span",
        "execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        error.type = Empty,
        mcp.method.name = Empty,
        jsonrpc.request.id = Empty,
        rpc.response.status_code = Empty,
        network.transport = Empty,
        server.address = Empty,
        server.port = Empty,
    )
}

#[test]
fn an_imported_tools_execution_span_is_the_clients_operation_and_a_local_ones_is_none() {
    let meters = Meters::new();
    meters.run(|| {
        // A local tool: no MCP attributes, no MCP operation.
        drop(execute_tool_span("echo").entered());
        // An imported one: the client recorded its attributes on it.
        let imported = execute_tool_span("far__read");
        imported.record("mcp.method.name", "tools/call");
        imported.record("network.transport", "pipe");
        imported.record("jsonrpc.request.id", "7");
        drop(imported);
    });
    let client = meters.metric("mcp.client.operation.duration").unwrap();
    assert_eq!(
        client.points,
        [(
            strings(&[
                "gen_ai.operation.name=execute_tool",
                "gen_ai.tool.name=far__read",
                "mcp.method.name=tools/call",
                "network.transport=pipe",
            ]),
            1
        )]
    );
    assert!(meters.metric("mcp.server.operation.duration").is_none());
    assert!(meters.metric("mcp.server.active_operations").is_none());
}
