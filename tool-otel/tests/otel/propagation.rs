//! W3C trace context out of one process's span and into another's: the
//! two hops of a call through an MCP server are one trace.

use crate::support::{Telemetry, execute_tool_span};
use opentelemetry::trace::{SpanId, TraceId, TraceState};
use tool_otel::propagation::{ParentError, inject, inject_current, set_parent};
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::prelude::*;

/// The W3C specification's example of a sampled parent.
const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

fn as_pairs(fields: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

#[test]
fn a_call_through_a_server_is_one_trace_with_parent_child_links() {
    let client = Telemetry::new();
    let server = Telemetry::new();

    // Client: the agent's call, and inside it the request to the server.
    let meta = client.run(|| {
        let _call = execute_tool_span("echo", "call_1").entered();
        let _request = tracing::info_span!("tools/call", otel.kind = "client").entered();
        inject_current()
    });
    // Server: the request's span takes the client's as its parent, and the
    // server's executor runs the call inside it.
    server.run(|| {
        let request = tracing::info_span!("tools/call", otel.kind = "server");
        set_parent(&request, as_pairs(&meta)).unwrap();
        let _request = request.entered();
        let _call = execute_tool_span("echo", "call_1").entered();
    });

    let client_call = client.span("execute_tool echo");
    let client_request = client.span("tools/call");
    let server_request = server.span("tools/call");
    let server_call = server.span("execute_tool echo");
    let trace = client_call.span_context.trace_id();
    assert_eq!(
        meta,
        [(
            "traceparent".to_owned(),
            format!("00-{trace}-{}-01", client_request.span_context.span_id())
        )]
    );
    for span in [&client_request, &server_request, &server_call] {
        assert_eq!(span.span_context.trace_id(), trace, "{}", span.name);
    }
    assert_eq!(
        client_request.parent_span_id,
        client_call.span_context.span_id()
    );
    assert_eq!(
        server_request.parent_span_id,
        client_request.span_context.span_id()
    );
    assert!(server_request.parent_span_is_remote);
    assert_eq!(
        server_call.parent_span_id,
        server_request.span_context.span_id()
    );
    assert!(!server_call.parent_span_is_remote);
}

#[test]
fn traceparent_and_tracestate_received_go_on_to_the_next_hop() {
    let telemetry = Telemetry::new();
    let forwarded = telemetry.run(|| {
        let span = execute_tool_span("echo", "call_1");
        let received = [
            ("progressToken", "7"),
            (
                "TraceParent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            ),
            ("tracestate", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"),
        ];
        set_parent(&span, received).unwrap();
        let _entered = span.entered();
        inject_current()
    });

    let span = telemetry.span("execute_tool echo");
    assert_eq!(
        span.span_context.trace_id(),
        TraceId::from_hex(TRACE).unwrap()
    );
    assert_eq!(span.parent_span_id, SpanId::from_hex(PARENT).unwrap());
    assert_eq!(
        span.span_context.trace_state(),
        &"rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"
            .parse::<TraceState>()
            .unwrap()
    );
    assert_eq!(
        forwarded,
        [
            (
                "traceparent".to_owned(),
                format!("00-{TRACE}-{}-01", span.span_context.span_id())
            ),
            (
                "tracestate".to_owned(),
                "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE".to_owned()
            ),
        ]
    );
}

#[test]
fn nothing_is_injected_without_a_span_or_without_opentelemetry() {
    assert_eq!(inject_current(), []);
    tracing::subscriber::with_default(tracing_subscriber::registry(), || {
        let _span = tracing::info_span!("tools/call").entered();
        assert_eq!(inject_current(), []);
    });
    let telemetry = Telemetry::new();
    telemetry.run(|| assert_eq!(inject_current(), []));
}

#[test]
fn inject_names_a_span_that_is_not_the_current_one() {
    let telemetry = Telemetry::new();
    let fields = telemetry.run(|| inject(&tracing::info_span!("tools/call")));
    let span = telemetry.span("tools/call");
    assert_eq!(
        fields,
        [(
            "traceparent".to_owned(),
            format!(
                "00-{}-{}-01",
                span.span_context.trace_id(),
                span.span_context.span_id()
            )
        )]
    );
}

#[test]
fn without_a_usable_traceparent_the_span_keeps_its_parent_and_the_error_says_why() {
    let telemetry = Telemetry::new();
    let long = format!("00-{}", "a".repeat(200));
    let errors = telemetry.run(|| {
        let _turn = tracing::info_span!("agent turn").entered();
        let cases: [&[(&str, &str)]; 4] = [
            &[("progressToken", "7")],
            &[("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-zz-01")],
            // All-zero trace id: well-formed, and invalid by W3C's rules.
            &[(
                "traceparent",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            )],
            &[("traceparent", &long)],
        ];
        cases
            .iter()
            .map(|fields| {
                let call = execute_tool_span("echo", "call_1");
                let error =
                    set_parent(&call, fields.iter().copied()).expect_err(&format!("{fields:?}"));
                let _entered = call.entered();
                error
            })
            .collect::<Vec<_>>()
    });

    assert_eq!(errors[0], ParentError::Missing);
    assert_eq!(
        errors[1].to_string(),
        "`traceparent` \"00-4bf92f3577b34da6a3ce929d0e0e4736-zz-01\" is not W3C Trace Context \
         (version-traceid-parentid-flags in lowercase hex)"
    );
    assert!(matches!(errors[2], ParentError::Malformed { .. }));
    let ParentError::Malformed { traceparent } = &errors[3] else {
        panic!("{:?}", errors[3]);
    };
    assert_eq!(traceparent.chars().count(), 81);
    assert!(traceparent.ends_with('…'), "{traceparent}");

    let turn = telemetry.span("agent turn");
    let calls: Vec<_> = telemetry
        .spans()
        .into_iter()
        .filter(|s| s.name == "execute_tool echo")
        .collect();
    assert_eq!(calls.len(), 4);
    for call in calls {
        assert_eq!(call.parent_span_id, turn.span_context.span_id());
        assert_eq!(call.span_context.trace_id(), turn.span_context.trace_id());
    }
}

#[test]
fn a_span_that_cannot_take_a_parent_is_an_error_naming_why() {
    let meta = [(
        "traceparent",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    )];

    // A span a filter turned off.
    let quiet = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer())
        .with(LevelFilter::WARN);
    tracing::subscriber::with_default(quiet, || {
        let span = tracing::info_span!("tools/call");
        assert_eq!(set_parent(&span, meta), Err(ParentError::SpanDisabled));
    });

    // A subscriber without OpenTelemetry.
    tracing::subscriber::with_default(tracing_subscriber::registry(), || {
        let span = tracing::info_span!("tools/call");
        assert_eq!(
            set_parent(&span, meta),
            Err(ParentError::NoOpenTelemetryLayer)
        );
    });

    // Entered before its parent was set.
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let span = tracing::info_span!("tools/call");
        drop(span.enter());
        assert_eq!(set_parent(&span, meta), Err(ParentError::AlreadyStarted));
        assert_eq!(
            ParentError::AlreadyStarted.to_string(),
            "the span has already started, so its parent can no longer change"
        );
    });
}
