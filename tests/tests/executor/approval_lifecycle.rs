//! What an approval promises across requests, processes and crashes: a
//! state resumes once whoever builds the options (a web handler builds
//! them per request), a lost resume is answered `interrupted` on the next
//! one and never runs its calls again (a dropped future here; a killed
//! process below), sequential batches keep their order, a suspension can
//! be closed, expiry never renews, and the anchors' policies: decisions on
//! the arguments, standing decisions, results supplied from outside.

use crate::support::{complete, suspended, text_of as text};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tests::file_ledger::FileLedger;
use tests::ledger_check;
use tool_core::approval::{
    ApprovalKey, ApprovalPolicy, Approvals, Decision, MemoryLedger, ResumeError, SealedSuspension,
    Standing, StandingDecisions, Suspension, arguments_sha256,
};
use tool_core::{
    DynamicTool, ExecutionMode, FailureKind, Json, RunOptions, ToolCall, ToolOutput, ToolParams,
    ToolRegistry, execute_batch, resume_batch, tools,
};

/// What ran, in order.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    fn ran(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    fn push(&self, entry: String) {
        self.0.lock().unwrap().push(entry);
    }
}

/// What a call of `stat` gives back.
#[derive(ToolParams)]
struct Stat {
    /// Its size in bytes.
    #[param(max = 1_000_000)]
    bytes: u64,
}

#[tools]
impl Log {
    /// Write a file
    #[tool(needs_approval)]
    async fn write(&self, path: String) -> String {
        self.push(format!("write {path}"));
        format!("wrote {path}")
    }

    /// Show a file's size
    #[tool(read_only)]
    async fn size(&self, path: String) -> String {
        self.push(format!("size {path}"));
        format!("{path}: 3 bytes")
    }

    /// Move money
    #[tool]
    async fn transfer(&self, amount: u64) -> String {
        self.push(format!("transfer {amount}"));
        format!("moved {amount}")
    }

    /// Measure a file on a machine a person may have to look at
    #[tool(needs_approval)]
    async fn stat(&self, path: String) -> Json<Stat> {
        self.push(format!("stat {path}"));
        Json(Stat { bytes: 3 })
    }
}

fn key() -> ApprovalKey {
    ApprovalKey::new(*b"the lifecycle tests' own key!!!!").unwrap()
}

fn registry() -> (ToolRegistry, Log) {
    let log = Log::default();
    let mut tools = ToolRegistry::new();
    tools.register_all(log.clone()).unwrap();
    (tools, log)
}

/// Options as a web handler builds them for each request: nothing shared
/// with the last request but the key.
fn per_request() -> RunOptions {
    RunOptions::new().with_approvals(Approvals::suspend(key()))
}

fn write(id: &str, path: &str) -> ToolCall {
    ToolCall::new(id, "write", json!({"path": path}))
}

/// A registry of `deploy`, which needs approval under `every_tool()`: it
/// calls `started` when it runs, then never answers (what a lost resume
/// leaves behind).
fn deploy_that_never_answers(started: impl Fn() + Send + Sync + 'static) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register(DynamicTool::new(
            "deploy",
            "Deploy the site",
            move |_args, _ctx| {
                started();
                std::future::pending::<Result<ToolOutput<Value>, tool_core::ToolError>>()
            },
        ))
        .unwrap();
    tools
}

