//! The `tool-examples` binary end to end, as a child process.

use crate::support::{self, lines, spawn, wait};
use clap::error::ErrorKind;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::thread;
use std::time::Duration;
use tool_core::providers::ProviderFormat;
use tool_examples::cli::Cli;

/// Far more than any run needs; only there so a hang fails instead of
/// blocking the suite.
const TIMEOUT: Duration = Duration::from_secs(20);

pub(crate) struct Run {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Exited 0 with nothing on stderr.
    fn assert_clean(&self) {
        assert!(self.status.success(), "{}", self.stderr);
        assert_eq!(self.stderr, "");
    }
}

fn drain(mut source: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        source.read_to_end(&mut bytes).unwrap();
        bytes
    })
}

/// Runs the binary in `dir` with `input` on stdin (then closed).
pub(crate) fn run_in(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Run {
    let mut child = spawn(args, dir, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    // Writing may fail with a broken pipe when the binary exits early (a
    // usage error): that is for the assertions on its output to judge.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let status = wait(&mut child, TIMEOUT);
    writer.join().unwrap();
    Run {
        status,
        stdout: String::from_utf8(stdout.join().unwrap()).unwrap(),
        stderr: String::from_utf8(stderr.join().unwrap()).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), args, "")
}

/// Each of `pieces` is in `text`, each after the one before.
fn assert_in_order(text: &str, pieces: &[&str]) {
    let mut at = 0;
    for piece in pieces {
        let found = text[at..]
            .find(piece)
            .unwrap_or_else(|| panic!("missing, or out of order: {piece}\n{text}"));
        at += found + piece.len();
    }
}

// ------------------------------------------------------------ walkthrough

#[test]
fn no_arguments_prints_the_walkthrough() {
    let out = run(&[]);
    out.assert_clean();
    let stdout = &out.stdout;
    let headers = [
        "== The tools, as a provider sees them (ToolRegistry::definitions) ==",
        "== 1. An echo call: lookup, parse (\"ignored\" is dropped), execute ==",
        "== 2. A wrong argument type: parse stops the call before echo runs ==",
        "== 3. An unknown tool: nothing runs, and the result keeps the name asked for ==",
        "== 4. A tool that fails: its error is paired with the call like any result ==",
        "== 5. Tools with state: `read` and `list` are methods of one Files toolbox (register_all) ==",
        "== 6. A structured result (Json<Listing>): details for the program, the same JSON as text for the model ==",
        "== 7. An image: read recognizes it by its first bytes and answers with image content ==",
    ];
    assert_in_order(stdout, &headers);
    // The walkthrough's call, as written, and each case's result, in order.
    let expected_in_order = [
        r#""name": "echo""#,
        r#""name": "read""#,
        r#""name": "upper""#,
        r#""ignored": "drop me""#,
        r#""toolCallId": "call-1""#,
        r#""text": "Pi""#,
        r#""source": "echo""#,
        r#""isError": false"#,
        r#""value": 1"#,
        r#""text": "Tool echo failed: value: expected string, got number 1""#,
        r#""isError": true"#,
        r#""toolName": "missing""#,
        r#""text": "Tool missing failed: unknown tool""#,
        r#""error": "unknown tool""#,
        r#""text": "Tool echo failed: exploded""#,
        r#""error": "exploded""#,
        r#""outputSchema": {"#,
        r#""readOnlyHint": true"#,
        r#""toolCallId": "call-5""#,
        r#""name": "notes.txt""#,
        r#""name": "pixel.png""#,
        r#""truncated": false"#,
        r#""toolCallId": "call-6""#,
        r#""type": "image""#,
        r#""data": "iVBORw0KGgoAAAANSUhEUg==""#,
        r#""mimeType": "image/png""#,
    ];
    assert_in_order(stdout, &expected_in_order);
    // Four results paired with call-1, then one each for call-5 and call-6.
    assert_eq!(stdout.matches(r#""toolCallId": "call-1""#).count(), 4);
    assert_eq!(stdout.matches(r#""role": "toolResult""#).count(), 6);
    assert!(stdout.ends_with(
        "\nEvery call got exactly one result with its own toolCallId. Try: tool-examples call --help\n"
    ));
}

// ------------------------------------------------------------ definitions

#[test]
fn definitions_prints_the_registrys_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["definitions"], "");
    out.assert_clean();
    let printed: Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = printed
        .as_array()
        .unwrap()
        .iter()
        .map(|definition| definition["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["echo", "label", "list", "read", "upper", "wait", "write"]
    );
    // One definition written out, not derived from the registry.
    assert_eq!(
        printed[0],
        json!({
            "name": "echo",
            "description": "Echo one value",
            "parameters": {
                "type": "object",
                "properties": {"value": {"type": "string"}},
                "required": ["value"],
                "additionalProperties": false,
            },
        })
    );
    let registry = tool_examples::example_registry(dir.path()).unwrap();
    assert_eq!(
        printed,
        serde_json::to_value(registry.definitions()).unwrap()
    );
    // Pretty-printed as serde_json does it, keys in their written order.
    assert_eq!(
        out.stdout,
        format!(
            "{}\n",
            serde_json::to_string_pretty(&registry.definitions()).unwrap()
        )
    );
}

// ------------------------------------------------------------------ call

/// What one output line must be.
enum Expect {
    /// A paired result for this id: its first text, and whether an error.
    Result {
        id: String,
        name: String,
        text: String,
        is_error: bool,
    },
    /// A paired error for an invalid call with this id and name, its text
    /// starting with `starts`.
    InvalidCall {
        id: String,
        name: String,
        starts: String,
    },
    /// `{"error": ..., "line": N}`, the error starting with this.
    LineError { line: usize, starts: String },
}

const HELLO: &str = "hello from the root\nsecond line\n";

#[test]
fn definitions_print_each_format_with_its_diagnostics_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let registry = tool_examples::example_registry(dir.path()).unwrap();
    for format in ProviderFormat::ALL {
        let out = run_in(dir.path(), &["definitions", "--format", format.name()], "");
        assert!(out.status.success(), "{format}: {}", out.stderr);
        let converted = format.definitions(&registry.definitions());
        let printed: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(printed, converted.value, "{format}");
        let expected_stderr: String = converted
            .diagnostics
            .iter()
            .map(|diagnostic| format!("{format}: {diagnostic}\n"))
            .collect();
        assert_eq!(out.stderr, expected_stderr, "{format}");
    }
    // Two written out: what strict mode and Gemini's legacy form change.
    let strict = run_in(dir.path(), &["definitions", "--format=openai-strict"], "");
    assert_eq!(
        strict.stderr,
        "openai-strict: label: /properties/label: changed: optional, so made nullable and required (strict mode requires every property; null means absent)\n\
         openai-strict: label: /properties/limit: changed: optional, so made nullable and required (strict mode requires every property; null means absent)\n\
         openai-strict: list: /properties/path: changed: optional, so made nullable and required (strict mode requires every property; null means absent)\n\
         openai-strict: read: /properties/offset: changed: optional, so made nullable and required (strict mode requires every property; null means absent)\n\
         openai-strict: read: /properties/limit: changed: optional, so made nullable and required (strict mode requires every property; null means absent)\n"
    );
    let printed: Value = serde_json::from_str(&strict.stdout).unwrap();
    assert_eq!(printed[3]["function"]["strict"], json!(true));
    assert_eq!(
        printed[3]["function"]["parameters"]["required"],
        json!(["path", "offset", "limit"])
    );
    let legacy = run_in(
        dir.path(),
        &["definitions", "--format", "gemini-legacy"],
        "",
    );
    assert_eq!(legacy.stderr.lines().count(), 12, "{}", legacy.stderr);
    let printed: Value = serde_json::from_str(&legacy.stdout).unwrap();
    assert_eq!(
        printed["functionDeclarations"][3]["parameters"]["properties"]["offset"]["nullable"],
        json!(true)
    );
}

/// 200 mixed lines, plus blank ones; returns the input and what each
/// output line must be, in order.
fn mixed_input() -> (String, Vec<Expect>) {
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut line_number = 0;
    fn push(input: &mut String, line_number: &mut usize, line: String) -> usize {
        input.push_str(&line);
        input.push('\n');
        *line_number += 1;
        *line_number
    }
    for i in 0..200 {
        let id = format!("call-{i}");
        // A blank line every seventh, and a whitespace-only one every 13th.
        if i % 7 == 3 {
            push(&mut input, &mut line_number, String::new());
        }
        if i % 13 == 5 {
            push(&mut input, &mut line_number, "   \t ".into());
        }
        if i == 100 {
            let number = push(&mut input, &mut line_number, "this is not JSON {".into());
            expected.push(Expect::LineError {
                line: number,
                starts: format!("line {number}: invalid JSON: "),
            });
            continue;
        }
        let (line, expect) = match i % 9 {
            0 => (
                json!({"type": "toolCall", "id": id, "name": "echo", "arguments": {"value": format!("v{i}")}}),
                Expect::Result {
                    id,
                    name: "echo".into(),
                    text: format!("v{i}"),
                    is_error: false,
                },
            ),
            1 => (
                json!({"id": id, "name": "upper", "arguments": {"text": format!("abc {i}")}}),
                Expect::Result {
                    id,
                    name: "upper".into(),
                    text: format!("ABC {i}"),
                    is_error: false,
                },
            ),
            2 => (
                json!({"type": "toolCall", "id": id, "name": "read", "arguments": {"path": "hello.txt"}}),
                Expect::Result {
                    id,
                    name: "read".into(),
                    text: "hello from the root\nsecond line".into(),
                    is_error: false,
                },
            ),
            3 => (
                json!({"type": "toolCall", "id": id, "name": "nope", "arguments": {}}),
                Expect::Result {
                    id,
                    name: "nope".into(),
                    text: "Tool nope failed: unknown tool".into(),
                    is_error: true,
                },
            ),
            4 => (
                json!({"type": "toolCall", "id": id, "name": "echo", "arguments": {"value": i}}),
                Expect::Result {
                    id,
                    name: "echo".into(),
                    text: format!("Tool echo failed: value: expected string, got number {i}"),
                    is_error: true,
                },
            ),
            5 if i % 2 == 0 => (
                // JSON with an id, but no call: no name.
                json!({"id": id, "arguments": {}}),
                Expect::InvalidCall {
                    id,
                    name: String::new(),
                    starts: "Tool call failed: invalid tool call: missing field `name`".into(),
                },
            ),
            5 => (
                // JSON with an id and a name, but not a call.
                json!({"type": "toolResult", "id": id, "name": "echo"}),
                Expect::InvalidCall {
                    id,
                    name: "echo".into(),
                    starts: r#"Tool echo failed: invalid tool call: expected "type": "toolCall", got "toolResult""#.into(),
                },
            ),
            6 => {
                let number = line_number + 1;
                (
                    json!({"hello": i}),
                    Expect::LineError {
                        line: number,
                        starts: format!("line {number}: not a tool call: "),
                    },
                )
            }
            7 => (
                json!({"type": "toolCall", "id": id, "name": "read", "arguments": {"path": "../escape.txt"}}),
                Expect::Result {
                    id,
                    name: "read".into(),
                    text: "Tool read failed: the path is outside the root directory".into(),
                    is_error: true,
                },
            ),
            _ => (
                // A slow-ish call next to fast ones: a read of a larger file.
                json!({"type": "toolCall", "id": id, "name": "read", "arguments": {"path": "big.txt", "limit": 1}}),
                Expect::Result {
                    id,
                    name: "read".into(),
                    text: "row\n\n[Showing lines 1-1 of 50000. Use offset=2 to read on.]".into(),
                    is_error: false,
                },
            ),
        };
        push(&mut input, &mut line_number, line.to_string());
        expected.push(expect);
    }
    push(&mut input, &mut line_number, String::new());
    (input, expected)
}

fn check_call_output(stdout: &str, expected: &[Expect]) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), expected.len(), "one output line per call");
    assert!(stdout.ends_with('\n'));
    for (index, (line, expect)) in lines.iter().zip(expected).enumerate() {
        let value: Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("output line {index} is not JSON ({error}): {line}"));
        match expect {
            Expect::Result {
                id,
                name,
                text,
                is_error,
            } => {
                assert_eq!(value["role"], "toolResult", "{line}");
                assert_eq!(value["toolCallId"], id.as_str(), "{line}");
                assert_eq!(value["toolName"], name.as_str(), "{line}");
                assert_eq!(
                    value["content"],
                    json!([{"type": "text", "text": text}]),
                    "{line}"
                );
                assert_eq!(value["isError"], *is_error, "{line}");
            }
            Expect::InvalidCall { id, name, starts } => {
                assert_eq!(value["role"], "toolResult", "{line}");
                assert_eq!(value["toolCallId"], id.as_str(), "{line}");
                assert_eq!(value["toolName"], name.as_str(), "{line}");
                assert_eq!(value["isError"], true, "{line}");
                assert_eq!(value["content"].as_array().unwrap().len(), 1, "{line}");
                let text = value["content"][0]["text"].as_str().unwrap();
                assert!(text.starts_with(starts.as_str()), "{line}");
            }
            Expect::LineError {
                line: number,
                starts,
            } => {
                assert_eq!(value["line"], *number, "{line}");
                let error = value["error"].as_str().unwrap();
                assert!(error.starts_with(starts.as_str()), "{line}");
                assert_eq!(value.as_object().unwrap().len(), 2, "{line}");
            }
        }
    }
}

