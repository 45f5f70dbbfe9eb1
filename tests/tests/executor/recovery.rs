//! Recovering from failures: what kind of failure a result is (retry,
//! fatal, internal, denied) and how each goes on the wire, the retry budget
//! that stops a model looping on one mistake (a tool's own limit, a batch
//! that spent it), a before hook's rewrite of the
//! arguments (and a human-approval hook built on it), and per-turn tool
//! sets. Each test fails without the behaviour it names.
//!
//! Log capture of internal failures is not checked here: this crate has no
//! `tracing` dependency to install a subscriber with.

use serde_json::{Value, json};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tool_core::{
    CancellationToken, DynamicTool, ExecutionMode, FailureKind, RunOptions, Tool, ToolCall,
    ToolContext, ToolError, ToolFailure, ToolOutput, ToolParams, ToolRegistry, ToolResultMessage,
    execute_tool_call, executor::AfterCall, executor::BeforeCall, executor::HookDecision,
    executor::RetryBudget, repair::Repair, repair::RepairPolicy, repair::RepairRule, tool, tools,
};

use crate::support::bounded::{FOREVER, bounded, run_batch, run_call};
use crate::support::text_of;

fn texts(result: &ToolResultMessage) -> Vec<&str> {
    result
        .content
        .iter()
        .map(|item| item.as_text().expect("a text item"))
        .collect()
}

fn kinds(results: &[ToolResultMessage]) -> Vec<Option<FailureKind>> {
    results.iter().map(|r| r.failure_kind).collect()
}

/// The result on the wire, exactly as sent.
fn wire(result: &ToolResultMessage) -> String {
    serde_json::to_string(result).unwrap()
}

/// `expected` with `$T` replaced by the result's timestamp.
fn with_timestamp(expected: &str, result: &ToolResultMessage) -> String {
    assert!(
        result.timestamp > 1_700_000_000_000,
        "a time in milliseconds"
    );
    expected.replace("$T", &result.timestamp.to_string())
}

// ---------------------------------------------------------------------------
// Tools that fail in each way.
// ---------------------------------------------------------------------------

/// The message an internal failure carries, which the model must not read.
const SECRET: &str = "/srv/ledger/SECRET-7f3a.db: permission denied for user billing";

/// An error with a cause, as a tool's own code would have.
#[derive(Debug)]
struct LedgerError {
    source: std::io::Error,
}

impl fmt::Display for LedgerError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("reading the ledger")
    }
}

impl std::error::Error for LedgerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn ledger_error() -> LedgerError {
    LedgerError {
        source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, SECRET),
    }
}

/// The full message of `ledger_error()`, causes included.
const LEDGER_MESSAGE: &str =
    "reading the ledger: /srv/ledger/SECRET-7f3a.db: permission denied for user billing";

/// Does the work, or fails the way it is told to
#[tool]
async fn work(how: String) -> Result<ToolOutput<Value>, ToolError> {
    match how.as_str() {
        "ok" => Ok(ToolOutput::text("done").with_details(json!({"rows": 3}))),
        "retry" => Err(ToolFailure::retry("the date must be in the future").into()),
        "plain" => Err("the date must be in the future".into()),
        "fatal" => Err(ToolFailure::fatal("the account is closed").into()),
        "internal" => Err(ToolFailure::internal(ledger_error()).into()),
        "internal-text" => Err(ToolFailure::internal(format!("connect failed: {SECRET}")).into()),
        "domain" => Ok(ToolOutput::text("no order 7")
            .with_details(json!({"order": 7}))
            .into_error()),
        "panic" => panic!("the work exploded"),
        "hang" => {
            tokio::time::sleep(FOREVER).await;
            Ok(ToolOutput::text("late"))
        }
        other => Err(format!("no such mode {other}").into()),
    }
}

/// Fails with a `ToolFailure` as its own error type
#[tool]
async fn typed(how: String) -> Result<String, ToolFailure> {
    match how.as_str() {
        "fatal" => Err(ToolFailure::fatal("quota exhausted")),
        "internal" => Err(ToolFailure::internal(ledger_error())),
        "retry" => Err(ToolFailure::retry("say please")),
        _ => Ok("fine".into()),
    }
}

fn failing_tools() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(WorkTool).unwrap();
    tools.register(TypedTool).unwrap();
    tools
}

fn work_call(id: &str, how: &str) -> ToolCall {
    ToolCall::new(id, "work", json!({ "how": how }))
}

async fn work_result(id: &str, how: &str) -> ToolResultMessage {
    run_call(&work_call(id, how), &failing_tools(), RunOptions::new()).await
}

/// The reference in an internal failure's text, checked to be 8 lowercase
/// hex digits and to be the same in the details.
#[track_caller]
fn reference_of(result: &ToolResultMessage) -> String {
    let name = &result.tool_name;
    let text = text_of(result);
    let reference = text
        .strip_prefix(&format!("Tool {name} failed: internal error (reference "))
        .and_then(|rest| rest.strip_suffix("); the details are in the logs"))
        .unwrap_or_else(|| panic!("an internal failure's text: {text:?}"));
    assert_eq!(reference.len(), 8, "{reference:?}");
    assert!(
        reference
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "8 hex digits: {reference:?}"
    );
    assert_eq!(
        result.details,
        Some(json!({
            "error": format!("internal error (reference {reference}); the details are in the logs")
        }))
    );
    reference.to_owned()
}

// ---------------------------------------------------------------------------
// 1. Failure kinds and the wire.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_success_has_no_failure_kind_and_is_the_seed_shape_byte_for_byte() {
    let result = work_result("k0", "ok").await;
    assert_eq!(result.failure_kind, None);
    assert!(!result.is_error);
    assert!(result.repairs.is_empty());
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"k0","toolName":"work","content":[{"type":"text","text":"done"}],"details":{"rows":3},"isError":false,"timestamp":$T}"#,
            &result
        )
    );
}

#[tokio::test]
async fn a_retry_failure_is_the_seed_shape_without_a_failure_key() {
    let result = work_result("k1", "retry").await;
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    assert!(result.is_error);
    assert_eq!(
        texts(&result),
        ["Tool work failed: the date must be in the future"]
    );
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"k1","toolName":"work","content":[{"type":"text","text":"Tool work failed: the date must be in the future"}],"details":{"error":"the date must be in the future"},"isError":true,"timestamp":$T}"#,
            &result
        )
    );
}

#[tokio::test]
async fn a_plain_error_is_a_retry_failure_exactly_like_tool_failure_retry() {
    let plain = work_result("same", "plain").await;
    let mut retry = work_result("same", "retry").await;
    assert_eq!(plain.failure_kind, Some(FailureKind::Retry));
    retry.timestamp = plain.timestamp;
    assert_eq!(plain, retry);
    assert_eq!(wire(&plain), wire(&retry));
    assert!(!wire(&plain).contains("\"failure\""));
}

#[tokio::test]
async fn a_fatal_failure_says_so_on_the_wire() {
    let result = work_result("k2", "fatal").await;
    assert_eq!(result.failure_kind, Some(FailureKind::Fatal));
    assert!(result.is_error);
    assert_eq!(texts(&result), ["Tool work failed: the account is closed"]);
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"k2","toolName":"work","content":[{"type":"text","text":"Tool work failed: the account is closed"}],"details":{"error":"the account is closed"},"isError":true,"failure":"fatal","timestamp":$T}"#,
            &result
        )
    );
}