/// Resumes `waiting` with one decision, in parallel mode.
async fn decide(
    waiting: &Suspension,
    call_id: &str,
    decision: Decision,
    tools: &ToolRegistry,
    options: &RunOptions,
) -> Result<tool_core::BatchOutcome, ResumeError> {
    resume_batch(
        waiting,
        [(call_id, decision)],
        tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await
}

/// A stored suspension read back and opened with `approvals`, as a request
/// handler does.
fn load(stored: &str, approvals: &Approvals) -> Suspension {
    let sealed: SealedSuspension = serde_json::from_str(stored).unwrap();
    approvals.open(&sealed).unwrap()
}

#[tokio::test]
async fn a_web_handler_that_builds_its_options_per_request_resumes_a_state_once() {
    let (tools, log) = registry();
    let first = suspended(
        execute_batch(
            &[write("c1", "a.txt")],
            &tools,
            per_request(),
            ExecutionMode::Parallel,
        )
        .await,
    );
    let stored = serde_json::to_string(&first).unwrap();
    let mut outcomes = Vec::new();
    for _request in 0..3 {
        let options = per_request();
        let suspension = load(&stored, options.approvals().unwrap());
        outcomes.push(decide(&suspension, "c1", Decision::Approve, &tools, &options).await);
    }
    assert_eq!(
        text(&complete(outcomes.remove(0).unwrap())[0]),
        "wrote a.txt"
    );
    for replay in outcomes {
        assert_eq!(
            replay,
            Err(ResumeError::AlreadyResumed {
                id: first.id().to_owned()
            })
        );
    }
    assert_eq!(log.ran(), ["write a.txt"], "the write ran once");
}

#[tokio::test]
async fn a_resume_dropped_mid_run_is_answered_interrupted_next_time_and_ran_once() {
    let started = Arc::new(AtomicUsize::new(0));
    let running = Arc::clone(&started);
    let tools = deploy_that_never_answers(move || {
        running.fetch_add(1, Ordering::SeqCst);
    });
    let options = RunOptions::new()
        .with_approvals(Approvals::suspend(key()).with_policy(ApprovalPolicy::every_tool()));
    let call = ToolCall::new("d1", "deploy", json!({}));
    let waiting =
        suspended(execute_batch(&[call], &tools, options.clone(), ExecutionMode::Parallel).await);

    // The client goes away (a handler's timeout) while the deploy runs.
    let resuming = resume_batch(
        &waiting,
        [("d1", Decision::Approve)],
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(50), resuming)
            .await
            .is_err()
    );
    assert_eq!(started.load(Ordering::SeqCst), 1);

    // The next resume of the same state answers it, without running it.
    let results = complete(
        decide(&waiting, "d1", Decision::Approve, &tools, &options)
            .await
            .unwrap(),
    );
    assert_eq!(results[0].tool_call_id, "d1");
    assert_eq!(results[0].failure_kind, Some(FailureKind::Interrupted));
    assert!(
        text(&results[0]).starts_with("This call may or may not have run"),
        "{}",
        text(&results[0])
    );
    let wire = serde_json::to_value(&results[0]).unwrap();
    assert_eq!(wire["failure"], "interrupted");
    assert_eq!(started.load(Ordering::SeqCst), 1, "never run again");

    // And that answer is final.
    let again = decide(&waiting, "d1", Decision::Approve, &tools, &options).await;
    assert!(
        matches!(again, Err(ResumeError::AlreadyResumed { .. })),
        "{again:?}"
    );
}

/// The directory the child process of the crash test works in, when this
/// test binary is that child.
const CRASH_CHILD: &str = "TOOL_CORE_APPROVAL_CRASH_DIR";
/// How long a resume's claim lasts without renewal in the crash test.
const CRASH_LEASE: Duration = Duration::from_millis(300);

/// The crash test's registry: `deploy` appends a line to `runs` in `dir`,
/// then never answers.
fn crash_tools(dir: &Path) -> ToolRegistry {
    let runs = dir.join("runs");
    deploy_that_never_answers(move || {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&runs)
            .unwrap();
        writeln!(file, "ran").unwrap();
    })
}

fn crash_options(dir: &Path) -> RunOptions {
    RunOptions::new().with_approvals(
        Approvals::suspend(key())
            .with_policy(ApprovalPolicy::every_tool())
            .with_ledger(FileLedger::new(dir.join("ledger.json")))
            .with_resume_lease(CRASH_LEASE),
    )
}

/// The child of the crash test: resumes the stored suspension, whose call
/// then runs until the parent kills this process. Does nothing when this
/// binary runs as a test.
#[tokio::test]
async fn crash_child() {
    let Some(dir) = std::env::var_os(CRASH_CHILD).map(PathBuf::from) else {
        return;
    };
    let options = crash_options(&dir);
    let stored = std::fs::read_to_string(dir.join("suspension.json")).unwrap();
    let suspension = load(&stored, options.approvals().unwrap());
    let tools = crash_tools(&dir);
    let _ = decide(&suspension, "d1", Decision::Approve, &tools, &options).await;
    unreachable!("the deploy never answers: the parent kills this process first");
}

