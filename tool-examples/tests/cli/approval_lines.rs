//! `call`'s approvals on JSON lines, in process: a call that needs
//! approval is answered with an approval-request line (camelCase, its
//! state sealed); a decision line carrying that state resumes it, in a
//! later run with fresh options and the same key, as a handler would, and
//! only once (the process keeps one ledger per key); a close line answers
//! it without running it; replayed and forged states are refused with an
//! approval error, and the call still waits.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::io::BufReader;
use tool_core::approval::{ApprovalKey, Approvals, Decision, arguments_sha256};
use tool_core::{ExecutionMode, RunOptions, ToolRegistry, tool};
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

/// Options as a `call` process started with the key builds them: fresh
/// ones each time, sharing nothing but the key (and so the process's
/// ledger of that key).
fn options() -> RunOptions {
    RunOptions::new().with_approvals(Approvals::suspend(key()))
}

/// One `call` run over `lines` with fresh [`options`].
async fn run(lines: &[Value]) -> Vec<Value> {
    run_with(lines, options()).await
}

async fn run_with(lines: &[Value], ctx: RunOptions) -> Vec<Value> {
    run_on(tools(), lines, ctx).await
}

async fn run_on(tools: Arc<ToolRegistry>, lines: &[Value], ctx: RunOptions) -> Vec<Value> {
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let mut output = Vec::new();
    run_calls(
        BufReader::new(std::io::Cursor::new(input.into_bytes())),
        &mut output,
        tools,
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

/// The decision line answering `request` with `decision`'s fields.
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

/// The close line of `request`'s state, with `reason` when given.
fn close(request: &Value, reason: Option<&str>) -> Value {
    let mut line = json!({"type": "approvalClose", "suspension": request["suspension"]});
    if let Some(reason) = reason {
        line["reason"] = Value::from(reason);
    }
    line
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

fn error(refused: &Value) -> &str {
    assert_eq!(refused["type"], "approvalError", "{refused}");
    refused["error"].as_str().unwrap()
}

/// The keys of a JSON object, in order.
fn keys(object: &Value) -> Vec<&str> {
    object
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The bytes of unpadded base64url `text` (the sealed state's encoding).
fn base64url(text: &str) -> Vec<u8> {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let (mut bits, mut count, mut bytes) = (0u32, 0, Vec::new());
    for c in text.bytes() {
        let value = alphabet
            .iter()
            .position(|&a| a == c)
            .unwrap_or_else(|| panic!("not base64url: {c:?} in {text}"));
        bits = (bits << 6) | value as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push((bits >> count) as u8);
        }
    }
    bytes
}

#[tokio::test]
async fn a_call_waits_then_a_decision_in_a_later_run_resumes_it_once() {
    let echo =
        json!({"type": "toolCall", "id": "e1", "name": "echo", "arguments": {"value": "hi"}});
    let first = run(&[store_call("s1", "milk"), echo]).await;
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

    // A later run with options built afresh, as a new request would.
    let approve = decision(request, json!({"decision": "approve"}));
    let second = run(std::slice::from_ref(&approve)).await;
    assert_eq!(second[0]["role"], "toolResult");
    assert_eq!(second[0]["toolCallId"], "s1");
    assert_eq!(text(&second[0]), "stored milk");

    // The same decision again, in yet another run: the process's ledger of
    // this key remembers the state was used.
    let replay = run(&[approve]).await;
    assert_eq!(replay[0]["toolCallId"], "s1");
    assert!(
        error(&replay[0]).contains("was resumed or closed already"),
        "{replay:?}"
    );
    assert_eq!(times_stored("milk"), 1, "the call ran once");
}

/// The request line is the request's camelCase fields inline, and its
/// state is sealed: the arguments are on the line for the person, but
/// nowhere in the suspension, even decoded.
#[tokio::test]
async fn the_request_line_is_camel_case_and_its_suspension_is_sealed() {
    let note = "a note no sealed state may show";
    let answers = run(&[store_call("s6", note)]).await;
    let request = &answers[0];
    assert_eq!(
        keys(request),
        [
            "type",
            "approvalId",
            "toolCallId",
            "toolName",
            "arguments",
            "argumentsSha256",
            "annotations",
            "question",
            "expiresAt",
            "suspension"
        ],
        "{request}"
    );
    assert_eq!(request["type"], "approvalRequest");
    assert!(!request["approvalId"].as_str().unwrap().is_empty());
    assert_eq!(
        request["argumentsSha256"],
        arguments_sha256(&json!({"note": note}))
    );
    assert_eq!(request["annotations"]["destructiveHint"], true, "{request}");
    assert!(request["expiresAt"].as_u64().unwrap() > 0);

    let sealed = request["suspension"].as_str().unwrap();
    let payload = sealed.strip_prefix("v2.").expect("a v2 sealed state");
    assert!(
        !sealed.contains(note) && !sealed.contains("store"),
        "{sealed}"
    );
    let bytes = base64url(payload);
    for plain in [note, "\"store\"", "s6", "toolCallId"] {
        assert!(
            !bytes
                .windows(plain.len())
                .any(|window| window == plain.as_bytes()),
            "the sealed state shows {plain:?}"
        );
    }
    assert_eq!(times_stored(note), 0);
}

#[tokio::test]
async fn forged_states_and_bad_decisions_are_refused_and_the_call_still_waits() {
    let first = run(&[store_call("s2", "eggs")]).await;
    let request = &first[0];
    let mut forged = decision(request, json!({"decision": "approve"}));
    let sealed = forged["suspension"].as_str().unwrap();
    let middle = sealed.len() / 2;
    let flipped = if &sealed[middle..=middle] == "A" {
        "B"
    } else {
        "A"
    };
    forged["suspension"] = Value::from(format!(
        "{}{flipped}{}",
        &sealed[..middle],
        &sealed[middle + 1..]
    ));
    let edit_bad = decision(
        request,
        json!({"decision": "approveWith", "arguments": {"note": 5}}),
    );
    let snake_case = decision(
        request,
        json!({"decision": "approve_with", "arguments": {"note": "everything"}}),
    );
    let no_state = json!({"type": "approval", "toolCallId": "s2", "decision": "approve"});
    let deny = decision(request, json!({"decision": "deny", "reason": "not today"}));
    let answers = run(&[forged, edit_bad, snake_case, no_state, deny]).await;
    let errors: Vec<&str> = answers[..4].iter().map(error).collect();
    assert!(
        errors[0].contains("does not open: it was changed, or sealed with another key"),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with("the edited arguments of call s2 do not parse: note"),
        "{errors:?}"
    );
    assert!(
        errors[2].starts_with("invalid approval line: unknown variant `approve_with`"),
        "{errors:?}"
    );
    assert!(
        errors[3].starts_with("invalid approval line: missing field `suspension`"),
        "{errors:?}"
    );
    for refused in &answers[..4] {
        assert_eq!(refused["toolCallId"], "s2");
    }
    // After all that, the person's "no" still applies: the state was never used.
    assert_eq!(answers[4]["isError"], true);
    assert_eq!(answers[4]["failure"], "denied");
    assert_eq!(text(&answers[4]), "A person denied this call: not today");
    assert_eq!(times_stored("eggs") + times_stored("everything"), 0);

    // Without a reason, the model reads that a person said no, and no more.
    let first = run(&[store_call("s2b", "ham")]).await;
    let denied = run(&[decision(&first[0], json!({"decision": "deny"}))]).await;
    assert_eq!(denied[0]["failure"], "denied");
    assert_eq!(text(&denied[0]), "A person denied this call.");
}

/// A close line answers the waiting call without running it; the state
/// is then used: a second close, or a decision, is refused.
#[tokio::test]
async fn a_close_line_answers_the_waiting_call_and_nothing_decides_it_after() {
    let first = run(&[store_call("s4", "jam")]).await;
    let request = &first[0];
    let closed = run(&[close(request, Some("the user left"))]).await;
    assert_eq!(closed.len(), 1, "{closed:?}");
    assert_eq!(closed[0]["role"], "toolResult");
    assert_eq!(closed[0]["toolCallId"], "s4");
    assert_eq!(closed[0]["toolName"], "store");
    assert_eq!(closed[0]["isError"], true);
    assert_eq!(closed[0]["failure"], "denied");
    assert_eq!(
        text(&closed[0]),
        "This call did not run: its approval was closed without a decision (the user left)."
    );

    let again = run(&[close(request, None)]).await;
    assert!(
        error(&again[0]).contains("was resumed or closed already"),
        "{again:?}"
    );
    assert_eq!(
        keys(&again[0]),
        ["type", "error"],
        "a close names no call: {again:?}"
    );
    let approve = run(&[decision(request, json!({"decision": "approve"}))]).await;
    assert!(
        error(&approve[0]).contains("was resumed or closed already"),
        "{approve:?}"
    );
    assert_eq!(approve[0]["toolCallId"], "s4");
    assert_eq!(times_stored("jam"), 0, "a closed call never runs");

    // Without a reason; and a close after a resume is refused too.
    let first = run(&[store_call("s4b", "tea"), store_call("s4c", "cake")]).await;
    let closed = run(&[close(&first[0], None)]).await;
    assert_eq!(
        text(&closed[0]),
        "This call did not run: its approval was closed without a decision."
    );
    let resumed = run(&[decision(&first[1], json!({"decision": "approve"}))]).await;
    assert_eq!(text(&resumed[0]), "stored cake");
    let late = run(&[close(&first[1], Some("too late"))]).await;
    assert!(
        error(&late[0]).contains("was resumed or closed already"),
        "{late:?}"
    );
    assert_eq!(times_stored("tea"), 0);
    assert_eq!(times_stored("cake"), 1);
}

/// `respond` answers the call with the person's result, without running
/// it: a string is the text the model reads.
#[tokio::test]
async fn a_respond_decision_answers_with_its_result() {
    let first = run(&[store_call("s5", "butter")]).await;
    let responded = run(&[decision(
        &first[0],
        json!({"decision": "respond", "result": "stored by hand"}),
    )])
    .await;
    assert_eq!(responded[0]["toolCallId"], "s5");
    assert_eq!(responded[0]["isError"], false, "{responded:?}");
    assert_eq!(text(&responded[0]), "stored by hand");
    assert_eq!(times_stored("butter"), 0, "the tool did not run");
}

/// `write` has no output schema, so `respond` takes any JSON for it: an
/// object is its details, and its JSON the text; nothing is written.
#[tokio::test]
async fn a_respond_decision_on_write_takes_any_json() {
    let dir = tempfile::tempdir().unwrap();
    let tools = Arc::new(tool_examples::example_registry(dir.path()).unwrap());
    assert!(
        tools
            .get("write")
            .unwrap()
            .definition()
            .output_schema
            .is_none(),
        "write has no output schema"
    );
    let call = json!({"type": "toolCall", "id": "w1", "name": "write", "arguments": {"path": "a.txt", "content": "hi"}});
    let first = run_on(Arc::clone(&tools), &[call], options()).await;
    assert_eq!(first[0]["type"], "approvalRequest", "{first:?}");
    let result = json!({"written": false, "why": ["done", "by", "hand"]});
    let responded = run_on(
        tools,
        &[decision(
            &first[0],
            json!({"decision": "respond", "result": result}),
        )],
        options(),
    )
    .await;
    assert_eq!(responded[0]["toolCallId"], "w1");
    assert_eq!(responded[0]["isError"], false, "{responded:?}");
    assert_eq!(responded[0]["details"], result);
    let read: Value = serde_json::from_str(text(&responded[0])).unwrap();
    assert_eq!(read, result);
    assert!(!dir.path().join("a.txt").exists(), "nothing was written");
}

/// `alwaysApprove` runs the call, and every later call of its tool under
/// the same approvals (one `call` process) runs without asking; options
/// built afresh (another process) still ask.
#[tokio::test]
async fn an_always_approve_decision_stands_for_the_rest_of_the_run() {
    let ctx = options();
    let first = run_with(&[store_call("s7", "salt")], ctx.clone()).await;
    assert_eq!(first[0]["type"], "approvalRequest");
    let approved = run_with(
        &[decision(&first[0], json!({"decision": "alwaysApprove"}))],
        ctx.clone(),
    )
    .await;
    assert_eq!(text(&approved[0]), "stored salt");
    let later = run_with(&[store_call("s8", "pepper")], ctx).await;
    assert_eq!(later[0]["role"], "toolResult", "not asked again: {later:?}");
    assert_eq!(text(&later[0]), "stored pepper");
    let elsewhere = run(&[store_call("s9", "sugar")]).await;
    assert_eq!(elsewhere[0]["type"], "approvalRequest", "{elsewhere:?}");
    assert_eq!(times_stored("sugar"), 0);
}

/// `alwaysDeny` denies the call, with its reason, and every later call of
/// its tool under the same approvals, without asking.
#[tokio::test]
async fn an_always_deny_decision_stands_for_the_rest_of_the_run() {
    let ctx = options();
    let first = run_with(&[store_call("s10", "oil")], ctx.clone()).await;
    let denied = run_with(
        &[decision(
            &first[0],
            json!({"decision": "alwaysDeny", "reason": "no more notes"}),
        )],
        ctx.clone(),
    )
    .await;
    assert_eq!(denied[0]["failure"], "denied", "{denied:?}");
    assert_eq!(text(&denied[0]), "A person denied this call: no more notes");
    let later = run_with(&[store_call("s11", "vinegar")], ctx).await;
    assert_eq!(later[0]["role"], "toolResult", "not asked again: {later:?}");
    assert_eq!(later[0]["failure"], "denied");
    assert_eq!(text(&later[0]), "A person denied this call: no more notes");
    assert_eq!(times_stored("oil") + times_stored("vinegar"), 0);
}

#[tokio::test]
async fn approve_all_runs_without_asking() {
    let ctx = RunOptions::new().with_approvals(Approvals::ask(|_| async { Decision::Approve }));
    let answers = run_with(&[store_call("s3", "bread")], ctx).await;
    assert_eq!(text(&answers[0]), "stored bread");
}