#[tokio::test]
async fn an_internal_failure_hides_its_message_behind_a_reference() {
    for how in ["internal", "internal-text"] {
        let result = work_result("k3", how).await;
        assert_eq!(result.failure_kind, Some(FailureKind::Internal), "{how}");
        assert!(result.is_error);
        assert_eq!(result.content.len(), 1);
        let reference = reference_of(&result);
        let sent = wire(&result);
        assert!(!sent.contains("SECRET"), "{how}: {sent}");
        assert!(!sent.contains("ledger"), "{how}: {sent}");
        assert!(!sent.contains("permission denied"), "{how}: {sent}");
        assert_eq!(
            sent,
            with_timestamp(
                &format!(
                    r#"{{"role":"toolResult","toolCallId":"k3","toolName":"work","content":[{{"type":"text","text":"Tool work failed: internal error (reference {reference}); the details are in the logs"}}],"details":{{"error":"internal error (reference {reference}); the details are in the logs"}},"isError":true,"failure":"internal","timestamp":$T}}"#
                ),
                &result
            )
        );
    }
}

#[tokio::test]
async fn two_internal_failures_get_different_references() {
    let tools = failing_tools();
    let calls = [work_call("i1", "internal"), work_call("i2", "internal")];
    let results = run_batch(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    let (first, second) = (reference_of(&results[0]), reference_of(&results[1]));
    assert_ne!(first, second);
    let third = reference_of(&work_result("i3", "internal").await);
    assert_ne!(third, first);
    assert_ne!(third, second);
}

/// An after hook that records what it saw and leaves the output as it is.
fn recording_after_hook(ctx: RunOptions) -> (RunOptions, Arc<Mutex<Vec<AfterCall>>>) {
    let seen: Arc<Mutex<Vec<AfterCall>>> = Arc::default();
    let record = Arc::clone(&seen);
    let ctx = ctx.with_after_hook(move |call| {
        record.lock().unwrap().push(call.clone());
        async move { Ok(call.output) }
    });
    (ctx, seen)
}

#[tokio::test]
async fn the_after_hook_gets_an_internal_failures_full_message_with_its_causes() {
    let (ctx, seen) = recording_after_hook(RunOptions::new());
    let result = run_call(&work_call("h1", "internal"), &failing_tools(), ctx).await;
    // The hook kept the output: the result is still internal, still generic.
    assert_eq!(result.failure_kind, Some(FailureKind::Internal));
    let reference = reference_of(&result);
    assert!(wire(&result).contains(r#""failure":"internal""#));

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let after = &seen[0];
    assert_eq!(after.internal_error.as_deref(), Some(LEDGER_MESSAGE));
    assert_eq!(after.failure_kind, Some(FailureKind::Internal));
    assert_eq!(after.arguments, json!({"how": "internal"}));
    // What the hook is given for the model is the generic text.
    assert_eq!(
        after.output,
        ToolOutput::text(format!(
            "Tool work failed: internal error (reference {reference}); the details are in the logs"
        ))
        .with_details(json!({
            "error": format!("internal error (reference {reference}); the details are in the logs")
        }))
        .into_error()
    );
}

#[tokio::test]
async fn the_after_hook_gets_the_kind_of_every_failure_and_no_internal_message_otherwise() {
    let (ctx, seen) = recording_after_hook(RunOptions::new());
    let calls = [
        work_call("a0", "ok"),
        work_call("a1", "retry"),
        work_call("a2", "fatal"),
        work_call("a3", "domain"),
    ];
    let results = run_batch(&calls, &failing_tools(), ctx, ExecutionMode::Sequential).await;
    assert_eq!(
        kinds(&results),
        [
            None,
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
            Some(FailureKind::Retry)
        ]
    );
    let seen: Vec<_> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|call| {
            (
                call.call_id.clone(),
                call.failure_kind,
                call.internal_error.clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("a0".to_owned(), None, None),
            ("a1".to_owned(), Some(FailureKind::Retry), None),
            ("a2".to_owned(), Some(FailureKind::Fatal), None),
            ("a3".to_owned(), Some(FailureKind::Retry), None),
        ]
    );
}

#[tokio::test]
async fn a_tool_fn_whose_error_type_is_tool_failure_keeps_the_kind() {
    let tools = failing_tools();
    let call = |id: &str, how: &str| ToolCall::new(id, "typed", json!({ "how": how }));
    let calls = [
        call("t0", "fatal"),
        call("t1", "internal"),
        call("t2", "retry"),
        call("t3", "ok"),
    ];
    let results = run_batch(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    assert_eq!(
        kinds(&results),
        [
            Some(FailureKind::Fatal),
            Some(FailureKind::Internal),
            Some(FailureKind::Retry),
            None
        ]
    );
    assert_eq!(text_of(&results[0]), "Tool typed failed: quota exhausted");
    reference_of(&results[1]);
    assert!(!wire(&results[1]).contains("SECRET"));
    assert_eq!(text_of(&results[2]), "Tool typed failed: say please");
    assert_eq!(text_of(&results[3]), "fine");
}

#[tokio::test]
async fn bad_arguments_an_unknown_tool_a_domain_error_and_a_panic_are_retry_failures() {
    let tools = failing_tools();
    let bad_problem = WorkParams::parse(&json!({"how": 7}))
        .err()
        .expect("7 is not a string")
        .to_string();
    let calls = [
        ToolCall::new("r0", "work", json!({"how": 7})),
        ToolCall::new("r1", "wrok", json!({"how": "ok"})),
        work_call("r2", "domain"),
        work_call("r3", "panic"),
    ];
    let results = run_batch(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    assert_eq!(kinds(&results), [Some(FailureKind::Retry); 4]);
    assert!(results.iter().all(|r| r.is_error));
    let expected = [
        format!(
            r#"{{"role":"toolResult","toolCallId":"r0","toolName":"work","content":[{{"type":"text","text":{}}}],"details":{{"error":{}}},"isError":true,"timestamp":$T}}"#,
            json!(format!("Tool work failed: {bad_problem}")),
            json!(bad_problem),
        ),
        // A misspelt name is told the one it meant.
        r#"{"role":"toolResult","toolCallId":"r1","toolName":"wrok","content":[{"type":"text","text":"Tool wrok failed: unknown tool (did you mean \"work\"?)"}],"details":{"error":"unknown tool (did you mean \"work\"?)"},"isError":true,"timestamp":$T}"#.to_owned(),
        r#"{"role":"toolResult","toolCallId":"r2","toolName":"work","content":[{"type":"text","text":"no order 7"}],"details":{"order":7},"isError":true,"timestamp":$T}"#.to_owned(),
        r#"{"role":"toolResult","toolCallId":"r3","toolName":"work","content":[{"type":"text","text":"Tool work failed: panicked: the work exploded"}],"details":{"error":"panicked: the work exploded"},"isError":true,"timestamp":$T}"#.to_owned(),
    ];
    for (result, expected) in results.iter().zip(expected) {
        assert_eq!(wire(result), with_timestamp(&expected, result));
    }
    assert!(bad_problem.starts_with("how: "), "{bad_problem}");
}

#[tokio::test(start_paused = true)]
async fn a_timeout_is_a_retry_failure() {
    let ctx = RunOptions::new().with_timeout(Duration::from_millis(250));
    let result = run_call(&work_call("to", "hang"), &failing_tools(), ctx).await;
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"to","toolName":"work","content":[{"type":"text","text":"Tool work failed: timed out after 250 ms"}],"details":{"error":"timed out after 250 ms"},"isError":true,"timestamp":$T}"#,
            &result
        )
    );
}

#[tokio::test]
async fn results_of_every_kind_round_trip_through_the_wire() {
    let mut results = Vec::new();
    for how in ["ok", "retry", "fatal", "internal", "domain"] {
        results.push(work_result(how, how).await);
    }
    // And one with repairs, from a before hook's rewrite.
    let (tools, _greet) = greet_tools();
    let ctx = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Rewrite(json!({"name": "Bo"}))) });
    results.push(run_call(&greet_call("rw", "Ada"), &tools, ctx).await);
    assert_eq!(results[5].repairs.len(), 1);

    for result in &results {
        let sent = wire(result);
        let read: ToolResultMessage = serde_json::from_str(&sent).unwrap();
        assert_eq!(&read, result, "{sent}");
        assert_eq!(wire(&read), sent);
    }
    assert_eq!(
        kinds(&results),
        [
            None,
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
            Some(FailureKind::Internal),
            Some(FailureKind::Retry),
            None,
        ]
    );
}

