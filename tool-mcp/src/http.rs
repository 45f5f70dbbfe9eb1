//! MCP over streamable HTTP: rmcp's service, mounted on a hyper HTTP/1
//! server at `/mcp`, on a socket of the caller's choosing.

use crate::McpServer;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;

/// The path the MCP endpoint answers on.
pub const MCP_PATH: &str = "/mcp";

/// A bound MCP HTTP server, not yet serving: bind first to learn the port
/// (bind to port 0 for any free one), then [`run`](Self::run).
pub struct HttpServer {
    listener: TcpListener,
    server: McpServer,
}

impl HttpServer {
    /// Binds `address` for `registry`.
    pub async fn bind(registry: ToolRegistry, address: SocketAddr) -> std::io::Result<Self> {
        Ok(HttpServer {
            listener: TcpListener::bind(address).await?,
            server: McpServer::new(registry),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` is cancelled. Only loopback `Host` headers are
    /// accepted (rmcp's default, against DNS rebinding) unless the address
    /// bound is not a loopback one.
    pub async fn run(self, shutdown: CancellationToken) -> std::io::Result<()> {
        let mut config =
            StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
        let address = self.listener.local_addr()?;
        if !address.ip().is_loopback() {
            config = config.with_allowed_hosts([address.ip().to_string(), address.to_string()]);
        }
        let server = self.server;
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        loop {
            let (stream, _) = tokio::select! {
                accepted = self.listener.accept() => accepted?,
                () = shutdown.cancelled() => return Ok(()),
            };
            let service = service.clone();
            tokio::spawn(async move {
                let handler = service_fn(move |request: Request<hyper::body::Incoming>| {
                    let service = service.clone();
                    async move {
                        if request.uri().path() != MCP_PATH {
                            let mut response = Response::new(
                                Full::new(Bytes::from_static(
                                    b"not found: MCP is served at /mcp\n",
                                ))
                                .map_err(|never| match never {})
                                .boxed(),
                            );
                            *response.status_mut() = StatusCode::NOT_FOUND;
                            return Ok::<_, Infallible>(response);
                        }
                        Ok(service.handle(request).await)
                    }
                });
                // A connection that breaks affects only itself.
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}

/// Serves `registry` over streamable HTTP at `http://<address>/mcp` until
/// `shutdown` is cancelled.
pub async fn serve_http(
    registry: ToolRegistry,
    address: SocketAddr,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    HttpServer::bind(registry, address)
        .await?
        .run(shutdown)
        .await
}
