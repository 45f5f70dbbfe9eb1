//! Where the spans and metrics go: `--otlp-endpoint`, else the variables
//! the OpenTelemetry SDKs read, resolved as their specification says
//! (<https://opentelemetry.io/docs/specs/otel/protocol/exporter/#endpoint-urls-for-otlphttp>):
//! the base URL gets `/v1/traces` and `/v1/metrics` appended, and a
//! signal's own variable (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is used as
//! it is.

use std::io;

/// The base URL of the collector when `--otlp-endpoint` is not given, as
/// every OpenTelemetry SDK reads it.
pub const ENDPOINT_VARIABLE: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// The URL of each signal, or `None` where the exporter reads it from the
/// environment itself (a signal's own variable wins over the base one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    /// Where spans are posted, when the command line says.
    pub traces: Option<String>,
    /// Where metrics are posted, when the command line says.
    pub metrics: Option<String>,
    base: String,
}

impl Endpoints {
    /// The endpoints of `--otlp-endpoint` when given (the flag wins over
    /// every variable), else of [`ENDPOINT_VARIABLE`]; `None`, and nothing
    /// is exported, when neither is set. A URL that is not `http://` or
    /// `https://` is refused, naming where it came from.
    ///
    /// ```
    /// use tool_examples::telemetry::Endpoints;
    ///
    /// let endpoints = Endpoints::resolve(Some("http://collector:4318/")).unwrap().unwrap();
    /// assert_eq!(endpoints.traces.as_deref(), Some("http://collector:4318/v1/traces"));
    /// assert_eq!(endpoints.metrics.as_deref(), Some("http://collector:4318/v1/metrics"));
    ///
    /// let error = Endpoints::resolve(Some("collector:4318")).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "--otlp-endpoint: \"collector:4318\" is not an http:// or https:// URL"
    /// );
    /// ```
    pub fn resolve(flag: Option<&str>) -> io::Result<Option<Endpoints>> {
        if let Some(base) = flag {
            let base = checked_base("--otlp-endpoint", base)?;
            return Ok(Some(Endpoints {
                traces: Some(format!("{base}/v1/traces")),
                metrics: Some(format!("{base}/v1/metrics")),
                base,
            }));
        }
        match std::env::var(ENDPOINT_VARIABLE) {
            Ok(base) if !base.trim().is_empty() => Ok(Some(Endpoints {
                traces: None,
                metrics: None,
                base: checked_base(ENDPOINT_VARIABLE, &base)?,
            })),
            Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{ENDPOINT_VARIABLE} is not UTF-8"),
            )),
        }
    }

    /// The URL `signal` is posted to when the command line says, else
    /// `None`: the exporter reads the environment.
    pub fn given(&self, signal: Signal) -> Option<&str> {
        match signal {
            Signal::Traces => self.traces.as_deref(),
            Signal::Metrics => self.metrics.as_deref(),
        }
    }

    /// The URL `signal` is posted to, for messages.
    pub fn describe(&self, signal: Signal) -> String {
        if let Some(url) = self.given(signal) {
            return url.to_owned();
        }
        let own = format!(
            "OTEL_EXPORTER_OTLP_{}_ENDPOINT",
            signal.name().to_ascii_uppercase()
        );
        match std::env::var(own) {
            Ok(url) if !url.trim().is_empty() => url,
            _ => format!("{}/v1/{}", self.base, signal.name()),
        }
    }
}

/// What is exported: one OTLP signal each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Spans, posted to `/v1/traces`.
    Traces,
    /// Metrics, posted to `/v1/metrics`.
    Metrics,
}

impl Signal {
    /// Its name in OTLP's paths and variables, and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Traces => "traces",
            Signal::Metrics => "metrics",
        }
    }
}

/// `url` without its trailing slashes, if it is an HTTP(S) URL with a host.
fn checked_base(source: &str, url: &str) -> io::Result<String> {
    let url = url.trim();
    let host = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match host {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => {
            Ok(url.trim_end_matches('/').to_owned())
        }
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{source}: {url:?} is not an http:// or https:// URL"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_url_gets_each_signal_path_once() {
        for base in ["http://c:4318", "http://c:4318/", "http://c:4318//"] {
            let endpoints = Endpoints::resolve(Some(base)).unwrap().unwrap();
            assert_eq!(
                endpoints.describe(Signal::Traces),
                "http://c:4318/v1/traces"
            );
            assert_eq!(
                endpoints.describe(Signal::Metrics),
                "http://c:4318/v1/metrics"
            );
        }
        let endpoints = Endpoints::resolve(Some("https://otel.example/api"))
            .unwrap()
            .unwrap();
        assert_eq!(
            endpoints.traces.as_deref(),
            Some("https://otel.example/api/v1/traces")
        );
    }

    #[test]
    fn what_is_not_an_http_url_is_refused_naming_the_flag() {
        for bad in ["", "localhost:4318", "http://", "ftp://c", "http:///v1"] {
            let error = Endpoints::resolve(Some(bad)).unwrap_err();
            assert!(
                error.to_string().starts_with("--otlp-endpoint: "),
                "{bad}: {error}"
            );
        }
    }
}