fn call_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    std::fs::write(dir.path().join("root/hello.txt"), HELLO).unwrap();
    std::fs::write(dir.path().join("root/big.txt"), "row\n".repeat(50_000)).unwrap();
    std::fs::write(dir.path().join("escape.txt"), "outside").unwrap();
    dir
}

/// Runs `args` (`call` with its root) in `dir` over [`mixed_input`]:
/// every line answered, in order.
fn answers_mixed_input(dir: &Path, args: &[&str]) {
    let (input, expected) = mixed_input();
    assert!(expected.len() >= 200);
    let out = run_in(dir, args, &input);
    out.assert_clean();
    check_call_output(&out.stdout, &expected);
}

#[test]
fn call_answers_every_line_in_order() {
    let dir = call_root();
    let root = dir.path().join("root");
    answers_mixed_input(dir.path(), &["call", "--root", root.to_str().unwrap()]);
}

#[test]
fn call_sequential_answers_every_line_in_order() {
    let dir = call_root();
    let root = format!("--root={}", dir.path().join("root").display());
    answers_mixed_input(dir.path(), &["call", "--sequential", &root]);
}

#[test]
fn call_reads_under_the_current_directory_by_default() {
    let dir = call_root();
    let input = r#"{"id":"c1","name":"read","arguments":{"path":"root/hello.txt","limit":1}}"#;
    let out = run_in(dir.path(), &["call"], format!("{input}\n"));
    assert!(out.status.success(), "{}", out.stderr);
    let value: Value = serde_json::from_str(out.stdout.trim_end()).unwrap();
    assert_eq!(value["toolCallId"], "c1");
    assert_eq!(
        value["details"],
        json!({"path": "root/hello.txt", "firstLine": 1, "lastLine": 1, "totalLines": 2, "truncated": true})
    );
}

