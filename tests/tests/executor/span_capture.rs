//! A subscriber layer that keeps what tool-core's spans record: each
//! closed span's name, every field as last recorded (at its creation or
//! later with `Span::record`), and the events emitted inside it. The tests
//! of the `execute_tool` span read exact field values from it, which a
//! formatted log line does not give (a field recorded after the last event
//! is in no line).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// A span as it was when it closed.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClosedSpan {
    /// Its name (the callsite's, `execute_tool`).
    pub(crate) name: String,
    /// Its fields by name, each as text: a string as it is, any other
    /// value as its `Debug` (a `%value` field as its `Display`).
    pub(crate) fields: BTreeMap<String, String>,
    /// The events emitted inside it, in order: level and message.
    pub(crate) events: Vec<(Level, String)>,
}

impl ClosedSpan {
    /// The field's text, if it was recorded.
    pub(crate) fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }

    /// The field's text; a test failure naming the field and the span's
    /// fields when it was not recorded.
    pub(crate) fn expect(&self, name: &str) -> &str {
        self.field(name)
            .unwrap_or_else(|| panic!("{name} was not recorded on {self:#?}"))
    }

    /// The first event whose message holds `message`, with its level.
    pub(crate) fn event(&self, message: &str) -> Option<Level> {
        self.events
            .iter()
            .find(|(_, text)| text.contains(message))
            .map(|(level, _)| *level)
    }
}

/// Runs `work` on a current-thread runtime under a subscriber that keeps
/// every span (at every level), for this thread only, and returns its
/// output and the spans that closed, in the order they closed.
pub(crate) fn capture<T>(work: impl std::future::Future<Output = T>) -> (T, Vec<ClosedSpan>) {
    let closed = Arc::new(Mutex::new(Vec::new()));
    let layer = Keep {
        closed: Arc::clone(&closed),
    };
    let subscriber = tracing_subscriber::registry().with(layer);
    let output = tracing::subscriber::with_default(subscriber, || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(work)
    });
    let spans = closed.lock().unwrap().clone();
    (output, spans)
}

/// The one span named `name` among `spans`; a test failure listing them
/// when there is not exactly one.
pub(crate) fn only<'a>(spans: &'a [ClosedSpan], name: &str) -> &'a ClosedSpan {
    let named: Vec<&ClosedSpan> = spans.iter().filter(|span| span.name == name).collect();
    match named.as_slice() {
        [one] => one,
        _ => panic!("expected one {name} span, got {}: {spans:#?}", named.len()),
    }
}

/// The layer: an open span's state lives in its extensions, and moves to
/// `closed` when the span closes.
struct Keep {
    closed: Arc<Mutex<Vec<ClosedSpan>>>,
}

impl<S> Layer<S> for Keep
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut kept = ClosedSpan {
            name: attrs.metadata().name().to_owned(),
            ..ClosedSpan::default()
        };
        attrs.record(&mut Fields(&mut kept.fields));
        span.extensions_mut().insert(kept);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        if let Some(kept) = span.extensions_mut().get_mut::<ClosedSpan>() {
            values.record(&mut Fields(&mut kept.fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.event_span(event) else {
            return;
        };
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let message = fields.remove("message").unwrap_or_default();
        if let Some(kept) = span.extensions_mut().get_mut::<ClosedSpan>() {
            kept.events.push((*event.metadata().level(), message));
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        if let Some(kept) = span.extensions_mut().remove::<ClosedSpan>() {
            self.closed.lock().unwrap().push(kept);
        }
    }
}

/// Writes each field as text into the map.
struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}
