//! `call`'s approvals on JSON lines, in process: a call that needs
//! approval is answered with an approval-request line; a decision line
//! carrying its signed state resumes it (in a later run, as a new process
//! would, with the same key); replayed and forged states are refused with
//! an approval error, and the call still waits.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::io::BufReader;
use tool_core::approval::{ApprovalKey, Approvals, Decision};
use tool_core::{ExecutionMode, RunOptions, ToolRegistry, tool};
use tool_examples::call::approval::FileLedger;
use tool_examples::call::run_calls;

/// The notes stored, by every test of this file (each uses its own).
static STORED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn times_stored(note: &str) -> usize {
    STORED
        .lock()
        .unwrap()
        .iter()
        .filter(|stored| *stored == note)
        .count()
}

/// Store a note
#[tool(needs_approval, destructive)]
async fn store(note: String) -> String {
    STORED.lock().unwrap().push(note.clone());
    format!("stored {note}")
}

fn tools() -> Arc<ToolRegistry> {
    let mut tools = ToolRegistry::new();
    tools.register(StoreTool).unwrap();
    tools.register(tool_examples::echo::EchoTool).unwrap();
    Arc::new(tools)
}

fn key() -> ApprovalKey {
    ApprovalKey::new(*b"an approval key of 32 bytes, yes").unwrap()
}

/// One `call` run over `lines`, as a process started with the same key
/// (and `ledger`, when given) would answer them.
async fn run(lines: &[Value], ledger: Option<&std::path::Path>) -> Vec<Value> {
    let mut approvals = Approvals::suspend(key());
    if let Some(ledger) = ledger {
        approvals = approvals.with_ledger(FileLedger::open(ledger).unwrap());
    }
    run_with(lines, RunOptions::new().with_approvals(approvals)).await
}

async fn run_with(lines: &[Value], ctx: RunOptions) -> Vec<Value> {
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let mut output = Vec::new();
    run_calls(
        BufReader::new(std::io::Cursor::new(input.into_bytes())),
        &mut output,
        tools(),
        ExecutionMode::Parallel,
        ctx,
    )
    .await
    .unwrap();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn store_call(id: &str, note: &str) -> Value {
    json!({"type": "toolCall", "id": id, "name": "store", "arguments": {"note": note}})
}

fn decision(request: &Value, decision: Value) -> Value {
    let mut line = json!({
        "type": "approval",
        "toolCallId": request["toolCallId"],
        "suspension": request["suspension"],
    });
    line.as_object_mut()
        .unwrap()
        .extend(decision.as_object().unwrap().clone());
    line
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

#[tokio::test]
async fn a_call_waits_then_a_decision_in_a_later_run_resumes_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger");
    let echo =
        json!({"type": "toolCall", "id": "e1", "name": "echo", "arguments": {"value": "hi"}});
    let first = run(&[store_call("s1", "milk"), echo], Some(&ledger)).await;
    assert_eq!(first.len(), 2, "one line per call: {first:?}");
    let request = &first[0];
    assert_eq!(request["type"], "approvalRequest");
    assert_eq!(request["toolCallId"], "s1");
    assert_eq!(request["toolName"], "store");
    assert_eq!(request["arguments"], json!({"note": "milk"}));
    assert_eq!(
        request["question"],
        "Allow store (Store a note; may destroy data) to run with:\n  note: \"milk\"\n?"
    );
    assert_eq!(
        first[1]["toolCallId"], "e1",
        "other calls are answered in their place"
    );
    assert_eq!(times_stored("milk"), 0, "nothing ran before the decision");

    let approve = decision(request, json!({"decision": "approve"}));
    let second = run(std::slice::from_ref(&approve), Some(&ledger)).await;
    assert_eq!(second[0]["role"], "toolResult");
    assert_eq!(second[0]["toolCallId"], "s1");
    assert_eq!(text(&second[0]), "stored milk");

    // The same decision again, in yet another run sharing the ledger.
    let replay = run(&[approve], Some(&ledger)).await;
    assert_eq!(replay[0]["type"], "approvalError");
    assert_eq!(replay[0]["toolCallId"], "s1");
    assert!(
        replay[0]["error"]
            .as_str()
            .unwrap()
            .contains("resumed already"),
        "{replay:?}"
    );
    assert_eq!(times_stored("milk"), 1, "the call ran once");
}

#[tokio::test]
async fn forged_states_and_bad_decisions_are_refused_and_the_call_still_waits() {
    let first = run(&[store_call("s2", "eggs")], None).await;
    let request = &first[0];
    let mut forged = decision(request, json!({"decision": "approve"}));
    let state = forged["suspension"]["state"]
        .as_str()
        .unwrap()
        .replace("eggs", "everything");
    forged["suspension"]["state"] = Value::String(state);
    let edit_bad = decision(
        request,
        json!({"decision": "approve_with", "arguments": {"note": 5}}),
    );
    let no_state = json!({"type": "approval", "toolCallId": "s2", "decision": "approve"});
    let deny = decision(request, json!({"decision": "deny", "reason": "not today"}));
    let answers = run(&[forged, edit_bad, no_state, deny], None).await;
    let errors: Vec<&str> = answers[..3]
        .iter()
        .map(|a| a["error"].as_str().unwrap())
        .collect();
    assert!(errors[0].contains("signature does not match"), "{errors:?}");
    assert!(
        errors[1].starts_with("the edited arguments of call s2 do not parse: note"),
        "{errors:?}"
    );
    assert!(
        errors[2].starts_with("invalid approval line: missing field `suspension`"),
        "{errors:?}"
    );
    for refused in &answers[..3] {
        assert_eq!(refused["type"], "approvalError");
        assert_eq!(refused["toolCallId"], "s2");
    }
    // After all that, the person's "no" still applies: the state was never used.
    assert_eq!(answers[3]["isError"], true);
    assert_eq!(answers[3]["failure"], "denied");
    assert_eq!(text(&answers[3]), "Tool store failed: not today");
    assert_eq!(times_stored("eggs") + times_stored("everything"), 0);
}

#[tokio::test]
async fn approve_all_runs_without_asking() {
    let ctx = RunOptions::new().with_approvals(Approvals::ask(|_| async { Decision::Approve }));
    let answers = run_with(&[store_call("s3", "bread")], ctx).await;
    assert_eq!(text(&answers[0]), "stored bread");
}