#[tokio::test]
async fn a_seed_shaped_error_reads_as_a_retry_failure() {
    let read = |text: &str| serde_json::from_str::<ToolResultMessage>(text).unwrap();
    let seed = read(
        r#"{"role":"toolResult","toolCallId":"c","toolName":"x","content":[{"type":"text","text":"Tool x failed: no"}],"details":{"error":"no"},"isError":true,"timestamp":1764000000000}"#,
    );
    assert_eq!(seed.failure_kind, Some(FailureKind::Retry));
    assert!(seed.repairs.is_empty());
    let mut expected = ToolResultMessage::failure(&ToolCall::new("c", "x", json!({})), "no");
    expected.timestamp = 1_764_000_000_000;
    assert_eq!(seed, expected);
    let ok = read(
        r#"{"role":"toolResult","toolCallId":"c","toolName":"x","content":[],"isError":false,"timestamp":1}"#,
    );
    assert_eq!(ok.failure_kind, None);
    assert_eq!(ok.details, None);
    let explicit = read(
        r#"{"role":"toolResult","toolCallId":"c","toolName":"x","content":[],"isError":true,"failure":"retry","timestamp":1}"#,
    );
    assert_eq!(explicit.failure_kind, Some(FailureKind::Retry));
    assert!(!wire(&explicit).contains("failure"));
    let fatal = read(
        r#"{"role":"toolResult","toolCallId":"c","toolName":"x","content":[],"isError":true,"failure":"fatal","timestamp":1}"#,
    );
    assert_eq!(fatal.failure_kind, Some(FailureKind::Fatal));
    // A success cannot be a failure of any kind.
    let not_failed = read(
        r#"{"role":"toolResult","toolCallId":"c","toolName":"x","content":[],"isError":false,"failure":"fatal","timestamp":1}"#,
    );
    assert_eq!(not_failed.failure_kind, None);
}

// ---------------------------------------------------------------------------
// 2. The retry budget.
// ---------------------------------------------------------------------------

/// Succeeds or fails, as asked
#[tool]
async fn alpha(ok: bool) -> Result<String, ToolError> {
    if ok {
        Ok("alpha ok".into())
    } else {
        Err("alpha needs ok".into())
    }
}

/// Succeeds or fails, as asked
#[tool]
async fn beta(ok: bool) -> Result<String, ToolError> {
    if ok {
        Ok("beta ok".into())
    } else {
        Err("beta needs ok".into())
    }
}

fn budget_tools() -> ToolRegistry {
    let mut tools = failing_tools();
    tools.register(AlphaTool).unwrap();
    tools.register(BetaTool).unwrap();
    tools
}

fn flaky(id: &str, name: &str, ok: bool) -> ToolCall {
    ToolCall::new(id, name, json!({ "ok": ok }))
}

fn stop_note(tool: &str, times: u32) -> String {
    let times = match times {
        1 => "once".to_owned(),
        times => format!("{times} times in a row"),
    };
    format!(
        "[{tool} has now failed {times}. Do not call it again in this turn: tell the user what went wrong instead.]"
    )
}

#[tokio::test]
async fn the_failure_past_the_limit_is_fatal_and_tells_the_model_to_stop() {
    let tools = budget_tools();
    let budget = RetryBudget::new(2);
    assert_eq!(budget.limit(), 2);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let mut results = Vec::new();
    for i in 0..4 {
        results.push(
            run_call(
                &flaky(&format!("f{i}"), "alpha", false),
                &tools,
                ctx.clone(),
            )
            .await,
        );
        assert_eq!(budget.consecutive_failures("alpha"), i + 1);
    }
    assert_eq!(
        kinds(&results),
        [
            Some(FailureKind::Retry),
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
            Some(FailureKind::Fatal),
        ]
    );
    assert_eq!(texts(&results[1]), ["Tool alpha failed: alpha needs ok"]);
    assert_eq!(
        texts(&results[2]),
        ["Tool alpha failed: alpha needs ok", &stop_note("alpha", 3)]
    );
    assert!(stop_note("alpha", 3).contains("Do not call it again"));
    assert_eq!(
        texts(&results[3]),
        ["Tool alpha failed: alpha needs ok", &stop_note("alpha", 4)]
    );
    // The details stay the tool's; the wire says it is fatal.
    assert_eq!(results[2].details, Some(json!({"error": "alpha needs ok"})));
    assert!(!wire(&results[1]).contains("\"failure\""));
    assert_eq!(
        wire(&results[2]),
        with_timestamp(
            &format!(
                r#"{{"role":"toolResult","toolCallId":"f2","toolName":"alpha","content":[{{"type":"text","text":"Tool alpha failed: alpha needs ok"}},{{"type":"text","text":{}}}],"details":{{"error":"alpha needs ok"}},"isError":true,"failure":"fatal","timestamp":$T}}"#,
                json!(stop_note("alpha", 3))
            ),
            &results[2]
        )
    );
}

#[tokio::test]
async fn bad_arguments_count_against_the_budget() {
    let tools = budget_tools();
    let budget = RetryBudget::new(1);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let bad = ToolCall::new("b", "alpha", json!({"ok": "yes"}));
    let first = run_call(&bad, &tools, ctx.clone()).await;
    let second = run_call(&bad, &tools, ctx).await;
    assert_eq!(first.failure_kind, Some(FailureKind::Retry));
    assert_eq!(first.content.len(), 1);
    assert_eq!(second.failure_kind, Some(FailureKind::Fatal));
    assert_eq!(second.content.len(), 2);
    assert_eq!(
        second.content[1].as_text(),
        Some(stop_note("alpha", 2).as_str())
    );
    assert_eq!(budget.consecutive_failures("alpha"), 2);
}

#[tokio::test]
async fn a_success_resets_the_count() {
    let tools = budget_tools();
    let budget = RetryBudget::new(2);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let sequence = [false, false, true, false, false, false];
    let mut results = Vec::new();
    let mut counts = Vec::new();
    for (i, ok) in sequence.into_iter().enumerate() {
        results.push(run_call(&flaky(&format!("s{i}"), "alpha", ok), &tools, ctx.clone()).await);
        counts.push(budget.consecutive_failures("alpha"));
    }
    assert_eq!(counts, [1, 2, 0, 1, 2, 3]);
    assert_eq!(
        kinds(&results),
        [
            Some(FailureKind::Retry),
            Some(FailureKind::Retry),
            None,
            Some(FailureKind::Retry),
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
        ]
    );
    assert_eq!(texts(&results[2]), ["alpha ok"]);
}

#[tokio::test]
async fn counts_are_per_tool() {
    let tools = budget_tools();
    let budget = RetryBudget::new(1);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let a1 = run_call(&flaky("a1", "alpha", false), &tools, ctx.clone()).await;
    let b1 = run_call(&flaky("b1", "beta", false), &tools, ctx.clone()).await;
    let a2 = run_call(&flaky("a2", "alpha", false), &tools, ctx.clone()).await;
    // beta's success resets beta only.
    let b2 = run_call(&flaky("b2", "beta", true), &tools, ctx.clone()).await;
    let b3 = run_call(&flaky("b3", "beta", false), &tools, ctx.clone()).await;
    let a3 = run_call(&flaky("a3", "alpha", false), &tools, ctx).await;
    assert_eq!(
        kinds(&[a1, b1, a2, b2, b3, a3]),
        [
            Some(FailureKind::Retry),
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
            None,
            Some(FailureKind::Retry),
            Some(FailureKind::Fatal),
        ]
    );
    assert_eq!(budget.consecutive_failures("alpha"), 3);
    assert_eq!(budget.consecutive_failures("beta"), 1);
    assert_eq!(budget.consecutive_failures("work"), 0);
}

