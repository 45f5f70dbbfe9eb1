//! Federation across processes: an upstream `tool-examples mcp --http`, an
//! aggregating `tool-examples mcp --upstream` over stdio, and the official
//! MCP client of this test. A call of the upstream's `read` travels two
//! hops (client -> aggregator -> upstream) and comes back paired; bad
//! arguments are refused by the aggregator before they travel; an upstream
//! killed mid-call fails the call at once. The upstream settings
//! (`UpstreamSettings`: variables of stdio upstreams, a token file per
//! HTTP upstream) are applied by `add_upstreams` in this process, against
//! upstreams that are the binary.

use crate::support::BIN;
use crate::support::mcp::{binary, bounded, call_json, client_info, connect_stdio, served_address};
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tool_examples::upstream::{
    TokenFile, UpstreamEnv, UpstreamSettings, UpstreamSpec, add_upstreams,
};

/// An upstream server over HTTP on a free loopback port, rooted at `root`,
/// and the address it printed.
async fn upstream(root: &std::path::Path) -> (Child, SocketAddr) {
    let (child, address, _log) = upstream_with_log(root, &[]).await;
    (child, address)
}

/// The same with the variables `env` set, and the lines it writes to
/// stderr after the address.
pub(crate) async fn upstream_with_log(
    root: &std::path::Path,
    env: &[(&str, &str)],
) -> (
    Child,
    SocketAddr,
    tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let mut child = binary()
        .args(["mcp", "--http", "127.0.0.1:0", "--root"])
        .arg(root)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the upstream starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = bounded("the upstream's address", stderr.next_line())
        .await
        .unwrap()
        .expect("a line on stderr");
    let address = served_address(&first);
    // Keep reading its stderr so it never blocks on a full pipe.
    let (lines, log) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok(Some(line)) = stderr.next_line().await {
            let _ = lines.send(line);
        }
    });
    (child, address, log)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_read_travels_two_hops_and_comes_back_paired() {
    let remote_root = tempfile::tempdir().unwrap();
    std::fs::write(remote_root.path().join("remote.txt"), "far\naway").unwrap();
    let local_root = tempfile::tempdir().unwrap();
    std::fs::write(local_root.path().join("local.txt"), "near").unwrap();
    let (_upstream, address) = upstream(remote_root.path()).await;

    let mut aggregator = binary()
        .arg("mcp")
        .arg("--upstream")
        .arg(format!("far=http://{address}/mcp"))
        .arg("--root")
        .arg(local_root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the aggregator starts");
    let client = connect_stdio(&mut aggregator, "federation-test").await;

    let tools = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "echo",
            "far__echo",
            "far__label",
            "far__list",
            "far__read",
            "far__upper",
            "far__wait",
            "far__write",
            "label",
            "list",
            "read",
            "upper",
            "wait",
            "write"
        ]
    );
    // The remote tools keep their schemas and annotations across the hop.
    let far_read = tools.iter().find(|tool| tool.name == "far__read").unwrap();
    let local_read = tools.iter().find(|tool| tool.name == "read").unwrap();
    assert_eq!(far_read.input_schema, local_read.input_schema);
    assert_eq!(
        far_read
            .annotations
            .as_ref()
            .and_then(|hints| hints.read_only_hint),
        Some(true)
    );

    // Two hops there and back: the upstream's file, not the local one.
    let remote = bounded(
        "far__read",
        call_json(&client, "far__read", json!({"path": "remote.txt"})),
    )
    .await;
    assert_eq!(
        remote,
        json!({
            "content": [{"type": "text", "text": "far\naway"}],
            "structuredContent": {"path": "remote.txt", "firstLine": 1, "lastLine": 2, "totalLines": 2, "truncated": false},
            "isError": false,
        })
    );
    let local = bounded(
        "read",
        call_json(&client, "read", json!({"path": "local.txt"})),
    )
    .await;
    assert_eq!(local["content"][0]["text"], "near");
    // The upstream's sandbox answers for its own root, across the hops: its
    // failure comes back as it was written (a domain error, isError).
    let outside = bounded(
        "far__read outside",
        call_json(&client, "far__read", json!({"path": "../x"})),
    )
    .await;
    assert_eq!(outside["isError"], true);
    assert_eq!(
        outside["content"][0]["text"],
        "Tool read failed: the path is outside the root directory"
    );
    // Bad arguments are refused by the aggregator, in a derived tool's words.
    let bad = bounded(
        "far__read bad",
        call_json(&client, "far__read", json!({"path": 5})),
    )
    .await;
    assert_eq!(bad["isError"], true);
    assert_eq!(
        bad["content"][0]["text"],
        "Tool far__read failed: path: expected string, got number 5"
    );
    drop(client);
}

