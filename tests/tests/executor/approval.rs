//! Durable approval: a batch that reaches a call needing a person's
//! approval suspends; the sealed state round-trips through JSON; resumes
//! take decisions for some calls or all; every call gets exactly one
//! result, in call order; forged, replayed and expired states are refused.
//! What holds across requests, processes and crashes is in
//! `approval_lifecycle.rs`.

use crate::support::{complete, suspended, text_of as text};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tool_core::approval::{
    ApprovalKey, ApprovalPolicy, Approvals, Decision, ResumeError, SealedSuspension, Suspension,
};
use tool_core::executor::RetryBudget;
use tool_core::repair::{RepairPolicy, RepairRule};
use tool_core::{
    ExecutionMode, FailureKind, RunOptions, ToolCall, ToolRegistry, execute_batch,
    execute_tool_call, resume_batch, tools,
};

/// Counts what ran, so a test can tell a call that ran from one that did not.
#[derive(Clone, Default)]
struct Disk {
    writes: Arc<AtomicUsize>,
    wipes: Arc<AtomicUsize>,
}

#[tools]
impl Disk {
    /// Write a file
    #[tool(needs_approval)]
    async fn write(&self, path: String, bytes: u32) -> String {
        self.writes.fetch_add(1, Ordering::SeqCst);
        format!("wrote {bytes} bytes to {path}")
    }

    /// Wipe the disk
    #[tool(destructive)]
    async fn wipe(&self) -> String {
        self.wipes.fetch_add(1, Ordering::SeqCst);
        "wiped".into()
    }

    /// Show a file's size
    #[tool(read_only)]
    async fn size(&self, path: String) -> String {
        format!("{path}: 3 bytes")
    }
}

fn key(byte: u8) -> ApprovalKey {
    ApprovalKey::new(vec![byte; 32]).unwrap()
}

fn registry() -> (ToolRegistry, Disk) {
    let disk = Disk::default();
    let mut tools = ToolRegistry::new();
    tools.register_all(disk.clone()).unwrap();
    (tools, disk)
}

fn suspending(byte: u8) -> RunOptions {
    RunOptions::new().with_approvals(Approvals::suspend(key(byte)))
}

fn calls() -> Vec<ToolCall> {
    vec![
        ToolCall::new("c1", "write", json!({"path": "a.txt", "bytes": 1})),
        ToolCall::new("c2", "size", json!({"path": "a.txt"})),
        ToolCall::new("c3", "write", json!({"path": "b.txt", "bytes": 2})),
    ]
}

/// The batch of the first call (`write`) only, suspended.
async fn first_waiting(tools: &ToolRegistry, options: RunOptions) -> Suspension {
    suspended(execute_batch(&calls()[..1], tools, options, ExecutionMode::Parallel).await)
}

/// Through JSON text, as a web app stores it, and opened again with the
/// key of `suspending(1)`.
fn stored(suspension: &Suspension) -> Suspension {
    let sealed: SealedSuspension =
        serde_json::from_str(&serde_json::to_string(suspension).unwrap()).unwrap();
    Approvals::suspend(key(1)).open(&sealed).unwrap()
}