#[tokio::test]
async fn a_process_killed_between_claim_and_finish_leaves_its_calls_interrupted_for_the_next() {
    let dir = tempfile_dir();
    let options = crash_options(&dir);
    let tools = crash_tools(&dir);
    let waiting = suspended(
        execute_batch(
            &[ToolCall::new("d1", "deploy", json!({}))],
            &tools,
            options.clone(),
            ExecutionMode::Parallel,
        )
        .await,
    );
    std::fs::write(
        dir.join("suspension.json"),
        serde_json::to_string(&waiting).unwrap(),
    )
    .unwrap();

    // Another process resumes it; the deploy starts; the process dies.
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "approval_lifecycle::crash_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CRASH_CHILD, &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let runs = dir.join("runs");
    for _ in 0..1000 {
        if runs.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(runs.exists(), "the child started the deploy");
    child.kill().unwrap();
    child.wait().unwrap();

    // Its claim outlives it until its lease runs out...
    let busy = decide(&waiting, "d1", Decision::Approve, &tools, &options).await;
    assert!(
        matches!(busy, Err(ResumeError::InProgress { .. })),
        "{busy:?}"
    );
    tokio::time::sleep(CRASH_LEASE + Duration::from_millis(100)).await;

    // ...then the next resume answers the call: it may have run.
    let results = complete(
        decide(&waiting, "d1", Decision::Approve, &tools, &options)
            .await
            .unwrap(),
    );
    assert_eq!(results[0].failure_kind, Some(FailureKind::Interrupted));
    assert_eq!(
        std::fs::read_to_string(&runs).unwrap(),
        "ran\n",
        "the deploy ran once, in the child"
    );
}

/// A directory of its own, kept until the process ends (the crash test's
/// child writes into it).
fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tool-core-approval-{}-{}",
        std::process::id(),
        tool_core::approval::arguments_sha256(&json!(format!(
            "{:?}",
            std::time::SystemTime::now()
        )))
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test]
async fn in_sequential_mode_nothing_after_a_waiting_call_runs_before_it_is_decided() {
    let (tools, log) = registry();
    let options = per_request();
    let calls = [
        write("c1", "a.txt"),
        ToolCall::new("c2", "size", json!({"path": "a.txt"})),
        write("c3", "b.txt"),
    ];
    let first =
        suspended(execute_batch(&calls, &tools, options.clone(), ExecutionMode::Sequential).await);
    assert_eq!(
        log.ran(),
        Vec::<String>::new(),
        "size waits for the write before it"
    );
    let pending: Vec<&str> = first
        .pending()
        .map(|request| request.tool_call_id.as_str())
        .collect();
    assert_eq!(pending, ["c1", "c3"], "both are asked now");
    assert_eq!(first.waiting_for_turn().collect::<Vec<_>>(), ["c2"]);

    // The later write approved first still waits for its turn.
    let second = suspended(
        resume_batch(
            &first,
            [("c3", Decision::Approve)],
            &tools,
            options.clone(),
            ExecutionMode::Sequential,
        )
        .await
        .unwrap(),
    );
    assert_eq!(log.ran(), Vec::<String>::new());
    assert_eq!(second.waiting_for_turn().collect::<Vec<_>>(), ["c2", "c3"]);
    assert_eq!(second.pending().count(), 1);

    let results = complete(
        resume_batch(
            &second,
            [("c1", Decision::Approve)],
            &tools,
            options,
            ExecutionMode::Sequential,
        )
        .await
        .unwrap(),
    );
    assert_eq!(
        log.ran(),
        ["write a.txt", "size a.txt", "write b.txt"],
        "call order"
    );
    let texts: Vec<&str> = results.iter().map(text).collect();
    assert_eq!(texts, ["wrote a.txt", "a.txt: 3 bytes", "wrote b.txt"]);
}

#[tokio::test]
async fn in_parallel_mode_what_needs_no_approval_runs_at_once() {
    let (tools, log) = registry();
    let calls = [
        write("c1", "a.txt"),
        ToolCall::new("c2", "size", json!({"path": "a.txt"})),
    ];
    let first =
        suspended(execute_batch(&calls, &tools, per_request(), ExecutionMode::Parallel).await);
    assert_eq!(log.ran(), ["size a.txt"]);
    assert_eq!(first.waiting_for_turn().count(), 0);
}

#[tokio::test]
async fn only_calls_the_turn_makes_available_are_asked() {
    let (tools, log) = registry();
    let options = per_request().with_enabled(["size"]);
    let results = complete(
        execute_batch(
            &[write("c1", "a.txt")],
            &tools,
            options,
            ExecutionMode::Parallel,
        )
        .await,
    );
    assert!(
        text(&results[0]).contains("not available in this turn"),
        "{}",
        text(&results[0])
    );
    assert!(log.ran().is_empty());
}

