//! MCP mounted in an application's own axum `Router`: beside a route of
//! the application's, behind middleware of its own, served by axum (not by
//! `HttpServer`), with the gate's checks and sessions intact and a stop
//! that lets axum's graceful shutdown end.

use crate::support::*;
use axum::Router;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tool_mcp::{McpGate, McpHttp};
use tower_layer::Layer;

/// The application: its own page at `/`, MCP at `/mcp`, and a middleware
/// over both that stamps every response and counts the requests it saw.
struct App {
    address: SocketAddr,
    shutdown: CancellationToken,
    served: JoinHandle<std::io::Result<()>>,
    seen: Arc<AtomicUsize>,
}

async fn start_app(mcp: McpHttp) -> App {
    let (gate, rmcp_service) = mcp.build().expect("the configuration is usable");
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&seen);
    let app = Router::new()
        .route("/", get(|| async { "the application's own page\n" }))
        .route_service("/mcp", gate.layer(rmcp_service))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let counter = Arc::clone(&counter);
            async move {
                counter.fetch_add(1, Ordering::SeqCst);
                let mut response: Response = next.run(request).await;
                response
                    .headers_mut()
                    .insert("x-app", HeaderValue::from_static("stamped"));
                response
            }
        }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    let served = tokio::spawn(serve(listener, app, gate, shutdown.clone()));
    App {
        address,
        shutdown,
        served,
        seen,
    }
}

/// axum's server, whose graceful shutdown waits for every connection: the
/// gate's stop first ends the calls and the sessions' streams.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    gate: McpGate,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.cancelled().await;
            gate.stop(Duration::from_secs(5)).await;
        })
        .await
}

impl App {
    fn host(&self) -> String {
        format!("localhost:{}", self.address.port())
    }
}

#[tokio::test]
async fn mcp_answers_beside_the_applications_routes_behind_its_middleware() {
    bounded(async {
        let app = start_app(McpHttp::new(registry()).with_bearer_token(TOKEN)).await;
        let auth = bearer(TOKEN);
        let auth = [("Authorization", auth.as_str())];

        let page = format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            app.host()
        );
        let answer = send(app.address, page.into_bytes()).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(answer.body, "the application's own page\n");
        assert_eq!(answer.header("x-app"), Some("stamped"));

        // The gate's refusal, seen and stamped by the application's
        // middleware like any other answer.
        let answer = send(app.address, post(&app.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 401, "{answer:?}");
        assert_eq!(
            answer.header("www-authenticate"),
            Some(r#"Bearer realm="mcp""#)
        );
        assert_eq!(answer.header("x-app"), Some("stamped"));

        let answer = send(app.address, post("evil.example", &auth, INITIALIZE)).await;
        assert_eq!(answer.status, 403, "{answer:?}");

        // A whole session: initialize, list, call.
        let answer = send(app.address, post(&app.host(), &auth, INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let session = answer.session();
        let mut headers = auth.to_vec();
        headers.push(("Mcp-Session-Id", &session));
        let answer = send(app.address, post(&app.host(), &headers, INITIALIZED)).await;
        assert_eq!(answer.status, 202, "{answer:?}");
        let answer = send(app.address, post(&app.host(), &headers, LIST)).await;
        let tools = answer_json(&answer)["result"]["tools"].clone();
        assert_eq!(tools.as_array().map(Vec::len), Some(2), "{answer:?}");
        let echo = call(3, "echo", r#"{"value":"through axum"}"#);
        let answer = send(app.address, post(&app.host(), &headers, &echo)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let result = answer_json(&answer);
        assert_eq!(
            result["result"]["content"][0]["text"], "through axum",
            "{result}"
        );
        assert_eq!(answer.header("x-app"), Some("stamped"));

        // A body over the gate's limit (4 MiB) is refused as soon as it is
        // announced, before it is sent.
        let long = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            app.host(),
            5 * 1024 * 1024
        );
        let answer = send(app.address, long.into_bytes()).await;
        assert_eq!(answer.status, 413, "{answer:?}");
        assert!(answer.body.contains("at most 4194304 bytes"), "{answer:?}");

        assert_eq!(app.seen.load(Ordering::SeqCst), 8);
        app.shutdown.cancel();
        app.served.await.unwrap().expect("axum served");
    })
    .await;
}

#[tokio::test]
async fn the_gates_stop_ends_open_streams_so_axums_graceful_shutdown_ends() {
    bounded(async {
        let app = start_app(McpHttp::new(registry()).allow_unauthenticated()).await;
        let initialize = send(app.address, post(&app.host(), &[], INITIALIZE)).await;
        let session = initialize.session();
        let headers = [("Mcp-Session-Id", session.as_str())];
        send(app.address, post(&app.host(), &headers, INITIALIZED)).await;

        // The session's server-to-client stream: open until the session
        // ends, so axum's graceful shutdown would wait for it forever.
        let mut stream = tokio::net::TcpStream::connect(app.address).await.unwrap();
        let get = format!(
            "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\
             Mcp-Session-Id: {session}\r\n\r\n",
            app.host()
        );
        stream.write_all(get.as_bytes()).await.unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.unwrap();
        assert_eq!(&head, b"HTTP/1.1 200");

        app.shutdown.cancel();
        app.served.await.unwrap().expect("axum stopped");
        // The stream was ended by the server, not left hanging.
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn unauthenticated_is_refused_unless_said() {
    let Err(error) = McpHttp::new(registry()).build() else {
        panic!("no credentials, and not allowed: refused");
    };
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let message = error.to_string();
    assert!(
        message.starts_with("refusing to build MCP over HTTP without authentication"),
        "{message}"
    );
    assert!(
        message.contains("McpHttp::allow_unauthenticated"),
        "{message}"
    );
    assert!(
        McpHttp::new(registry())
            .allow_unauthenticated()
            .build()
            .is_ok()
    );
    let (gate, _) = McpHttp::new(registry())
        .with_bearer_token(TOKEN)
        .build()
        .unwrap();
    assert!(gate.metadata_paths().is_empty());
}