#[test]
fn call_repair_fixes_near_misses_visibly_and_only_when_asked() {
    let dir = call_root();
    let input = concat!(
        r#"{"id":"c1","name":"read","arguments":{"path":"root/hello.txt","limit":"1"}}"#,
        "\n",
        r#"{"id":"c2","name":"echo","arguments":{"value":"Pi"}}"#,
        "\n",
    );
    let strict = run_in(dir.path(), &["call"], input);
    assert!(strict.status.success(), "{}", strict.stderr);
    let strict: Vec<Value> = strict
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(strict[0]["isError"], true);
    assert_eq!(
        strict[0]["content"][0]["text"],
        "Tool read failed: limit: expected integer, got string \"1\""
    );

    let lenient = run_in(dir.path(), &["call", "--repair"], input);
    assert!(lenient.status.success(), "{}", lenient.stderr);
    let lines: Vec<&str> = lenient.stdout.lines().collect();
    let repaired: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(repaired["isError"], false, "{repaired}");
    assert_eq!(repaired["details"]["lastLine"], 1);
    assert_eq!(
        repaired["repairs"],
        json!([{"path": "limit", "sent": "1", "used": 1, "rule": "string_to_scalar"}])
    );
    let note = repaired["content"].as_array().unwrap().last().unwrap()["text"]
        .as_str()
        .unwrap();
    assert!(
        note.starts_with("[Arguments repaired: limit: \"1\" read as 1"),
        "{note}"
    );
    // A call with nothing to repair is answered exactly as without --repair.
    assert!(!lines[1].contains("repairs"), "{}", lines[1]);
}

#[test]
fn call_answers_the_exact_seed_line_and_a_last_line_without_newline() {
    let dir = call_root();
    let input = concat!(
        r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}"#,
        "\n",
        r#"{"type":"toolCall","id":"call-2","name":"upper","arguments":{"text":"pi"}}"#,
    );
    let out = run_in(dir.path(), &["call"], input);
    assert!(out.status.success(), "{}", out.stderr);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let mut first = lines[0].clone();
    assert!(first["timestamp"].is_u64());
    first.as_object_mut().unwrap().remove("timestamp");
    assert_eq!(
        first,
        json!({
            "role": "toolResult", "toolCallId": "call-1", "toolName": "echo",
            "content": [{"type": "text", "text": "Pi"}],
            "details": {"source": "echo"}, "isError": false,
        })
    );
    assert_eq!(lines[1]["content"][0]["text"], "PI");
    assert_eq!(lines[1]["toolCallId"], "call-2");
}

