//! An OTLP/HTTP receiver inside the test: what a collector's `otlp`
//! receiver accepts (`POST /v1/traces`, `POST /v1/metrics`, protobuf
//! bodies), decoded with the protocol's published types, so the test reads
//! exactly what a collector would.

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use prost::Message;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// Everything received so far, in arrival order.
#[derive(Default, Clone)]
pub(crate) struct Received {
    pub(crate) traces: Vec<ExportTraceServiceRequest>,
    pub(crate) metrics: Vec<ExportMetricsServiceRequest>,
    /// Requests that were not OTLP this receiver knows: method, path, why.
    pub(crate) refused: Vec<String>,
    /// The `Authorization` header of each request that had one.
    pub(crate) authorizations: Vec<String>,
}

/// A receiver on a free loopback port, serving until dropped.
pub(crate) struct Receiver {
    /// Its base URL, as `--otlp-endpoint` takes it.
    pub(crate) url: String,
    received: Arc<Mutex<Received>>,
    arrived: Arc<Notify>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Receiver {
    pub(crate) async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Received::default()));
        let arrived = Arc::new(Notify::new());
        let server = tokio::spawn(serve(listener, received.clone(), arrived.clone()));
        Receiver {
            url,
            received,
            arrived,
            server,
        }
    }

    /// What has arrived once `done` holds of it, or panics after `within`
    /// saying what was there.
    pub(crate) async fn wait_for(
        &self,
        what: &str,
        within: Duration,
        done: impl Fn(&Received) -> bool,
    ) -> Received {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let arrival = self.arrived.notified();
            let now = self.received.lock().unwrap().clone();
            assert!(now.refused.is_empty(), "refused: {:?}", now.refused);
            if done(&now) {
                return now;
            }
            if tokio::time::timeout_at(deadline, arrival).await.is_err() {
                panic!(
                    "{what}: not received within {within:?}; got {} trace and {} metric requests",
                    now.traces.len(),
                    now.metrics.len()
                );
            }
        }
    }
}

async fn serve(listener: TcpListener, received: Arc<Mutex<Received>>, arrived: Arc<Notify>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let received = received.clone();
        let arrived = arrived.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let received = received.clone();
                let arrived = arrived.clone();
                async move {
                    let answer = receive(request, &received).await;
                    arrived.notify_waiters();
                    Ok::<_, Infallible>(answer)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Decodes one export request; 200 with the (empty) export response, as a
/// collector answers a full success, else 400.
async fn receive(request: Request<Incoming>, received: &Mutex<Received>) -> Response<Full<Bytes>> {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let content_type = request
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let authorization = request
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let mut received = received.lock().unwrap();
    received.authorizations.extend(authorization);
    let refused = match (method.as_str(), path.as_str(), content_type.as_str()) {
        ("POST", "/v1/traces", "application/x-protobuf") => {
            match ExportTraceServiceRequest::decode(body) {
                Ok(request) => {
                    received.traces.push(request);
                    None
                }
                Err(error) => Some(error.to_string()),
            }
        }
        ("POST", "/v1/metrics", "application/x-protobuf") => {
            match ExportMetricsServiceRequest::decode(body) {
                Ok(request) => {
                    received.metrics.push(request);
                    None
                }
                Err(error) => Some(error.to_string()),
            }
        }
        _ => Some(format!(
            "not an OTLP/HTTP protobuf export ({content_type:?})"
        )),
    };
    let status = match refused {
        None => StatusCode::OK,
        Some(why) => {
            received.refused.push(format!("{method} {path}: {why}"));
            StatusCode::BAD_REQUEST
        }
    };
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/x-protobuf"),
    );
    response
}
