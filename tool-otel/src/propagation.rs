//! W3C Trace Context across a process boundary, as plain key/value text:
//! what an MCP client puts into a request's `params._meta` and an MCP
//! server takes out of it, without either knowing OpenTelemetry's types.
//!
//! - MCP's SEP-414 (Final): "When OTel trace context is propagated via
//!   `_meta`, the keys `traceparent`, `tracestate`, and `baggage` follow W3C
//!   Trace Context and W3C Baggage value formats", unprefixed:
//!   <https://modelcontextprotocol.io/seps/414-request-meta>.
//! - The GenAI conventions: "The receiver extracts the context from
//!   `params._meta` and uses it as the remote parent":
//!   <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#context-propagation>.
//!
//! The format is always W3C Trace Context (the SDK's
//! `TraceContextPropagator`), whatever propagator the application installed
//! globally: SEP-414 fixes it for `_meta`, and `opentelemetry::global`'s
//! default propagator injects nothing. Baggage is not carried.

use opentelemetry::Context;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use std::fmt;
use tracing_opentelemetry::{OpenTelemetrySpanExt, SetParentError};

/// The key of the W3C `traceparent` value (version, trace id, parent span
/// id, flags: `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`).
pub const TRACEPARENT: &str = "traceparent";

/// The key of the W3C `tracestate` value (vendors' `key=value` list).
pub const TRACESTATE: &str = "tracestate";

/// How much of a malformed `traceparent` an error repeats: a well-formed
/// one is 55 characters, and the value comes from the other side.
const ECHO_CHARS: usize = 80;

/// The current `tracing` span's OpenTelemetry context as W3C Trace Context
/// fields: `traceparent`, then `tracestate` when it is not empty. Empty
/// when there is no current span or no OpenTelemetry layer (see
/// [`layer`](crate::layer)) sees it, so a client can call it on every
/// request.
///
/// ```
/// use opentelemetry::trace::TracerProvider as _;
/// use tracing_subscriber::prelude::*;
///
/// let tracers = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
/// let subscriber = tracing_subscriber::registry()
///     .with(tracing_opentelemetry::layer().with_tracer(tracers.tracer("client")));
/// tracing::subscriber::with_default(subscriber, || {
///     let _call = tracing::info_span!("tools/call").entered();
///     let fields = tool_otel::propagation::inject_current();
///     assert_eq!(fields.len(), 1);
///     assert_eq!(fields[0].0, "traceparent");
///     assert!(fields[0].1.starts_with("00-"));
/// });
/// assert!(tool_otel::propagation::inject_current().is_empty());
/// ```
pub fn inject_current() -> Vec<(String, String)> {
    inject(&tracing::Span::current())
}

/// `span`'s OpenTelemetry context as W3C Trace Context fields, as
/// [`inject_current`] gives the current span's. This starts the span's
/// OpenTelemetry side if it had not started, after which it can no longer
/// take a remote parent ([`set_parent`]).
pub fn inject(span: &tracing::Span) -> Vec<(String, String)> {
    let mut fields = Fields(Vec::new());
    TraceContextPropagator::new().inject_context(&span.context(), &mut fields);
    fields.0
}

/// Makes the remote span that `fields` name (`traceparent`, and
/// `tracestate` if present; other keys are ignored, names in any case, the
/// first of each name counts, and a `tracestate` that is not W3C's is
/// dropped) the parent of `span`, so the calls on both sides are one trace. `span` must
/// not have been entered yet: call this right after creating it, before
/// `.instrument(span)` or `.entered()`.
///
/// On an error `span` keeps the parent it had (the current span, or none),
/// and the error says why: no `traceparent`, one that is not W3C's format,
/// or a span that cannot take a parent. A request without trace context is
/// normal, so a server can ignore the error or log it at debug level.
///
/// ```
/// use opentelemetry::trace::TracerProvider as _;
/// use tracing_subscriber::prelude::*;
///
/// let tracers = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
/// let subscriber = tracing_subscriber::registry()
///     .with(tracing_opentelemetry::layer().with_tracer(tracers.tracer("server")));
/// tracing::subscriber::with_default(subscriber, || {
///     let meta = [("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")];
///     let span = tracing::info_span!("tools/call");
///     tool_otel::propagation::set_parent(&span, meta).unwrap();
///     let _call = span.entered();
///     let inner = tool_otel::propagation::inject_current();
///     // The same trace, continued by a span of this side.
///     assert!(inner[0].1.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
/// });
/// ```
pub fn set_parent<'a>(
    span: &tracing::Span,
    fields: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(), ParentError> {
    let carrier = Carrier::from_fields(fields);
    let Some(traceparent) = carrier.get(TRACEPARENT) else {
        return Err(ParentError::Missing);
    };
    // From an empty context, not the current one: on a malformed
    // `traceparent` the propagator returns the context it started from,
    // which inside another span would look like a parent received.
    let parent = TraceContextPropagator::new().extract_with_context(&Context::new(), &carrier);
    if !parent.span().span_context().is_valid() {
        return Err(ParentError::Malformed {
            traceparent: echo(traceparent),
        });
    }
    span.set_parent(parent).map_err(ParentError::from)
}