/// Runs `call` (the binary as `command` sets it up) on `lines`, one JSON
/// line each, stdin then closed: its output once it exits.
async fn run_call(mut command: Command, lines: &[Value]) -> std::process::Output {
    let mut call = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("call starts");
    let mut stdin = call.stdin.take().unwrap();
    for line in lines {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    drop(stdin);
    bounded("call answers", call.wait_with_output())
        .await
        .unwrap()
}

/// The answers of a `call` that exited 0, one per line.
fn answers_of(output: &std::process::Output) -> Vec<Value> {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_reaches_upstream_tools_from_json_lines() {
    let remote_root = tempfile::tempdir().unwrap();
    let (_upstream, address) = upstream(remote_root.path()).await;
    let mut call = binary();
    call.arg("call")
        .arg("--upstream")
        .arg(format!("http://{address}/mcp"));
    let prefix = format!("127_0_0_1_{}", address.port());
    let line = json!({"id": "c1", "name": format!("{prefix}__upper"), "arguments": {"text": "pi"}});
    let answers = answers_of(&run_call(call, &[line]).await);
    let answer = &answers[0];
    assert_eq!(answer["toolCallId"], "c1");
    assert_eq!(answer["toolName"], format!("{prefix}__upper"));
    assert_eq!(answer["content"], json!([{"type": "text", "text": "PI"}]));
    assert_eq!(answer["isError"], false);
}

/// A client that keeps the progress notifications it receives.
struct Watcher {
    progress: tokio::sync::mpsc::UnboundedSender<String>,
}

impl rmcp::ClientHandler for Watcher {
    fn get_info(&self) -> ClientConfig {
        client_info("federation-test")
    }

    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        let _ = self.progress.send(params.message.unwrap_or_default());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_and_cancellation_travel_across_the_hops() {
    use rmcp::model::{CancelledNotificationParam, ClientRequest, Request};
    use rmcp::service::PeerRequestOptions;

    let remote_root = tempfile::tempdir().unwrap();
    let (_upstream, address, mut upstream_log) = upstream_with_log(remote_root.path(), &[]).await;
    let mut aggregator = binary()
        .args(["mcp", "--upstream"])
        .arg(format!("far=http://{address}/mcp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the aggregator starts");
    let transport = (
        aggregator.stdout.take().unwrap(),
        aggregator.stdin.take().unwrap(),
    );
    let (progress, mut updates) = tokio::sync::mpsc::unbounded_channel();
    let client = bounded("initialize", Watcher { progress }.serve(transport))
        .await
        .expect("initialize succeeds");
    let wait = |ms: u64| {
        let arguments = json!({"ms": ms}).as_object().cloned().unwrap();
        ClientRequest::CallToolRequest(Request::new(
            CallToolRequestParams::new("far__wait").with_arguments(arguments),
        ))
    };

    // Progress: the upstream's reports reach this client through the
    // aggregator, before the result.
    let handle = client
        .send_request_with_option(wait(350), PeerRequestOptions::no_options())
        .await
        .expect("the request is sent");
    let answer = bounded("far__wait answers", handle.await_response())
        .await
        .expect("a result");
    let answer = serde_json::to_value(&answer).unwrap();
    assert_eq!(answer["content"][0]["text"], "waited 350 ms", "{answer}");
    let first = bounded("a progress update", updates.recv()).await.unwrap();
    assert!(
        first.starts_with("waited ") && first.ends_with(" of 350 ms"),
        "{first}"
    );

    // Cancellation: a 60 s wait, cancelled once it is under way, stops on
    // both hops (the upstream's tool logs it), and the aggregator goes on
    // serving.
    while updates.try_recv().is_ok() {}
    let handle = client
        .send_request_with_option(wait(60_000), PeerRequestOptions::no_options())
        .await
        .expect("the request is sent");
    let id = handle.id.clone();
    // A report of the first wait may still be on its way (notifications
    // are not ordered with the result they precede on another hop): skip it.
    let update = loop {
        let update = bounded("the long wait reports", updates.recv())
            .await
            .unwrap();
        if !update.ends_with(" of 350 ms") {
            break update;
        }
    };
    assert!(update.ends_with(" of 60000 ms"), "{update}");
    client
        .notify_cancelled(CancelledNotificationParam::new(
            Some(id),
            Some("test".into()),
        ))
        .await
        .expect("the cancellation is sent");
    drop(handle);
    tokio::time::sleep(Duration::from_millis(300)).await;
    while updates.try_recv().is_ok() {}
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        updates.try_recv().is_err(),
        "no progress after the cancellation: the wait stopped"
    );
    // The second hop: the upstream's own tool saw the cancellation.
    let cancelled = bounded("the upstream logs the cancellation", async {
        loop {
            let line = upstream_log.recv().await.expect("the upstream runs");
            // A log line: time, level, the call's span and the target come
            // before the message, `wait <id>: cancelled after N ms`.
            if let Some(at) = line.find(": cancelled after ")
                && let Some(start) = line[..at].rfind("wait ")
            {
                return line[start..].to_owned();
            }
        }
    })
    .await;
    let waited = cancelled
        .split_once(": cancelled after ")
        .and_then(|(_, rest)| rest.strip_suffix(" ms"))
        .unwrap_or_else(|| panic!("{cancelled}"));
    assert!(waited.parse::<u64>().unwrap() < 60_000, "{cancelled}");
    let echo = bounded(
        "echo after the cancellation",
        call_json(&client, "far__echo", json!({"value": "still here"})),
    )
    .await;
    assert_eq!(echo["content"][0]["text"], "still here");
}

/// The aggregator `mcp --upstream far=<address>` over stdio, and this
/// test's client of it, which keeps the progress it is sent.
async fn aggregate(
    address: SocketAddr,
) -> (
    Child,
    RunningService<RoleClient, Watcher>,
    tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let mut aggregator = binary()
        .args(["mcp", "--upstream"])
        .arg(format!("far=http://{address}/mcp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the aggregator starts");
    let transport = (
        aggregator.stdout.take().unwrap(),
        aggregator.stdin.take().unwrap(),
    );
    let (progress, updates) = tokio::sync::mpsc::unbounded_channel();
    let client = bounded("initialize", Watcher { progress }.serve(transport))
        .await
        .expect("initialize succeeds");
    (aggregator, client, updates)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_killed_mid_call_fails_the_call_long_before_its_timeout() {
    use rmcp::model::{ClientRequest, Request};
    use rmcp::service::PeerRequestOptions;

    let remote_root = tempfile::tempdir().unwrap();
    let (mut upstream, address, _log) = upstream_with_log(remote_root.path(), &[]).await;
    let (_aggregator, client, mut updates) = aggregate(address).await;

    // A 60 s wait under the default 120 s timeout; once it is under way
    // (it reports), the upstream dies.
    let arguments = json!({"ms": 60_000}).as_object().cloned().unwrap();
    let handle = client
        .send_request_with_option(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("far__wait").with_arguments(arguments),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("the request is sent");
    bounded("the wait reports", updates.recv()).await.unwrap();
    upstream.start_kill().unwrap();
    let _ = upstream.wait().await;

    // Well within the test's own 20 s ceiling, far from the timeout.
    let answer = bounded("the answer after the kill", handle.await_response())
        .await
        .expect("a result, not a protocol error");
    let answer = serde_json::to_value(&answer).unwrap();
    assert_eq!(answer["isError"], true, "{answer}");
    assert_eq!(
        answer["content"][0]["text"],
        "Tool far__wait failed: the MCP server closed the connection; the next call connects again"
    );
}

/// A directory holding one file, `name`, that says `text`.
fn directory_with(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    dir
}

/// The text of `call`'s answer line with `id`.
fn answer_text(answers: &[Value], id: &str) -> String {
    let answer = answers
        .iter()
        .find(|answer| answer["toolCallId"] == id)
        .unwrap_or_else(|| panic!("no answer {id} in {answers:?}"));
    answer["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_upstream_gets_none_of_this_programs_settings() {
    // This program's settings: a root of its own, an address and a token
    // to serve with. The upstream is the same binary, `mcp` on stdio,
    // which reads the same variables: given them, it would serve HTTP on
    // this program's address (never answering on stdio) and read from this
    // program's root.
    let own_root = directory_with("own.txt", "this program's");
    let workdir = directory_with("work.txt", "the working directory's");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut call = binary();
    call.arg("call")
        .arg("--upstream")
        .arg(format!("same={BIN} mcp"))
        .current_dir(workdir.path())
        .env("TOOL_EXAMPLES_ROOT", own_root.path())
        .env("TOOL_EXAMPLES_HTTP", format!("127.0.0.1:{port}"))
        .env("TOOL_EXAMPLES_TOKEN", "parent-secret")
        .env("TOOL_EXAMPLES_UPSTREAM_TOKEN", "upstream-secret");
    let lines = [
        json!({"id": "own", "name": "read", "arguments": {"path": "own.txt"}}),
        json!({"id": "far", "name": "same__read", "arguments": {"path": "work.txt"}}),
        json!({"id": "leak", "name": "same__read", "arguments": {"path": "own.txt"}}),
    ];
    let answers = answers_of(&run_call(call, &lines).await);
    assert_eq!(answer_text(&answers, "own"), "this program's");
    // The upstream served on stdio, rooted where it was started.
    assert_eq!(answer_text(&answers, "far"), "the working directory's");
    assert!(
        answer_text(&answers, "leak").contains("no such file"),
        "{answers:?}"
    );
}

/// Calls `name` of `tools` with `arguments`; the result's first text.
async fn first_text_of(tools: &tool_core::ToolRegistry, name: &str, arguments: Value) -> String {
    let call = tool_core::ToolCall::new("c1", name, arguments);
    let result = bounded(
        name,
        tool_core::execute_tool_call(&call, tools, tool_core::RunOptions::new()),
    )
    .await;
    result.content[0].as_text().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_env_reaches_every_stdio_upstream() {
    let elsewhere = directory_with("elsewhere.txt", "given by --upstream-env");
    let specs = [
        UpstreamSpec::parse(&format!("one={BIN} mcp")).unwrap(),
        UpstreamSpec::parse(&format!("two={BIN} mcp")).unwrap(),
    ];
    let root = elsewhere.path().to_str().unwrap();
    let settings = UpstreamSettings {
        env: vec![
            UpstreamEnv::parse("TOOL_EXAMPLES_ROOT=/nonexistent").unwrap(),
            // A later one wins.
            UpstreamEnv::parse(&format!("TOOL_EXAMPLES_ROOT={root}")).unwrap(),
        ],
        token_files: Vec::new(),
        trusted: Vec::new(),
    };
    let mut tools = tool_core::ToolRegistry::new();
    let _clients = bounded(
        "the upstreams start",
        add_upstreams(&mut tools, &specs, &settings),
    )
    .await
    .expect("both start");
    for name in ["one__read", "two__read"] {
        assert_eq!(
            first_text_of(&tools, name, json!({"path": "elsewhere.txt"})).await,
            "given by --upstream-env"
        );
    }
}

/// A file holding `text`, readable by its owner only.
fn secret_file(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_http_upstream_is_sent_the_token_of_its_own_file() {
    let root_a = directory_with("a.txt", "from a");
    let root_b = directory_with("b.txt", "from b");
    let (_a, address_a, _) =
        upstream_with_log(root_a.path(), &[("TOOL_EXAMPLES_TOKEN", "token-of-a")]).await;
    let (_b, address_b, _) =
        upstream_with_log(root_b.path(), &[("TOOL_EXAMPLES_TOKEN", "token-of-b")]).await;
    let secrets = tempfile::tempdir().unwrap();
    let file_a = secret_file(secrets.path(), "a", "token-of-a\n");
    let file_b = secret_file(secrets.path(), "b", "  token-of-b  \n");
    let specs = [
        UpstreamSpec::parse(&format!("a=http://{address_a}/mcp")).unwrap(),
        UpstreamSpec::parse(&format!("b=http://{address_b}/mcp")).unwrap(),
    ];
    let token_file = |name: &str, path: &std::path::Path| {
        TokenFile::parse(&format!("{name}={}", path.display())).unwrap()
    };

    let settings = UpstreamSettings {
        env: Vec::new(),
        token_files: vec![token_file("a", &file_a), token_file("b", &file_b)],
        trusted: Vec::new(),
    };
    let mut tools = tool_core::ToolRegistry::new();
    let _clients = bounded(
        "the upstreams answer",
        add_upstreams(&mut tools, &specs, &settings),
    )
    .await
    .expect("each token is accepted");
    assert_eq!(
        first_text_of(&tools, "a__read", json!({"path": "a.txt"})).await,
        "from a"
    );
    assert_eq!(
        first_text_of(&tools, "b__read", json!({"path": "b.txt"})).await,
        "from b"
    );

    // Swapped, each upstream refuses the other's token.
    let swapped = UpstreamSettings {
        env: Vec::new(),
        token_files: vec![token_file("a", &file_b), token_file("b", &file_a)],
        trusted: Vec::new(),
    };
    let error = bounded(
        "the refusal",
        add_upstreams(&mut tool_core::ToolRegistry::new(), &specs, &swapped),
    )
    .await
    .expect_err("a's token is not b's");
    assert!(
        error
            .to_string()
            .starts_with("--upstream a: cannot connect to the MCP server: "),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_file_must_name_one_http_upstream_and_hold_a_token() {
    let secrets = tempfile::tempdir().unwrap();
    let good = secret_file(secrets.path(), "good", "t0ken\n");
    let empty = secret_file(secrets.path(), "empty", " \n");
    // Nothing listens there, and nothing is started: the files are
    // checked before any upstream is reached.
    let specs = [
        UpstreamSpec::parse("docs=http://127.0.0.1:9/mcp").unwrap(),
        UpstreamSpec::parse("git=/nonexistent/mcp-git --repo .").unwrap(),
    ];
    let refusal = |files: Vec<TokenFile>| async {
        let settings = UpstreamSettings {
            env: Vec::new(),
            token_files: files,
            trusted: Vec::new(),
        };
        let error = add_upstreams(&mut tool_core::ToolRegistry::new(), &specs, &settings)
            .await
            .expect_err("refused");
        error.to_string()
    };
    let file = |text: &str| TokenFile::parse(text).unwrap();
    let good = good.display();
    let empty = empty.display();

    assert_eq!(
        refusal(vec![file(&format!("wiki={good}"))]).await,
        format!(
            "--upstream-token-file wiki={good}: no --upstream is named wiki (the upstreams \
             are docs, git)"
        )
    );
    assert_eq!(
        refusal(vec![file(&format!("git={good}"))]).await,
        format!(
            "--upstream-token-file git={good}: git is a stdio upstream (a command), which is \
             sent no token; give it variables with --upstream-env"
        )
    );
    assert_eq!(
        refusal(vec![
            file(&format!("docs={good}")),
            file(&format!("docs={empty}"))
        ])
        .await,
        format!("--upstream-token-file docs={empty}: docs already has a token file ({good})")
    );
    assert_eq!(
        refusal(vec![file(&format!("docs={empty}"))]).await,
        format!("--upstream-token-file docs={empty}: the token is empty")
    );
    let missing = secrets.path().join("missing");
    let message = refusal(vec![file(&format!("docs={}", missing.display()))]).await;
    assert!(
        message.starts_with(&format!(
            "--upstream-token-file docs={}: ",
            missing.display()
        )),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shared_upstream_token_reaches_an_http_upstream_without_a_file() {
    let root = directory_with("far.txt", "behind a token");
    let (_upstream, address, _) =
        upstream_with_log(root.path(), &[("TOOL_EXAMPLES_TOKEN", "shared-token")]).await;
    let line = json!({"id": "c1", "name": "far__read", "arguments": {"path": "far.txt"}});
    let run = |token: &'static str| {
        let mut call = binary();
        call.arg("call")
            .arg("--upstream")
            .arg(format!("far=http://{address}/mcp"))
            .env("TOOL_EXAMPLES_UPSTREAM_TOKEN", token);
        let line = line.clone();
        async move { run_call(call, &[line]).await }
    };

    let output = run("shared-token").await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answer: Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(answer["content"][0]["text"], "behind a token");

    let output = run("wrong-token").await;
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("error: --upstream far: cannot connect to the MCP server: "),
        "{stderr}"
    );
}
