//! One batch of 10,000 calls mixing every outcome: success, bad arguments,
//! unknown tools, tool errors, panics, timeouts and cancellations (the batch
//! signal is cancelled partway, from a spawned task, once some calls have
//! finished). Every call is answered once, in order, with the outcome its
//! kind allows; afterwards no task is left running.
//!
//! Real time (Tokio's paused clock needs its `test-util` feature, which this
//! crate does not enable): which calls have started when the signal is
//! cancelled depends on scheduling, so each kind accepts its own outcome or
//! `cancelled`, and a call answered `cancelled` without being one that waits
//! must not have run. The counts of each outcome are checked to be non-zero,
//! so no run passes vacuously.

use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tool_core::{
    CancellationToken, ExecutionMode, RunOptions, Tool, ToolCall, ToolContext, ToolError,
    ToolOutput, ToolParams, ToolRegistry, ToolResultMessage, execute_tool_calls,
};

/// Only there so a hang fails instead of blocking the suite.
const HANG: Duration = Duration::from_secs(60);

/// The `hang` tool's own timeout.
const HANG_TIMEOUT_MS: u64 = 30;

/// What a run's tools share with the test.
#[derive(Default)]
struct State {
    /// Ids of the calls whose tool started.
    started: Mutex<HashSet<String>>,
    /// Calls running now, and the most at once.
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
    /// Quick calls (ok, fail, boom) finished, watched by the canceller.
    quick_done: watch::Sender<usize>,
    /// Tasks spawned by tools that have not ended yet.
    live_tasks: Arc<AtomicUsize>,
}

impl State {
    fn enter(self: &Arc<Self>, ctx: &ToolContext) -> InFlight {
        let fresh = self.started.lock().unwrap().insert(ctx.call_id.clone());
        assert!(fresh, "{} ran twice", ctx.call_id);
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(Arc::clone(self))
    }

    fn quick_finished(&self) {
        self.quick_done.send_modify(|done| *done += 1);
    }

    /// Spawns work that lives until the call's signal is cancelled, as a
    /// tool's background job would.
    fn spawn_tied_to(&self, ctx: &ToolContext) {
        let signal = ctx.signal.clone().expect("every call here has a signal");
        let live = Arc::clone(&self.live_tasks);
        live.fetch_add(1, Ordering::SeqCst);
        let guard = LiveTask(live);
        tokio::spawn(async move {
            let _guard = guard;
            signal.cancelled().await;
        });
    }
}

/// Counts a call as running until its future ends or is dropped.
struct InFlight(Arc<State>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a spawned task as alive until it ends or is dropped.
struct LiveTask(Arc<AtomicUsize>);

impl Drop for LiveTask {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(ToolParams)]
struct OkParams {
    n: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Behaviour {
    /// Fails with `exploded`.
    Fail,
    /// Panics with `boom`.
    Boom,
    /// Ignores its signal; its own timeout stops it.
    Hang,
    /// Waits for its signal, then answers `stopped`.
    Wait,
    /// Ignores its signal and has no timeout: the grace period ends it.
    Stubborn,
}

struct Stress {
    name: &'static str,
    behaviour: Behaviour,
    state: Arc<State>,
}

impl Tool for Stress {
    type Params = Map<String, Value>;
    type Details = Value;

    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        "A stress-test tool"
    }

    async fn execute(
        &self,
        _: Map<String, Value>,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let _running = self.state.enter(&ctx);
        match self.behaviour {
            Behaviour::Fail => {
                self.state.quick_finished();
                Err("exploded".into())
            }
            Behaviour::Boom => {
                self.state.quick_finished();
                panic!("boom")
            }
            Behaviour::Hang | Behaviour::Stubborn => {
                self.state.spawn_tied_to(&ctx);
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(ToolOutput::text("unreachable"))
            }
            Behaviour::Wait => {
                self.state.spawn_tied_to(&ctx);
                ctx.cancelled().await;
                Ok(ToolOutput::text("stopped"))
            }
        }
    }

    fn timeout(&self) -> Option<Duration> {
        (self.behaviour == Behaviour::Hang).then(|| Duration::from_millis(HANG_TIMEOUT_MS))
    }
}

/// Answers `ok <n>`; its typed parameters make `{"n": "x"}` bad arguments.
struct OkTool(Arc<State>);

impl Tool for OkTool {
    type Params = OkParams;
    type Details = Value;

    fn name(&self) -> &str {
        "ok"
    }

    fn description(&self) -> &str {
        "Answers ok"
    }

    async fn execute(
        &self,
        params: OkParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let _running = self.0.enter(&ctx);
        self.0.quick_finished();
        Ok(ToolOutput::text(format!("ok {}", params.n)))
    }
}

fn registry(state: &Arc<State>) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(OkTool(Arc::clone(state))).unwrap();
    for (name, behaviour) in [
        ("fail", Behaviour::Fail),
        ("boom", Behaviour::Boom),
        ("hang", Behaviour::Hang),
        ("wait", Behaviour::Wait),
        ("stubborn", Behaviour::Stubborn),
    ] {
        tools
            .register(Stress {
                name,
                behaviour,
                state: Arc::clone(state),
            })
            .unwrap();
    }
    tools
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Ok,
    BadArguments,
    Unknown,
    Fail,
    Panic,
    Timeout,
    Wait,
    Stubborn,
}

