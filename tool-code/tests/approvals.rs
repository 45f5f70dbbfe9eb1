//! Approvals inside code: a script that reaches a call needing a person's
//! approval suspends the whole `run_code` call (tool-core's
//! `execute_batch`), and on resume runs again from the start, the calls it
//! already made replayed from the sealed suspension, never run twice.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_code::CodeMode;
use tool_core::approval::{
    ApprovalKey, ApprovalPolicy, Approvals, Decision, ResumeError, SealedSuspension, Suspension,
};
use tool_core::{
    BatchOutcome, ExecutionMode, RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput,
    ToolParams, ToolRegistry, ToolResultMessage, execute_batch, execute_tool_call, resume_batch,
};

/// What the tools ran, in order: `"lookup:1"`, `"pay:2"`.
type Ran = Arc<Mutex<Vec<String>>>;

#[derive(ToolParams)]
struct Numbered {
    /// A number
    n: u32,
}

/// A tool that records each run; `pay` needs a person's approval, `slow`
/// answers after 100 ms.
struct Counted {
    name: &'static str,
    ran: Ran,
}

impl Tool for Counted {
    type Params = Numbered;
    type Details = ();

    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        "Records its call"
    }

    fn needs_approval(&self) -> bool {
        self.name == "pay"
    }

    async fn execute(
        &self,
        params: Numbered,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<()>, ToolError> {
        if self.name == "slow" {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let done = format!("{}:{}", self.name, params.n);
        self.ran.lock().unwrap().push(done.clone());
        Ok(ToolOutput::text(done))
    }
}

/// The four counted tools under `run_code`, and the log of what ran.
fn counted_tools() -> (ToolRegistry, Ran) {
    let ran = Ran::default();
    let mut inner = ToolRegistry::new();
    for name in ["lookup", "pay", "other", "slow"] {
        let tool = Counted {
            name,
            ran: Arc::clone(&ran),
        };
        inner.register(tool).unwrap();
    }
    (CodeMode::new().registry(inner).unwrap(), ran)
}

fn key() -> ApprovalKey {
    ApprovalKey::new(*b"approvals inside code, 32 bytes!").unwrap()
}

fn options() -> RunOptions {
    RunOptions::new().with_approvals(Approvals::suspend(key()))
}

fn run_code(script: &str) -> ToolCall {
    ToolCall::new("run-1", "run_code", json!({ "code": script }))
}

async fn start(tools: &ToolRegistry, script: &str, options: RunOptions) -> BatchOutcome {
    let calls = [run_code(script)];
    tokio::time::timeout(
        Duration::from_secs(30),
        execute_batch(&calls, tools, options, ExecutionMode::Parallel),
    )
    .await
    .expect("every run ends")
}

async fn resume(
    tools: &ToolRegistry,
    suspension: &Suspension,
    decision: Decision,
    options: RunOptions,
) -> Result<BatchOutcome, ResumeError> {
    let id = suspension.pending().next().unwrap().tool_call_id.clone();
    tokio::time::timeout(
        Duration::from_secs(30),
        resume_batch(
            suspension,
            [(id, decision)],
            tools,
            options,
            ExecutionMode::Parallel,
        ),
    )
    .await
    .expect("every resume ends")
}

fn suspended(outcome: BatchOutcome) -> Suspension {
    match outcome {
        BatchOutcome::Suspended(suspension) => suspension,
        BatchOutcome::Complete(results) => panic!("not suspended: {results:?}"),
    }
}

fn complete(outcome: BatchOutcome) -> ToolResultMessage {
    match outcome {
        BatchOutcome::Complete(mut results) => {
            assert_eq!(results.len(), 1);
            results.remove(0)
        }
        BatchOutcome::Suspended(suspension) => {
            panic!(
                "still suspended: {:?}",
                suspension.pending().collect::<Vec<_>>()
            )
        }
    }
}

fn text(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().expect("a text result")
}

fn ran(ran: &Ran) -> Vec<String> {
    ran.lock().unwrap().clone()
}

/// The one call waiting: its tool, its arguments, its id.
fn waiting(suspension: &Suspension) -> (String, Value, String) {
    let pending: Vec<_> = suspension.pending().collect();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let request = pending[0];
    (
        request.tool_name.clone(),
        request.arguments.clone(),
        request.tool_call_id.clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_suspends_for_approval_and_its_earlier_calls_run_once() {
    let (tools, log) = counted_tools();
    let script = r#"
        const a = await tools.lookup({ n: 1 });
        console.log("looked up", a);
        const paid = await tools.pay({ n: 2 });
        const b = await tools.lookup({ n: 3 });
        return [a, paid, b];
    "#;
    let suspension = suspended(start(&tools, script, options()).await);
    // The person is asked about the inner call, not about "run_code".
    assert_eq!(
        waiting(&suspension),
        ("pay".to_owned(), json!({"n": 2}), "run-1.2".to_owned())
    );
    let question = &suspension.pending().next().unwrap().question;
    assert!(
        question.starts_with("Allow pay (Records its call) to run with:"),
        "{question}"
    );
    assert_eq!(suspension.answered().count(), 0);
    assert_eq!(ran(&log), ["lookup:1"], "pay waits; nothing after it ran");

    // Stored and read back: the journal is sealed, unreadable.
    let stored = serde_json::to_string(&suspension).unwrap();
    assert!(!stored.contains("lookup"), "{stored}");
    let sealed: SealedSuspension = serde_json::from_str(&stored).unwrap();
    let suspension = Approvals::suspend(key()).open(&sealed).unwrap();

    let result = complete(
        resume(&tools, &suspension, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert!(!result.is_error, "{result:?}");
    assert_eq!(result.tool_call_id, "run-1");
    assert_eq!(
        text(&result),
        "looked up lookup:1\n[returned] [\"lookup:1\",\"pay:2\",\"lookup:3\"]\n"
    );
    assert_eq!(result.details.as_ref().unwrap()["calls"], 3);
    // The lookup before the approval ran once, across suspend and resume.
    assert_eq!(ran(&log), ["lookup:1", "pay:2", "lookup:3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_approvals_in_one_script_suspend_it_twice() {
    let (tools, log) = counted_tools();
    let script = r#"
        const first = await tools.pay({ n: 1 });
        const seen = await tools.lookup({ n: 2 });
        const second = await tools.pay({ n: 3 });
        return [first, seen, second].join(" ");
    "#;
    let first = suspended(start(&tools, script, options()).await);
    assert_eq!(waiting(&first).1, json!({"n": 1}));
    assert!(ran(&log).is_empty());

    let second = suspended(
        resume(&tools, &first, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(
        waiting(&second),
        ("pay".to_owned(), json!({"n": 3}), "run-1.3".to_owned())
    );
    assert_ne!(second.id(), first.id());
    assert_eq!(
        second.expires_at_ms(),
        first.expires_at_ms(),
        "the batch's expiry holds"
    );
    assert_ne!(
        second.pending().next().unwrap().approval_id,
        first.pending().next().unwrap().approval_id
    );
    assert_eq!(ran(&log), ["pay:1", "lookup:2"]);

    let result = complete(
        resume(&tools, &second, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(text(&result), "[returned] \"pay:1 lookup:2 pay:3\"\n");
    assert_eq!(
        ran(&log),
        ["pay:1", "lookup:2", "pay:3"],
        "each call ran once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denial_rejects_the_call_inside_the_script() {
    let (tools, log) = counted_tools();
    let script = r#"
        await tools.lookup({ n: 1 });
        try { await tools.pay({ n: 2 }); } catch (error) { console.log("refused:", error.message); }
        return "went on";
    "#;
    let suspension = suspended(start(&tools, script, options()).await);
    let result = complete(
        resume(&tools, &suspension, Decision::deny("not today"), options())
            .await
            .unwrap(),
    );
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        text(&result),
        "refused: A person denied this call: not today\n[returned] \"went on\"\n"
    );
    assert_eq!(ran(&log), ["lookup:1"], "the denied call never ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edited_arguments_run_and_an_always_approve_stands_for_the_rest_of_the_script() {
    let (tools, log) = counted_tools();
    let script = r#"
        const edited = await tools.pay({ n: 2 });
        const again = await tools.pay({ n: 3 });
        return [edited, again];
    "#;
    let suspension = suspended(start(&tools, script, options()).await);
    let edited = resume(
        &tools,
        &suspension,
        Decision::approve_with(json!({"n": 7})),
        options(),
    )
    .await
    .unwrap();
    let second = suspended(edited);
    assert_eq!(ran(&log), ["pay:7"]);
    // The person's edit is said to the script, as to a model.
    let result = complete(
        resume(&tools, &second, Decision::AlwaysApprove, options())
            .await
            .unwrap(),
    );
    let returned = &result.details.as_ref().unwrap()["returned"];
    assert!(
        returned[0]
            .as_str()
            .unwrap()
            .starts_with("pay:7\n[A person approved this call with edited arguments: {\"n\":7}]"),
        "{returned}"
    );
    assert_eq!(returned[1], "pay:3");
    assert_eq!(ran(&log), ["pay:7", "pay:3"]);

    // AlwaysApprove on the first call: the second runs without suspending.
    let (tools, log) = counted_tools();
    let suspension = suspended(start(&tools, script, options()).await);
    let result = complete(
        resume(&tools, &suspension, Decision::AlwaysApprove, options())
            .await
            .unwrap(),
    );
    assert_eq!(text(&result), "[returned] [\"pay:2\",\"pay:3\"]\n");
    assert_eq!(ran(&log), ["pay:2", "pay:3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_that_makes_other_calls_on_replay_is_refused_and_runs_nothing() {
    // The script's calls depend on the tools the turn enables: a resume
    // with fewer tools makes it call otherwise.
    let script = r#"
        const n = Object.keys(tools).length;
        await tools.lookup({ n });
        await tools.pay({ n: 1 });
        return "paid";
    "#;
    let all = || options().with_enabled(["run_code", "lookup", "pay", "other"]);
    let fewer = || options().with_enabled(["run_code", "lookup", "pay"]);
    let (tools, log) = counted_tools();
    let suspension = suspended(start(&tools, script, all()).await);
    assert_eq!(ran(&log), ["lookup:3"]);
    let result = complete(
        resume(&tools, &suspension, Decision::Approve, fewer())
            .await
            .unwrap(),
    );
    assert!(result.is_error);
    let said = text(&result);
    assert!(
        said.contains(
            r#"its call 1 was tools.lookup({"n":3}) before, and is tools.lookup({"n":2}) now"#
        ),
        "{said}"
    );
    assert!(said.contains("nothing of this run ran"), "{said}");
    assert_eq!(
        ran(&log),
        ["lookup:3"],
        "neither the lookup nor the approved call ran"
    );

    // A script that ends before making the call that waited.
    let script = r#"
        if (Object.keys(tools).length === 3) {
            await tools.lookup({ n: 1 });
            await tools.pay({ n: 2 });
        }
        return "short";
    "#;
    let (tools, log) = counted_tools();
    let suspension = suspended(start(&tools, script, all()).await);
    let result = complete(
        resume(&tools, &suspension, Decision::Approve, fewer())
            .await
            .unwrap(),
    );
    assert!(result.is_error);
    let said = text(&result);
    assert!(
        said.contains(
            r#"ended after 0 of the 2 calls it made before its approval when it ran again"#
        ),
        "{said}"
    );
    assert!(said.contains(r#"its call 2, tools.pay({"n":2})"#), "{said}");
    assert_eq!(ran(&log), ["lookup:1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_resume_is_refused_and_runs_nothing_again() {
    let (tools, log) = counted_tools();
    let script = "await tools.lookup({ n: 1 }); return await tools.pay({ n: 2 });";
    let suspension = suspended(start(&tools, script, options()).await);
    let result = complete(
        resume(&tools, &suspension, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(text(&result), "[returned] \"pay:2\"\n");
    let again = resume(&tools, &suspension, Decision::Approve, options()).await;
    assert!(
        matches!(again, Err(ResumeError::AlreadyResumed { .. })),
        "{again:?}"
    );
    assert_eq!(ran(&log), ["lookup:1", "pay:2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_suspension_is_not_resumed_and_closes_without_running() {
    let (tools, log) = counted_tools();
    let approvals = Approvals::suspend(key()).with_ttl(Duration::from_millis(1));
    let options = || RunOptions::new().with_approvals(approvals.clone());
    let script = "await tools.lookup({ n: 1 }); return await tools.pay({ n: 2 });";
    let suspension = suspended(start(&tools, script, options()).await);
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(suspension.is_expired());
    let late = resume(&tools, &suspension, Decision::Approve, options()).await;
    assert!(matches!(late, Err(ResumeError::Expired { .. })), "{late:?}");
    let closed = suspension.close(&approvals, "too late").await.unwrap();
    assert_eq!(closed[0].tool_call_id, "run-1");
    assert_eq!(
        text(&closed[0]),
        "This call did not run: its approval was closed without a decision (too late)."
    );
    assert_eq!(ran(&log), ["lookup:1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_parallel_the_calls_before_the_waiting_one_finish_and_those_after_it_wait() {
    let (tools, log) = counted_tools();
    // Calls are made in the order the script makes them: 1, 2, 3, 4.
    let script = r#"
        return await Promise.all([
            tools.lookup({ n: 1 }),
            tools.pay({ n: 2 }),
            tools.lookup({ n: 3 }),
            tools.pay({ n: 4 }),
        ]);
    "#;
    let first = suspended(start(&tools, script, options()).await);
    assert_eq!(waiting(&first).1, json!({"n": 2}));
    assert_eq!(
        ran(&log),
        ["lookup:1"],
        "the call before ran; those after wait"
    );

    let second = suspended(
        resume(&tools, &first, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(waiting(&second).1, json!({"n": 4}));
    let mut sorted = ran(&log);
    sorted.sort();
    assert_eq!(sorted, ["lookup:1", "lookup:3", "pay:2"]);

    let result = complete(
        resume(&tools, &second, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(
        text(&result),
        "[returned] [\"lookup:1\",\"pay:2\",\"lookup:3\",\"pay:4\"]\n"
    );
    assert_eq!(ran(&log).len(), 4, "each call ran once: {:?}", ran(&log));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outside_a_batch_a_suspending_approval_is_answered_and_nothing_runs() {
    let (tools, log) = counted_tools();
    let call = run_code("try { await tools.pay({ n: 1 }); } catch (e) { return e.message; }");
    let result = execute_tool_call(&call, &tools, options()).await;
    let said = text(&result);
    assert!(
        said.contains("needs a person's approval, and got none"),
        "{said}"
    );
    assert!(ran(&log).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_replayed_in_the_order_they_first_came() {
    let (tools, log) = counted_tools();
    // Which call the script makes next depends on which answer came first:
    // the quick lookup. Replayed in call order, the slow one would come
    // first, and the script would call otherwise.
    let script = r#"
        const order = [];
        await Promise.all([
            tools.slow({ n: 1 }).then(() => order.push(1)),
            tools.lookup({ n: 2 }).then(() => order.push(2)),
        ]);
        await tools.lookup({ n: order[0] * 10 });
        return await tools.pay({ n: 1 });
    "#;
    let suspension = suspended(start(&tools, script, options()).await);
    assert_eq!(ran(&log), ["lookup:2", "slow:1", "lookup:20"]);
    let result = complete(
        resume(&tools, &suspension, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(text(&result), "[returned] \"pay:1\"\n", "{result:?}");
    assert_eq!(ran(&log), ["lookup:2", "slow:1", "lookup:20", "pay:1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_needed_approval_itself_is_not_asked_again_when_it_resumes() {
    let (tools, log) = counted_tools();
    let approvals = Approvals::suspend(key())
        .with_policy(ApprovalPolicy::when(|tool, _| tool.name() == "run_code"));
    let options = || RunOptions::new().with_approvals(approvals.clone());
    let script = "await tools.lookup({ n: 1 }); return await tools.pay({ n: 2 });";
    // The run itself waits first, as any call needing approval.
    let run = suspended(start(&tools, script, options()).await);
    assert_eq!(waiting(&run).2, "run-1");
    assert!(ran(&log).is_empty());
    let inner = suspended(
        resume(&tools, &run, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(waiting(&inner).2, "run-1.2");
    let result = complete(
        resume(&tools, &inner, Decision::Approve, options())
            .await
            .unwrap(),
    );
    assert_eq!(text(&result), "[returned] \"pay:2\"\n");
    assert_eq!(ran(&log), ["lookup:1", "pay:2"]);
}
