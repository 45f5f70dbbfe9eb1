//! The MCP server end to end over streamable HTTP: `tool_mcp::HttpServer`
//! serves `tests::mcp_fixture` on loopback, in process, and an rmcp client
//! (reqwest) talks to it at `/mcp`; it runs every scenario of `support::mcp`.
//! A call's progress and its result come on that call's own response
//! stream, so their order is the server's; across calls, none is promised.

use crate::support::bounded::bounded;
use crate::support::mcp::{Client, Wire, connect_over, transport_scenarios};
use rmcp::transport::StreamableHttpClientTransport;
use std::net::SocketAddr;
use tests::mcp_fixture::fixture_registry;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use tool_mcp::HttpServer;

/// The fixture, served over HTTP on a free loopback port until shut down.
struct Server {
    address: SocketAddr,
    shutdown: CancellationToken,
    running: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start() -> Server {
        let server = HttpServer::bind(fixture_registry(), "127.0.0.1:0".parse().unwrap())
            .await
            .expect("binds a free port");
        let address = server.local_addr().expect("the bound address");
        assert_ne!(address.port(), 0);
        let shutdown = CancellationToken::new();
        let running = tokio::spawn(server.run(shutdown.clone()));
        Server {
            address,
            shutdown,
            running,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    /// Cancels the shutdown token: `run` returns `Ok`.
    async fn stop(self) {
        self.shutdown.cancel();
        self.running
            .await
            .expect("run does not panic")
            .expect("run ends cleanly");
    }
}

/// A client connected to its own server.
struct Session {
    server: Server,
    client: Client,
    wire: Wire,
}

impl Session {
    async fn close(self) {
        self.client.cancel().await.expect("the client closes");
        self.server.stop().await;
    }
}

/// Starts a server and initializes a client with it.
async fn connect() -> Session {
    let server = Server::start().await;
    let (client, wire) = connect_over(StreamableHttpClientTransport::from_uri(server.url())).await;
    Session {
        server,
        client,
        wire,
    }
}

/// Sends a raw HTTP/1.1 request and returns the whole response.
async fn raw_http(address: SocketAddr, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    String::from_utf8(response).expect("a UTF-8 response")
}

transport_scenarios!();

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_paths_are_not_found() {
    bounded(async {
        let server = Server::start().await;
        for path in ["/", "/other", "/mcp/extra", "/MCP"] {
            let response = raw_http(
                server.address,
                &format!(
                    "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                    server.address
                ),
            )
            .await;
            assert!(
                response.starts_with("HTTP/1.1 404 Not Found\r\n"),
                "{path}: {response}"
            );
            assert!(
                response.ends_with("\r\n\r\nnot found: MCP is served at /mcp\n"),
                "{path}: {response}"
            );
        }
        // A POST elsewhere is not MCP either.
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let response = raw_http(
            server.address,
            &format!(
                "POST /tools HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                server.address,
                body.len()
            ),
        )
        .await;
        assert!(response.starts_with("HTTP/1.1 404 "), "{response}");
        server.stop().await;
    })
    .await;
}
