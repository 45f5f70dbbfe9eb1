//! `--defer-all-except`: every tool but the named ones waits for
//! `tool_search`. `definitions` shows each format what a first turn sends
//! (the provider's own search where it has one); `call` and `mcp` offer
//! `tool_search`, and still run a deferred tool called by name; upstream
//! tools are deferred like the binary's own; a name that is no tool is a
//! usage error of the command that was given it.

use crate::cli::run_in;
use crate::support::BIN;
use crate::support::mcp::{binary, bounded, call_json, connect_stdio};
use serde_json::{Value, json};
use std::process::Stdio;
use tool_core::providers::ProviderFormat;
use tool_examples::deferral::{defer_all_except, shown_definitions};
use tool_examples::example_registry;

/// The example tools, sorted by name as every listing gives them.
const SORTED_TOOLS: [&str; 7] = ["echo", "label", "list", "read", "upper", "wait", "write"];

/// An entry's name: the tool's (`function.name` in OpenAI's Chat
/// Completions), or `type:<type>` for an entry with none (the Responses
/// API's hosted `tool_search`).
fn entry_name(entry: &Value) -> String {
    let tool = entry.get("function").unwrap_or(entry);
    match tool["name"].as_str() {
        Some(name) => name.to_owned(),
        None => format!("type:{}", entry["type"].as_str().unwrap_or("?")),
    }
}

/// The names of the entries that carry `defer_loading`, and its values.
fn deferred_entries(printed: &[Value]) -> Vec<(String, Value)> {
    printed
        .iter()
        .filter_map(|entry| {
            let tool = entry.get("function").unwrap_or(entry);
            let flag = tool.get("defer_loading")?;
            Some((entry_name(entry), flag.clone()))
        })
        .collect()
}

#[test]
fn definitions_show_each_format_the_core_tools_and_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let deferred_six: Vec<(String, Value)> = SORTED_TOOLS[1..]
        .iter()
        .map(|name| (name.to_string(), json!(true)))
        .collect();
    let every_tool_then = |search: &str| -> Vec<String> {
        let mut names: Vec<String> = SORTED_TOOLS.iter().map(|name| name.to_string()).collect();
        names.push(search.to_owned());
        names
    };
    // Per format: the entries' names, and which carry `defer_loading`.
    type Case = (&'static str, Vec<String>, Vec<(String, Value)>);
    let cases: [Case; 4] = [
        // The provider's own search: every tool, all but echo deferred.
        (
            "anthropic",
            every_tool_then("tool_search_tool_bm25"),
            deferred_six.clone(),
        ),
        (
            "openai-responses",
            every_tool_then("type:tool_search"),
            deferred_six,
        ),
        // No search of their own: echo and the built-in tool_search.
        ("openai", vec!["echo".into(), "tool_search".into()], vec![]),
        ("mcp", vec!["echo".into(), "tool_search".into()], vec![]),
    ];
    for (name, names, deferred) in cases {
        let out = run_in(
            dir.path(),
            &[
                "definitions",
                "--format",
                name,
                "--defer-all-except",
                "echo",
            ],
            "",
        );
        assert!(out.status.success(), "{name}: {}", out.stderr);
        let printed: Value = serde_json::from_str(&out.stdout).unwrap();
        let entries = printed.as_array().unwrap();
        let printed_names: Vec<String> = entries.iter().map(entry_name).collect();
        assert_eq!(printed_names, names, "{name}");
        assert_eq!(deferred_entries(entries), deferred, "{name}");

        // What the library gives a first turn of this format, diagnostics
        // on stderr as without the flag.
        let format: ProviderFormat = name.parse().unwrap();
        let tools =
            defer_all_except(example_registry(dir.path()).unwrap(), &["echo".to_owned()]).unwrap();
        let converted = format.definitions(&shown_definitions(&tools, format));
        assert_eq!(printed, converted.value, "{name}");
        let expected_stderr: String = converted
            .diagnostics
            .iter()
            .map(|diagnostic| format!("{format}: {diagnostic}\n"))
            .collect();
        assert_eq!(out.stderr, expected_stderr, "{name}");
    }
    // The Anthropic entry is its BM25 search tool, after the tools.
    let out = run_in(
        dir.path(),
        &[
            "definitions",
            "--format=anthropic",
            "--defer-all-except=echo",
        ],
        "",
    );
    let printed: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        printed[7],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
}

#[test]
fn definitions_keep_several_core_tools_given_either_way() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &[
            "definitions",
            "--format=mcp",
            "--defer-all-except",
            "write,echo",
            "--defer-all-except",
            "read",
        ],
        "",
    );
    assert!(out.status.success(), "{}", out.stderr);
    let printed: Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<String> = printed.as_array().unwrap().iter().map(entry_name).collect();
    assert_eq!(names, ["echo", "read", "tool_search", "write"]);
}