#[tokio::test]
async fn clones_share_counts_across_turns_and_reset_forgets_them() {
    let tools = budget_tools();
    let conversation = RetryBudget::new(2);
    let turn = |budget: &RetryBudget| RunOptions::new().with_retry_budget(budget.clone());
    // Turn 1: two failures.
    for id in ["t1-a", "t1-b"] {
        let result = run_call(&flaky(id, "alpha", false), &tools, turn(&conversation)).await;
        assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    }
    // Turn 2, a new context with another clone: the third failure in a row.
    let result = run_call(&flaky("t2", "alpha", false), &tools, turn(&conversation)).await;
    assert_eq!(result.failure_kind, Some(FailureKind::Fatal));
    assert_eq!(conversation.consecutive_failures("alpha"), 3);
    let other_clone = conversation.clone();
    assert_eq!(other_clone.consecutive_failures("alpha"), 3);
    // A new conversation.
    other_clone.reset();
    assert_eq!(conversation.consecutive_failures("alpha"), 0);
    assert_eq!(other_clone.limit(), 2);
    let result = run_call(&flaky("t3", "alpha", false), &tools, turn(&conversation)).await;
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    assert_eq!(result.content.len(), 1);
    // An unrelated budget shares nothing.
    let separate = RetryBudget::new(2);
    assert_eq!(separate.consecutive_failures("alpha"), 0);
    assert_eq!(conversation.consecutive_failures("alpha"), 1);
}

#[tokio::test]
async fn fatal_and_internal_failures_do_not_count_as_retries() {
    let tools = budget_tools();
    let budget = RetryBudget::new(1);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let sequence = [
        "fatal", "internal", "fatal", "retry", "internal", "fatal", "retry",
    ];
    let mut results = Vec::new();
    let mut counts = Vec::new();
    for (i, how) in sequence.into_iter().enumerate() {
        results.push(run_call(&work_call(&format!("w{i}"), how), &tools, ctx.clone()).await);
        counts.push(budget.consecutive_failures("work"));
    }
    assert_eq!(counts, [0, 0, 0, 1, 1, 1, 2]);
    assert_eq!(
        kinds(&results),
        [
            Some(FailureKind::Fatal),
            Some(FailureKind::Internal),
            Some(FailureKind::Fatal),
            Some(FailureKind::Retry),
            Some(FailureKind::Internal),
            Some(FailureKind::Fatal),
            Some(FailureKind::Fatal),
        ]
    );
    // The tool's own fatal failures get no note; only the budget's does.
    for result in &results[..6] {
        assert_eq!(result.content.len(), 1, "{}", text_of(result));
    }
    assert_eq!(
        texts(&results[6]),
        [
            "Tool work failed: the date must be in the future",
            &stop_note("work", 2)
        ]
    );
}

#[tokio::test]
async fn batches_count_each_call() {
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let tools = budget_tools();
        let budget = RetryBudget::new(2);
        let ctx = RunOptions::new().with_retry_budget(budget.clone());
        let calls = [
            flaky("p0", "alpha", false),
            flaky("p1", "beta", false),
            flaky("p2", "alpha", false),
            ToolCall::new("p3", "alpha", json!({})),
            flaky("p4", "alpha", false),
            flaky("p5", "beta", true),
        ];
        let results = run_batch(&calls, &tools, ctx, mode).await;
        assert_eq!(
            kinds(&results),
            [
                Some(FailureKind::Retry),
                Some(FailureKind::Retry),
                Some(FailureKind::Retry),
                Some(FailureKind::Fatal),
                Some(FailureKind::Fatal),
                None,
            ],
            "{mode:?}"
        );
        assert_eq!(
            results[3].content[1].as_text(),
            Some(stop_note("alpha", 3).as_str()),
            "{mode:?}"
        );
        // p3 spent alpha's budget in this batch: p4 is answered, not run.
        assert_eq!(texts(&results[4]), [not_run("alpha", 3)], "{mode:?}");
        assert_eq!(budget.consecutive_failures("alpha"), 3, "{mode:?}");
        assert_eq!(budget.consecutive_failures("beta"), 0, "{mode:?}");
    }
}

/// What a call of `tool` is answered when the batch spent its budget after
/// `times` failures in a row.
fn not_run(tool: &str, times: u32) -> String {
    format!(
        "Tool {tool} failed: not run: its calls before this one failed {times} times in a row, past its retry limit. Do not call it again in this turn: tell the user what went wrong instead."
    )
}

/// A tool that fails every time, after a short wait (so a parallel batch
/// has calls that have not started yet), counting its runs.
fn stubborn(runs: &Arc<std::sync::atomic::AtomicUsize>) -> DynamicTool {
    let runs = Arc::clone(runs);
    DynamicTool::new("stubborn", "Fails every time", move |_, _| {
        let runs = Arc::clone(&runs);
        async move {
            runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(2)).await;
            Err("still wrong".into())
        }
    })
}

#[tokio::test]
async fn a_tool_whose_budget_the_batch_spent_is_not_run_again_in_it() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    for mode in [ExecutionMode::Sequential, ExecutionMode::Parallel] {
        let runs = Arc::new(AtomicUsize::new(0));
        let mut tools = budget_tools();
        tools.register(stubborn(&runs)).unwrap();
        let budget = RetryBudget::new(1);
        // One call at a time in the parallel batch too: each call starts
        // only when the one before it has finished.
        let ctx = RunOptions::new()
            .with_retry_budget(budget.clone())
            .with_max_concurrency(std::num::NonZeroUsize::MIN);
        let calls = [
            ToolCall::new("s0", "stubborn", json!({})),
            ToolCall::new("s1", "stubborn", json!({})),
            flaky("a0", "alpha", true),
            ToolCall::new("s2", "stubborn", json!({})),
            ToolCall::new("s3", "stubborn", json!({})),
        ];
        let results = run_batch(&calls, &tools, ctx.clone(), mode).await;
        assert_eq!(
            kinds(&results),
            [
                Some(FailureKind::Retry),
                Some(FailureKind::Fatal),
                None,
                Some(FailureKind::Fatal),
                Some(FailureKind::Fatal),
            ],
            "{mode:?}"
        );
        assert_eq!(texts(&results[1])[1], stop_note("stubborn", 2), "{mode:?}");
        assert_eq!(texts(&results[3]), [not_run("stubborn", 2)], "{mode:?}");
        assert_eq!(texts(&results[4]), [not_run("stubborn", 2)], "{mode:?}");
        assert_eq!(
            runs.load(Ordering::SeqCst),
            2,
            "{mode:?}: s2 and s3 never ran"
        );
        assert_eq!(budget.consecutive_failures("stubborn"), 2, "{mode:?}");

        // The next batch (the next turn) runs its first call: a failure is
        // fatal at once, and the calls after it in that batch do not run.
        let next = [
            ToolCall::new("n0", "stubborn", json!({})),
            ToolCall::new("n1", "stubborn", json!({})),
        ];
        let results = run_batch(&next, &tools, ctx.clone(), mode).await;
        assert_eq!(runs.load(Ordering::SeqCst), 3, "{mode:?}");
        assert_eq!(
            texts(&results[0]),
            [
                "Tool stubborn failed: still wrong",
                &stop_note("stubborn", 3)
            ],
            "{mode:?}"
        );
        assert_eq!(texts(&results[1]), [not_run("stubborn", 3)], "{mode:?}");
        // A single call is a batch of its own: it runs.
        let single = run_call(&ToolCall::new("x", "stubborn", json!({})), &tools, ctx).await;
        assert_eq!(runs.load(Ordering::SeqCst), 4, "{mode:?}");
        assert_eq!(single.failure_kind, Some(FailureKind::Fatal));
    }
}