#[tokio::test]
async fn a_call_that_would_wait_under_an_id_another_call_has_is_refused() {
    let (tools, log) = registry();
    let calls = [
        write("c1", "a.txt"),
        ToolCall::new("c1", "size", json!({"path": "a.txt"})),
        write("c2", "b.txt"),
    ];
    let suspension =
        suspended(execute_batch(&calls, &tools, per_request(), ExecutionMode::Parallel).await);
    let pending: Vec<&str> = suspension
        .pending()
        .map(|request| request.tool_call_id.as_str())
        .collect();
    assert_eq!(pending, ["c2"]);
    let answered: Vec<&str> = suspension.answered().map(text).collect();
    assert_eq!(answered.len(), 2);
    assert!(
        answered[0].contains("call id \"c1\" is also another call's in this batch"),
        "{}",
        answered[0]
    );
    assert_eq!(answered[1], "a.txt: 3 bytes");
    assert_eq!(log.ran(), ["size a.txt"]);
}

#[tokio::test]
async fn expiry_is_fixed_when_the_batch_first_suspends_and_a_resume_must_decide() {
    let (tools, _) = registry();
    let options = RunOptions::new()
        .with_approvals(Approvals::suspend(key()).with_ttl(Duration::from_secs(60)));
    let first = suspended(
        execute_batch(
            &[write("c1", "a"), write("c2", "b")],
            &tools,
            options.clone(),
            ExecutionMode::Parallel,
        )
        .await,
    );
    let request = first.pending().next().unwrap().clone();
    assert_eq!(request.expires_at_ms, Some(first.expires_at_ms()));
    tokio::time::sleep(Duration::from_millis(5)).await;
    let nothing = resume_batch(
        &first,
        Vec::<(String, Decision)>::new(),
        &tools,
        options.clone(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(nothing, Err(ResumeError::NoDecisions));
    let second = suspended(
        decide(&first, "c1", Decision::Approve, &tools, &options)
            .await
            .unwrap(),
    );
    assert_eq!(second.expires_at_ms(), first.expires_at_ms(), "not renewed");
    let still = second.pending().next().unwrap();
    assert_eq!(
        still.approval_id,
        first.pending().nth(1).unwrap().approval_id,
        "same approval id"
    );
    assert_ne!(still.approval_id, request.approval_id);
}

#[tokio::test]
async fn a_suspension_that_expired_is_closed_into_paired_results_without_running_anything() {
    let (tools, log) = registry();
    let approvals = Approvals::suspend(key()).with_ttl(Duration::ZERO);
    let options = RunOptions::new().with_approvals(approvals.clone());
    let calls = [
        ToolCall::new("c1", "size", json!({"path": "x"})),
        write("c2", "a.txt"),
    ];
    let waiting =
        suspended(execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let late = decide(&waiting, "c2", Decision::Approve, &tools, &options).await;
    assert!(matches!(late, Err(ResumeError::Expired { .. })), "{late:?}");

    let results = waiting
        .close(&approvals, "the person never came back")
        .await
        .unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|result| result.tool_call_id.as_str())
        .collect();
    assert_eq!(ids, ["c1", "c2"]);
    assert_eq!(text(&results[0]), "x: 3 bytes");
    assert_eq!(
        text(&results[1]),
        "This call did not run: its approval was closed without a decision (the person never came back)."
    );
    assert_eq!(results[1].failure_kind, Some(FailureKind::Denied));
    assert_eq!(log.ran(), ["size x"]);
    let twice = waiting.close(&approvals, "again").await;
    assert!(
        matches!(twice, Err(ResumeError::AlreadyResumed { .. })),
        "{twice:?}"
    );
}

#[tokio::test]
async fn closing_after_a_lost_resume_says_which_call_may_have_run() {
    let tools = deploy_that_never_answers(|| {});
    let approvals = Approvals::suspend(key()).with_policy(ApprovalPolicy::every_tool());
    let options = RunOptions::new().with_approvals(approvals.clone());
    let calls = [
        ToolCall::new("d1", "deploy", json!({})),
        ToolCall::new("d2", "deploy", json!({"x": 1})),
    ];
    let waiting =
        suspended(execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await);
    let lost = resume_batch(
        &waiting,
        [("d1", Decision::Approve)],
        &tools,
        options,
        ExecutionMode::Parallel,
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(30), lost)
            .await
            .is_err()
    );
    let results = waiting.close(&approvals, "").await.unwrap();
    assert_eq!(results[0].failure_kind, Some(FailureKind::Interrupted));
    assert_eq!(
        text(&results[1]),
        "This call did not run: its approval was closed without a decision."
    );
}

#[tokio::test]
async fn a_policy_decides_from_the_arguments_when_suspending_and_when_asking() {
    let (tools, log) = registry();
    let big = ApprovalPolicy::when(|tool, arguments| {
        tool.name() == "transfer"
            && arguments["amount"]
                .as_u64()
                .is_none_or(|amount| amount > 100)
    });
    let options =
        RunOptions::new().with_approvals(Approvals::suspend(key()).with_policy(big.clone()));
    let calls = [
        ToolCall::new("small", "transfer", json!({"amount": 5})),
        ToolCall::new("large", "transfer", json!({"amount": 5000})),
    ];
    let waiting = suspended(execute_batch(&calls, &tools, options, ExecutionMode::Parallel).await);
    let pending: Vec<&str> = waiting
        .pending()
        .map(|request| request.tool_call_id.as_str())
        .collect();
    assert_eq!(pending, ["large"]);
    assert_eq!(log.ran(), ["transfer 5"]);

    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let inline = RunOptions::new().with_approvals(
        Approvals::ask(move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
            async { Decision::deny("too much") }
        })
        .with_policy(big),
    );
    let results =
        tool_core::execute_tool_calls(&calls, &tools, inline, ExecutionMode::Parallel).await;
    assert_eq!(text(&results[0]), "moved 5");
    assert_eq!(text(&results[1]), "A person denied this call: too much");
    assert_eq!(
        asked.load(Ordering::SeqCst),
        1,
        "only the large one was asked"
    );
}