#[test]
fn call_answers_a_line_that_is_not_utf8_and_goes_on() {
    let mut input = b"{\"id\":\"a\",\"name\":\"echo\",\"arguments\":{\"value\":\"x\"}}\n".to_vec();
    input.extend_from_slice(b"caf\xe9\n");
    input.extend_from_slice(b"{\"id\":\"b\",\"name\":\"upper\",\"arguments\":{\"text\":\"y\"}}\n");
    for args in [&["call"][..], &["call", "--sequential"][..]] {
        let out = run_in(tempfile::tempdir().unwrap().path(), args, &input);
        assert!(out.status.success(), "{}", out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{}", out.stdout);
        assert!(lines[0].contains(r#""toolCallId":"a""#), "{}", lines[0]);
        assert_eq!(
            lines[1],
            r#"{"error":"line 2: the line is not valid UTF-8","line":2}"#
        );
        assert!(lines[2].contains(r#""text":"Y""#), "{}", lines[2]);
    }
}

#[test]
fn call_with_empty_input_prints_nothing() {
    let out = run_in(tempfile::tempdir().unwrap().path(), &["call"], "");
    assert!(out.status.success(), "{}", out.stderr);
    assert_eq!(out.stdout, "");
}

#[test]
fn call_with_a_missing_root_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let out = run_in(
        dir.path(),
        &["call", "--root", missing.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with(&format!(
            "error: --root {}: No such file or directory",
            missing.display()
        )),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);

    // A file is no root either.
    let file = dir.path().join("file.txt");
    std::fs::write(&file, "x").unwrap();
    let out = run_in(dir.path(), &["call", "--root", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with(&format!("error: --root {}: ", file.display())),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("not a directory"), "{}", out.stderr);
}

// ----------------------------------------------------------- help, usage

/// What clap prints for `tool-examples ARGS` when ARGS ask for help.
fn clap_help(args: &[&str]) -> String {
    let error = Cli::try_from_args(std::iter::once("tool-examples").chain(args.iter().copied()))
        .expect_err("help is an early exit");
    assert_eq!(error.kind(), ErrorKind::DisplayHelp, "{args:?}");
    error.render().to_string()
}

#[test]
fn help_prints_clap_help_and_exits_0() {
    for (args, help) in [
        (&["--help"][..], &["--help"][..]),
        (&["help"][..], &["--help"][..]),
        (&["-h"][..], &["-h"][..]),
        (&["call", "--help"][..], &["call", "--help"][..]),
        (&["help", "call"][..], &["call", "--help"][..]),
        (&["call", "--sequential", "-h"][..], &["call", "-h"][..]),
        (
            &["definitions", "--help"][..],
            &["definitions", "--help"][..],
        ),
        (&["mcp", "--help"][..], &["mcp", "--help"][..]),
        (
            &["completions", "--help"][..],
            &["completions", "--help"][..],
        ),
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, clap_help(help), "{args:?}");
        assert_eq!(out.stderr, "", "{args:?}");
    }
    let main = clap_help(&["--help"]);
    assert!(
        main.contains("Usage: tool-examples [OPTIONS] [COMMAND]"),
        "{main}"
    );
    for command in ["call", "definitions", "mcp", "completions"] {
        let help = clap_help(&[command, "--help"]);
        let usage = format!("Usage: tool-examples {command} [OPTIONS]");
        assert!(help.contains(&usage), "{help}");
    }
    let mcp = clap_help(&["mcp", "--help"]);
    for name in [
        "TOOL_EXAMPLES_ROOT",
        "TOOL_EXAMPLES_HTTP",
        "TOOL_EXAMPLES_TOKEN_FILE",
        "TOOL_EXAMPLES_TOKEN ",
        "TOOL_EXAMPLES_ALLOWED_HOSTS",
        "TOOL_EXAMPLES_UPSTREAM_TOKEN",
    ] {
        assert!(mcp.contains(name), "{name}");
    }
}

#[test]
fn version_prints_the_crate_version() {
    for flag in ["--version", "-V"] {
        let out = run(&[flag]);
        out.assert_clean();
        assert_eq!(
            out.stdout,
            format!("tool-examples {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn format_help_lists_every_format() {
    let out = run(&["definitions", "--help"]);
    out.assert_clean();
    let listed = after(&out.stdout, "Possible values:");
    for format in ProviderFormat::ALL {
        assert!(
            listed.contains(&format!("- {}: ", format.name())),
            "{format} is not listed: {}",
            out.stdout
        );
    }
    // The short help lists them too.
    let short = run(&["definitions", "-h"]);
    let listed = after(&short.stdout, "[possible values: ");
    for format in ProviderFormat::ALL {
        assert!(listed.contains(format.name()), "{format}: {}", short.stdout);
    }
}

/// What `help` says after `heading`.
fn after<'a>(help: &'a str, heading: &str) -> &'a str {
    help.split_once(heading)
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no possible values: {help}"))
}

#[test]
fn completions_print_a_script_for_each_shell() {
    let out = run(&["completions", "bash"]);
    out.assert_clean();
    assert!(out.stdout.contains("tool-examples"), "{}", out.stdout);
    assert!(out.stdout.contains("complete "), "{}", out.stdout);
    // Every command and flag is offered; the refused token flags are not.
    for word in [
        "call",
        "definitions",
        "mcp",
        "--root",
        "--http",
        "--token-file",
    ] {
        assert!(out.stdout.contains(word), "{word}");
    }
    assert!(!out.stdout.contains("--bearer-token"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        out.assert_clean();
        assert!(out.stdout.contains("tool-examples"), "{shell}");
    }
}

#[test]
fn unknown_commands_and_flags_are_usage_errors() {
    for (args, stderr) in [
        (
            &["frobnicate"][..],
            "error: unrecognized subcommand 'frobnicate'\n\nUsage: tool-examples [OPTIONS] [COMMAND]\n\nFor more information, try '--help'.\n",
        ),
        (
            &["call", "--fast"][..],
            "error: unexpected argument '--fast' found\n\nUsage: tool-examples call [OPTIONS]\n\nFor more information, try '--help'.\n",
        ),
        (
            &["call", "--root"][..],
            "error: a value is required for '--root <DIR>' but none was supplied\n\nFor more information, try '--help'.\n",
        ),
        (
            &["definitions", "--json"][..],
            "error: unexpected argument '--json' found\n\nUsage: tool-examples definitions [OPTIONS]\n\nFor more information, try '--help'.\n",
        ),
        (
            &["mcp", "--token-file", "t"][..],
            "error: the following required arguments were not provided:\n  --http <ADDR>\n\nUsage: tool-examples mcp --http <ADDR> --token-file <PATH>\n\nFor more information, try '--help'.\n",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert_eq!(out.stderr, stderr, "{args:?}");
    }
    // An unknown flag before any command.
    let out = run(&["--verbose"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with("error: unexpected argument '--verbose' found"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("Usage: tool-examples"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_bad_http_address_is_a_usage_error() {
    for (args, env) in [
        (&["mcp", "--http", "localhost"][..], None),
        (&["mcp"][..], Some("localhost")),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut command = support::command(args, dir.path());
        if let Some(address) = env {
            command.env("TOOL_EXAMPLES_HTTP", address);
        }
        let out = command.stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}");
        assert_eq!(out.stdout, b"");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            "error: invalid value 'localhost' for '--http <ADDR>': invalid socket address syntax\n\n\
             For more information, try '--help'.\n"
        );
    }
}

/// `call ARGS` in `dir` with `TOOL_EXAMPLES_ROOT` set to `root`, `input`
/// on stdin: exited 0, nothing on stderr; the answer lines.
fn call_with_root_variable(dir: &Path, args: &[&str], root: &Path, input: &str) -> Vec<Value> {
    let mut child = support::command(args, dir)
        .env("TOOL_EXAMPLES_ROOT", root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr, "");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The names a `list` answer lists.
fn listed_names(answer: &Value) -> Vec<&str> {
    answer["details"]["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("not a listing: {answer}"))
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect()
}

#[test]
fn call_reads_the_root_from_the_environment() {
    let dir = call_root();
    let root = dir.path().join("root");
    let input = concat!(
        r#"{"id":"r","name":"read","arguments":{"path":"hello.txt","limit":1}}"#,
        "\n",
        r#"{"id":"l","name":"list","arguments":{}}"#,
        "\n",
    );
    let answers = call_with_root_variable(dir.path(), &["call"], &root, input);
    // `hello.txt` is at the top of the variable's root, not of the current
    // directory (where it is `root/hello.txt`).
    assert_eq!(answers[0]["isError"], false, "{}", answers[0]);
    assert_eq!(answers[0]["details"]["path"], "hello.txt", "{}", answers[0]);
    assert_eq!(listed_names(&answers[1]), ["big.txt", "hello.txt"]);

    // A flag wins over the variable.
    let list = r#"{"id":"l","name":"list","arguments":{}}"#;
    let elsewhere = dir.path().to_str().unwrap();
    let answers =
        call_with_root_variable(root.as_path(), &["call", "--root", elsewhere], &root, list);
    assert_eq!(listed_names(&answers[0]), ["escape.txt", "root"]);
}

// ------------------------------------------------------- mcp over HTTP

/// `tool-examples mcp ARGS` with `env` as the only deployment variables,
/// its stdout and stderr piped.
fn spawn_mcp_http(args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    let args = [&["mcp"], args].concat();
    support::spawn_serving(&args, Path::new("."), env)
}

/// Runs `mcp ARGS` to its exit: status and stderr.
fn run_mcp_http(args: &[&str], env: &[(&str, &str)]) -> (ExitStatus, String, String) {
    let mut child = spawn_mcp_http(args, env);
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let status = wait(&mut child, TIMEOUT);
    (
        status,
        String::from_utf8(stdout.join().unwrap()).unwrap(),
        String::from_utf8(stderr.join().unwrap()).unwrap(),
    )
}

#[test]
fn mcp_refuses_a_non_loopback_address_without_a_token() {
    let (status, stdout, stderr) = run_mcp_http(&["--http", "0.0.0.0:0"], &[]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "error: refusing to serve MCP on 0.0.0.0:0 without a token: that address can be \
         reached from other machines, and whoever reaches it could call every tool. Give a \
         token with --token-file PATH or TOOL_EXAMPLES_TOKEN, or OAuth with --oauth-issuer \
         and --audience, or pass --allow-unauthenticated if that is meant\n"
    );
    // IPv6's all-interfaces address too.
    let (status, _, stderr) = run_mcp_http(&["--http", "[::]:0"], &[]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: refusing to serve MCP on [::]:0"),
        "{stderr}"
    );
}

#[test]
fn mcp_refuses_an_empty_or_missing_token() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "\n").unwrap();
    let empty = empty.to_str().unwrap();
    let (status, _, stderr) = run_mcp_http(&["--http", "0.0.0.0:0", "--token-file", empty], &[]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        format!("error: --token-file {empty}: the token is empty\n")
    );

    let missing = dir.path().join("missing");
    let missing = missing.to_str().unwrap();
    let (status, _, stderr) = run_mcp_http(&["--http", "0.0.0.0:0", "--token-file", missing], &[]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: --token-file {missing}: ")),
        "{stderr}"
    );

    let (status, _, stderr) =
        run_mcp_http(&["--http", "0.0.0.0:0"], &[("TOOL_EXAMPLES_TOKEN", "  ")]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(stderr, "error: TOOL_EXAMPLES_TOKEN: the token is empty\n");
}

#[test]
fn mcp_never_takes_the_token_as_a_flag() {
    let (status, stdout, stderr) =
        run_mcp_http(&["--http", "0.0.0.0:0", "--token", "hunter2"], &[]);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("error: '--token' is not accepted: a token on the command line"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

/// A text log line's level and message:
/// `2025-01-01T00:00:00.000000Z  WARN tool_examples: the message`.
fn log_line(line: &str) -> (String, String) {
    let parsed = (|| {
        let (_time, rest) = line.split_once(' ')?;
        let (level, rest) = rest.trim_start().split_once(' ')?;
        let (_target, message) = rest.split_once(": ")?;
        Some((level.to_owned(), message.trim_end().to_owned()))
    })();
    parsed.unwrap_or_else(|| panic!("not a log line: {line:?}"))
}

/// Starts `mcp ARGS`, reads its three startup log lines (and the warning
/// about the token file before them), and stops it: each startup line's
/// level and message, and the warnings, one `LEVEL message` line each.
fn startup_lines(args: &[&str], env: &[(&str, &str)]) -> (Vec<(String, String)>, String) {
    let mut child = spawn_mcp_http(args, env);
    let (stderr, reader) = lines(child.stderr.take().unwrap());
    let mut startup = Vec::new();
    let mut seen = String::new();
    while startup.len() < 3 {
        match stderr.recv_timeout(TIMEOUT) {
            Ok(line) => {
                let (level, message) = log_line(&line);
                if message.starts_with("--token-file ") {
                    seen.push_str(&format!("{level} {message}\n"));
                } else {
                    startup.push((level, message));
                }
            }
            Err(_) => panic!("fewer than three startup lines: {startup:?} {seen}"),
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    (startup, seen)
}

#[test]
fn mcp_says_at_startup_which_hosts_and_what_authentication() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "s3cret\n").unwrap();
    let token_file = token_file.to_str().unwrap();

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let readable = std::fs::Permissions::from_mode(0o644);
        std::fs::set_permissions(token_file, readable).unwrap();
        let (_, warnings) =
            startup_lines(&["--http", "0.0.0.0:0", "--token-file", token_file], &[]);
        assert_eq!(
            warnings,
            format!("WARN --token-file {token_file}: other users may read it (chmod 600 it)\n")
        );
        std::fs::set_permissions(token_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (startup, warnings) =
        startup_lines(&["--http", "0.0.0.0:0", "--token-file", token_file], &[]);
    assert!(cfg!(not(unix)) || warnings.is_empty(), "{warnings}");
    assert!(
        startup[0].1.starts_with("serving MCP on http://0.0.0.0:"),
        "{startup:?}"
    );
    // Said at INFO; only an open door is a warning.
    for (level, _) in &startup {
        assert_eq!(level, "INFO", "{startup:?}");
    }
    assert_eq!(
        startup[1].1,
        "accepting Host: localhost, 127.0.0.1, [::1], and any IP address of this machine \
         (name others with --allowed-host)"
    );
    assert_eq!(
        startup[2].1,
        format!("authentication: bearer token from --token-file {token_file}")
    );

    let (startup, _) = startup_lines(
        &["--http", "0.0.0.0:0", "--allowed-host", "mcp.example.com"],
        &[
            ("TOOL_EXAMPLES_TOKEN", "s3cret"),
            ("TOOL_EXAMPLES_ALLOWED_HOSTS", "a.example, b.example:8443,"),
        ],
    );
    assert_eq!(
        startup[1].1,
        "accepting Host: localhost, 127.0.0.1, [::1], mcp.example.com, a.example, \
         b.example:8443 (name others with --allowed-host)"
    );
    assert_eq!(
        startup[2].1,
        "authentication: bearer token from TOOL_EXAMPLES_TOKEN"
    );

    let (startup, _) = startup_lines(&["--http", "127.0.0.1:0"], &[]);
    assert_eq!(startup[2].1, "authentication: none (loopback only)");
    let (startup, _) = startup_lines(&["--http", "0.0.0.0:0", "--allow-unauthenticated"], &[]);
    assert_eq!(startup[2].0, "WARN", "{startup:?}");
    assert!(
        startup[2]
            .1
            .starts_with("authentication: NONE (--allow-unauthenticated)"),
        "{startup:?}"
    );

    // The deployment variables stand for --http and --token-file.
    let (startup, _) = startup_lines(
        &[],
        &[
            ("TOOL_EXAMPLES_HTTP", "127.0.0.1:0"),
            ("TOOL_EXAMPLES_TOKEN_FILE", token_file),
        ],
    );
    assert!(
        startup[0].1.starts_with("serving MCP on http://127.0.0.1:"),
        "{startup:?}"
    );
    assert_eq!(
        startup[2].1,
        format!("authentication: bearer token from --token-file {token_file}")
    );
}

#[test]
fn mcp_refuses_an_allowed_host_that_is_not_a_host() {
    let (status, _, stderr) = run_mcp_http(
        &["--http", "127.0.0.1:0", "--allowed-host", "not a host"],
        &[],
    );
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: allowed host 'not a host' is not a host name or host:port\n"
    );
}

// --------------------------------------------------------------- streaming

/// Writes one call at a time and reads its answer while stdin stays open.
fn answers_stream(args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(args, dir.path(), Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let (answers, reader) = lines(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    for id in ["first", "second"] {
        let call =
            json!({"type": "toolCall", "id": id, "name": "upper", "arguments": {"text": id}});
        writeln!(stdin, "{call}").unwrap();
        stdin.flush().unwrap();
        let answer = match answers.recv_timeout(Duration::from_secs(10)) {
            Ok(answer) => answer,
            Err(error) => {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{args:?}: no answer to '{id}' while stdin is open: {error}");
            }
        };
        let value: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(value["toolCallId"], id);
        assert_eq!(value["content"][0]["text"], id.to_uppercase());
    }
    // Still running, waiting for more input.
    assert!(child.try_wait().unwrap().is_none());
    drop(stdin);
    let status = wait(&mut child, TIMEOUT);
    reader.join().unwrap();
    assert!(answers.try_recv().is_err(), "nothing more is written");
    let stderr = String::from_utf8(stderr.join().unwrap()).unwrap();
    assert!(status.success(), "{args:?}: {status:?} {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn call_streams_answers_before_input_ends() {
    answers_stream(&["call"]);
}

#[test]
fn call_sequential_streams_answers_before_input_ends() {
    answers_stream(&["call", "--sequential"]);
}

/// `write` needs approval: one process answers the call with an
/// approval-request line; a second process, given the same key file,
/// resumes it from a decision line and writes; a process with another key
/// refuses it as forged. With `--approval-ledger none` each process
/// remembers only its own resumes: the documented limit, shown here, is
/// that the same decision replayed to a third process runs the call again
/// there, while a process refuses a replay of a state it resumed itself.
/// `--approve-all` writes at once.
#[test]
fn an_approval_suspends_in_one_process_and_resumes_in_another() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, "k".repeat(40)).unwrap();
    let other_key = dir.path().join("other-key");
    std::fs::write(&other_key, "o".repeat(40)).unwrap();
    let (root_arg, key_arg) = (root.to_str().unwrap(), key.to_str().unwrap());
    let args = [
        "call",
        "--root",
        root_arg,
        "--approval-key-file",
        key_arg,
        "--approval-ledger",
        "none",
    ];
    let call = json!({"type": "toolCall", "id": "w1", "name": "write", "arguments": {"path": "notes.txt", "content": "hi"}});

    let first = run_in(dir.path(), &args, format!("{call}\n"));
    first.assert_clean();
    let request: Value = serde_json::from_str(first.stdout.trim()).unwrap();
    assert_eq!(request["type"], "approvalRequest");
    assert_eq!(request["toolCallId"], "w1");
    assert_eq!(request["toolName"], "write");
    assert!(
        request["question"]
            .as_str()
            .unwrap()
            .starts_with("Allow write ("),
        "{request}"
    );
    assert!(
        request["suspension"].as_str().unwrap().starts_with("v2."),
        "{request}"
    );
    assert!(
        !root.join("notes.txt").exists(),
        "nothing is written before the decision"
    );

    let decision = json!({"type": "approval", "toolCallId": "w1", "decision": "approve", "suspension": request["suspension"]});
    let forged = run_in(
        dir.path(),
        &[
            "call",
            "--root",
            root_arg,
            "--approval-key-file",
            other_key.to_str().unwrap(),
            "--approval-ledger",
            "none",
        ],
        format!("{decision}\n"),
    );
    let refused: Value = serde_json::from_str(forged.stdout.trim()).unwrap();
    assert_eq!(refused["type"], "approvalError");
    assert_eq!(refused["toolCallId"], "w1");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("does not open: it was changed, or sealed with another key"),
        "{refused}"
    );
    assert!(!root.join("notes.txt").exists());

    let second = run_in(dir.path(), &args, format!("{decision}\n"));
    second.assert_clean();
    let result: Value = serde_json::from_str(second.stdout.trim()).unwrap();
    assert_eq!(result["toolCallId"], "w1");
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "hi"
    );

    // The documented limit of --approval-ledger none: another process has
    // no record of the resume, and runs the call again.
    std::fs::write(root.join("notes.txt"), "changed since").unwrap();
    let replay = run_in(dir.path(), &args, format!("{decision}\n"));
    replay.assert_clean();
    let again: Value = serde_json::from_str(replay.stdout.trim()).unwrap();
    assert_eq!(again["toolCallId"], "w1");
    assert_eq!(again["isError"], false, "{again}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "hi",
        "a replay in another process ran the call again"
    );

    // Within one process the same state resumes once: the second line is
    // refused (sequential, so the first has finished before it is read).
    std::fs::write(root.join("notes.txt"), "changed again").unwrap();
    let sequential: Vec<&str> = args.iter().copied().chain(["--sequential"]).collect();
    let twice = run_in(dir.path(), &sequential, format!("{decision}\n{decision}\n"));
    twice.assert_clean();
    let answers: Vec<Value> = twice
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{}", twice.stdout);
    assert_eq!(answers[0]["isError"], false, "{}", twice.stdout);
    assert_eq!(answers[1]["type"], "approvalError", "{}", twice.stdout);
    assert!(
        answers[1]["error"]
            .as_str()
            .unwrap()
            .contains("was resumed or closed already"),
        "{}",
        twice.stdout
    );
    std::fs::write(root.join("notes.txt"), "left alone").unwrap();

    let direct = json!({"type": "toolCall", "id": "w2", "name": "write", "arguments": {"path": "b.txt", "content": "yes"}});
    let approved = run_in(
        dir.path(),
        &["call", "--root", root_arg, "--approve-all"],
        format!("{direct}\n"),
    );
    approved.assert_clean();
    assert_eq!(std::fs::read_to_string(root.join("b.txt")).unwrap(), "yes");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "left alone"
    );
}

/// A key file lets other processes resume the same approvals, so without
/// a shared ledger (`--state-url`) or `--approval-ledger none` saying that
/// each process keeps its own, `call` and `mcp` refuse to start: a usage
/// error, exit 2, naming both ways out.
#[test]
fn a_key_file_without_a_ledger_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, "k".repeat(40)).unwrap();
    let key_arg = key.to_str().unwrap();
    for command in ["call", "mcp"] {
        let out = run_in(dir.path(), &[command, "--approval-key-file", key_arg], "");
        assert_eq!(out.status.code(), Some(2), "{command}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{command}");
        for named in [
            "--approval-ledger none",
            "--state-url",
            "--approval-key-file",
        ] {
            assert!(
                out.stderr.contains(named),
                "{command}: stderr does not name {named}: {}",
                out.stderr
            );
        }
    }
    // The same key through its variable is refused the same way.
    let (out, _) = run_with_env(
        dir.path(),
        &["call"],
        &[("TOOL_EXAMPLES_APPROVAL_KEY_FILE", key_arg)],
    );
    assert_eq!(out.status.code(), Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("--approval-ledger none"),
        "{}",
        out.stderr
    );
    // With `--approval-ledger none`, it runs.
    let call =
        json!({"type": "toolCall", "id": "e1", "name": "echo", "arguments": {"value": "ok"}});
    let out = run_in(
        dir.path(),
        &[
            "call",
            "--approval-key-file",
            key_arg,
            "--approval-ledger",
            "none",
        ],
        format!("{call}\n"),
    );
    out.assert_clean();
    assert!(out.stdout.contains(r#""text":"ok""#), "{}", out.stdout);
}

/// Runs the binary in `dir` with `args` and the variables `env`, stdin
/// empty; how long it took.
fn run_with_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Run, Duration) {
    let started = std::time::Instant::now();
    let mut child = support::command(args, dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let status = wait(&mut child, TIMEOUT);
    let run = Run {
        status,
        stdout: String::from_utf8(stdout.join().unwrap()).unwrap(),
        stderr: String::from_utf8(stderr.join().unwrap()).unwrap(),
    };
    (run, started.elapsed())
}

/// A store that cannot be reached fails the start at once, naming
/// `--state-url`, and never shows the URL's password: neither from the
/// command line nor from the variable.
#[test]
fn an_unreachable_state_url_fails_fast_without_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, "k".repeat(40)).unwrap();
    let key_arg = key.to_str().unwrap();
    // Port 9 (discard): nothing listens on it.
    let url = "redis://u:hunter2@127.0.0.1:9/0";
    type Start<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, &'a str)]);
    let starts: [Start; 3] = [
        (
            "call --state-url",
            &["call", "--approval-key-file", key_arg, "--state-url", url],
            &[],
        ),
        (
            "call with TOOL_EXAMPLES_STATE_URL",
            &["call", "--approval-key-file", key_arg],
            &[("TOOL_EXAMPLES_STATE_URL", url)],
        ),
        ("mcp --state-url", &["mcp", "--state-url", url], &[]),
    ];
    for (what, args, env) in starts {
        let (out, took) = run_with_env(dir.path(), args, env);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", out.stderr);
        assert!(
            took < Duration::from_secs(10),
            "{what}: refused after {took:?}"
        );
        assert_eq!(out.stdout, "", "{what}");
        assert!(
            out.stderr.starts_with("error: --state-url: "),
            "{what}: {}",
            out.stderr
        );
        assert!(out.stderr.contains("127.0.0.1:9"), "{what}: {}", out.stderr);
        assert!(
            !out.stderr.contains("hunter2"),
            "{what}: the password shows: {}",
            out.stderr
        );
    }
}

/// One `call` process, line by line while stdin stays open.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    answers: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str], dir: &Path) -> Self {
        let mut child = spawn(args, dir, Stdio::null());
        let stdin = child.stdin.take().unwrap();
        let (answers, _reader) = lines(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            answers,
        }
    }

    /// Sends `line` and returns the line it is answered with.
    fn send(&mut self, line: &Value) -> Value {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        match self.answers.recv_timeout(TIMEOUT) {
            Ok(answer) => serde_json::from_str(&answer).unwrap(),
            Err(error) => {
                self.child.kill().unwrap();
                self.child.wait().unwrap();
                panic!("no answer to {line}: {error}");
            }
        }
    }

    fn finish(mut self) {
        drop(self.stdin);
        let status = wait(&mut self.child, TIMEOUT);
        assert!(status.success(), "{status:?}");
        assert!(self.answers.recv().is_err(), "nothing more is written");
    }
}

/// Every line of an approval in one `call` process, on `write`: a close
/// answers the waiting call without writing (and a decision after it is
/// refused), `respond` answers with the person's result (any JSON, as
/// `write` has no output schema), and `alwaysApprove` writes and stands
/// for the later `write` calls of the process.
#[test]
fn close_respond_and_always_approve_lines_on_write() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let mut session = Session::start(&["call", "--root", root.to_str().unwrap()], dir.path());
    let write = |id: &str, path: &str| json!({"type": "toolCall", "id": id, "name": "write", "arguments": {"path": path, "content": id}});
    let decide = |request: &Value, decision: Value| {
        let mut line = json!({"type": "approval", "toolCallId": request["toolCallId"], "suspension": request["suspension"]});
        line.as_object_mut()
            .unwrap()
            .extend(decision.as_object().unwrap().clone());
        line
    };
    let text = |result: &Value| result["content"][0]["text"].as_str().unwrap().to_owned();

    // Closed: answered denied, nothing written; then nothing decides it.
    let request = session.send(&write("w1", "closed.txt"));
    assert_eq!(request["type"], "approvalRequest", "{request}");
    let closed = session.send(&json!({"type": "approvalClose", "suspension": request["suspension"], "reason": "the user left"}));
    assert_eq!(closed["role"], "toolResult", "{closed}");
    assert_eq!(closed["toolCallId"], "w1");
    assert_eq!(closed["isError"], true);
    assert_eq!(closed["failure"], "denied");
    assert_eq!(
        text(&closed),
        "This call did not run: its approval was closed without a decision (the user left)."
    );
    let late = session.send(&decide(&request, json!({"decision": "approve"})));
    assert_eq!(late["type"], "approvalError", "{late}");
    assert_eq!(late["toolCallId"], "w1");
    assert!(
        late["error"]
            .as_str()
            .unwrap()
            .contains("was resumed or closed already"),
        "{late}"
    );
    let reclosed =
        session.send(&json!({"type": "approvalClose", "suspension": request["suspension"]}));
    assert_eq!(reclosed["type"], "approvalError", "{reclosed}");
    assert!(reclosed.get("toolCallId").is_none(), "{reclosed}");
    assert!(!root.join("closed.txt").exists());

    // Respond: the person's result, any JSON; nothing written.
    let request = session.send(&write("w2", "responded.txt"));
    let result = json!({"written": "by hand", "bytes": 2});
    let responded = session.send(&decide(
        &request,
        json!({"decision": "respond", "result": result}),
    ));
    assert_eq!(responded["toolCallId"], "w2", "{responded}");
    assert_eq!(responded["isError"], false, "{responded}");
    assert_eq!(responded["details"], result);
    assert_eq!(
        serde_json::from_str::<Value>(&text(&responded)).unwrap(),
        result
    );
    assert!(!root.join("responded.txt").exists());
    let request = session.send(&write("w3", "responded.txt"));
    let responded = session.send(&decide(
        &request,
        json!({"decision": "respond", "result": "the person wrote it"}),
    ));
    assert_eq!(text(&responded), "the person wrote it");
    assert!(!root.join("responded.txt").exists());

    // Always approve: this call writes, and so does the next without asking.
    let request = session.send(&write("w4", "always.txt"));
    let approved = session.send(&decide(&request, json!({"decision": "alwaysApprove"})));
    assert_eq!(approved["toolCallId"], "w4", "{approved}");
    assert_eq!(approved["isError"], false, "{approved}");
    assert_eq!(
        std::fs::read_to_string(root.join("always.txt")).unwrap(),
        "w4"
    );
    let unasked = session.send(&write("w5", "unasked.txt"));
    assert_eq!(unasked["role"], "toolResult", "not asked again: {unasked}");
    assert_eq!(unasked["isError"], false, "{unasked}");
    assert_eq!(
        std::fs::read_to_string(root.join("unasked.txt")).unwrap(),
        "w5"
    );
    session.finish();
}
