//! `gen_ai.execute_tool.duration`: one data point per call span, with the
//! conventions' unit, buckets and attributes, equal to the span's duration.

use crate::support::{Telemetry, execute_tool_span, fail};
use std::time::Duration;

const METRIC: &str = "gen_ai.execute_tool.duration";

const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

#[test]
fn each_call_is_one_data_point_with_its_tool_type_and_error_type() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        for id in ["call_1", "call_2"] {
            let _call = execute_tool_span("echo", id).entered();
        }
        let failed = execute_tool_span("upper", "call_3");
        fail(&failed, "invalid_arguments", "`value` is missing");
        drop(failed);
    });

    let histogram = telemetry
        .histogram(METRIC)
        .expect("the histogram was recorded");
    assert_eq!(histogram.unit, "s");
    assert_eq!(
        histogram.description,
        "The duration of a single tool execution."
    );
    for point in &histogram.points {
        assert_eq!(point.bounds, BOUNDARIES);
    }
    let points: Vec<_> = histogram
        .points
        .into_iter()
        .map(|point| (point.attributes, point.count))
        .collect();
    assert_eq!(
        points,
        [
            (
                vec![
                    "error.type=invalid_arguments".to_owned(),
                    "gen_ai.operation.name=execute_tool".to_owned(),
                    "gen_ai.tool.name=upper".to_owned(),
                    "gen_ai.tool.type=function".to_owned(),
                ],
                1
            ),
            (
                vec![
                    "gen_ai.operation.name=execute_tool".to_owned(),
                    "gen_ai.tool.name=echo".to_owned(),
                    "gen_ai.tool.type=function".to_owned(),
                ],
                2
            ),
        ]
    );
}

#[test]
fn the_value_is_the_span_s_whole_life_not_only_its_busy_time() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        let span = execute_tool_span("wait", "call_1");
        // Waiting, not entered (a future that is not being polled).
        std::thread::sleep(Duration::from_millis(50));
        let _entered = span.entered();
    });

    let histogram = telemetry
        .histogram(METRIC)
        .expect("the histogram was recorded");
    assert_eq!(histogram.points.len(), 1);
    let recorded = histogram.points[0].sum;
    let span = telemetry.span("execute_tool wait");
    let span_seconds = span
        .end_time
        .duration_since(span.start_time)
        .unwrap()
        .as_secs_f64();
    assert!(recorded >= 0.05, "recorded {recorded} s for 50 ms");
    // The two clocks are read one after the other, at the same two moments.
    assert!(
        (recorded - span_seconds).abs() < 0.02,
        "histogram {recorded} s, span {span_seconds} s"
    );
}

#[test]
fn spans_outside_the_contract_are_not_measured() {
    let telemetry = Telemetry::new();
    telemetry.run(|| {
        // Another name with the same fields, and the name without the
        // required `gen_ai.tool.name`.
        let _mcp = tracing::info_span!("tools/call", gen_ai.tool.name = "echo").entered();
        let _bare = tracing::info_span!("execute_tool", tool = "echo").entered();
    });
    assert!(telemetry.histogram(METRIC).is_none());

    telemetry.run(|| {
        let _call = execute_tool_span("echo", "call_1").entered();
    });
    let histogram = telemetry
        .histogram(METRIC)
        .expect("the histogram was recorded");
    let counts: Vec<_> = histogram.points.iter().map(|p| p.count).collect();
    assert_eq!(counts, [1]);
}