/// Why [`set_parent`] left a span's parent as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParentError {
    /// The fields hold no `traceparent`: the request carries no trace
    /// context.
    Missing,
    /// The `traceparent` is not W3C Trace Context's
    /// `version-traceid-parentid-flags` with a non-zero trace id and span
    /// id; its first 80 characters.
    Malformed {
        /// The value received, cut at 80 characters (with `…` when cut).
        traceparent: String,
    },
    /// No OpenTelemetry layer sees the span: the subscriber has none, or
    /// it is hidden behind a layer that does not forward downcasts, such as
    /// `tracing_subscriber::reload`.
    NoOpenTelemetryLayer,
    /// The span had already started (it was entered, or its context was
    /// read), and a started span's parent is fixed.
    AlreadyStarted,
    /// The span is disabled: a filter turned it off, or there is no
    /// subscriber at all. (Without a subscriber on this thread, a span can
    /// also be [`NoOpenTelemetryLayer`](Self::NoOpenTelemetryLayer) when
    /// another thread's subscriber enabled its callsite.)
    SpanDisabled,
}

impl fmt::Display for ParentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParentError::Missing => f.write_str("no `traceparent` in the trace context fields"),
            ParentError::Malformed { traceparent } => write!(
                f,
                "`traceparent` {traceparent:?} is not W3C Trace Context \
                 (version-traceid-parentid-flags in lowercase hex)"
            ),
            ParentError::NoOpenTelemetryLayer => f.write_str(
                "no OpenTelemetry layer sees the span, so it cannot take a remote parent",
            ),
            ParentError::AlreadyStarted => {
                f.write_str("the span has already started, so its parent can no longer change")
            }
            ParentError::SpanDisabled => {
                f.write_str("the span is disabled (filtered out, or no subscriber)")
            }
        }
    }
}

impl std::error::Error for ParentError {}

impl From<SetParentError> for ParentError {
    fn from(error: SetParentError) -> Self {
        match error {
            SetParentError::LayerNotFound => ParentError::NoOpenTelemetryLayer,
            SetParentError::AlreadyStarted => ParentError::AlreadyStarted,
            SetParentError::SpanDisabled => ParentError::SpanDisabled,
        }
    }
}

/// The first [`ECHO_CHARS`] characters of a value from the other side.
fn echo(value: &str) -> String {
    match value.char_indices().nth(ECHO_CHARS) {
        Some((cut, _)) => format!("{}…", &value[..cut]),
        None => value.to_owned(),
    }
}

/// The injected fields, in the propagator's order.
struct Fields(Vec<(String, String)>);

impl Injector for Fields {
    fn set(&mut self, key: &str, value: String) {
        // "Vendors MUST accept empty `tracestate` headers but SHOULD avoid
        // sending them": https://www.w3.org/TR/trace-context/#tracestate-header-field-values
        // (the propagator writes `tracestate` even when it is empty).
        if !value.is_empty() {
            self.0.push((key.to_owned(), value));
        }
    }
}

/// The trace context fields among those received; the first of each name.
struct Carrier<'a> {
    traceparent: Option<&'a str>,
    tracestate: Option<&'a str>,
}

impl<'a> Carrier<'a> {
    fn from_fields(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut carrier = Carrier {
            traceparent: None,
            tracestate: None,
        };
        for (key, value) in fields {
            // "Vendors MUST expect the header name in any case (upper,
            // lower, mixed)": https://www.w3.org/TR/trace-context/#header-name
            let slot = if key.eq_ignore_ascii_case(TRACEPARENT) {
                &mut carrier.traceparent
            } else if key.eq_ignore_ascii_case(TRACESTATE) {
                &mut carrier.tracestate
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        carrier
    }
}

impl Extractor for Carrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        if key.eq_ignore_ascii_case(TRACEPARENT) {
            self.traceparent
        } else if key.eq_ignore_ascii_case(TRACESTATE) {
            self.tracestate
        } else {
            None
        }
    }

    fn keys(&self) -> Vec<&str> {
        [
            self.traceparent.map(|_| TRACEPARENT),
            self.tracestate.map(|_| TRACESTATE),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}
