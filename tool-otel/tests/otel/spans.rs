//! A call's span as OpenTelemetry gets it: name, kind, the GenAI
//! attributes, the status and `error.type` of a failure, events.

use crate::support::{Telemetry, attribute, execute_tool_span, fail};
use opentelemetry::Value;
use opentelemetry::trace::{SpanKind, Status};

#[test]
fn a_call_is_an_internal_span_named_after_its_tool_with_the_gen_ai_attributes() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let span = execute_tool_span("echo", "call_1");
        span.record("gen_ai.tool.description", "Echo one value");
        let _entered = span.entered();
    });

    let span = telemetry.span("execute_tool echo");
    assert_eq!(span.span_kind, SpanKind::Internal);
    assert_eq!(span.status, Status::Unset);
    for (key, value) in [
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.tool.call.id", "call_1"),
        ("gen_ai.tool.type", "function"),
        ("gen_ai.tool.description", "Echo one value"),
    ] {
        assert_eq!(attribute(&span, key), Some(&Value::from(value)), "{key}");
    }
    // Fields declared and never recorded are not attributes (the opt-in
    // arguments and result, the error of a call that succeeded), and the
    // `otel.*` fields are the span's name, kind and status, not attributes.
    for key in [
        "error.type",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
        "otel.name",
        "otel.kind",
        "otel.status_code",
    ] {
        assert_eq!(attribute(&span, key), None, "{key}");
    }
}

#[test]
fn a_failed_call_has_status_error_with_its_cause_and_its_error_type() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let span = execute_tool_span("wait", "call_7");
        let _entered = span.enter();
        fail(&span, "timeout", "the tool ran past its timeout of 5 s");
    });

    let span = telemetry.span("execute_tool wait");
    assert_eq!(
        span.status,
        Status::error("the tool ran past its timeout of 5 s")
    );
    assert_eq!(
        attribute(&span, "error.type"),
        Some(&Value::from("timeout"))
    );
}

#[test]
fn opted_in_arguments_and_result_are_attributes_as_json_text() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let span = execute_tool_span("echo", "call_2");
        let _entered = span.enter();
        span.record("gen_ai.tool.call.arguments", r#"{"value":"hi"}"#);
        span.record("gen_ai.tool.call.result", r#""hi""#);
    });

    let span = telemetry.span("execute_tool echo");
    assert_eq!(
        attribute(&span, "gen_ai.tool.call.arguments"),
        Some(&Value::from(r#"{"value":"hi"}"#))
    );
    assert_eq!(
        attribute(&span, "gen_ai.tool.call.result"),
        Some(&Value::from(r#""hi""#))
    );
}

#[test]
fn an_event_inside_the_call_is_a_span_event_with_its_fields() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let _entered = execute_tool_span("echo", "call_3").entered();
        tracing::info!(hook = "before", decision = "rewrite", "hook decision");
    });

    let span = telemetry.span("execute_tool echo");
    let events: Vec<_> = span.events.iter().collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].name, "hook decision");
    for (key, value) in [("hook", "before"), ("decision", "rewrite")] {
        let found = events[0]
            .attributes
            .iter()
            .find(|kv| kv.key.as_str() == key);
        assert_eq!(
            found.map(|kv| &kv.value),
            Some(&Value::from(value)),
            "{key}"
        );
    }
}

#[test]
fn a_call_inside_the_agent_s_span_is_its_child_in_the_same_trace() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let _turn = tracing::info_span!("agent turn").entered();
        let _call = execute_tool_span("echo", "call_4").entered();
    });

    let turn = telemetry.span("agent turn");
    let call = telemetry.span("execute_tool echo");
    assert_eq!(call.span_context.trace_id(), turn.span_context.trace_id());
    assert_eq!(call.parent_span_id, turn.span_context.span_id());
}

#[test]
fn the_layer_behind_a_per_layer_filter_still_sees_tool_core_s_spans() {
    use tracing::Level;
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::prelude::*;

    // As the README sets it up: the OpenTelemetry layer lets tool_core's
    // INFO spans through, and nothing else here.
    let telemetry = Telemetry::with(|layer| {
        let filtered = layer.with_filter(Targets::new().with_target("tool_core", Level::INFO));
        tracing::Dispatch::new(tracing_subscriber::registry().with(filtered))
    });
    telemetry.run(|| {
        let _other = tracing::info_span!(target: "elsewhere", "other").entered();
        let _call = execute_tool_span("echo", "call_5").entered();
    });

    let names: Vec<_> = telemetry.spans().into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["execute_tool echo"]);
    assert!(
        telemetry
            .histogram("gen_ai.execute_tool.duration")
            .is_some()
    );
}