/// One `call` answer line per input line, parsed.
fn answers(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn call_finds_upper_through_tool_search_and_runs_it_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = [
        r#"{"type":"toolCall","id":"s1","name":"tool_search","arguments":{"query":"uppercase text"}}"#,
        r#"{"type":"toolCall","id":"u1","name":"upper","arguments":{"text":"shout"}}"#,
        r#"{"type":"toolCall","id":"e1","name":"echo","arguments":{"value":"up front"}}"#,
    ]
    .join("\n");
    let out = run_in(
        dir.path(),
        &["call", "--defer-all-except", "echo"],
        input + "\n",
    );
    assert!(out.status.success(), "{}", out.stderr);
    let answers = answers(&out.stdout);
    assert_eq!(answers.len(), 3, "{}", out.stdout);

    let search = &answers[0];
    assert_eq!(
        (&search["toolCallId"], &search["isError"]),
        (&json!("s1"), &json!(false)),
        "{search}"
    );
    assert_eq!(search["details"]["found"][0], "upper", "{search}");
    // The definition the model reads, as a JSON line of the text.
    let text = search["content"][0]["text"].as_str().unwrap();
    let upper = text
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|found| found["name"] == "upper")
        .unwrap_or_else(|| panic!("upper's definition is in {text:?}"));
    assert_eq!(upper["description"], "Upper-case a text");
    assert_eq!(upper["parameters"]["required"], json!(["text"]));

    assert_eq!(answers[1]["toolCallId"], "u1");
    assert_eq!(answers[1]["content"][0]["text"], "SHOUT", "{}", answers[1]);
    assert_eq!(
        answers[2]["content"][0]["text"], "up front",
        "{}",
        answers[2]
    );
}

#[test]
fn call_defers_the_upstream_tools_too_and_reaches_them() {
    let root = tempfile::tempdir().unwrap();
    // The upstream is this binary over stdio: its tools are up__<name>.
    let upstream = format!("up={BIN} mcp --root {}", root.path().display());
    let input = [
        // Every deferred tool whose name holds "echo": the core echo is not
        // among them, its upstream twin is.
        r#"{"type":"toolCall","id":"s1","name":"tool_search","arguments":{"query":"echo","mode":"regex"}}"#,
        r#"{"type":"toolCall","id":"s2","name":"tool_search","arguments":{"query":"^up__","mode":"regex","limit":20}}"#,
        r#"{"type":"toolCall","id":"u1","name":"up__upper","arguments":{"text":"far"}}"#,
    ]
    .join("\n");
    let out = run_in(
        root.path(),
        &[
            "call",
            "--upstream",
            &upstream,
            "--defer-all-except",
            "echo",
        ],
        input + "\n",
    );
    assert!(out.status.success(), "{}", out.stderr);
    let answers = answers(&out.stdout);
    assert_eq!(answers.len(), 3, "{}", out.stdout);
    assert_eq!(answers[0]["details"]["found"], json!(["up__echo"]));
    let upstream_names: Vec<String> = SORTED_TOOLS
        .iter()
        .map(|name| format!("up__{name}"))
        .collect();
    assert_eq!(answers[1]["details"]["found"], json!(upstream_names));
    assert_eq!(answers[2]["toolName"], "up__upper");
    assert_eq!(answers[2]["content"][0]["text"], "FAR", "{}", answers[2]);
}

#[test]
fn a_core_name_that_is_no_tool_is_a_usage_error_listing_the_tools() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["call", "definitions", "mcp"] {
        let out = run_in(
            dir.path(),
            &[command, "--defer-all-except", "echo,ecko"],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "{command}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{command}");
        assert_eq!(
            out.stderr,
            format!(
                "error: --defer-all-except: Toolset registry: keeps ecko up front, which it does \
                 not have (it has: echo, label, list, read, upper, wait, write)\n\n\
                 Usage: tool-examples {command} [OPTIONS]\n\n\
                 For more information, try '--help'.\n"
            ),
            "{command}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_lists_the_core_tool_and_tool_search_and_serves_the_rest_by_name() {
    let root = tempfile::tempdir().unwrap();
    let mut child = binary()
        .args(["mcp", "--defer-all-except", "echo", "--root"])
        .arg(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let client = connect_stdio(&mut child, "many-tools-test").await;

    let listed = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    let names: Vec<&str> = listed.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["echo", "tool_search"]);

    let found = bounded(
        "tools/call tool_search",
        call_json(&client, "tool_search", json!({"query": "upper-case text"})),
    )
    .await;
    assert_eq!(found["isError"], false, "{found}");
    let text = found["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(r#""name":"upper""#), "{text}");

    let shouted = bounded(
        "tools/call upper",
        call_json(&client, "upper", json!({"text": "deferred"})),
    )
    .await;
    assert_eq!(shouted["content"][0]["text"], "DEFERRED", "{shouted}");
    drop(client);
    child.start_kill().unwrap();
    let _ = child.wait().await;
}