#[tokio::test]
async fn calls_already_running_when_the_budget_is_spent_finish() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = Arc::new(AtomicUsize::new(0));
    let mut tools = ToolRegistry::new();
    tools.register(stubborn(&runs)).unwrap();
    let ctx = RunOptions::new().with_retry_budget(RetryBudget::new(0));
    // All three start at once (no concurrency limit): the first failure
    // spends the budget, but the other two are already running.
    let calls = ["r0", "r1", "r2"].map(|id| ToolCall::new(id, "stubborn", json!({})));
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    for result in &results {
        assert_eq!(result.failure_kind, Some(FailureKind::Fatal));
        assert_eq!(texts(result)[0], "Tool stubborn failed: still wrong");
    }
}

#[tokio::test]
async fn a_denied_call_neither_counts_nor_resets_the_budget() {
    let tools = budget_tools();
    let budget = RetryBudget::new(1);
    // A person says no to every call whose id starts with "no".
    let ctx = RunOptions::new()
        .with_retry_budget(budget.clone())
        .with_before_hook(|call| async move {
            Ok(if call.call_id.starts_with("no") {
                HookDecision::Block("the user said no".into())
            } else {
                HookDecision::Allow
            })
        });
    let sequence = [
        ("no-1", false),
        ("no-2", false),
        ("no-3", false),
        ("f-1", false),
        ("no-4", true),
        ("no-5", true),
        ("f-2", false),
    ];
    let mut results = Vec::new();
    let mut counts = Vec::new();
    for (id, ok) in sequence {
        results.push(run_call(&flaky(id, "alpha", ok), &tools, ctx.clone()).await);
        counts.push(budget.consecutive_failures("alpha"));
    }
    assert_eq!(counts, [0, 0, 0, 1, 1, 1, 2]);
    assert_eq!(
        kinds(&results),
        [
            Some(FailureKind::Denied),
            Some(FailureKind::Denied),
            Some(FailureKind::Denied),
            Some(FailureKind::Retry),
            Some(FailureKind::Denied),
            Some(FailureKind::Denied),
            Some(FailureKind::Fatal),
        ]
    );
    // Three denials in a row never tell the model to stop.
    for result in &results[..3] {
        assert_eq!(texts(result), ["Tool alpha failed: the user said no"]);
        assert!(wire(result).contains(r#""failure":"denied""#));
    }
}

/// Fails as asked, with a retry limit of its own
#[tool(retries = 3)]
async fn patient(ok: bool) -> Result<String, String> {
    if ok {
        Ok("fine".into())
    } else {
        Err("not yet".into())
    }
}

/// Fails as asked; its first failure ends it
#[tool(retries = 0)]
async fn strict(ok: bool) -> Result<String, String> {
    if ok {
        Ok("fine".into())
    } else {
        Err("wrong".into())
    }
}

/// Tools with limits of their own, as `#[tools]` methods.
struct Limits;

#[tools]
impl Limits {
    /// Fails as asked, twice before it is fatal
    #[tool(retries = 2, read_only)]
    async fn twice(&self, ok: bool) -> Result<String, String> {
        if ok {
            Ok("fine".into())
        } else {
            Err("again".into())
        }
    }
}

#[tokio::test]
async fn a_tools_own_retries_override_the_budgets_limit() {
    let mut tools = budget_tools();
    tools.register(PatientTool).unwrap();
    tools.register(StrictTool).unwrap();
    tools.register_all(Limits).unwrap();
    assert_eq!(tools.get("patient").unwrap().retries(), Some(3));
    assert_eq!(tools.get("strict").unwrap().retries(), Some(0));
    assert_eq!(tools.get("twice").unwrap().retries(), Some(2));
    assert_eq!(tools.get("alpha").unwrap().retries(), None);
    let budget = RetryBudget::new(1);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let mut fatal_after = Vec::new();
    for name in ["alpha", "patient", "strict", "twice"] {
        let mut failures = 0;
        loop {
            failures += 1;
            let result = run_call(&flaky(name, name, false), &tools, ctx.clone()).await;
            if result.failure_kind == Some(FailureKind::Fatal) {
                break;
            }
            assert!(failures < 10, "{name} is never fatal");
        }
        fatal_after.push((name, failures));
    }
    // The budget's limit is 1; each tool's own wins where it has one.
    assert_eq!(
        fatal_after,
        [("alpha", 2), ("patient", 4), ("strict", 1), ("twice", 3)]
    );
    assert_eq!(budget.limit(), 1);
}

#[tokio::test]
async fn without_a_budget_failures_stay_retry_failures() {
    let tools = budget_tools();
    for i in 0..5 {
        let result = run_call(
            &flaky(&format!("n{i}"), "alpha", false),
            &tools,
            RunOptions::new(),
        )
        .await;
        assert_eq!(result.failure_kind, Some(FailureKind::Retry));
        assert_eq!(result.content.len(), 1);
    }
}

#[tokio::test]
async fn a_zero_budget_makes_the_first_failure_fatal() {
    let tools = budget_tools();
    let budget = RetryBudget::new(0);
    let ctx = RunOptions::new().with_retry_budget(budget.clone());
    let ok = run_call(&flaky("z0", "alpha", true), &tools, ctx.clone()).await;
    let failed = run_call(&flaky("z1", "alpha", false), &tools, ctx).await;
    assert_eq!(ok.failure_kind, None);
    assert_eq!(failed.failure_kind, Some(FailureKind::Fatal));
    assert_eq!(texts(&failed)[1], stop_note("alpha", 1));
}

// ---------------------------------------------------------------------------
// 3. A before hook's rewrite, and a human-approval hook.
// ---------------------------------------------------------------------------

#[derive(ToolParams)]
struct GreetParams {
    name: String,
    #[param(default = 1, min = 1)]
    times: u32,
}

/// Greets, recording every greeting it makes.
#[derive(Clone, Default)]
struct Greet {
    greeted: Arc<Mutex<Vec<(String, u32)>>>,
}

impl Greet {
    fn greeted(&self) -> Vec<(String, u32)> {
        self.greeted.lock().unwrap().clone()
    }
}

impl Tool for Greet {
    type Params = GreetParams;
    type Details = Value;

    fn name(&self) -> &str {
        "greet"
    }

    fn description(&self) -> &str {
        "Greets someone"
    }

    async fn execute(
        &self,
        params: GreetParams,
        _: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        self.greeted
            .lock()
            .unwrap()
            .push((params.name.clone(), params.times));
        Ok(ToolOutput::text(
            format!("hello {}", params.name).repeat(params.times as usize),
        ))
    }
}

fn greet_tools() -> (ToolRegistry, Greet) {
    let greet = Greet::default();
    let mut tools = ToolRegistry::new();
    tools.register(greet.clone()).unwrap();
    (tools, greet)
}

fn greet_call(id: &str, name: &str) -> ToolCall {
    ToolCall::new(id, "greet", json!({ "name": name, "undeclared": true }))
}

/// A before hook answering every call with `Rewrite(replacement)`, and what
/// it saw.
fn rewriting(ctx: RunOptions, replacement: Value) -> (RunOptions, Arc<Mutex<Vec<Value>>>) {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let record = Arc::clone(&seen);
    let ctx = ctx.with_before_hook(move |call| {
        record.lock().unwrap().push(call.arguments);
        let replacement = replacement.clone();
        async move { Ok(HookDecision::Rewrite(replacement)) }
    });
    (ctx, seen)
}

fn hook_repair(sent: Value, used: Value) -> Repair {
    Repair::new("", &sent, &used, RepairRule::BeforeHook)
}

#[tokio::test]
async fn a_rewrite_runs_the_tool_with_the_parsed_replacement_and_records_it() {
    let (tools, greet) = greet_tools();
    let (ctx, seen) = rewriting(
        RunOptions::new(),
        json!({"name": "Bo", "also": "undeclared"}),
    );
    let result = run_call(&greet_call("rw1", "Ada"), &tools, ctx).await;
    // Parsed as the model's arguments are: the default filled in, the
    // undeclared key dropped.
    assert_eq!(greet.greeted(), [("Bo".to_owned(), 1)]);
    assert_eq!(*seen.lock().unwrap(), [json!({"name": "Ada", "times": 1})]);
    assert!(!result.is_error);
    assert_eq!(result.failure_kind, None);
    assert_eq!(texts(&result), ["hello Bo"], "no note to the model");
    assert_eq!(
        result.repairs,
        [hook_repair(
            json!({"name": "Ada", "times": 1}),
            json!({"name": "Bo", "times": 1})
        )]
    );
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"rw1","toolName":"greet","content":[{"type":"text","text":"hello Bo"}],"isError":false,"repairs":[{"path":"","sent":{"name":"Ada","times":1},"used":{"name":"Bo","times":1},"rule":"before_hook"}],"timestamp":$T}"#,
            &result
        )
    );
}

