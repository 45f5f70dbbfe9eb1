//! `http.server.request.duration`, from the span tool-mcp's HTTP gate
//! opens around each request: the HTTP conventions' required server metric
//! (<https://opentelemetry.io/docs/specs/semconv/http/http-metrics/#metric-httpserverrequestduration>),
//! unit `s`, their bucket advice, with `http.request.method`,
//! `http.response.status_code` and `error.type`. Its count is the
//! responses by status.
//!
//! Where it falls short of the conventions: the value ends when the
//! response's head is ready, so a streamed body (an SSE answer, a GET's
//! standing stream) is not in it; `url.scheme`, required, is left out, as
//! the gate does not know whether a proxy in front took TLS off; and
//! `http.route` is left out too (conditionally required, and the gate
//! serves one path). The health probes never pass the gate and are not
//! counted.

use super::contract;
use super::fields::Captured;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter};
use std::time::Instant;

/// The conventions' bucket advice, in seconds.
const BOUNDARIES: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

/// The methods the conventions call known (RFC 9110's and PATCH): any
/// other is `_OTHER`, so a client cannot make a series per made-up method.
const KNOWN_METHODS: [&str; 9] = [
    "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE",
];

/// The span fields read.
const FIELDS: [&str; 2] = [contract::REQUEST_METHOD, contract::RESPONSE_STATUS];

/// The histogram of the requests.
#[derive(Clone, Debug)]
pub(super) struct HttpMetrics {
    duration: Histogram<f64>,
}

/// What a request's span holds until it closes.
pub(super) struct Request {
    start: Instant,
    fields: Captured,
}

impl HttpMetrics {
    pub(super) fn new(meter: &Meter) -> Self {
        HttpMetrics {
            duration: meter
                .f64_histogram("http.server.request.duration")
                .with_unit("s")
                // The conventions' brief.
                .with_description("Duration of HTTP server requests.")
                .with_boundaries(BOUNDARIES.to_vec())
                .build(),
        }
    }

    /// The state of a request's span, opened with `attributes`.
    pub(super) fn opened(attributes: &tracing::span::Attributes<'_>) -> Request {
        let mut fields = Captured::of(&FIELDS);
        attributes.record(&mut fields);
        Request {
            start: Instant::now(),
            fields,
        }
    }

    /// `request`'s span closed. One that closed without a status was never
    /// answered (the client went away first): `error.type` is `_OTHER`.
    pub(super) fn closed(&self, request: Request) {
        let seconds = request.start.elapsed().as_secs_f64();
        self.duration.record(seconds, &request.attributes());
    }
}

impl Request {
    /// Values recorded on the span after it opened (the status).
    pub(super) fn record(&mut self, values: &tracing::span::Record<'_>) {
        values.record(&mut self.fields);
    }

    fn attributes(&self) -> Vec<KeyValue> {
        let method = self
            .fields
            .get(contract::REQUEST_METHOD)
            .unwrap_or_default();
        let method = KNOWN_METHODS
            .iter()
            .find(|known| **known == method)
            .copied()
            .unwrap_or("_OTHER");
        let mut attributes = vec![KeyValue::new("http.request.method", method)];
        let status = self
            .fields
            .values
            .iter()
            .find(|pair| pair.key.as_str() == contract::RESPONSE_STATUS)
            .and_then(|pair| match pair.value {
                opentelemetry::Value::I64(status) => Some(status),
                _ => None,
            });
        match status {
            Some(status) => {
                attributes.push(KeyValue::new(contract::RESPONSE_STATUS, status));
                // The conventions: a 5xx is an error of the server, and its
                // code is the error's type; a 4xx is not (the client's).
                if status >= 500 {
                    attributes.push(KeyValue::new("error.type", status.to_string()));
                }
            }
            None => attributes.push(KeyValue::new("error.type", "_OTHER")),
        }
        attributes
    }
}