const KINDS: [Kind; 8] = [
    Kind::Ok,
    Kind::BadArguments,
    Kind::Unknown,
    Kind::Fail,
    Kind::Panic,
    Kind::Timeout,
    Kind::Wait,
    Kind::Stubborn,
];

/// A reproducible mix of kinds: mostly quick calls, some that wait.
fn kinds(count: usize) -> Vec<Kind> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..count)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            match seed % 20 {
                0..=5 => Kind::Ok,
                6..=8 => Kind::BadArguments,
                9..=10 => Kind::Unknown,
                11..=12 => Kind::Fail,
                13..=14 => Kind::Panic,
                15..=16 => Kind::Timeout,
                17..=18 => Kind::Wait,
                _ => Kind::Stubborn,
            }
        })
        .collect()
}

fn call(index: usize, kind: Kind) -> ToolCall {
    let id = format!("call-{index}");
    match kind {
        Kind::Ok => ToolCall::new(id, "ok", json!({"n": index})),
        Kind::BadArguments => ToolCall::new(id, "ok", json!({"n": "not a number"})),
        Kind::Unknown => ToolCall::new(id, "nope", json!({})),
        Kind::Fail => ToolCall::new(id, "fail", json!({})),
        Kind::Panic => ToolCall::new(id, "boom", json!({})),
        Kind::Timeout => ToolCall::new(id, "hang", json!({})),
        Kind::Wait => ToolCall::new(id, "wait", json!({})),
        Kind::Stubborn => ToolCall::new(id, "stubborn", json!({})),
    }
}

/// How a call was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    /// Its kind's own answer.
    Own,
    /// `cancelled`, and the tool never ran.
    CancelledBeforeRunning,
    /// `cancelled` after the tool started (dropped after the grace period).
    CancelledWhileRunning,
    /// Stopped by the context's per-call timeout.
    TimedOut,
}

/// Checks one answer against its kind and says which outcome it was.
fn judge(
    index: usize,
    kind: Kind,
    result: &ToolResultMessage,
    ran: bool,
    context_timeout_ms: Option<u64>,
) -> Outcome {
    let text = result.content[0].as_text().unwrap_or_default();
    let name = call(index, kind).name;
    let cancelled = format!("Tool {name} failed: cancelled");
    let context_timeout =
        context_timeout_ms.map(|ms| format!("Tool {name} failed: timed out after {ms} ms"));
    let context = format!("call-{index} ({kind:?}, ran: {ran}): {text:?}");
    if kind == Kind::Unknown {
        assert_eq!(text, "Tool nope failed: unknown tool", "{context}");
        assert!(result.is_error, "{context}");
        return Outcome::Own;
    }
    if kind == Kind::BadArguments {
        assert!(!ran, "{context}");
        if text == cancelled {
            return Outcome::CancelledBeforeRunning;
        }
        assert_eq!(
            text, "Tool ok failed: n: expected integer, got string \"not a number\"",
            "{context}"
        );
        return Outcome::Own;
    }
    if !ran {
        assert_eq!(text, cancelled, "a call that never ran: {context}");
        assert!(result.is_error, "{context}");
        return Outcome::CancelledBeforeRunning;
    }
    if text == cancelled {
        assert!(
            matches!(kind, Kind::Timeout | Kind::Stubborn),
            "only a tool ignoring its signal is cancelled while running: {context}"
        );
        return Outcome::CancelledWhileRunning;
    }
    if context_timeout.as_deref() == Some(text) {
        assert!(
            matches!(kind, Kind::Timeout | Kind::Wait | Kind::Stubborn),
            "{context}"
        );
        return Outcome::TimedOut;
    }
    let own = match kind {
        Kind::Ok => format!("ok {index}"),
        Kind::Fail => "Tool fail failed: exploded".to_owned(),
        Kind::Panic => "Tool boom failed: panicked: boom".to_owned(),
        Kind::Timeout => format!("Tool hang failed: timed out after {HANG_TIMEOUT_MS} ms"),
        Kind::Wait => "stopped".to_owned(),
        Kind::Stubborn => panic!("a stubborn call is only ever cancelled: {context}"),
        Kind::Unknown | Kind::BadArguments => unreachable!(),
    };
    assert_eq!(text, own, "{context}");
    assert_eq!(
        result.is_error,
        !matches!(kind, Kind::Ok | Kind::Wait),
        "{context}"
    );
    Outcome::Own
}

