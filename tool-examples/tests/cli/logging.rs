//! The binary's logs, as a child process: on stderr only (stdout is the
//! protocol), human-readable by default, one JSON object per line with
//! `--log-format json`, filtered by `RUST_LOG`.

use crate::support::{self, lines, spawn, wait};
use serde_json::Value;
use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

/// Only there so a hang fails the test.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `ARGS` (which serve until stopped) with `env`, reads `count` lines
/// of stderr, stops it: those lines, and all it wrote to stdout.
fn first_log_lines(args: &[&str], env: &[(&str, &str)], count: usize) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = support::spawn_serving(args, dir.path(), env);
    let (stderr, reader) = lines(child.stderr.take().unwrap());
    let logged: Vec<String> = (0..count)
        .map(|_| {
            stderr
                .recv_timeout(TIMEOUT)
                .expect("a log line within the timeout")
        })
        .collect();
    child.kill().unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    wait(&mut child, TIMEOUT);
    reader.join().unwrap();
    (logged, stdout)
}

/// A JSON log line as an object: level, target and message checked.
fn json_event(line: &str) -> serde_json::Map<String, Value> {
    let Ok(Value::Object(event)) = serde_json::from_str::<Value>(line) else {
        panic!("not a JSON object: {line:?}");
    };
    assert!(line.ends_with('\n'), "one object per line: {line:?}");
    assert!(event["timestamp"].is_string(), "{line}");
    assert!(event["level"].is_string(), "{line}");
    assert!(event["target"].is_string(), "{line}");
    assert!(event["fields"]["message"].is_string(), "{line}");
    event
}

#[test]
fn json_log_lines_are_json_objects_on_stderr_and_stdout_stays_empty() {
    for args in [
        &["--log-format", "json", "mcp", "--http", "127.0.0.1:0"][..],
        &["mcp", "--http", "127.0.0.1:0", "--log-format=json"][..],
    ] {
        let (logged, stdout) = first_log_lines(args, &[], 3);
        assert_eq!(stdout, "", "{args:?}: no log line on stdout");
        let events: Vec<_> = logged.iter().map(|line| json_event(line)).collect();
        let messages: Vec<&str> = events
            .iter()
            .map(|event| event["fields"]["message"].as_str().unwrap())
            .collect();
        assert!(
            messages[0].starts_with("serving MCP on http://127.0.0.1:"),
            "{messages:?}"
        );
        assert!(messages[1].starts_with("accepting Host: "), "{messages:?}");
        assert_eq!(messages[2], "authentication: none (loopback only)");
        for event in &events {
            assert_eq!(event["level"], "INFO");
            assert_eq!(event["target"], "tool_examples::serve");
        }
    }
}

#[test]
fn text_log_lines_are_for_people() {
    let (logged, stdout) = first_log_lines(&["mcp", "--http", "127.0.0.1:0"], &[], 1);
    assert_eq!(stdout, "");
    let line = &logged[0];
    assert!(serde_json::from_str::<Value>(line).is_err(), "{line}");
    // No colour codes when stderr is no terminal.
    assert!(!line.contains('\u{1b}'), "{line:?}");
    assert!(
        line.contains(" INFO tool_examples::serve: serving MCP on http://127.0.0.1:"),
        "{line}"
    );
}

#[test]
fn rust_log_filters_the_lines() {
    // At `warn`, the three startup lines but the warning are left out.
    let args = [
        "mcp",
        "--http",
        "0.0.0.0:0",
        "--allow-unauthenticated",
        "--log-format",
        "json",
    ];
    let (logged, _) = first_log_lines(&args, &[("RUST_LOG", "warn")], 1);
    let event = json_event(&logged[0]);
    assert_eq!(event["level"], "WARN");
    assert!(
        event["fields"]["message"]
            .as_str()
            .unwrap()
            .starts_with("authentication: NONE (--allow-unauthenticated)"),
        "{event:?}"
    );
}

#[test]
fn nothing_is_logged_where_nothing_happens() {
    // The JSON-lines runner has nothing to say at the default level: its
    // stderr stays empty, whichever the format.
    for args in [&["call"][..], &["--log-format", "json", "call"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let mut child = spawn(args, dir.path(), Stdio::piped());
        let call = r#"{"id":"1","name":"upper","arguments":{"text":"pi"}}"#;
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), call.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8(out.stderr).unwrap(), "", "{args:?}");
        assert!(String::from_utf8(out.stdout).unwrap().contains("\"PI\""));
    }
}

/// One JSON-RPC message, a line.
fn rpc(message: Value) -> String {
    format!("{message}\n")
}

#[test]
fn an_mcp_session_over_stdio_logs_json_on_stderr_with_its_spans() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = support::command(&["--log-format", "json", "mcp"], dir.path())
        .env("RUST_LOG", "warn,tool_examples=info,tool_mcp=debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let (stdout, reader) = lines(child.stdout.take().unwrap());
    let stderr = std::thread::spawn({
        let mut source = child.stderr.take().unwrap();
        move || {
            let mut text = String::new();
            source.read_to_string(&mut text).unwrap();
            text
        }
    });
    let initialize = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "log-test", "version": "1.0"},
        },
    });
    let call = serde_json::json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "upper", "arguments": {"text": "pi"}},
    });
    for message in [
        initialize,
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call,
    ] {
        std::io::Write::write_all(&mut stdin, rpc(message).as_bytes()).unwrap();
    }
    // Every line on stdout is JSON-RPC, up to the call's answer.
    loop {
        let line = stdout.recv_timeout(TIMEOUT).expect("an answer on stdout");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("not JSON ({error}) on stdout: {line:?}"));
        assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC on stdout: {line}");
        if message["id"] == 2 {
            assert_eq!(message["result"]["content"][0]["text"], "PI", "{line}");
            break;
        }
    }
    drop(stdin);
    let status = wait(&mut child, TIMEOUT);
    reader.join().unwrap();
    assert!(stdout.try_recv().is_err(), "nothing more on stdout");
    let stderr = stderr.join().unwrap();
    assert!(status.success(), "{status}: {stderr}");

    let events: Vec<_> = stderr.split_inclusive('\n').map(json_event).collect();
    let find = |message: &str| {
        events
            .iter()
            .find(|event| event["fields"]["message"] == message)
            .unwrap_or_else(|| panic!("no {message:?} in {stderr}"))
    };
    let started = find("MCP session started");
    assert_eq!(started["level"], "INFO");
    assert_eq!(started["fields"]["client"], "log-test", "{started:?}");
    assert_eq!(started["span"]["name"], "mcp_session", "{started:?}");
    assert_eq!(started["span"]["transport"], "stdio", "{started:?}");
    // The call's events carry its span: the tool and the request id, under
    // the OpenTelemetry conventions' names.
    for message in ["called", "answered"] {
        let event = find(message);
        assert_eq!(event["level"], "DEBUG");
        assert_eq!(event["span"]["name"], "tools/call", "{event:?}");
        assert_eq!(event["span"]["gen_ai.tool.name"], "upper", "{event:?}");
        assert_eq!(event["span"]["jsonrpc.request.id"], "2", "{event:?}");
        assert_eq!(event["span"]["otel.kind"], "server", "{event:?}");
    }
    assert_eq!(find("answered")["fields"]["is_error"], false);
    find("MCP session ended");
}
