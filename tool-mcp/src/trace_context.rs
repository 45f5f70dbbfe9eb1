//! A trace across MCP hops: the OpenTelemetry context of a call's span
//! travels in the request's `params._meta`, as the MCP semantic
//! conventions ask ("Instrumentations SHOULD propagate context using the
//! configured OpenTelemetry propagators by injecting it into the MCP
//! request `params._meta` property bag [...]. The receiver extracts the
//! context from `params._meta` and uses it as the remote parent",
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md#context-propagation>),
//! under the unprefixed keys SEP-414 reserves for W3C Trace Context and
//! Baggage (`traceparent`, `tracestate`, `baggage`,
//! <https://modelcontextprotocol.io/seps/414-request-meta>).
//!
//! With the `otel` feature the application's global text-map propagator
//! (`opentelemetry::global::set_text_map_propagator`) writes and reads the
//! keys, so the application chooses the format; tracing-opentelemetry
//! gives a tracing span's OpenTelemetry context. Without it both functions
//! do nothing, so their callers carry no `cfg`. The client sends
//! ([`outgoing`], feature `client`), the server reads ([`adopt_parent`],
//! feature `server`).

#[cfg(feature = "server")]
use rmcp::model::MetaObject;
#[cfg(feature = "client")]
use rmcp::model::RequestMetaObject;

/// The `_meta` of an outgoing request that carries `span`'s trace context
/// (`traceparent`, and `tracestate` when it is not empty, with the W3C
/// propagator), or `None` when there is nothing to send: no `otel`
/// feature, no propagator set (OpenTelemetry's default writes nothing),
/// or a span no OpenTelemetry layer records.
#[cfg(feature = "client")]
pub(crate) fn outgoing(span: &tracing::Span) -> Option<RequestMetaObject> {
    imp::outgoing(span)
}

/// [`outgoing`], as a notification's `_meta` (`notifications/cancelled`).
#[cfg(feature = "client")]
pub(crate) fn outgoing_notification(
    span: &tracing::Span,
) -> Option<rmcp::model::NotificationMetaObject> {
    outgoing(span).map(|meta| rmcp::model::NotificationMetaObject(meta.0))
}

/// Makes the trace context in an incoming request's `meta` the parent of
/// `span`, which must not have been entered yet (tracing-opentelemetry
/// starts the OpenTelemetry span at its first entry, and its parent is
/// fixed then). A request without a valid context, or a span no
/// OpenTelemetry layer records, leaves `span` as it is.
#[cfg(feature = "server")]
pub(crate) fn adopt_parent(span: &tracing::Span, meta: &MetaObject) {
    imp::adopt_parent(span, meta);
}

#[cfg(feature = "otel")]
mod imp {
    #[cfg(feature = "server")]
    use opentelemetry::propagation::Extractor;
    #[cfg(feature = "client")]
    use opentelemetry::propagation::Injector;
    use opentelemetry::trace::TraceContextExt;
    use rmcp::model::MetaObject;
    #[cfg(feature = "client")]
    use rmcp::model::RequestMetaObject;
    use serde_json::Value;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    #[cfg(feature = "client")]
    pub(super) fn outgoing(span: &tracing::Span) -> Option<RequestMetaObject> {
        if span.is_disabled() {
            return None;
        }
        // Starts the OpenTelemetry span if it was not yet: its name and
        // kind were given at creation, so nothing is lost.
        let context = span.context();
        if !context.span().span_context().is_valid() {
            return None;
        }
        let mut meta = RequestMetaObject::new();
        opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.inject_context(&context, &mut Carrier(&mut meta.0));
        });
        (!meta.0.0.is_empty()).then_some(meta)
    }

    #[cfg(feature = "server")]
    pub(super) fn adopt_parent(span: &tracing::Span, meta: &MetaObject) {
        if span.is_disabled() {
            return;
        }
        // Extracted onto an empty context, not the thread's current one: a
        // request without trace context must not inherit whatever span
        // this thread happened to be in.
        let parent = opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.extract_with_context(&opentelemetry::Context::new(), &Reader(meta))
        });
        if parent.span().span_context().is_valid() {
            // Fails only without an OpenTelemetry layer, or once the span
            // has started; neither is an error of the request's.
            if let Err(error) = span.set_parent(parent) {
                tracing::debug!("the request's trace context is not used: {error}");
            }
        }
    }

    /// Writes a propagator's fields into `_meta`. Empty values are left
    /// out (the W3C propagator writes `tracestate` even when the state is
    /// empty), and so are rmcp's own keys, which a propagator has no
    /// business changing.
    #[cfg(feature = "client")]
    struct Carrier<'a>(&'a mut MetaObject);

    #[cfg(feature = "client")]
    impl Injector for Carrier<'_> {
        fn set(&mut self, key: &str, value: String) {
            if value.is_empty() || key == "progressToken" || key.contains('/') {
                return;
            }
            self.0.0.insert(key.to_owned(), Value::String(value));
        }
    }

    /// Reads a propagator's fields from `_meta`: string values only (a
    /// `traceparent` that is a number is no trace context).
    #[cfg(feature = "server")]
    struct Reader<'a>(&'a MetaObject);

    #[cfg(feature = "server")]
    impl Extractor for Reader<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.0.get(key).and_then(Value::as_str)
        }

        fn keys(&self) -> Vec<&str> {
            self.0.0.keys().map(String::as_str).collect()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        #[cfg(feature = "client")]
        fn the_carrier_skips_empty_values_and_rmcps_own_keys() {
            let mut meta = MetaObject::new();
            let mut carrier = Carrier(&mut meta);
            carrier.set(
                "traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01".to_owned(),
            );
            carrier.set("tracestate", String::new());
            carrier.set("progressToken", "7".to_owned());
            carrier.set("io.modelcontextprotocol/clientInfo", "x".to_owned());
            assert_eq!(
                Value::Object(meta.0),
                serde_json::json!({"traceparent": "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"})
            );
        }

        #[test]
        #[cfg(feature = "server")]
        fn the_reader_gives_strings_only() {
            let meta = MetaObject(
                serde_json::json!({"traceparent": 7, "tracestate": "a=b"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            );
            let reader = Reader(&meta);
            assert_eq!(reader.get("traceparent"), None);
            assert_eq!(reader.get("tracestate"), Some("a=b"));
            assert_eq!(reader.keys(), ["traceparent", "tracestate"]);
        }
    }
}

#[cfg(not(feature = "otel"))]
mod imp {
    #[cfg(feature = "server")]
    use rmcp::model::MetaObject;
    #[cfg(feature = "client")]
    use rmcp::model::RequestMetaObject;

    #[cfg(feature = "client")]
    pub(super) fn outgoing(_span: &tracing::Span) -> Option<RequestMetaObject> {
        None
    }

    #[cfg(feature = "server")]
    pub(super) fn adopt_parent(_span: &tracing::Span, _meta: &MetaObject) {}
}