struct Run {
    count: usize,
    mode: ExecutionMode,
    max_concurrency: Option<usize>,
    /// Overrides every tool's timeout.
    context_timeout_ms: Option<u64>,
    /// The signal is cancelled this long after this many quick calls finished.
    cancel_after_quick: usize,
    cancel_delay: Duration,
}

struct Report {
    outcomes: Vec<(Kind, Outcome)>,
}

impl Report {
    fn count(&self, kind: Kind, outcome: Outcome) -> usize {
        self.outcomes
            .iter()
            .filter(|(k, o)| *k == kind && *o == outcome)
            .count()
    }

    fn count_outcome(&self, outcome: Outcome) -> usize {
        self.outcomes.iter().filter(|(_, o)| *o == outcome).count()
    }

    /// Checks that some calls of each of `kinds` got their own answer.
    fn assert_some_own_answers(&self, kinds: impl IntoIterator<Item = Kind>) {
        for kind in kinds {
            assert!(
                self.count(kind, Outcome::Own) > 0,
                "some {kind:?} calls got their own answer"
            );
        }
    }
}

/// Every kind but `Stubborn`, which is only ever cancelled.
fn kinds_with_an_own_answer() -> impl Iterator<Item = Kind> {
    KINDS.into_iter().filter(|kind| *kind != Kind::Stubborn)
}

/// Thousands of `boom` panics are expected: keep them (and, with
/// `RUST_BACKTRACE` set, their backtraces) off stderr. Any other panic is
/// reported as usual. The hook is the process's, so a `boom` of another
/// test in this binary goes unprinted too; printing is all it changes (the
/// test harness catches each panic whatever the hook).
fn quiet_expected_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&"boom") {
                default(info);
            }
        }));
    });
}