#[tokio::test]
async fn an_allowing_hook_records_no_repairs() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_before_hook(|_| async { Ok(HookDecision::Allow) });
    let result = run_call(&greet_call("al", "Ada"), &tools, ctx).await;
    assert_eq!(greet.greeted(), [("Ada".to_owned(), 1)]);
    assert!(result.repairs.is_empty());
    assert!(!wire(&result).contains("repairs"));
}

#[tokio::test]
async fn a_rewrite_is_not_announced_even_when_the_repair_policy_tells_the_model() {
    let (tools, greet) = greet_tools();
    let (ctx, _seen) = rewriting(
        RunOptions::new().with_repair(RepairPolicy::all()),
        json!({"name": "Cy", "times": 2}),
    );
    let result = run_call(&greet_call("rw2", "Ada"), &tools, ctx).await;
    assert_eq!(greet.greeted(), [("Cy".to_owned(), 2)]);
    assert_eq!(texts(&result), ["hello Cyhello Cy"]);
    assert_eq!(
        result.repairs,
        [hook_repair(
            json!({"name": "Ada", "times": 1}),
            json!({"name": "Cy", "times": 2})
        )]
    );
}

#[tokio::test]
async fn a_rewrite_that_does_not_parse_is_a_paired_error_and_the_tool_never_runs() {
    let (tools, greet) = greet_tools();
    let bad = json!({"name": 5, "times": 0});
    let problems = GreetParams::parse(&bad)
        .err()
        .expect("the rewrite is bad")
        .to_string();
    assert!(problems.starts_with("name: "), "{problems}");
    let (ctx, seen) = rewriting(RunOptions::new(), bad);
    let result = run_call(&greet_call("rw3", "Ada"), &tools, ctx).await;
    assert!(greet.greeted().is_empty(), "the tool never ran");
    assert_eq!(seen.lock().unwrap().len(), 1);
    assert!(result.is_error);
    let message = format!("the before hook's arguments do not parse: {problems}");
    assert_eq!(texts(&result), [format!("Tool greet failed: {message}")]);
    assert_eq!(result.details, Some(json!({ "error": message })));
    assert!(result.repairs.is_empty());
    // The model cannot fix the caller's hook: stop, do not retry.
    assert_eq!(result.failure_kind, Some(FailureKind::Fatal));
}

#[tokio::test]
async fn a_rewrite_given_as_json_text_is_decoded_as_the_models_arguments_are() {
    let (tools, greet) = greet_tools();
    let (ctx, _seen) = rewriting(RunOptions::new(), json!("{\"name\":\"Bo\"}"));
    let result = run_call(&greet_call("rw5", "Ada"), &tools, ctx).await;
    assert_eq!(texts(&result), ["hello Bo"]);
    assert_eq!(greet.greeted(), [("Bo".to_owned(), 1)]);
    assert_eq!(result.repairs[0].used, json!({"name": "Bo", "times": 1}));
}

#[tokio::test]
async fn a_cancelled_batch_does_not_count_against_the_budget() {
    let tools = budget_tools();
    let budget = RetryBudget::new(0);
    let stop = CancellationToken::new();
    stop.cancel();
    let ctx = RunOptions::new()
        .with_retry_budget(budget.clone())
        .with_signal(stop);
    let result = run_call(&flaky("c0", "alpha", true), &tools, ctx).await;
    assert_eq!(texts(&result), ["Tool alpha failed: cancelled"]);
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    assert_eq!(budget.consecutive_failures("alpha"), 0);
}

#[tokio::test]
async fn the_after_hook_sees_the_rewritten_arguments() {
    let (tools, _greet) = greet_tools();
    let (ctx, _seen) = rewriting(RunOptions::new(), json!({"name": "Di", "x": 1}));
    let (ctx, after) = recording_after_hook(ctx);
    let result = run_call(&greet_call("rw4", "Ada"), &tools, ctx).await;
    assert_eq!(texts(&result), ["hello Di"]);
    let after = after.lock().unwrap();
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].arguments, json!({"name": "Di", "times": 1}));
    assert_eq!(after[0].failure_kind, None);
    assert_eq!(result.repairs.len(), 1);
}

#[tokio::test]
async fn rewrites_in_a_parallel_batch_are_recorded_per_call() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_before_hook(|call| async move {
        Ok(if call.arguments["name"] == "Ada" {
            HookDecision::Rewrite(json!({"name": "Ada Lovelace"}))
        } else {
            HookDecision::Allow
        })
    });
    let calls = [greet_call("p0", "Ada"), greet_call("p1", "Bo")];
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(texts(&results[0]), ["hello Ada Lovelace"]);
    assert_eq!(texts(&results[1]), ["hello Bo"]);
    assert_eq!(results[0].repairs.len(), 1);
    assert!(results[1].repairs.is_empty());
    assert_eq!(greet.greeted().len(), 2);
}

/// What a person answers when asked about a call.
enum Answer {
    Approve,
    Edit(Value),
    Deny(String),
}

/// One question to the person: the call, and where to answer.
struct Ask {
    call: BeforeCall,
    answer: oneshot::Sender<Answer>,
}

/// How long the approval hook waits for the person.
const PATIENCE: Duration = Duration::from_secs(5);

/// A before hook asking a person (whoever reads the returned receiver)
/// about every call, and waiting at most [`PATIENCE`]. When `withdraw` is
/// set, the hook also stops waiting when the call's signal is cancelled.
fn ask_a_person(
    withdraw: bool,
    signal: Option<CancellationToken>,
) -> (RunOptions, mpsc::UnboundedReceiver<Ask>) {
    let (asks, inbox) = mpsc::unbounded_channel();
    let mut ctx = RunOptions::new();
    if let Some(signal) = signal {
        ctx = ctx.with_signal(signal);
    }
    let ctx = ctx.with_before_hook(move |call| ask(asks.clone(), call, withdraw));
    (ctx, inbox)
}