#[tokio::test]
async fn calls_decided_in_two_resumes_get_one_result_each_in_call_order() {
    // In parallel mode; sequential mode's order is in approval_lifecycle.rs.
    let (tools, disk) = registry();
    let options = suspending(1);
    {
        let mode = ExecutionMode::Parallel;
        let first = suspended(execute_batch(&calls(), &tools, options.clone(), mode).await);
        let pending: Vec<&str> = first
            .pending()
            .map(|call| call.tool_call_id.as_str())
            .collect();
        assert_eq!(pending, ["c1", "c3"]);
        let answered: Vec<&str> = first.answered().map(text).collect();
        assert_eq!(answered, ["a.txt: 3 bytes"]);
        assert_eq!(
            disk.writes.load(Ordering::SeqCst),
            0,
            "nothing that waits ran"
        );

        let second = resume_batch(
            &stored(&first),
            [("c3", Decision::Approve)],
            &tools,
            options.clone(),
            mode,
        )
        .await
        .unwrap();
        let second = suspended(second);
        assert_ne!(second.id(), first.id());
        let pending: Vec<&str> = second
            .pending()
            .map(|call| call.tool_call_id.as_str())
            .collect();
        assert_eq!(pending, ["c1"]);
        assert_eq!(disk.writes.load(Ordering::SeqCst), 1);

        let results = complete(
            resume_batch(
                &stored(&second),
                [("c1", Decision::deny("not that file"))],
                &tools,
                options.clone(),
                mode,
            )
            .await
            .unwrap(),
        );
        let ids: Vec<&str> = results.iter().map(|r| r.tool_call_id.as_str()).collect();
        assert_eq!(ids, ["c1", "c2", "c3"]);
        assert_eq!(
            text(&results[0]),
            "A person denied this call: not that file"
        );
        assert_eq!(results[0].failure_kind, Some(FailureKind::Denied));
        assert_eq!(text(&results[2]), "wrote 2 bytes to b.txt");
        assert_eq!(
            disk.writes.load(Ordering::SeqCst),
            1,
            "the denied call did not run"
        );
        disk.writes.store(0, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn edited_arguments_are_parsed_strictly_and_the_model_is_told() {
    let (tools, disk) = registry();
    let options = suspending(1);
    let first = first_waiting(&tools, options.clone()).await;

    // Arguments that do not parse are refused before anything runs, and the
    // state can still be resumed.
    let refused = resume_batch(
        &first,
        [(
            "c1",
            Decision::approve_with(json!({"path": "a.txt", "bytes": "ten"})),
        )],
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await
    .unwrap_err();
    match &refused {
        ResumeError::Arguments { call_id, problem } => {
            assert_eq!(call_id, "c1");
            assert!(problem.contains("bytes"), "{problem}");
        }
        other => panic!("expected an arguments error, got {other:?}"),
    }
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);

    let results = complete(
        resume_batch(
            &first,
            [(
                "c1",
                Decision::approve_with(json!({"path": "safe.txt", "bytes": 1})),
            )],
            &tools,
            options,
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    assert_eq!(text(&results[0]), "wrote 1 bytes to safe.txt");
    let note = results[0].content[1].as_text().unwrap();
    assert_eq!(
        note,
        r#"[A person approved this call with edited arguments: {"path":"safe.txt","bytes":1}]"#
    );
    assert_eq!(results[0].repairs.len(), 1);
    assert_eq!(results[0].repairs[0].rule, RepairRule::Approval);
    assert_eq!(
        results[0].repairs[0].sent,
        json!({"path": "a.txt", "bytes": 1})
    );
}

#[tokio::test]
async fn forged_replayed_expired_and_foreign_states_are_refused() {
    let (tools, disk) = registry();
    let options = suspending(1);
    let first = first_waiting(&tools, options.clone()).await;
    let approve = || [("c1", Decision::Approve)];

    // A holder cannot read the arguments in the state, nor change a byte of
    // it: it no longer opens.
    let wire: Value = serde_json::to_value(&first).unwrap();
    let sealed = wire.as_str().unwrap();
    assert!(!sealed.contains("a.txt"), "sealed, not signed: {sealed}");
    let mut bytes = sealed.as_bytes().to_vec();
    let middle = bytes.len() / 2;
    bytes[middle] = if bytes[middle] == b'A' { b'B' } else { b'A' };
    let forged = SealedSuspension::from(String::from_utf8(bytes).unwrap());
    assert_eq!(
        Approvals::suspend(key(1)).open(&forged),
        Err(ResumeError::Forged)
    );

    // Another application's key.
    assert_eq!(
        Approvals::suspend(key(2)).open(first.sealed()),
        Err(ResumeError::Forged)
    );
    let refused = resume_batch(
        &first,
        approve(),
        &tools,
        suspending(2),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(refused, Err(ResumeError::Forged));
    // No key at all.
    let refused = resume_batch(
        &first,
        approve(),
        &tools,
        RunOptions::new(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(refused, Err(ResumeError::NoKey));
    // A decision for a call that does not wait.
    let refused = resume_batch(
        &first,
        [("c9", Decision::Approve)],
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(
        refused,
        Err(ResumeError::NotPending {
            call_id: "c9".into()
        })
    );
    let refused = resume_batch(
        &first,
        [("c1", Decision::Approve), ("c1", Decision::deny("no"))],
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(
        refused,
        Err(ResumeError::DecidedTwice {
            call_id: "c1".into()
        })
    );
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);

    // Resumed once; the same state again is a replay.
    complete(
        resume_batch(
            &first,
            approve(),
            &tools,
            options.clone(),
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    let replay = resume_batch(
        &stored(&first),
        approve(),
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(
        replay,
        Err(ResumeError::AlreadyResumed {
            id: first.id().to_owned()
        })
    );
    assert_eq!(
        disk.writes.load(Ordering::SeqCst),
        1,
        "the approved call ran once"
    );

    // Expired.
    let short =
        RunOptions::new().with_approvals(Approvals::suspend(key(1)).with_ttl(Duration::ZERO));
    let stale = first_waiting(&tools, short.clone()).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let refused = resume_batch(&stale, approve(), &tools, short, ExecutionMode::Parallel).await;
    assert!(
        matches!(refused, Err(ResumeError::Expired { .. })),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_denial_is_not_a_retry_and_does_not_count_against_the_budget() {
    let (tools, _) = registry();
    let budget = RetryBudget::new(0);
    let options = suspending(1).with_retry_budget(budget.clone());
    let mut calls = calls();
    calls.truncate(1);
    for round in 0..3 {
        let id = format!("d{round}");
        calls[0].id = id.clone();
        let waiting = suspended(
            execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await,
        );
        let results = complete(
            resume_batch(
                &waiting,
                [(id, Decision::deny("a person said no"))],
                &tools,
                options.clone(),
                ExecutionMode::Parallel,
            )
            .await
            .unwrap(),
        );
        assert_eq!(results[0].failure_kind, Some(FailureKind::Denied));
        assert_eq!(
            results[0].content.len(),
            1,
            "no 'do not call it again' note"
        );
    }
    assert_eq!(budget.consecutive_failures("write"), 0);
}

#[tokio::test]
async fn a_policy_can_require_approval_of_every_tool_that_may_destroy() {
    let (tools, disk) = registry();
    let options = RunOptions::new()
        .with_approvals(Approvals::suspend(key(1)).with_policy(ApprovalPolicy::may_destroy()));
    let batch = [
        ToolCall::new("w", "wipe", json!({})),
        ToolCall::new("s", "size", json!({"path": "x"})),
    ];
    let waiting =
        suspended(execute_batch(&batch, &tools, options.clone(), ExecutionMode::Parallel).await);
    let pending: Vec<&str> = waiting
        .pending()
        .map(|call| call.tool_name.as_str())
        .collect();
    assert_eq!(pending, ["wipe"], "size is read-only, wipe may destroy");
    assert_eq!(disk.wipes.load(Ordering::SeqCst), 0);
    // Without the policy, only the marked tool waits.
    let plain = suspending(1);
    let results = complete(execute_batch(&batch, &tools, plain, ExecutionMode::Parallel).await);
    assert_eq!(text(&results[0]), "wiped");
}

#[tokio::test]
async fn repairs_made_before_the_suspension_are_on_the_result() {
    let (tools, _) = registry();
    let options = suspending(1).with_repair(RepairPolicy::all());
    let batch = [ToolCall::new(
        "c1",
        "write",
        json!({"path": "a.txt", "bytes": "4"}),
    )];
    let waiting =
        suspended(execute_batch(&batch, &tools, options.clone(), ExecutionMode::Parallel).await);
    let request = waiting.pending().next().unwrap();
    assert_eq!(
        request.arguments,
        json!({"path": "a.txt", "bytes": 4}),
        "what will run is shown"
    );
    let results = complete(
        resume_batch(
            &waiting,
            [("c1", Decision::Approve)],
            &tools,
            options,
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    assert_eq!(text(&results[0]), "wrote 4 bytes to a.txt");
    assert_eq!(results[0].repairs[0].rule, RepairRule::StringToScalar);
    assert!(
        results[0].content.len() > 1,
        "the model is told of the repair"
    );
}

#[tokio::test]
async fn a_call_whose_arguments_do_not_parse_is_answered_at_once() {
    let (tools, disk) = registry();
    let batch = [ToolCall::new("c1", "write", json!({"path": 5}))];
    let results =
        complete(execute_batch(&batch, &tools, suspending(1), ExecutionMode::Parallel).await);
    assert_eq!(results[0].failure_kind, Some(FailureKind::Retry));
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn without_approvals_a_tool_that_needs_one_never_runs() {
    let (tools, disk) = registry();
    let call = ToolCall::new("c1", "write", json!({"path": "a.txt", "bytes": 1}));
    for options in [RunOptions::new(), suspending(1)] {
        let result = execute_tool_call(&call, &tools, options).await;
        assert_eq!(result.failure_kind, Some(FailureKind::Denied));
        assert!(
            text(&result)
                .starts_with("This call did not run: it needs a person's approval, and got none ("),
            "{}",
            text(&result)
        );
    }
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_inline_asker_approves_edits_or_denies_while_the_call_waits() {
    let (tools, disk) = registry();
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let options = RunOptions::new().with_approvals(Approvals::ask(move |request| {
        seen.lock().unwrap().push(request.question.clone());
        async move {
            match request.arguments["path"].as_str() {
                Some("ok.txt") => Decision::Approve,
                Some("edit.txt") => {
                    Decision::approve_with(json!({"path": "edited.txt", "bytes": 9}))
                }
                _ => Decision::deny("not there"),
            }
        }
    }));
    let run = |path: &str| {
        let call = ToolCall::new("c", "write", json!({"path": path, "bytes": 1}));
        let options = options.clone();
        let tools = &tools;
        async move { execute_tool_call(&call, tools, options).await }
    };
    assert_eq!(text(&run("ok.txt").await), "wrote 1 bytes to ok.txt");
    assert_eq!(text(&run("edit.txt").await), "wrote 9 bytes to edited.txt");
    let denied = run("etc.txt").await;
    assert_eq!(denied.failure_kind, Some(FailureKind::Denied));
    assert_eq!(text(&denied), "A person denied this call: not there");
    assert_eq!(disk.writes.load(Ordering::SeqCst), 2);
    assert_eq!(
        asked.lock().unwrap()[0],
        "Allow write (Write a file) to run with:\n  path: \"ok.txt\"\n  bytes: 1\n?"
    );
    // A read-only tool is not asked about.
    let size = execute_tool_call(
        &ToolCall::new("s", "size", json!({"path": "x"})),
        &tools,
        options.clone(),
    )
    .await;
    assert!(!size.is_error);
    assert_eq!(asked.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn an_asker_that_panics_or_is_cancelled_runs_nothing() {
    let (tools, disk) = registry();
    let call = ToolCall::new("c", "write", json!({"path": "a", "bytes": 1}));
    let panicking =
        RunOptions::new().with_approvals(Approvals::ask(|_| async { panic!("prompt broke") }));
    let result = execute_tool_call(&call, &tools, panicking).await;
    assert_eq!(result.failure_kind, Some(FailureKind::Denied));
    assert!(
        text(&result).contains("got none (asking for it failed)"),
        "{}",
        text(&result)
    );

    let stop = tool_core::CancellationToken::new();
    let waiting = RunOptions::new()
        .with_signal(stop.clone())
        .with_approvals(Approvals::ask(|_| std::future::pending()));
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(10)).await;
        stop.cancel();
    };
    let (result, ()) = tokio::join!(execute_tool_call(&call, &tools, waiting), cancel);
    assert_eq!(text(&result), "Tool write failed: cancelled");
    assert_eq!(disk.writes.load(Ordering::SeqCst), 0);
}
