//! The trace and span ids in each JSON log line written inside a traced
//! span, so a log collector can join a line to the trace a tracing
//! collector received (`trace_id` and `span_id`, lowercase hex, the names
//! and encoding of OpenTelemetry's log data model:
//! <https://opentelemetry.io/docs/specs/otel/logs/data-model/#field-traceid>).
//!
//! tracing-subscriber's JSON format takes no computed fields, so the line
//! it writes gets the two keys spliced in before its closing brace; every
//! other byte stays as the stock format writes it.

use opentelemetry::trace::TraceContextExt as _;
use std::fmt;
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// A JSON event format `F` with the current OpenTelemetry span's ids.
pub(super) struct WithTraceIds<F>(pub F);

impl<S, N, F> FormatEvent<S, N> for WithTraceIds<F>
where
    F: FormatEvent<S, N>,
    S: Subscriber + for<'span> LookupSpan<'span>,
    N: for<'writer> FormatFields<'writer> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        // tracing-opentelemetry makes an entered span's context the
        // current one (its context activation), so this is the span the
        // event is in, when the exporting layer saw that span.
        let context = opentelemetry::Context::current();
        let span = context.span();
        let ids = span.span_context();
        if !ids.is_valid() {
            return self.0.format_event(ctx, writer, event);
        }
        let mut line = String::new();
        self.0.format_event(ctx, Writer::new(&mut line), event)?;
        match line.trim_end_matches('\n').strip_suffix('}') {
            Some(object) => writeln!(
                writer,
                "{object},\"trace_id\":\"{}\",\"span_id\":\"{}\"}}",
                ids.trace_id(),
                ids.span_id()
            ),
            None => writer.write_str(&line),
        }
    }
}
