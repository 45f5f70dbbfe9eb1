//! `tool-examples mcp`, the real binary, driven by an rmcp client: over its
//! stdio (where every byte it writes to stdout must be JSON-RPC) and over
//! streamable HTTP on a port it picks.

#[cfg(unix)]
use crate::support::mcp::terminate;
use crate::support::mcp::{Client, binary, bounded, call, call_json, client_info, served_address};
use rmcp::ServiceExt;
use rmcp::model::{CallToolResult, Tool};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tool_core::providers::mcp;
use tool_core::{RunOptions, ToolCall, execute_tool_call};
use tool_examples::example_registry;

/// `tools/list` gives the example tools, in order, as the registry defines
/// them.
async fn assert_lists_the_example_tools(client: &Client, root: &Path) {
    let tools = client.list_all_tools().await.expect("tools/list answers");
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        ["echo", "label", "list", "read", "upper", "wait", "write"]
    );
    assert_eq!(listed(&tools), expected_tools(root));
    // The files tools say they are read-only; `list` gives its listing's
    // schema as its output schema.
    let list = listed(&tools)
        .into_iter()
        .find(|tool| tool["name"] == "list")
        .expect("list is listed");
    assert_eq!(list["annotations"], json!({"readOnlyHint": true}));
    assert_eq!(list["outputSchema"]["type"], "object");
    assert!(
        list["outputSchema"]["properties"]["entries"].is_object(),
        "{list}"
    );
}

/// `{"name","description","inputSchema"}` of each listed tool.
fn listed(tools: &[Tool]) -> Vec<Value> {
    tools
        .iter()
        .map(|tool| serde_json::to_value(tool).expect("a tool serializes"))
        .collect()
}

/// The example registry's definitions, as `tools/list` must give them.
fn expected_tools(root: &Path) -> Vec<Value> {
    let definitions = example_registry(root).unwrap().definitions();
    match mcp::tools(&definitions).value {
        Value::Array(tools) => tools,
        other => panic!("mcp::tools gives an array, not {other}"),
    }
}

/// What the executor itself answers, as MCP's `CallToolResult`.
async fn expected_result(root: &Path, name: &str, arguments: Value) -> Value {
    let call = ToolCall::new("local", name, arguments);
    let tools = example_registry(root).unwrap();
    mcp::write_result(&execute_tool_call(&call, &tools, RunOptions::new()).await)
}

fn spawn_mcp(args: &[&str], stdin: Stdio) -> Child {
    binary()
        .arg("mcp")
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts")
}

