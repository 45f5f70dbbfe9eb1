//! An exporter whose failures an operator sees: without the SDK's
//! `internal-logs` (left off, so the SDK's diagnostics never loop through
//! the very layer exporting them) a collector that is down would go
//! unnoticed. Each signal warns once when exporting starts failing and once
//! when it works again, never per batch.

use super::{Endpoints, Signal};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::Temporality;
use opentelemetry_sdk::metrics::data::ResourceMetrics;
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::trace::{SpanData, SpanExporter};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `exporter`, reporting the changes between failing and working.
#[derive(Debug)]
pub(super) struct Reported<E> {
    exporter: E,
    signal: &'static str,
    url: String,
    failing: Arc<AtomicBool>,
}

impl<E> Reported<E> {
    /// `exporter` of `signal` as built for `endpoints` (a build failure
    /// names the flag and the signal); `failing` is set while its exports
    /// fail, so that a failed flush at shutdown is not reported twice.
    pub(super) fn new(
        exporter: Result<E, impl std::fmt::Display>,
        signal: Signal,
        endpoints: &Endpoints,
        failing: &Arc<AtomicBool>,
    ) -> std::io::Result<Self> {
        let exporter = exporter.map_err(|error| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("--otlp-endpoint: the {} exporter: {error}", signal.name()),
            )
        })?;
        Ok(Reported {
            exporter,
            signal: signal.name(),
            url: endpoints.describe(signal),
            failing: Arc::clone(failing),
        })
    }

    fn note(&self, outcome: OTelSdkResult) -> OTelSdkResult {
        match &outcome {
            Err(error) if !self.failing.swap(true, Ordering::Relaxed) => tracing::warn!(
                "OTLP {}: cannot export to {}: {error} (the command goes on; \
                 this is said again only once it works)",
                self.signal,
                self.url
            ),
            Ok(()) if self.failing.swap(false, Ordering::Relaxed) => {
                tracing::warn!(
                    "OTLP {}: exporting to {} works again",
                    self.signal,
                    self.url
                )
            }
            _ => {}
        }
        outcome
    }
}

impl<E: SpanExporter> SpanExporter for Reported<E> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let outcome = self.exporter.export(batch).await;
        self.note(outcome)
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.exporter.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.exporter.force_flush()
    }

    // The OTLP exporter learns the resource it sends with every batch here.
    fn set_resource(&mut self, resource: &Resource) {
        self.exporter.set_resource(resource);
    }
}

impl<E: PushMetricExporter> PushMetricExporter for Reported<E> {
    async fn export(&self, metrics: &ResourceMetrics) -> OTelSdkResult {
        let outcome = self.exporter.export(metrics).await;
        self.note(outcome)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.exporter.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.exporter.shutdown_with_timeout(timeout)
    }

    fn temporality(&self) -> Temporality {
        self.exporter.temporality()
    }
}
