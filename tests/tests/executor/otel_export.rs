//! Real calls through tool-core's executor under `tool_otel::layer`, read
//! back from the OpenTelemetry SDK's in-memory exporters: the contract
//! between the span tool-core opens and what tool-otel maps it to. (tool-otel's
//! own tests open the span by hand; this is where a change on either side
//! that breaks the other shows.)

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry::{KeyValue, Value};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::json;
use std::time::Duration;
use tool_core::{ExecutionMode, RunOptions, ToolCall, ToolRegistry, execute_tool_calls, tool};
use tracing_subscriber::prelude::*;

/// Echo one value
#[tool]
async fn echo(value: String) -> String {
    value
}

/// Sleep a while
#[tool]
async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".into()
}

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

fn text(attributes: &[KeyValue], key: &str) -> Option<String> {
    attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.to_string())
}

#[test]
fn each_outcome_of_a_real_batch_is_exported_as_its_span_and_duration() {
    let spans = InMemorySpanExporter::default();
    let metrics = InMemoryMetricExporter::default();
    let tracers = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let meters = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics.clone()).build())
        .build();
    let subscriber = tracing_subscriber::registry().with(tool_otel::layer(
        tracers.tracer("tests"),
        &meters.meter("tests"),
    ));

    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    tools.register(NapTool).unwrap();
    let calls = [
        ToolCall::new("c-ok", "echo", json!({"value": "hi"})),
        ToolCall::new("c-bad", "echo", json!({"value": 5})),
        ToolCall::new("c-unknown", "ecko", json!({})),
        ToolCall::new("c-slow", "nap", json!({"ms": 10_000})),
    ];
    let options = RunOptions::new()
        .with_timeout(Duration::from_millis(20))
        .with_traced_content(64);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let results = tracing::subscriber::with_default(subscriber, || {
        runtime.block_on(execute_tool_calls(
            &calls,
            &tools,
            options,
            ExecutionMode::Parallel,
        ))
    });
    assert_eq!(results.len(), 4);

    tracers.force_flush().unwrap();
    let spans = spans.get_finished_spans().unwrap();
    let expected = [
        ("c-ok", "execute_tool echo", "echo", None),
        (
            "c-bad",
            "execute_tool echo",
            "echo",
            Some("invalid_arguments"),
        ),
        (
            "c-unknown",
            "execute_tool ecko",
            "ecko",
            Some("unknown_tool"),
        ),
        ("c-slow", "execute_tool nap", "nap", Some("timeout")),
    ];
    for (id, name, tool, error_type) in expected {
        let span = spans
            .iter()
            .find(|span| attribute(span, "gen_ai.tool.call.id") == Some(&Value::from(id)))
            .unwrap_or_else(|| panic!("no span of {id}"));
        assert_eq!(span.name, name);
        assert_eq!(span.span_kind, SpanKind::Internal);
        assert_eq!(
            attribute(span, "gen_ai.operation.name"),
            Some(&Value::from("execute_tool"))
        );
        assert_eq!(
            attribute(span, "gen_ai.tool.name"),
            Some(&Value::from(tool))
        );
        assert_eq!(
            attribute(span, "gen_ai.tool.type"),
            Some(&Value::from("function"))
        );
        assert_eq!(
            attribute(span, "error.type"),
            error_type.map(Value::from).as_ref()
        );
        match error_type {
            None => assert_eq!(span.status, Status::Unset, "{id}"),
            Some(_) => assert!(matches!(span.status, Status::Error { .. }), "{id}"),
        }
    }
    // The opted-in content, as attributes of JSON text: the arguments of
    // each call (as sent when they did not parse), the result of a success.
    let of = |id: &'static str| {
        spans
            .iter()
            .find(|span| attribute(span, "gen_ai.tool.call.id") == Some(&Value::from(id)))
            .unwrap()
    };
    assert_eq!(
        attribute(of("c-ok"), "gen_ai.tool.call.arguments"),
        Some(&Value::from(r#"{"value":"hi"}"#))
    );
    assert_eq!(
        attribute(of("c-ok"), "gen_ai.tool.call.result"),
        Some(&Value::from("hi"))
    );
    assert_eq!(
        attribute(of("c-bad"), "gen_ai.tool.call.arguments"),
        Some(&Value::from(r#"{"value":5}"#))
    );
    assert_eq!(attribute(of("c-bad"), "gen_ai.tool.call.result"), None);

    // Only a registered tool has a description to give.
    let ok = spans
        .iter()
        .find(|span| span.name == "execute_tool echo")
        .unwrap();
    assert_eq!(
        attribute(ok, "gen_ai.tool.description"),
        Some(&Value::from("Echo one value"))
    );

    meters.force_flush().unwrap();
    let exports = metrics.get_finished_metrics().unwrap();
    let histogram = exports
        .last()
        .unwrap()
        .scope_metrics()
        .flat_map(|scope| scope.metrics())
        .find(|metric| metric.name() == "gen_ai.execute_tool.duration")
        .expect("the duration histogram");
    assert_eq!(histogram.unit(), "s");
    let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = histogram.data() else {
        panic!("not a histogram of f64");
    };
    let mut points: Vec<(Option<String>, Option<String>, u64)> = histogram
        .data_points()
        .map(|point| {
            let attributes: Vec<KeyValue> = point.attributes().cloned().collect();
            (
                text(&attributes, "gen_ai.tool.name"),
                text(&attributes, "error.type"),
                point.count(),
            )
        })
        .collect();
    points.sort();
    let some = |text: &str| Some(text.to_owned());
    assert_eq!(
        points,
        [
            (some("echo"), None, 1),
            (some("echo"), some("invalid_arguments"), 1),
            (some("ecko"), some("unknown_tool"), 1),
            (some("nap"), some("timeout"), 1),
        ]
    );
}
