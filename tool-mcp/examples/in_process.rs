//! A registry served over MCP, and an MCP client talking to it, in one
//! process: an `McpServer` is served with rmcp on one end of an in-memory
//! pipe (`tokio::io::duplex`, stdio's framing), and rmcp's own client on
//! the other end initializes, lists the tools, calls one, calls it badly,
//! calls a tool that does not exist, and closes the session, which ends the
//! server too.
//!
//! Over a real transport nothing changes but the pipe: `serve_stdio` or
//! `HttpServer` serve the same `McpServer`.
//!
//! Run: `cargo run -p tool-mcp --example in_process`

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::QuitReason;
use serde_json::{Value, json};
use tool_core::{ToolRegistry, tool};
use tool_mcp::McpServer;

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

/// The arguments of a `tools/call`, as rmcp takes them.
fn arguments(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("arguments are an object"),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new();
    tools.register(AddTool)?;
    let server = McpServer::new(tools).with_server_info("in-process-example", "0.1.0");

    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        let running = server.serve(server_end).await?;
        // Until the client closes the session.
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(running.waiting().await?)
    });

    let client = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("in-process-client", "0.1.0"),
    )
    .serve(client_end)
    .await?;
    let info = client.peer_info().expect("initialized");
    let server = info
        .server_info
        .as_ref()
        .expect("the server says who it is");
    println!("connected to {} {}", server.name, server.version);
    assert_eq!(server.name, "in-process-example");

    // tools/list: the derived schema, and the annotations, as MCP has them.
    let listed = serde_json::to_value(client.list_all_tools().await?)?;
    println!("tools/list: {listed}");
    assert_eq!(listed[0]["name"], "add");
    assert_eq!(listed[0]["inputSchema"]["required"], json!(["a", "b"]));
    assert_eq!(listed[0]["annotations"]["readOnlyHint"], true);

    // tools/call: the executor answers.
    let call =
        CallToolRequestParams::new("add").with_arguments(arguments(json!({"a": 2, "b": 40})));
    let result = serde_json::to_value(client.call_tool(call).await?)?;
    println!("tools/call add: {result}");
    assert_eq!(result["content"], json!([{"type": "text", "text": "42"}]));
    assert_eq!(result["isError"], false);

    // Bad arguments are a result with isError, which the model reads.
    let call =
        CallToolRequestParams::new("add").with_arguments(arguments(json!({"a": "2", "b": 40})));
    let result = serde_json::to_value(client.call_tool(call).await?)?;
    println!("tools/call add, badly: {result}");
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "Tool add failed: a: expected integer, got string \"2\""
    );

    // An unknown tool is a protocol error (invalid params), not a result.
    let call = CallToolRequestParams::new("subtract").with_arguments(arguments(json!({})));
    let error = client.call_tool(call).await.expect_err("no such tool");
    println!("tools/call subtract: {error}");
    assert!(error.to_string().contains("-32602"), "{error}");

    // Closing the client ends the session; the server's side ends with it.
    client.cancel().await?;
    let quit = serving.await?.map_err(|error| error.to_string())?;
    println!("server stopped: {quit:?}");
    assert!(matches!(quit, QuitReason::Closed), "{quit:?}");
    Ok(())
}