async fn ask(
    asks: mpsc::UnboundedSender<Ask>,
    call: BeforeCall,
    withdraw: bool,
) -> Result<HookDecision, ToolError> {
    let (answer, decided) = oneshot::channel();
    let signal = call.signal.clone().filter(|_| withdraw);
    let tool = call.tool_name.clone();
    asks.send(Ask { call, answer })
        .map_err(|_| "no one to ask")?;
    let withdrawn = async move {
        match signal {
            Some(signal) => signal.cancelled().await,
            None => std::future::pending().await,
        }
    };
    Ok(tokio::select! {
        () = withdrawn => HookDecision::Block("cancelled".into()),
        decided = tokio::time::timeout(PATIENCE, decided) => match decided {
            Err(_) => HookDecision::Block(format!(
                "no one approved {tool} within {} s",
                PATIENCE.as_secs()
            )),
            Ok(Err(_)) => HookDecision::Block("the approver went away".into()),
            Ok(Ok(Answer::Approve)) => HookDecision::Allow,
            Ok(Ok(Answer::Edit(arguments))) => HookDecision::Rewrite(arguments),
            Ok(Ok(Answer::Deny(reason))) => HookDecision::Block(reason),
        },
    })
}

/// Runs `call` while the person answers the one question it asks with
/// `decide` (or keeps the question, unanswered, when it gives `None`).
async fn with_a_person(
    call: &ToolCall,
    tools: &ToolRegistry,
    (ctx, mut inbox): (RunOptions, mpsc::UnboundedReceiver<Ask>),
    decide: impl FnOnce(&BeforeCall) -> Option<Answer>,
) -> (ToolResultMessage, Option<Ask>) {
    let person = async move {
        let ask = inbox.recv().await.expect("the hook asked");
        match decide(&ask.call) {
            Some(answer) => {
                assert!(ask.answer.send(answer).is_ok(), "the hook was waiting");
                None
            }
            None => Some(ask),
        }
    };
    bounded(async { tokio::join!(execute_tool_call(call, tools, ctx), person) }).await
}

#[tokio::test]
async fn an_approved_call_runs() {
    let (tools, greet) = greet_tools();
    let (result, _) = with_a_person(
        &greet_call("ap", "Ada"),
        &tools,
        ask_a_person(true, None),
        |call| {
            assert_eq!(call.call_id, "ap");
            assert_eq!(call.tool_name, "greet");
            assert_eq!(call.arguments, json!({"name": "Ada", "times": 1}));
            Some(Answer::Approve)
        },
    )
    .await;
    assert_eq!(texts(&result), ["hello Ada"]);
    assert!(result.repairs.is_empty());
    assert_eq!(greet.greeted(), [("Ada".to_owned(), 1)]);
}

#[tokio::test]
async fn an_edited_call_runs_with_the_persons_arguments() {
    let (tools, greet) = greet_tools();
    let (result, _) = with_a_person(
        &greet_call("ed", "Ada"),
        &tools,
        ask_a_person(true, None),
        |call| {
            let mut edited = call.arguments.clone();
            edited["times"] = json!(2);
            Some(Answer::Edit(edited))
        },
    )
    .await;
    assert_eq!(texts(&result), ["hello Adahello Ada"]);
    assert_eq!(greet.greeted(), [("Ada".to_owned(), 2)]);
    assert_eq!(
        result.repairs,
        [hook_repair(
            json!({"name": "Ada", "times": 1}),
            json!({"name": "Ada", "times": 2})
        )]
    );
}

#[tokio::test]
async fn a_denied_call_is_answered_with_the_reason_and_never_runs() {
    let (tools, greet) = greet_tools();
    let (result, _) = with_a_person(
        &greet_call("de", "Ada"),
        &tools,
        ask_a_person(true, None),
        |_| Some(Answer::Deny("Ada asked not to be greeted today".into())),
    )
    .await;
    assert!(result.is_error);
    assert_eq!(result.failure_kind, Some(FailureKind::Denied));
    assert_eq!(
        texts(&result),
        ["Tool greet failed: Ada asked not to be greeted today"]
    );
    assert!(greet.greeted().is_empty());
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_call_is_denied_when_the_person_takes_too_long() {
    let (tools, greet) = greet_tools();
    let started = Instant::now();
    let (result, kept) = with_a_person(
        &greet_call("sl", "Ada"),
        &tools,
        ask_a_person(true, None),
        |_| None,
    )
    .await;
    assert!(started.elapsed() >= PATIENCE);
    assert!(kept.is_some(), "the question was still open");
    assert_eq!(
        texts(&result),
        ["Tool greet failed: no one approved greet within 5 s"]
    );
    assert!(greet.greeted().is_empty());
}

#[tokio::test(start_paused = true)]
async fn cancelling_while_a_person_decides_answers_cancelled() {
    for withdraw in [true, false] {
        let (tools, greet) = greet_tools();
        let stop = CancellationToken::new();
        let cancel = stop.clone();
        let started = Instant::now();
        let (result, kept) = with_a_person(
            &greet_call("cx", "Ada"),
            &tools,
            ask_a_person(withdraw, Some(stop)),
            move |call| {
                assert!(call.signal.is_some(), "the hook got the caller's signal");
                cancel.cancel();
                None
            },
        )
        .await;
        assert!(started.elapsed() < PATIENCE, "withdraw: {withdraw}");
        assert_eq!(
            texts(&result),
            ["Tool greet failed: cancelled"],
            "withdraw: {withdraw}"
        );
        assert!(greet.greeted().is_empty());
        // The hook stopped waiting: no one can answer the question now.
        let kept = kept.expect("the question was kept");
        assert!(kept.answer.is_closed(), "withdraw: {withdraw}");
        assert!(kept.call.signal.unwrap().is_cancelled());
    }
}

// ---------------------------------------------------------------------------
// 4. Per-turn tool sets.
// ---------------------------------------------------------------------------

/// Tools `a`, `b` and `c` (registered in that order), and the names of the
/// tools that ran, in order.
fn abc() -> (ToolRegistry, Arc<Mutex<Vec<String>>>) {
    let ran: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut tools = ToolRegistry::new();
    for name in ["a", "b", "c"] {
        let log = Arc::clone(&ran);
        tools
            .register(DynamicTool::new(
                name,
                format!("Tool {name}"),
                move |_, _| {
                    log.lock().unwrap().push(name.to_owned());
                    async move { Ok(ToolOutput::text(format!("{name} ran"))) }
                },
            ))
            .unwrap();
    }
    (tools, ran)
}

fn ran(log: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    log.lock().unwrap().clone()
}

fn call_of(name: &str) -> ToolCall {
    ToolCall::new(format!("call-{name}"), name, json!({}))
}

#[tokio::test]
async fn a_disabled_tool_is_not_available_and_never_runs() {
    let (tools, log) = abc();
    let ctx = RunOptions::new().with_enabled(["a"]);
    assert!(ctx.is_enabled("a"));
    assert!(!ctx.is_enabled("b"));
    let result = run_call(&call_of("b"), &tools, ctx.clone()).await;
    assert!(result.is_error);
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    assert_eq!(
        wire(&result),
        with_timestamp(
            r#"{"role":"toolResult","toolCallId":"call-b","toolName":"b","content":[{"type":"text","text":"Tool b failed: not available in this turn (available: a)"}],"details":{"error":"not available in this turn (available: a)"},"isError":true,"timestamp":$T}"#,
            &result
        )
    );
    let allowed = run_call(&call_of("a"), &tools, ctx).await;
    assert_eq!(texts(&allowed), ["a ran"]);
    assert_eq!(ran(&log), ["a"]);
}

#[tokio::test]
async fn the_available_tools_are_all_named() {
    let (tools, log) = abc();
    let ctx = RunOptions::new().with_enabled(["c", "a"]);
    let result = run_call(&call_of("b"), &tools, ctx).await;
    assert_eq!(
        texts(&result),
        ["Tool b failed: not available in this turn (available: a, c)"]
    );
    assert!(ran(&log).is_empty());
}

#[tokio::test]
async fn an_unregistered_name_is_still_an_unknown_tool() {
    let (tools, log) = abc();
    // Whether or not the set names it.
    for ctx in [
        RunOptions::new().with_enabled(["a"]),
        RunOptions::new().with_enabled(["a", "ghost"]),
        RunOptions::new().with_enabled(Vec::<String>::new()),
    ] {
        let result = run_call(&call_of("ghost"), &tools, ctx).await;
        assert_eq!(texts(&result), ["Tool ghost failed: unknown tool"]);
        assert_eq!(result.details, Some(json!({"error": "unknown tool"})));
        assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    }
    assert!(ran(&log).is_empty());
}

#[tokio::test]
async fn unregistered_names_in_the_set_are_ignored() {
    // `with_enabled`'s documentation: "Names that are not registered are
    // ignored." So they are not offered to the model as available.
    let (tools, log) = abc();
    let some = RunOptions::new().with_enabled(["ghost", "a"]);
    let result = run_call(&call_of("b"), &tools, some.clone()).await;
    assert_eq!(
        texts(&result),
        ["Tool b failed: not available in this turn (available: a)"]
    );
    let names: Vec<String> = some
        .enabled_definitions(&tools)
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["a"]);
    let none = RunOptions::new().with_enabled(["ghost"]);
    let result = run_call(&call_of("b"), &tools, none).await;
    assert_eq!(
        texts(&result),
        ["Tool b failed: not available in this turn (no tools are)"]
    );
    assert!(ran(&log).is_empty());
}