#[tokio::test]
async fn standing_decisions_stand_for_the_rest_of_the_run() {
    let (tools, log) = registry();
    let options = per_request();
    let calls = [write("c1", "a"), write("c2", "b")];
    let waiting =
        suspended(execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await);
    let results = complete(
        decide(&waiting, "c1", Decision::AlwaysApprove, &tools, &options)
            .await
            .unwrap(),
    );
    assert_eq!(
        results.iter().map(text).collect::<Vec<_>>(),
        ["wrote a", "wrote b"],
        "c2 too"
    );
    let standing = options.approvals().unwrap().standing().clone();
    assert_eq!(standing.get("write"), Some(Standing::Approve));

    // The run's next batch, in the next request: the standing decisions
    // come back with the conversation.
    let stored = serde_json::to_string(&standing).unwrap();
    let carried: StandingDecisions = serde_json::from_str(&stored).unwrap();
    let next = RunOptions::new().with_approvals(Approvals::suspend(key()).with_standing(carried));
    let results =
        complete(execute_batch(&[write("c3", "c")], &tools, next, ExecutionMode::Parallel).await);
    assert_eq!(text(&results[0]), "wrote c");
    assert_eq!(log.ran(), ["write a", "write b", "write c"]);

    // Never, for another run.
    let other = per_request();
    let waiting = suspended(
        execute_batch(
            &[write("d1", "x"), write("d2", "y")],
            &tools,
            other.clone(),
            ExecutionMode::Parallel,
        )
        .await,
    );
    let results = complete(
        resume_batch(
            &waiting,
            [(
                "d1",
                Decision::AlwaysDeny {
                    reason: Some("not on this machine".into()),
                },
            )],
            &tools,
            other.clone(),
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    for result in &results {
        assert_eq!(
            text(result),
            "A person denied this call: not on this machine"
        );
    }
    let results =
        complete(execute_batch(&[write("d3", "z")], &tools, other, ExecutionMode::Parallel).await);
    assert_eq!(results[0].failure_kind, Some(FailureKind::Denied));
    assert_eq!(log.ran().len(), 3, "nothing more ran");
}

#[tokio::test]
async fn a_result_from_outside_answers_a_waiting_call_checked_against_its_output_schema() {
    let (tools, log) = registry();
    let options = per_request();
    let calls = [
        ToolCall::new("s1", "stat", json!({"path": "remote.txt"})),
        write("w1", "a"),
    ];
    let waiting =
        suspended(execute_batch(&calls, &tools, options.clone(), ExecutionMode::Parallel).await);
    let refused = decide(
        &waiting,
        "s1",
        Decision::respond(json!({"bytes": "three"})),
        &tools,
        &options,
    )
    .await;
    let Err(ResumeError::Result { call_id, problem }) = refused else {
        panic!("refused: {refused:?}");
    };
    assert_eq!(call_id, "s1");
    assert!(problem.contains("bytes"), "{problem}");
    let results = complete(
        resume_batch(
            &waiting,
            [
                ("s1", Decision::respond(json!({"bytes": 7}))),
                ("w1", Decision::respond("written by hand")),
            ],
            &tools,
            options,
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    assert!(!results[0].is_error);
    assert_eq!(results[0].details, Some(json!({"bytes": 7})));
    assert_eq!(text(&results[0]), r#"{"bytes":7}"#);
    assert_eq!(text(&results[1]), "written by hand");
    assert!(
        log.ran().is_empty(),
        "nothing ran: both were answered from outside"
    );
}

#[tokio::test]
async fn the_request_a_ui_reads_names_the_approval_the_full_arguments_and_the_expiry() {
    let (tools, _) = registry();
    let long = "x".repeat(10_000);
    let waiting = suspended(
        execute_batch(
            &[write("c1", &long)],
            &tools,
            per_request(),
            ExecutionMode::Parallel,
        )
        .await,
    );
    let request = waiting.pending().next().unwrap();
    let wire = serde_json::to_value(request).unwrap();
    assert_eq!(wire["toolCallId"], "c1");
    assert_eq!(wire["toolName"], "write");
    assert_eq!(
        wire["arguments"]["path"],
        Value::from(long.clone()),
        "in full"
    );
    assert_eq!(
        wire["argumentsSha256"],
        arguments_sha256(&json!({"path": long}))
    );
    assert_eq!(wire["expiresAt"], waiting.expires_at_ms());
    assert!(wire["approvalId"].as_str().unwrap().ends_with(".0"));
    assert!(
        request.question.contains(&request.arguments_sha256),
        "a cut question gives the digest"
    );
}

#[tokio::test]
async fn the_memory_and_file_ledgers_keep_the_ledger_contract() {
    ledger_check::check(&MemoryLedger::default(), "memory").await;
    let dir = tempfile_dir();
    ledger_check::check(&FileLedger::new(dir.join("ledger.json")), "file").await;
}

/// tool-redis's ledger against a real Redis: run by the interop suite
/// (interop/checks/redis_ledger.sh), which starts redis-server and sets
/// `TOOL_REDIS_URL`; without it, this test fails rather than pass unseen.
#[tokio::test]
#[ignore = "needs redis-server: interop/checks/redis_ledger.sh runs it"]
async fn the_redis_ledger_keeps_the_ledger_contract_and_two_processes_share_it() {
    let url = std::env::var("TOOL_REDIS_URL").expect("TOOL_REDIS_URL names the Redis to test");
    let prefix = format!("test-{}", std::process::id());
    let store = tool_redis::RedisStore::connect(&url, &prefix)
        .await
        .unwrap();
    ledger_check::check(&store.ledger(), "contract").await;

    // Two "processes" (two connections, options built apart) share the
    // store: a state one resumed, the other refuses.
    let (tools, log) = registry();
    let other = tool_redis::RedisStore::connect(&url, &prefix)
        .await
        .unwrap();
    let options = |store: &tool_redis::RedisStore| {
        RunOptions::new().with_approvals(Approvals::suspend(key()).with_ledger(store.ledger()))
    };
    let waiting = suspended(
        execute_batch(
            &[write("c1", "a")],
            &tools,
            options(&store),
            ExecutionMode::Parallel,
        )
        .await,
    );
    complete(
        resume_batch(
            &waiting,
            [("c1", Decision::Approve)],
            &tools,
            options(&store),
            ExecutionMode::Parallel,
        )
        .await
        .unwrap(),
    );
    let replay = resume_batch(
        &waiting,
        [("c1", Decision::Approve)],
        &tools,
        options(&other),
        ExecutionMode::Parallel,
    )
    .await;
    assert!(
        matches!(replay, Err(ResumeError::AlreadyResumed { .. })),
        "{replay:?}"
    );
    assert_eq!(log.ran(), ["write a"]);
}