async fn run(config: Run) -> Report {
    quiet_expected_panics();
    let wall = Instant::now();
    let metrics = tokio::runtime::Handle::current().metrics();
    let baseline_tasks = metrics.num_alive_tasks();

    let state = Arc::new(State::default());
    let tools = registry(&state);
    let kinds = kinds(config.count);
    let calls: Vec<ToolCall> = kinds
        .iter()
        .enumerate()
        .map(|(index, kind)| call(index, *kind))
        .collect();
    for kind in KINDS {
        assert!(kinds.contains(&kind), "the mix has {kind:?}");
    }

    let stop = CancellationToken::new();
    let canceller = {
        let (stop, mut done) = (stop.clone(), state.quick_done.subscribe());
        let (threshold, delay) = (config.cancel_after_quick, config.cancel_delay);
        tokio::spawn(async move {
            done.wait_for(|done| *done >= threshold).await.unwrap();
            tokio::time::sleep(delay).await;
            stop.cancel();
        })
    };
    let mut ctx = RunOptions::new()
        .with_signal(stop.clone())
        .with_cancel_grace(Duration::from_millis(20));
    if let Some(limit) = config.max_concurrency {
        ctx =
            ctx.with_max_concurrency(std::num::NonZeroUsize::new(limit).expect("a limit above 0"));
    }
    if let Some(ms) = config.context_timeout_ms {
        ctx = ctx.with_timeout(Duration::from_millis(ms));
    }

    let results = tokio::time::timeout(HANG, execute_tool_calls(&calls, &tools, ctx, config.mode))
        .await
        .expect("the batch was answered");
    assert!(stop.is_cancelled(), "the batch was cancelled partway");
    canceller.await.unwrap();

    // One answer per call, in call order.
    assert_eq!(results.len(), calls.len());
    for (result, call) in results.iter().zip(&calls) {
        assert_eq!(result.tool_call_id, call.id);
        assert_eq!(result.tool_name, call.name);
        assert_eq!(result.content.len(), 1);
    }
    let started = state.started.lock().unwrap().clone();
    let outcomes: Vec<(Kind, Outcome)> = results
        .iter()
        .enumerate()
        .map(|(index, result)| {
            let ran = started.contains(&result.tool_call_id);
            let outcome = judge(index, kinds[index], result, ran, config.context_timeout_ms);
            (kinds[index], outcome)
        })
        .collect();
    if let Some(limit) = config.max_concurrency {
        assert!(state.most_in_flight.load(Ordering::SeqCst) <= limit);
    }
    assert_eq!(
        state.in_flight.load(Ordering::SeqCst),
        0,
        "no call still runs"
    );

    // Every task a tool spawned saw its call's signal cancelled and ended:
    // nothing is left running on the runtime.
    let drained = tokio::time::timeout(Duration::from_secs(10), async {
        while state.live_tasks.load(Ordering::SeqCst) > 0
            || metrics.num_alive_tasks() > baseline_tasks
        {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
    assert!(
        drained.is_ok(),
        "tasks left running: {} spawned by tools, {} alive (baseline {baseline_tasks})",
        state.live_tasks.load(Ordering::SeqCst),
        metrics.num_alive_tasks()
    );
    let report = Report { outcomes };
    let mut summary: Vec<String> = Vec::new();
    for kind in KINDS {
        for outcome in [
            Outcome::Own,
            Outcome::TimedOut,
            Outcome::CancelledWhileRunning,
            Outcome::CancelledBeforeRunning,
        ] {
            let count = report.count(kind, outcome);
            if count > 0 {
                summary.push(format!("{kind:?}/{outcome:?}: {count}"));
            }
        }
    }
    eprintln!(
        "{:?} in {:?}: {}",
        config.mode,
        wall.elapsed(),
        summary.join(", ")
    );
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_calls_in_parallel_are_each_answered_once_in_order() {
    let report = run(Run {
        count: 10_000,
        mode: ExecutionMode::Parallel,
        max_concurrency: None,
        context_timeout_ms: None,
        cancel_after_quick: 2_000,
        cancel_delay: Duration::from_millis(250),
    })
    .await;
    report.assert_some_own_answers(kinds_with_an_own_answer());
    assert!(report.count(Kind::Stubborn, Outcome::CancelledWhileRunning) > 0);
}

#[tokio::test]
async fn ten_thousand_calls_with_a_concurrency_limit_are_each_answered_once_in_order() {
    let report = run(Run {
        count: 10_000,
        mode: ExecutionMode::Parallel,
        max_concurrency: Some(64),
        context_timeout_ms: None,
        cancel_after_quick: 100,
        cancel_delay: Duration::from_millis(100),
    })
    .await;
    report.assert_some_own_answers(kinds_with_an_own_answer());
    // The waiting calls hold every slot until the signal is cancelled, so
    // most of the batch had not started: answered without running.
    assert!(report.count_outcome(Outcome::CancelledBeforeRunning) > 5_000);
    assert!(report.count(Kind::Stubborn, Outcome::CancelledWhileRunning) > 0);
}

#[tokio::test]
async fn a_sequential_batch_is_answered_once_in_order_and_stops_at_the_cancel() {
    let report = run(Run {
        count: 400,
        mode: ExecutionMode::Sequential,
        max_concurrency: None,
        // Every call may run 5 ms: the waiting kinds end by timing out.
        context_timeout_ms: Some(5),
        cancel_after_quick: 80,
        cancel_delay: Duration::ZERO,
    })
    .await;
    report.assert_some_own_answers([
        Kind::Ok,
        Kind::BadArguments,
        Kind::Unknown,
        Kind::Fail,
        Kind::Panic,
    ]);
    for kind in [Kind::Timeout, Kind::Wait, Kind::Stubborn] {
        assert!(report.count(kind, Outcome::TimedOut) > 0, "{kind:?}");
    }
    // In sequence, once one call is answered without running, so is every
    // later call (an unknown tool is still reported unknown).
    let first_skipped = report
        .outcomes
        .iter()
        .position(|(_, outcome)| *outcome == Outcome::CancelledBeforeRunning)
        .expect("the cancel left calls not started");
    for (index, (kind, outcome)) in report.outcomes.iter().enumerate().skip(first_skipped) {
        if *kind != Kind::Unknown {
            assert_eq!(*outcome, Outcome::CancelledBeforeRunning, "call-{index}");
        }
    }
}