/// Reads all of `source` on a task of its own.
fn drain(
    mut source: impl tokio::io::AsyncRead + Unpin + Send + 'static,
) -> tokio::task::JoinHandle<String> {
    tokio::spawn(async move {
        let mut bytes = Vec::new();
        let _ = source.read_to_end(&mut bytes).await;
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

async fn wait_for_exit(child: &mut Child) -> std::process::ExitStatus {
    bounded("the binary exits", child.wait())
        .await
        .expect("waits for the binary")
}

/// Sends SIGINT, as Ctrl-C does (elsewhere than Unix: kills).
fn interrupt(child: &mut Child) {
    #[cfg(unix)]
    {
        let pid = child.id().expect("still running").to_string();
        let sent = std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -INT {pid}: {sent}");
    }
    #[cfg(not(unix))]
    child.start_kill().expect("the binary is killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_stdio_lists_and_calls_the_example_tools() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("notes.txt"), "one\ntwo\n").unwrap();
    let root_arg = root.path().to_str().unwrap();
    let mut child = spawn_mcp(&["--root", root_arg], Stdio::piped());
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = drain(child.stderr.take().unwrap());

    // Every line the binary writes to stdout is kept, then passed on to the
    // client: rmcp's reader might skip what is not JSON-RPC; this does not.
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let (client_end, mut tee_end) = tokio::io::duplex(1 << 16);
    let tee = tokio::spawn({
        let lines = Arc::clone(&lines);
        async move {
            let mut stdout = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match stdout.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                lines
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&line).into_owned());
                // The client may be gone; the lines are still recorded.
                let _ = tee_end.write_all(&line).await;
            }
        }
    });

    bounded("the stdio session", async {
        let client: Client = client_info("mcp-cli-test")
            .serve((client_end, stdin))
            .await
            .expect("initialize succeeds");
        let server = client.peer_info().expect("initialized");
        let server_info = server.server_info.as_ref().expect("server info");
        assert_eq!(server_info.name, "tool-mcp");
        assert!(server.capabilities.tools.is_some());

        assert_lists_the_example_tools(&client, root.path()).await;

        assert_eq!(
            call_json(&client, "upper", json!({"text": "shout"})).await,
            json!({"content": [{"type": "text", "text": "SHOUT"}], "isError": false})
        );

        // `read` is rooted where --root says.
        let arguments = json!({"path": "notes.txt"});
        let result = call_json(&client, "read", arguments.clone()).await;
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(
            result,
            json!({
                "content": [{"type": "text", "text": "one\ntwo"}],
                "structuredContent": {
                    "path": "notes.txt", "firstLine": 1, "lastLine": 2,
                    "totalLines": 2, "truncated": false,
                },
                "isError": false,
            })
        );
        // And what the executor answers itself, as MCP's result.
        assert_eq!(
            result,
            expected_result(root.path(), "read", arguments).await
        );

        // `list` too: its listing is the structured content, and the text.
        let listing = json!({
            "path": ".",
            "entries": [{"name": "notes.txt", "kind": "file", "size": 8}],
            "truncated": false,
        });
        let result = call_json(&client, "list", json!({})).await;
        assert_eq!(
            result,
            json!({
                "content": [{"type": "text", "text": listing.to_string()}],
                "structuredContent": listing,
                "isError": false,
            })
        );
        assert_eq!(
            result,
            expected_result(root.path(), "list", json!({})).await
        );

        // An image file comes back as MCP image content, whatever its name.
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        std::fs::write(root.path().join("pixel.dat"), png).unwrap();
        let arguments = json!({"path": "pixel.dat"});
        let result = call_json(&client, "read", arguments.clone()).await;
        assert_eq!(
            result,
            json!({
                "content": [
                    {"type": "text", "text": "Read image file [image/png]"},
                    {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUg==", "mimeType": "image/png"},
                ],
                "structuredContent": {"path": "pixel.dat", "mimeType": "image/png", "bytes": 16},
                "isError": false,
            })
        );
        assert_eq!(
            result,
            expected_result(root.path(), "read", arguments).await
        );

        // Closing the client closes the binary's stdin: it exits, cleanly.
        client.cancel().await.expect("the client closes");
    })
    .await;
    let status = wait_for_exit(&mut child).await;
    bounded("stdout closes", tee).await.unwrap();
    let stderr = bounded("stderr closes", stderr).await.unwrap();
    assert!(status.success(), "{status}; stderr: {stderr}");

    let lines = lines.lock().unwrap().clone();
    // At least the answers to initialize, tools/list and the four calls.
    assert!(lines.len() >= 6, "{lines:#?}");
    for line in &lines {
        assert!(line.ends_with('\n'), "a whole line: {line:?}");
        let message: Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("not JSON ({error}) on stdout: {line:?}"));
        assert_eq!(
            message["jsonrpc"], "2.0",
            "not JSON-RPC on stdout: {line:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_serves_on_the_port_it_prints_until_ctrl_c() {
    let root = tempfile::tempdir().unwrap();
    let root_arg = root.path().to_str().unwrap();
    let mut child = spawn_mcp(
        &["--http", "127.0.0.1:0", "--root", root_arg],
        Stdio::null(),
    );
    let stdout = drain(child.stdout.take().unwrap());
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();

    let first_line = bounded("the address is printed", stderr.next_line())
        .await
        .expect("stderr reads")
        .expect("a line on stderr");
    let address = served_address(&first_line);
    assert!(address.ip().is_loopback(), "{address}");
    assert_ne!(address.port(), 0, "the bound port, not the one asked for");

    let client = bounded("the HTTP session", async {
        let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
        let client: Client = client_info("mcp-cli-test")
            .serve(transport)
            .await
            .expect("initialize succeeds");
        assert_lists_the_example_tools(&client, root.path()).await;

        assert_eq!(
            call_json(&client, "echo", json!({"value": "over http"})).await,
            json!({
                "content": [{"type": "text", "text": "over http"}],
                "structuredContent": {"source": "echo"},
                "isError": false,
            })
        );
        client
    })
    .await;

    // The session's opening is in the audit log, with the session's id.
    let opened = bounded("the session is logged", async {
        loop {
            let line = stderr
                .next_line()
                .await
                .expect("stderr reads")
                .expect("a line on stderr");
            if line.contains("MCP session opened") {
                return line;
            }
        }
    })
    .await;
    assert!(opened.contains(" INFO "), "{opened}");
    assert!(opened.contains("mcp.session.id="), "{opened}");
    assert!(opened.contains("tool_mcp::audit"), "{opened}");

    // Ctrl-C stops it, a client still connected, and it exits cleanly.
    interrupt(&mut child);
    let status = wait_for_exit(&mut child).await;
    assert!(status.success() || cfg!(not(unix)), "{status}");
    drop(client);
    let stdout = bounded("stdout closes", stdout).await.unwrap();
    assert_eq!(stdout, "", "nothing on stdout over HTTP");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_on_all_interfaces_wants_the_token() {
    let root = tempfile::tempdir().unwrap();
    let token = "0123456789abcdef-token";
    let mut child = binary()
        .args(["mcp", "--http", "0.0.0.0:0", "--root"])
        .arg(root.path())
        .env("TOOL_EXAMPLES_TOKEN", token)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let first_line = bounded("the address is printed", stderr.next_line())
        .await
        .expect("stderr reads")
        .expect("a line on stderr");
    let port: u16 = first_line
        .split_once("serving MCP on http://0.0.0.0:")
        .and_then(|(_, rest)| rest.strip_suffix("/mcp (Ctrl-C to stop)"))
        .unwrap_or_else(|| panic!("unexpected first line on stderr: {first_line:?}"))
        .parse()
        .expect("a port");
    let uri = format!("http://127.0.0.1:{port}/mcp");

    bounded("the HTTP sessions", async {
        // Without the token, initialize fails.
        let transport = StreamableHttpClientTransport::from_uri(uri.clone());
        let refused: Result<Client, _> = client_info("mcp-cli-test").serve(transport).await;
        assert!(refused.is_err(), "initialize succeeded without the token");

        // With it, the tools are there.
        let config =
            rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                uri,
            )
            .auth_header(token);
        let transport = StreamableHttpClientTransport::from_config(config);
        let client: Client = client_info("mcp-cli-test")
            .serve(transport)
            .await
            .expect("initialize succeeds with the token");
        assert_lists_the_example_tools(&client, root.path()).await;
        client.cancel().await.expect("the client closes");
    })
    .await;

    interrupt(&mut child);
    let status = wait_for_exit(&mut child).await;
    assert!(status.success() || cfg!(not(unix)), "{status}");
}

/// `tool-examples mcp --http ARGS` on a free loopback port: the child, its
/// address, and its stderr (read to the end on a task).
async fn serve_http_child(args: &[&str]) -> (Child, SocketAddr, tokio::task::JoinHandle<String>) {
    let mut all = vec!["--http", "127.0.0.1:0"];
    all.extend_from_slice(args);
    let mut child = spawn_mcp(&all, Stdio::null());
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first_line = String::new();
    bounded("the address is printed", stderr.read_line(&mut first_line))
        .await
        .expect("stderr reads");
    let address = served_address(&first_line);
    (child, address, drain(stderr))
}

/// A `wait` call sent on `client`, answered on a task of its own; waits
/// until the server has it.
async fn wait_in_flight(client: &Client, ms: u64) -> tokio::task::JoinHandle<CallToolResult> {
    let peer = client.peer().clone();
    let answer = tokio::spawn(async move {
        peer.call_tool(call("wait", json!({"ms": ms})))
            .await
            .expect("the call is answered")
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    answer
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_calls_finish_then_exits_0() {
    let (mut child, address, stderr) = serve_http_child(&[]).await;
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client: Client = bounded("initialize", client_info("mcp-cli-test").serve(transport))
        .await
        .expect("initialize succeeds");
    let waiting = wait_in_flight(&client, 1200).await;

    terminate(&child);
    let result = bounded("the call in flight is answered", waiting)
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(result.content[0].as_text().unwrap().text, "waited 1200 ms");
    let status = wait_for_exit(&mut child).await;
    assert!(status.success(), "{status}");
    let stderr = bounded("stderr closes", stderr).await.unwrap();
    assert!(stderr.contains("SIGTERM: stopping"), "{stderr}");
    drop(client);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_past_the_shutdown_grace_are_answered_cancelled() {
    let (mut child, address, stderr) = serve_http_child(&["--shutdown-grace", "0.3"]).await;
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client: Client = bounded("initialize", client_info("mcp-cli-test").serve(transport))
        .await
        .expect("initialize succeeds");
    let waiting = wait_in_flight(&client, 20_000).await;

    terminate(&child);
    let result = bounded("the call in flight is answered", waiting)
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let said = &result.content[0].as_text().unwrap().text;
    assert!(said.contains("cancelled after"), "{said}");
    let status = wait_for_exit(&mut child).await;
    assert!(status.success(), "{status}");
    let stderr = bounded("stderr closes", stderr).await.unwrap();
    assert!(stderr.contains("the grace period is over"), "{stderr}");
    drop(client);
}

/// The first SIGTERM drains (readiness 503 while still serving, for
/// --drain-delay); a second one ends the drain and the 30 s grace at once:
/// the call still running is answered cancelled, and the process exits 0.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sigterm_stops_at_once() {
    let (mut child, address, stderr) = serve_http_child(&["--drain-delay", "10"]).await;
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client: Client = bounded("initialize", client_info("mcp-cli-test").serve(transport))
        .await
        .expect("initialize succeeds");
    let waiting = wait_in_flight(&client, 20_000).await;

    let started = std::time::Instant::now();
    terminate(&child);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ready = reqwest::get(format!("http://{address}/readyz"))
        .await
        .unwrap();
    assert_eq!(ready.status().as_u16(), 503, "draining");
    assert!(ready.text().await.unwrap().contains("draining"));
    terminate(&child);
    let result = bounded("the call in flight is answered", waiting)
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let status = wait_for_exit(&mut child).await;
    assert!(status.success(), "{status}");
    // Neither the 10 s drain nor the 30 s grace was waited out.
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    let stderr = bounded("stderr closes", stderr).await.unwrap();
    assert!(stderr.contains("SIGTERM again: stopping now"), "{stderr}");
    drop(client);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_repair_repairs_the_calls_it_serves() {
    for (args, repaired) in [(&[][..], false), (&["--repair"][..], true)] {
        let (mut child, address, _stderr) = serve_http_child(args).await;
        let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
        let client: Client = bounded("initialize", client_info("mcp-cli-test").serve(transport))
            .await
            .expect("initialize succeeds");
        // "5" for 5: a near miss that repair fixes, visibly.
        let result = call_json(&client, "wait", json!({"ms": "5"})).await;
        assert_eq!(result["isError"], !repaired, "{args:?}: {result}");
        if repaired {
            let text = result["content"].to_string();
            assert!(text.contains("waited 5 ms"), "{result}");
            assert!(
                text.to_lowercase().contains("repair"),
                "the repair is told: {result}"
            );
        }
        drop(client);
        child.start_kill().unwrap();
        let _ = child.wait().await;
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_over_stdio_answers_the_calls_running_then_exits_0() {
    let mut child = spawn_mcp(&["--shutdown-grace", "0.3"], Stdio::piped());
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let stderr = drain(child.stderr.take().unwrap());
    let client: Client = bounded(
        "initialize",
        client_info("mcp-cli-test").serve((stdout, stdin)),
    )
    .await
    .expect("initialize succeeds");
    let finishing = wait_in_flight(&client, 600).await;
    let outlasting = wait_in_flight(&client, 20_000).await;

    terminate(&child);
    let finished = bounded("the short call is answered", finishing)
        .await
        .unwrap();
    assert_eq!(finished.is_error, Some(false), "{finished:?}");
    let cancelled = bounded("the long call is answered", outlasting)
        .await
        .unwrap();
    assert_eq!(cancelled.is_error, Some(true), "{cancelled:?}");
    let said = &cancelled.content[0].as_text().unwrap().text;
    assert!(said.contains("cancelled after"), "{said}");
    let status = wait_for_exit(&mut child).await;
    assert!(status.success(), "{status}");
    let stderr = bounded("stderr closes", stderr).await.unwrap();
    assert!(stderr.contains("SIGTERM: stopping"), "{stderr}");
    drop(client);
}
