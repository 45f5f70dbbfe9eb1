//! The `gen_ai.execute_tool.duration` histogram, recorded from the spans
//! themselves: from a call span's creation to its close, the interval the
//! exported span covers, so the metric and the span agree as the
//! conventions ask ("When this metric is reported alongside a
//! `gen_ai.execute_tool` span, the metric value SHOULD be the same as the
//! span duration"):
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/gen-ai-metrics.md#metric-gen_aiexecute_toolduration>
//! (model: `model/gen-ai/metrics.yaml`).
//!
//! tool-core emits nothing for it: a layer watching the spans costs nothing
//! to an application that does not install it.

use crate::contract;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter};
use std::fmt;
use std::time::Instant;
use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;

/// The histogram's name in the GenAI conventions.
pub(crate) const METRIC_NAME: &str = "gen_ai.execute_tool.duration";

/// The conventions' brief for the metric.
const DESCRIPTION: &str = "The duration of a single tool execution.";

/// The bucket boundaries the conventions ask for (ExplicitBucketBoundaries,
/// doubling from 10 ms to 81.92 s): most calls are fast, a few wait on the
/// network or a person.
pub(crate) const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/// A [`Layer`] that records `gen_ai.execute_tool.duration` (a histogram in
/// seconds, with the conventions' buckets) once for every `execute_tool`
/// span, when it closes, with the attributes `gen_ai.operation.name`,
/// `gen_ai.tool.name`, `gen_ai.tool.type` and, on a failed call,
/// `error.type`.
///
/// [`layer`](crate::layer) installs it together with the OpenTelemetry
/// span layer; on its own it suits an application that builds its own
/// `tracing_opentelemetry` layer:
///
/// ```
/// use opentelemetry::metrics::MeterProvider as _;
/// use opentelemetry::trace::TracerProvider as _;
/// use tracing_subscriber::prelude::*;
///
/// let tracers = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
/// let meters = opentelemetry_sdk::metrics::SdkMeterProvider::builder().build();
/// let subscriber = tracing_subscriber::registry()
///     .with(
///         tracing_opentelemetry::layer()
///             .with_tracer(tracers.tracer("my-agent"))
///             .with_threads(false),
///     )
///     .with(tool_otel::ToolDurationLayer::new(&meters.meter("my-agent")));
/// # drop(subscriber);
/// ```
///
/// A span counts when its `tracing` name is `execute_tool` and it declares
/// `gen_ai.tool.name`; others cost one comparison of names. Each distinct
/// tool name is an attribute set of its own, and an unknown tool's name is
/// whatever the model wrote: the OpenTelemetry SDK keeps at most 2000 sets
/// per metric by default and folds the rest into one overflow set
/// (`StreamBuilder::with_cardinality_limit` in a view changes the limit:
/// <https://docs.rs/opentelemetry_sdk/0.33.1/opentelemetry_sdk/metrics/struct.StreamBuilder.html#method.with_cardinality_limit>).
#[derive(Clone, Debug)]
pub struct ToolDurationLayer {
    histogram: Histogram<f64>,
}

impl ToolDurationLayer {
    /// Builds the histogram on `meter` (its instrumentation scope is the
    /// application's choice).
    pub fn new(meter: &Meter) -> Self {
        let histogram = meter
            .f64_histogram(METRIC_NAME)
            .with_unit("s")
            .with_description(DESCRIPTION)
            .with_boundaries(BOUNDARIES.to_vec())
            .build();
        ToolDurationLayer { histogram }
    }
}

/// What a call's span holds for the histogram until it closes.
struct CallTiming {
    start: Instant,
    fields: CallFields,
}

/// The span's fields that become the data point's attributes, as recorded
/// so far (a field declared `Empty` is `None` until recorded).
#[derive(Default)]
struct CallFields {
    operation_name: Option<String>,
    tool_name: Option<String>,
    tool_type: Option<String>,
    error_type: Option<String>,
}

impl CallFields {
    fn attributes(self) -> Vec<KeyValue> {
        [
            (contract::OPERATION_NAME, self.operation_name),
            (contract::TOOL_NAME, self.tool_name),
            (contract::TOOL_TYPE, self.tool_type),
            (contract::ERROR_TYPE, self.error_type),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.map(|value| KeyValue::new(key, value)))
        .collect()
    }

    fn set(&mut self, field: &Field, value: impl FnOnce() -> String) {
        let slot = match field.name() {
            contract::OPERATION_NAME => &mut self.operation_name,
            contract::TOOL_NAME => &mut self.tool_name,
            contract::TOOL_TYPE => &mut self.tool_type,
            contract::ERROR_TYPE => &mut self.error_type,
            _ => return,
        };
        *slot = Some(value());
    }
}

impl Visit for CallFields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, || value.to_owned());
    }

    // `%value` fields arrive here, their `Debug` being the value's `Display`.
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.set(field, || format!("{value:?}"));
    }
}

/// Whether a span is a tool call's, by the contract's name and its
/// required field.
fn is_call_span(attrs: &Attributes<'_>) -> bool {
    let metadata = attrs.metadata();
    metadata.name() == contract::SPAN_NAME && metadata.fields().field(contract::TOOL_NAME).is_some()
}

impl<S> Layer<S> for ToolDurationLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if !is_call_span(attrs) {
            return;
        }
        let Some(span) = ctx.span(id) else {
            return;
        };
        let mut fields = CallFields::default();
        attrs.record(&mut fields);
        span.extensions_mut().insert(CallTiming {
            start: Instant::now(),
            fields,
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else {
            return;
        };
        // Other spans' records skip the extensions' lock.
        if span.name() != contract::SPAN_NAME {
            return;
        }
        if let Some(timing) = span.extensions_mut().get_mut::<CallTiming>() {
            values.record(&mut timing.fields);
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else {
            return;
        };
        if span.name() != contract::SPAN_NAME {
            return;
        }
        let Some(timing) = span.extensions_mut().remove::<CallTiming>() else {
            return;
        };
        let seconds = timing.start.elapsed().as_secs_f64();
        self.histogram.record(seconds, &timing.fields.attributes());
    }
}
