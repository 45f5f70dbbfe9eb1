//! MCP mounted in an application's own axum `Router`: the application keeps
//! its routes, its middleware and its server (axum's), and serves MCP at
//! `/mcp` beside them. `McpHttp` gives rmcp's service and the `McpGate`
//! layer (the token, `Host`/`Origin`, sessions and their owners, limits),
//! and the gate's `stop` ends the calls and sessions at shutdown.
//!
//! Then rmcp's own client (streamable HTTP, reqwest) calls a tool through
//! the router, and the example checks what the application's middleware
//! saw.
//!
//! Run: `cargo run -p tool-mcp --example axum_router`

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::routing::get;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolRegistry, tool};
use tool_mcp::McpHttp;
use tower_layer::Layer;

/// Add two integers
#[tool(read_only)]
async fn add(
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
) -> String {
    (a + b).to_string()
}

const TOKEN: &str = "example-token-not-a-secret";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new();
    tools.register(AddTool)?;

    // MCP without a socket of its own: the gate and rmcp's service.
    let (gate, rmcp_service) = McpHttp::new(tools).with_bearer_token(TOKEN).build()?;

    // The application's own middleware: here, a log of what came in.
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&seen);
    let app = Router::new()
        .route("/", get(|| async { "the application's own page\n" }))
        .route_service("/mcp", gate.layer(rmcp_service))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let log = Arc::clone(&log);
            async move {
                let line = format!("{} {}", request.method(), request.uri().path());
                let response = next.run(request).await;
                log.lock()
                    .unwrap()
                    .push(format!("{line} -> {}", response.status().as_u16()));
                response
            }
        }));

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let stop = shutdown.clone();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                stop.cancelled().await;
                // The calls get their grace; then the sessions (and their
                // open streams, which axum would wait for) end.
                gate.stop(Duration::from_secs(30)).await;
            })
            .await
    });

    // An MCP client, through the application's router.
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"))
            .auth_header(TOKEN),
    );
    let client = ClientConfig::default().serve(transport).await?;
    let arguments = serde_json::json!({"a": 2, "b": 40});
    let result = client
        .call_tool(
            CallToolRequestParams::new("add")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await?;
    let text = serde_json::to_value(&result)?["content"][0]["text"].clone();
    println!("add(2, 40) through axum: {text}");
    assert_eq!(text, "42");
    client.cancel().await?;

    shutdown.cancel();
    server.await??;
    let seen = seen.lock().unwrap();
    println!("the application's middleware saw:");
    for line in seen.iter() {
        println!("  {line}");
    }
    // initialize, initialized, the call and the client's close; and the
    // client's own stream, a GET it opens in the background, unless the
    // client closed before opening it (seen once under load).
    let posts = seen.iter().filter(|line| line.starts_with("POST")).count();
    assert_eq!(posts, 3, "{seen:?}");
    assert!(
        seen.iter().any(|line| line.starts_with("DELETE")),
        "{seen:?}"
    );
    assert!(seen.len() <= 5, "{seen:?}");
    assert!(seen.iter().all(|line| line.contains(" /mcp -> 20")));
    Ok(())
}