#[tokio::test]
async fn enabled_definitions_are_the_enabled_tools_in_registration_order() {
    let (tools, _log) = abc();
    let ctx = RunOptions::new().with_enabled(["c", "a"]);
    let definition = |name: &str| tools.get(name).unwrap().definition().clone();
    assert_eq!(
        ctx.enabled_definitions(&tools),
        [definition("a"), definition("c")]
    );
    assert_eq!(
        RunOptions::new()
            .with_enabled(["b"])
            .enabled_definitions(&tools),
        [definition("b")]
    );
    assert_eq!(
        RunOptions::new().enabled_definitions(&tools),
        tools.definitions()
    );
    assert!(
        RunOptions::new()
            .with_enabled(Vec::<String>::new())
            .enabled_definitions(&tools)
            .is_empty()
    );
}

#[tokio::test]
async fn an_empty_set_makes_no_tool_available() {
    let (tools, log) = abc();
    let ctx = RunOptions::new().with_enabled(Vec::<&str>::new());
    for name in ["a", "b", "c"] {
        assert!(!ctx.is_enabled(name));
        let result = run_call(&call_of(name), &tools, ctx.clone()).await;
        assert_eq!(
            texts(&result),
            [format!(
                "Tool {name} failed: not available in this turn (no tools are)"
            )]
        );
    }
    assert!(ran(&log).is_empty());
}

#[tokio::test]
async fn without_a_set_every_tool_is_available() {
    let (tools, log) = abc();
    let ctx = RunOptions::new();
    for name in ["a", "b", "c", "anything"] {
        assert!(ctx.is_enabled(name));
    }
    let calls = [call_of("a"), call_of("b"), call_of("c")];
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    let answered: Vec<&str> = results.iter().map(text_of).collect();
    assert_eq!(answered, ["a ran", "b ran", "c ran"]);
    assert_eq!(ran(&log), ["a", "b", "c"]);
}

#[tokio::test]
async fn tool_sets_apply_to_parallel_and_sequential_batches() {
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let (tools, log) = abc();
        let ctx = RunOptions::new().with_enabled(["a", "c"]);
        let calls = [call_of("a"), call_of("b"), call_of("zzz"), call_of("c")];
        let results = run_batch(&calls, &tools, ctx, mode).await;
        let answered: Vec<&str> = results.iter().map(text_of).collect();
        assert_eq!(
            answered,
            [
                "a ran",
                "Tool b failed: not available in this turn (available: a, c)",
                "Tool zzz failed: unknown tool",
                "c ran",
            ],
            "{mode:?}"
        );
        assert_eq!(ran(&log), ["a", "c"], "{mode:?}");
    }
}

#[tokio::test]
async fn a_disabled_call_never_reaches_the_hooks() {
    let (tools, log) = abc();
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = Arc::clone(&asked);
    let ctx = RunOptions::new()
        .with_enabled(["a"])
        .with_before_hook(move |call| {
            record.lock().unwrap().push(call.tool_name);
            async { Ok(HookDecision::Allow) }
        });
    let (ctx, after) = recording_after_hook(ctx);
    let results = run_batch(
        &[call_of("b"), call_of("a")],
        &tools,
        ctx,
        ExecutionMode::Sequential,
    )
    .await;
    assert!(results[0].is_error);
    assert_eq!(texts(&results[1]), ["a ran"]);
    assert_eq!(*asked.lock().unwrap(), ["a"]);
    let after: Vec<String> = after
        .lock()
        .unwrap()
        .iter()
        .map(|call| call.tool_name.clone())
        .collect();
    assert_eq!(after, ["a"]);
    assert_eq!(ran(&log), ["a"]);
}

#[tokio::test]
async fn the_before_hook_sees_the_repaired_arguments() {
    let (tools, greet) = greet_tools();
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let record = Arc::clone(&seen);
    let ctx = RunOptions::new()
        .with_repair(RepairPolicy::all())
        .with_before_hook(move |call| {
            record.lock().unwrap().push(call.arguments.clone());
            async { Ok(HookDecision::Allow) }
        });
    let call = ToolCall::new("rp1", "greet", json!({"name": "Ada", "times": "2"}));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(texts(&result)[0], "hello Adahello Ada");
    assert_eq!(*seen.lock().unwrap(), [json!({"name": "Ada", "times": 2})]);
    assert_eq!(greet.greeted(), [("Ada".to_owned(), 2)]);
    assert_eq!(result.repairs[0].rule, RepairRule::StringToScalar);
}

#[tokio::test]
async fn an_unknown_tool_names_the_close_ones_the_model_may_call_in_every_format() {
    let mut tools = ToolRegistry::new();
    for name in ["get_weather", "get_whether_report", "set_timer"] {
        tools
            .register(DynamicTool::new(name, "A tool", |_, _| async {
                Ok(ToolOutput::text("ran"))
            }))
            .unwrap();
    }
    let result = run_call(&call_of("get_wether"), &tools, RunOptions::new()).await;
    let expected = r#"Tool get_wether failed: unknown tool (did you mean "get_weather"?)"#;
    assert_eq!(texts(&result), [expected]);
    assert_eq!(result.failure_kind, Some(FailureKind::Retry));
    // Each provider's result carries the same words to the model.
    for written in [
        tool_core::providers::openai_chat::write_result(&result),
        tool_core::providers::openai_responses::write_result(&result),
        tool_core::providers::anthropic::write_result(&result),
        tool_core::providers::gemini::write_result(&result),
        tool_core::providers::mcp::write_result(&result),
    ] {
        assert!(
            written
                .to_string()
                .contains(r#"did you mean \"get_weather\"?"#),
            "{written}"
        );
    }
    // Only the tools the turn offers are named.
    let offered = RunOptions::new().with_enabled(["set_timer"]);
    let result = run_call(&call_of("get_wether"), &tools, offered).await;
    assert_eq!(texts(&result), ["Tool get_wether failed: unknown tool"]);
    // Nothing close: the contract's words as they were.
    let result = run_call(&call_of("ghost"), &tools, RunOptions::new()).await;
    assert_eq!(result.details, Some(json!({"error": "unknown tool"})));
}
