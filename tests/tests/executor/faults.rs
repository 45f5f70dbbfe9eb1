//! The executor under faults: timeouts, cancellation and its grace period,
//! concurrency limits, exclusive tools, hooks and tagged progress. Each test
//! fails without the feature it names.
//!
//! These tests run on real time, not on Tokio's paused clock: pausing the
//! clock needs Tokio's `test-util` feature, which this crate does not enable.
//! So timers are short, assertions are on outcomes (which answer, which flag,
//! which order, what a tool saw), and durations are only checked from below
//! (a Tokio timer never fires early) or against [`HANG`], a ceiling that only
//! catches hangs.

use serde_json::{Map, Value, json};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Barrier, watch};
use tokio::time::Instant;
use tool_core::{
    CancellationToken, Content, DynamicTool, ExecutionMode, FailureKind, RunOptions, Tool,
    ToolCall, ToolContext, ToolError, ToolFailure, ToolOutput, ToolParams, ToolRegistry,
    ToolResultMessage, execute_tool_call, execute_tool_calls, executor::AfterCall,
    executor::BeforeCall, executor::HookDecision, executor::ProgressEvent, tool,
};

use crate::support::bounded::{FOREVER, bounded, run_batch, run_call};
use crate::support::text_of;

// The tests that check a timeout or grace period does not end early run on
// Tokio's paused clock: `Instant::elapsed` there is the runtime's own time,
// which advances only when every task waits, so the checks are exact and
// never depend on how busy the machine is.

fn ids(results: &[ToolResultMessage]) -> Vec<&str> {
    results.iter().map(|r| r.tool_call_id.as_str()).collect()
}

fn registry<T: Tool>(tools: impl IntoIterator<Item = T>) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).unwrap();
    }
    registry
}

// ---------------------------------------------------------------------------
// A configurable hand-written tool, and what it lets a test observe.
// ---------------------------------------------------------------------------

/// What a [`Stub`] saw and did, shared with the test.
#[derive(Default)]
struct Probe {
    /// Calls that started.
    runs: AtomicUsize,
    /// Calls running right now, and the most ever at once.
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
    /// Calls whose future was dropped before it finished.
    dropped: AtomicUsize,
    /// The signal each call received.
    signals: Mutex<Vec<Option<CancellationToken>>>,
    /// Counts starts, for a test waiting until calls are running.
    started: Option<watch::Sender<usize>>,
    /// Start and end of each call, in order, when a test needs the overlap.
    log: Option<&'static Mutex<Vec<(String, &'static str)>>>,
}

impl Probe {
    fn new() -> Arc<Probe> {
        Arc::new(Probe {
            started: Some(watch::channel(0).0),
            ..Probe::default()
        })
    }

    fn logging(log: &'static Mutex<Vec<(String, &'static str)>>) -> Arc<Probe> {
        Arc::new(Probe {
            log: Some(log),
            ..Probe::default()
        })
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    fn dropped(&self) -> usize {
        self.dropped.load(Ordering::SeqCst)
    }

    /// Waits until `count` calls have started.
    async fn started(&self, count: usize) {
        let mut started = self.started.as_ref().expect("a watched probe").subscribe();
        bounded(started.wait_for(|n| *n >= count)).await.unwrap();
    }

    fn enter(self: &Arc<Self>, ctx: &ToolContext) -> Running {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight.fetch_max(now, Ordering::SeqCst);
        self.signals.lock().unwrap().push(ctx.signal.clone());
        if let Some(log) = self.log {
            log.lock().unwrap().push((ctx.call_id.clone(), "start"));
        }
        if let Some(started) = &self.started {
            started.send_modify(|n| *n += 1);
        }
        Running {
            probe: Arc::clone(self),
            call_id: ctx.call_id.clone(),
            finished: false,
        }
    }
}

/// Lives as long as a call's future: dropped early, it counts the drop.
struct Running {
    probe: Arc<Probe>,
    call_id: String,
    finished: bool,
}

impl Running {
    fn finish(mut self) {
        self.finished = true;
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.probe.in_flight.fetch_sub(1, Ordering::SeqCst);
        if !self.finished {
            self.probe.dropped.fetch_add(1, Ordering::SeqCst);
        }
        if let Some(log) = self.probe.log {
            log.lock()
                .unwrap()
                .push((std::mem::take(&mut self.call_id), "end"));
        }
    }
}

#[derive(Clone, Copy)]
enum Behaviour {
    /// Answers its call id at once.
    Quick,
    /// Sleeps this long, ignoring its signal, then answers `finished`.
    Ignore(Duration),
    /// Waits for its signal, then answers `stopped cleanly`.
    Observe,
}

/// A hand-written tool whose behaviour, timeout and exclusivity a test picks.
struct Stub {
    name: &'static str,
    behaviour: Behaviour,
    timeout: Option<Duration>,
    exclusive: bool,
    probe: Arc<Probe>,
}

impl Stub {
    fn new(name: &'static str, behaviour: Behaviour, probe: &Arc<Probe>) -> Self {
        Stub {
            name,
            behaviour,
            timeout: None,
            exclusive: false,
            probe: Arc::clone(probe),
        }
    }

    fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    fn exclusive(mut self) -> Self {
        self.exclusive = true;
        self
    }
}

impl Tool for Stub {
    type Params = Map<String, Value>;
    type Details = Value;

    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        "A test tool"
    }

    async fn execute(
        &self,
        _: Map<String, Value>,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let running = self.probe.enter(&ctx);
        let output = match self.behaviour {
            Behaviour::Quick => ToolOutput::text(ctx.call_id.clone()),
            Behaviour::Ignore(duration) => {
                tokio::time::sleep(duration).await;
                ToolOutput::text("finished")
            }
            Behaviour::Observe => {
                ctx.cancelled().await;
                ToolOutput::text("stopped cleanly")
            }
        };
        running.finish();
        Ok(output)
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    fn exclusive(&self) -> bool {
        self.exclusive
    }
}

/// Cancels `signal` once `count` calls of `probe` have started.
fn cancel_when_started(probe: &Arc<Probe>, count: usize, signal: &CancellationToken) {
    let (probe, signal) = (Arc::clone(probe), signal.clone());
    tokio::spawn(async move {
        probe.started(count).await;
        signal.cancel();
    });
}

// ---------------------------------------------------------------------------
// Timeouts
// ---------------------------------------------------------------------------

/// What the `#[tool]` function `slow` saw, by call id (tests run in
/// parallel, each with its own ids).
#[derive(Default)]
struct SlowProbe {
    signal: Mutex<Option<CancellationToken>>,
    dropped: AtomicBool,
}

static SLOW_PROBES: Mutex<Vec<(String, Arc<SlowProbe>)>> = Mutex::new(Vec::new());

fn slow_probe(call_id: &str) -> Arc<SlowProbe> {
    let mut probes = SLOW_PROBES.lock().unwrap();
    if let Some((_, probe)) = probes.iter().find(|(id, _)| id == call_id) {
        return Arc::clone(probe);
    }
    let probe = Arc::new(SlowProbe::default());
    probes.push((call_id.to_owned(), Arc::clone(&probe)));
    probe
}

struct SetOnDrop(Arc<SlowProbe>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.dropped.store(true, Ordering::SeqCst);
    }
}

/// Sleeps, ignoring its signal
#[tool(timeout_ms = 50)]
async fn slow(ctx: ToolContext, #[param(default = 3_600_000)] millis: u64) -> String {
    let probe = slow_probe(&ctx.call_id);
    *probe.signal.lock().unwrap() = ctx.signal.clone();
    let _dropped = SetOnDrop(probe);
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "finished".into()
}

#[tokio::test(start_paused = true)]
async fn tool_attribute_timeout_answers_timed_out_and_cancels_the_signal() {
    assert_eq!(SlowTool.timeout(), Some(Duration::from_millis(50)));
    let tools = registry([SlowTool]);
    let call = ToolCall::new("attr-timeout", "slow", json!({}));
    let started = Instant::now();
    let result = run_call(&call, &tools, RunOptions::default()).await;
    assert!(started.elapsed() >= Duration::from_millis(50));
    assert!(result.is_error);
    assert_eq!(result.tool_call_id, "attr-timeout");
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 50 ms");
    assert_eq!(
        result.details,
        Some(json!({"error": "timed out after 50 ms"}))
    );
    let probe = slow_probe("attr-timeout");
    // Without a caller's signal the executor still gave the call one, so it
    // could tell the tool to stop; it is cancelled, and the future dropped.
    let signal = probe.signal.lock().unwrap().clone();
    assert!(signal.expect("the tool got a signal").is_cancelled());
    assert!(probe.dropped.load(Ordering::SeqCst));
}

#[tokio::test(start_paused = true)]
async fn hand_written_timeout_answers_timed_out_and_cancels_the_signal() {
    let probe = Probe::new();
    let tools = registry([Stub::new("slow", Behaviour::Ignore(FOREVER), &probe)
        .with_timeout(Duration::from_millis(50))]);
    let call = ToolCall::new("hand-timeout", "slow", json!({}));
    let started = Instant::now();
    let result = run_call(&call, &tools, RunOptions::default()).await;
    assert!(started.elapsed() >= Duration::from_millis(50));
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 50 ms");
    assert!(result.is_error);
    assert_eq!(probe.runs(), 1);
    assert_eq!(probe.dropped(), 1, "the tool's future was dropped");
    let signals = probe.signals.lock().unwrap();
    assert!(signals[0].as_ref().expect("a signal").is_cancelled());
}

#[tokio::test]
async fn a_timeout_cancels_only_its_own_call() {
    let probe = Probe::new();
    let tools = registry([
        Stub::new("slow", Behaviour::Ignore(FOREVER), &probe)
            .with_timeout(Duration::from_millis(30)),
        Stub::new(
            "patient",
            Behaviour::Ignore(Duration::from_millis(150)),
            &probe,
        ),
    ]);
    let caller = CancellationToken::new();
    let calls = [
        ToolCall::new("p1", "patient", json!({})),
        ToolCall::new("s", "slow", json!({})),
        ToolCall::new("p2", "patient", json!({})),
    ];
    let ctx = RunOptions::new().with_signal(caller.clone());
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(ids(&results), ["p1", "s", "p2"]);
    assert_eq!(text_of(&results[0]), "finished");
    assert_eq!(
        text_of(&results[1]),
        "Tool slow failed: timed out after 30 ms"
    );
    assert_eq!(text_of(&results[2]), "finished");
    // The timed-out call's signal is a child of the caller's: cancelling it
    // stopped neither the caller nor the other calls.
    assert!(!caller.is_cancelled());
    let signals = probe.signals.lock().unwrap();
    let cancelled: Vec<bool> = signals
        .iter()
        .map(|signal| signal.as_ref().unwrap().is_cancelled())
        .collect();
    assert_eq!(cancelled.iter().filter(|c| **c).count(), 1);
}

#[tokio::test]
async fn the_context_timeout_overrides_a_shorter_tool_timeout() {
    // The tool's own 50 ms would stop it; the context's 10 s lets it finish.
    let probe = Probe::new();
    let tools = registry([Stub::new(
        "slow",
        Behaviour::Ignore(Duration::from_millis(150)),
        &probe,
    )
    .with_timeout(Duration::from_millis(50))]);
    let call = ToolCall::new("longer", "slow", json!({}));
    let ctx = RunOptions::new().with_timeout(Duration::from_secs(10));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "finished");
    assert!(!result.is_error);
    assert_eq!(probe.dropped(), 0);

    // The same for a `#[tool(timeout_ms = 50)]` function.
    let tools = registry([SlowTool]);
    let call = ToolCall::new("attr-longer", "slow", json!({"millis": 150}));
    let ctx = RunOptions::new().with_timeout(Duration::from_secs(10));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "finished");
}

#[tokio::test(start_paused = true)]
async fn the_context_timeout_overrides_a_longer_tool_timeout() {
    let probe = Probe::new();
    let tools = registry([Stub::new("slow", Behaviour::Ignore(FOREVER), &probe)
        .with_timeout(Duration::from_secs(600))]);
    let call = ToolCall::new("shorter", "slow", json!({}));
    let ctx = RunOptions::new().with_timeout(Duration::from_millis(40));
    let started = Instant::now();
    let result = run_call(&call, &tools, ctx).await;
    assert!(started.elapsed() >= Duration::from_millis(40));
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 40 ms");
    assert_eq!(probe.dropped(), 1);

    // A tool with no timeout of its own gets the context's.
    let probe = Probe::new();
    let tools = registry([Stub::new("slow", Behaviour::Ignore(FOREVER), &probe)]);
    let ctx = RunOptions::new().with_timeout(Duration::from_millis(20));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 20 ms");

    // And for a `#[tool(timeout_ms = 50)]` function.
    let tools = registry([SlowTool]);
    let call = ToolCall::new("attr-shorter", "slow", json!({}));
    let ctx = RunOptions::new().with_timeout(Duration::from_millis(20));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 20 ms");
    assert!(slow_probe("attr-shorter").dropped.load(Ordering::SeqCst));
}

// ---------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_call_cancelled_before_it_starts_never_runs() {
    let probe = Probe::new();
    let tools = registry([Stub::new("work", Behaviour::Quick, &probe)]);
    let stop = CancellationToken::new();
    stop.cancel();
    let ctx = RunOptions::new().with_signal(stop);

    let call = ToolCall::new("early", "work", json!({}));
    let result = run_call(&call, &tools, ctx.clone()).await;
    assert_eq!(text_of(&result), "Tool work failed: cancelled");
    assert_eq!(result.details, Some(json!({"error": "cancelled"})));
    assert!(result.is_error);
    assert_eq!(result.tool_call_id, "early");

    let calls: Vec<ToolCall> = (0..5)
        .map(|i| ToolCall::new(format!("b{i}"), "work", json!({})))
        .collect();
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let results = run_batch(&calls, &tools, ctx.clone(), mode).await;
        assert_eq!(ids(&results), ["b0", "b1", "b2", "b3", "b4"]);
        for result in &results {
            assert_eq!(text_of(result), "Tool work failed: cancelled");
        }
    }
    assert_eq!(probe.runs(), 0, "no cancelled call ran its tool");
}

#[tokio::test]
async fn a_tool_that_watches_its_signal_keeps_its_own_answer() {
    let probe = Probe::new();
    let tools = registry([Stub::new("watch", Behaviour::Observe, &probe)]);
    let stop = CancellationToken::new();
    cancel_when_started(&probe, 1, &stop);
    // A long grace: the answer comes from the tool, not from its expiry.
    let ctx = RunOptions::new()
        .with_signal(stop)
        .with_cancel_grace(Duration::from_secs(600));
    let call = ToolCall::new("w", "watch", json!({}));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "stopped cleanly");
    assert!(!result.is_error);
    assert_eq!(probe.dropped(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_tool_that_ignores_its_signal_is_dropped_after_the_configured_grace() {
    // The tool would finish on its own after 5 s; the 100 ms grace ends first.
    let probe = Probe::new();
    let tools = registry([Stub::new(
        "stubborn",
        Behaviour::Ignore(Duration::from_secs(5)),
        &probe,
    )]);
    let stop = CancellationToken::new();
    cancel_when_started(&probe, 1, &stop);
    let ctx = RunOptions::new()
        .with_signal(stop)
        .with_cancel_grace(Duration::from_millis(100));
    let call = ToolCall::new("s", "stubborn", json!({}));
    let started = Instant::now();
    let result = run_call(&call, &tools, ctx).await;
    assert!(started.elapsed() >= Duration::from_millis(100));
    assert_eq!(text_of(&result), "Tool stubborn failed: cancelled");
    assert_eq!(result.details, Some(json!({"error": "cancelled"})));
    assert_eq!(probe.dropped(), 1, "the tool's future was dropped");
}

#[tokio::test(start_paused = true)]
async fn the_default_grace_is_one_second() {
    assert_eq!(RunOptions::new().cancel_grace(), Duration::from_secs(1));
    // The tool would finish on its own after 6 s.
    let probe = Probe::new();
    let tools = registry([Stub::new(
        "stubborn",
        Behaviour::Ignore(Duration::from_secs(6)),
        &probe,
    )]);
    let stop = CancellationToken::new();
    cancel_when_started(&probe, 1, &stop);
    let call = ToolCall::new("s", "stubborn", json!({}));
    let started = Instant::now();
    let result = run_call(&call, &tools, RunOptions::new().with_signal(stop)).await;
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(text_of(&result), "Tool stubborn failed: cancelled");
    assert_eq!(probe.dropped(), 1);
}

#[tokio::test]
async fn cancelling_a_parallel_batch_answers_every_call() {
    let probe = Probe::new();
    let tools = registry([
        Stub::new("watch", Behaviour::Observe, &probe),
        Stub::new("stubborn", Behaviour::Ignore(FOREVER), &probe),
        Stub::new("work", Behaviour::Quick, &probe),
    ]);
    let calls = [
        ToolCall::new("c0", "watch", json!({})),
        ToolCall::new("c1", "stubborn", json!({})),
        ToolCall::new("c2", "work", json!({})),
        ToolCall::new("c3", "work", json!({})),
        ToolCall::new("c4", "watch", json!({})),
        ToolCall::new("c5", "missing", json!({})),
    ];
    let stop = CancellationToken::new();
    // Two run at once: c0 and c1 hold the slots, the rest wait for them.
    cancel_when_started(&probe, 2, &stop);
    let ctx = RunOptions::new()
        .with_signal(stop)
        .with_max_concurrency(NonZeroUsize::new(2).unwrap())
        .with_cancel_grace(Duration::from_millis(100));
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(ids(&results), ["c0", "c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(text_of(&results[0]), "stopped cleanly");
    assert_eq!(text_of(&results[1]), "Tool stubborn failed: cancelled");
    assert_eq!(text_of(&results[2]), "Tool work failed: cancelled");
    assert_eq!(text_of(&results[3]), "Tool work failed: cancelled");
    assert_eq!(text_of(&results[4]), "Tool watch failed: cancelled");
    assert_eq!(text_of(&results[5]), "Tool missing failed: unknown tool");
    assert_eq!(
        probe.runs(),
        2,
        "calls not started when cancelled never ran"
    );
    assert_eq!(probe.dropped(), 1, "only the stubborn call was dropped");
}

#[tokio::test]
async fn cancelling_a_sequential_batch_answers_every_call() {
    let probe = Probe::new();
    let tools = registry([
        Stub::new("work", Behaviour::Quick, &probe),
        Stub::new("stubborn", Behaviour::Ignore(FOREVER), &probe),
    ]);
    let calls = [
        ToolCall::new("c0", "work", json!({})),
        ToolCall::new("c1", "stubborn", json!({})),
        ToolCall::new("c2", "work", json!({})),
        ToolCall::new("c3", "stubborn", json!({})),
    ];
    let stop = CancellationToken::new();
    cancel_when_started(&probe, 2, &stop);
    let ctx = RunOptions::new()
        .with_signal(stop)
        .with_cancel_grace(Duration::from_millis(50));
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Sequential).await;
    assert_eq!(ids(&results), ["c0", "c1", "c2", "c3"]);
    assert_eq!(text_of(&results[0]), "c0");
    assert_eq!(text_of(&results[1]), "Tool stubborn failed: cancelled");
    assert_eq!(text_of(&results[2]), "Tool work failed: cancelled");
    assert_eq!(text_of(&results[3]), "Tool stubborn failed: cancelled");
    assert_eq!(probe.runs(), 2);
}

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------

#[tokio::test]
async fn max_concurrency_bounds_the_calls_running_at_once() {
    let probe = Probe::new();
    let tools = registry([
        Stub::new("a", Behaviour::Ignore(Duration::from_millis(20)), &probe),
        Stub::new("b", Behaviour::Ignore(Duration::from_millis(5)), &probe),
        Stub::new("c", Behaviour::Quick, &probe),
    ]);
    let calls: Vec<ToolCall> = (0..15)
        .map(|i| ToolCall::new(format!("m{i}"), ["a", "b", "c"][i % 3], json!({})))
        .collect();
    let ctx = RunOptions::new().with_max_concurrency(NonZeroUsize::new(3).unwrap());
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    let expected: Vec<String> = (0..15).map(|i| format!("m{i}")).collect();
    assert_eq!(ids(&results), expected);
    for (i, result) in results.iter().enumerate() {
        let want = if i % 3 == 2 {
            calls[i].id.as_str()
        } else {
            "finished"
        };
        assert_eq!(text_of(result), want);
    }
    assert_eq!(probe.runs(), 15);
    assert_eq!(probe.most_in_flight.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn without_a_limit_every_call_runs_at_once_and_a_limit_of_one_runs_one() {
    let probe = Probe::new();
    let tools = registry([Stub::new(
        "a",
        Behaviour::Ignore(Duration::from_millis(20)),
        &probe,
    )]);
    let calls: Vec<ToolCall> = (0..12)
        .map(|i| ToolCall::new(format!("u{i}"), "a", json!({})))
        .collect();
    let results = run_batch(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    assert_eq!(results.len(), 12);
    assert_eq!(probe.most_in_flight.load(Ordering::SeqCst), 12);

    let probe = Probe::new();
    let tools = registry([Stub::new(
        "a",
        Behaviour::Ignore(Duration::from_millis(5)),
        &probe,
    )]);
    let results = run_batch(
        &calls,
        &tools,
        RunOptions::new().with_max_concurrency(NonZeroUsize::MIN),
        ExecutionMode::Parallel,
    )
    .await;
    let expected: Vec<String> = (0..12).map(|i| format!("u{i}")).collect();
    assert_eq!(ids(&results), expected);
    assert_eq!(probe.most_in_flight.load(Ordering::SeqCst), 1);
}

static EXCLUSIVE_LOG: Mutex<Vec<(String, &'static str)>> = Mutex::new(Vec::new());

/// Runs alone
#[tool(exclusive)]
async fn wipe(ctx: ToolContext) -> String {
    EXCLUSIVE_LOG
        .lock()
        .unwrap()
        .push((ctx.call_id.clone(), "start"));
    tokio::time::sleep(Duration::from_millis(20)).await;
    EXCLUSIVE_LOG
        .lock()
        .unwrap()
        .push((ctx.call_id.clone(), "end"));
    "wiped".into()
}

#[tokio::test]
async fn exclusive_calls_run_alone_while_the_others_overlap() {
    assert!(WipeTool.exclusive());
    let probe = Probe::logging(&EXCLUSIVE_LOG);
    let mut tools = registry([
        Stub::new("work", Behaviour::Ignore(Duration::from_millis(20)), &probe),
        Stub::new("lock", Behaviour::Ignore(Duration::from_millis(20)), &probe).exclusive(),
    ]);
    tools.register(WipeTool).unwrap();
    let names = [
        "work", "work", "work", "wipe", "work", "work", "lock", "lock", "work", "work", "wipe",
    ];
    let calls: Vec<ToolCall> = names
        .iter()
        .enumerate()
        .map(|(i, name)| ToolCall::new(format!("x{i}"), *name, json!({})))
        .collect();
    let results = run_batch(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    let expected: Vec<String> = (0..names.len()).map(|i| format!("x{i}")).collect();
    assert_eq!(ids(&results), expected);
    for (result, name) in results.iter().zip(names) {
        let want = if name == "wipe" { "wiped" } else { "finished" };
        assert_eq!(text_of(result), want);
    }

    let log = EXCLUSIVE_LOG.lock().unwrap().clone();
    assert_eq!(log.len(), 2 * names.len());
    let position = |id: &str, what: &str| {
        log.iter()
            .position(|(logged, event)| logged == id && *event == what)
            .unwrap_or_else(|| panic!("{id} has no {what} in {log:?}"))
    };
    for (i, name) in names.iter().enumerate() {
        if *name == "work" {
            continue;
        }
        let id = format!("x{i}");
        let (start, end) = (position(&id, "start"), position(&id, "end"));
        // Nothing else starts or ends while it runs...
        assert_eq!(end, start + 1, "{id} overlapped another call: {log:?}");
        for j in 0..names.len() {
            let other = format!("x{j}");
            // ...the calls before it have ended, the calls after it wait.
            if j < i {
                assert!(
                    position(&other, "end") < start,
                    "{other} before {id}: {log:?}"
                );
            } else if j > i {
                assert!(
                    position(&other, "start") > end,
                    "{other} after {id}: {log:?}"
                );
            }
        }
    }
    // The other calls of a group still overlap: all start before any ends.
    for group in [[0, 1, 2].as_slice(), &[4, 5], &[8, 9]] {
        let last_start = group
            .iter()
            .map(|i| position(&format!("x{i}"), "start"))
            .max()
            .unwrap();
        let first_end = group
            .iter()
            .map(|i| position(&format!("x{i}"), "end"))
            .min()
            .unwrap();
        assert!(last_start < first_end, "group {group:?} ran apart: {log:?}");
    }
}

// ---------------------------------------------------------------------------
// Hooks
// ---------------------------------------------------------------------------

/// The arguments of `greet`, to show what a hook sees of them.
#[derive(ToolParams)]
struct GreetParams {
    name: String,
    #[param(default = 3)]
    times: u32,
    nickname: Option<String>,
}

/// Greets, counting its runs.
#[derive(Clone, Default)]
struct Greet {
    runs: Arc<AtomicUsize>,
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
        self.runs.fetch_add(1, Ordering::SeqCst);
        if params.name == "fail" {
            return Err("no such person".into());
        }
        let greeting = format!("hello {}", params.name).repeat(params.times as usize);
        Ok(ToolOutput::text(greeting).with_details(json!({"nickname": params.nickname})))
    }
}

fn greet_tools() -> (ToolRegistry, Greet) {
    let greet = Greet::default();
    (registry([greet.clone()]), greet)
}

#[tokio::test]
async fn the_before_hook_sees_name_parsed_arguments_and_call_id() {
    let (tools, greet) = greet_tools();
    let seen: Arc<Mutex<Vec<BeforeCall>>> = Arc::default();
    let record = Arc::clone(&seen);
    let ctx = RunOptions::new().with_before_hook(move |call| {
        record.lock().unwrap().push(call);
        async { Ok(HookDecision::Allow) }
    });
    let call = ToolCall::new("h1", "greet", json!({"name": "Ada", "extra": [1, 2]}));
    let result = run_call(&call, &tools, ctx.clone()).await;
    assert_eq!(text_of(&result), "hello Adahello Adahello Ada");
    // OpenAI-style string arguments reach the hook decoded and parsed.
    let call = ToolCall::new(
        "h2",
        "greet",
        json!(r#"{"name": "Bo", "times": 1, "nickname": "B"}"#),
    );
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "hello Bo");
    assert_eq!(result.details, Some(json!({"nickname": "B"})));
    assert_eq!(greet.runs.load(Ordering::SeqCst), 2);
    let seen = seen.lock().unwrap();
    let seen: Vec<(&str, &str, &Value, bool)> = seen
        .iter()
        .map(|call| {
            (
                call.call_id.as_str(),
                call.tool_name.as_str(),
                &call.arguments,
                call.signal.is_some(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            // `extra` is not declared: dropped. `times` has a default: filled.
            ("h1", "greet", &json!({"name": "Ada", "times": 3}), false),
            (
                "h2",
                "greet",
                &json!({"name": "Bo", "times": 1, "nickname": "B"}),
                false
            ),
        ]
    );
}

#[tokio::test]
async fn the_before_hook_sees_the_callers_signal() {
    let (tools, _greet) = greet_tools();
    let stop = CancellationToken::new();
    let got: Arc<Mutex<Option<CancellationToken>>> = Arc::default();
    let record = Arc::clone(&got);
    let ctx = RunOptions::new()
        .with_signal(stop.clone())
        .with_before_hook(move |call| {
            *record.lock().unwrap() = call.signal;
            async { Ok(HookDecision::Allow) }
        });
    let call = ToolCall::new("s1", "greet", json!({"name": "Ada"}));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "hello Adahello Adahello Ada");
    let signal = got
        .lock()
        .unwrap()
        .clone()
        .expect("the hook got the signal");
    assert!(!signal.is_cancelled());
    stop.cancel();
    assert!(signal.is_cancelled());
}

#[tokio::test]
async fn a_blocking_before_hook_answers_with_its_reason_and_the_tool_never_runs() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_before_hook(|call| async move {
        Ok(if call.arguments["name"] == "Mallory" {
            HookDecision::Block("greeting Mallory needs a human's approval".into())
        } else {
            HookDecision::Allow
        })
    });
    let calls = [
        ToolCall::new("b0", "greet", json!({"name": "Ada", "times": 1})),
        ToolCall::new("b1", "greet", json!({"name": "Mallory"})),
        ToolCall::new("b2", "greet", json!({"name": "Bo", "times": 1})),
    ];
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(ids(&results), ["b0", "b1", "b2"]);
    assert_eq!(text_of(&results[0]), "hello Ada");
    assert!(results[1].is_error);
    assert_eq!(
        text_of(&results[1]),
        "Tool greet failed: greeting Mallory needs a human's approval"
    );
    assert_eq!(
        results[1].details,
        Some(json!({"error": "greeting Mallory needs a human's approval"}))
    );
    // A person or a policy said no: denied, not a mistake to retry.
    assert_eq!(results[1].failure_kind, Some(FailureKind::Denied));
    let wire = serde_json::to_value(&results[1]).unwrap();
    assert_eq!(wire["failure"], "denied", "{wire}");
    assert_eq!(text_of(&results[2]), "hello Bo");
    assert_eq!(
        greet.runs.load(Ordering::SeqCst),
        2,
        "the blocked call never ran"
    );
}

/// One `greet` call for each way a faulty hook reacts, by call id: it fails
/// on `error`, panics before giving its future on `sync-panic`, panics
/// inside it on `async-panic`, and lets `fine` through. Checks that each is
/// answered, in order.
async fn run_hook_faults(
    tools: &ToolRegistry,
    ctx: RunOptions,
    mode: ExecutionMode,
) -> Vec<ToolResultMessage> {
    let ids_in_order = ["error", "sync-panic", "async-panic", "fine"];
    let calls =
        ids_in_order.map(|id| ToolCall::new(id, "greet", json!({"name": "Ada", "times": 1})));
    let results = run_batch(&calls, tools, ctx, mode).await;
    assert_eq!(ids(&results), ids_in_order);
    results
}

#[tokio::test]
async fn a_failing_or_panicking_before_hook_is_a_paired_error() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_before_hook(|call| {
        if call.call_id == "sync-panic" {
            panic!("hook exploded while starting");
        }
        async move {
            match call.call_id.as_str() {
                "error" => Err("policy engine unreachable".into()),
                "async-panic" => panic!("hook exploded while running"),
                _ => Ok(HookDecision::Allow),
            }
        }
    });
    let results = run_hook_faults(&tools, ctx, ExecutionMode::Parallel).await;
    let texts: Vec<&str> = results.iter().map(text_of).collect();
    assert_eq!(
        texts,
        [
            "Tool greet failed: before hook failed: policy engine unreachable",
            "Tool greet failed: before hook panicked: hook exploded while starting",
            "Tool greet failed: before hook panicked: hook exploded while running",
            "hello Ada",
        ]
    );
    assert!(results[..3].iter().all(|r| r.is_error));
    assert_eq!(
        greet.runs.load(Ordering::SeqCst),
        1,
        "only the allowed call ran"
    );
}

/// A hook that fails with `failure`, for the hook tests of failure kinds.
fn failing_with(failure: &str) -> ToolError {
    match failure {
        "internal" => ToolFailure::internal("policy db down (password=pw1)").into(),
        "fatal" => ToolFailure::fatal("this agent may not greet anyone today").into(),
        "retry" => ToolFailure::retry("say who to greet in full").into(),
        _ => "policy engine unreachable".into(),
    }
}

/// The calls of the hook failure-kind tests: the id says how the hook fails.
fn failing_hook_calls() -> [ToolCall; 4] {
    ["internal", "fatal", "retry", "plain"]
        .map(|id| ToolCall::new(id, "greet", json!({"name": "Ada", "times": 1})))
}

#[tokio::test]
async fn a_before_hooks_failure_keeps_its_kind_and_an_internal_one_is_redacted() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_before_hook(|call| async move {
        Err::<HookDecision, _>(failing_with(&call.call_id))
    });
    let results = run_batch(&failing_hook_calls(), &tools, ctx, ExecutionMode::Parallel).await;
    let kinds: Vec<_> = results.iter().map(|r| r.failure_kind).collect();
    assert_eq!(
        kinds,
        [
            Some(FailureKind::Internal),
            Some(FailureKind::Fatal),
            Some(FailureKind::Retry),
            Some(FailureKind::Retry),
        ]
    );
    // The internal failure's message is for the logs: never on the wire.
    let internal = serde_json::to_string(&results[0]).unwrap();
    assert!(!internal.contains("pw1"), "{internal}");
    assert!(!internal.contains("policy db"), "{internal}");
    let said = text_of(&results[0]);
    assert!(
        said.starts_with("Tool greet failed: before hook failed: internal error (reference "),
        "{said}"
    );
    assert!(said.ends_with("); the details are in the logs"), "{said}");
    assert_eq!(
        text_of(&results[1]),
        "Tool greet failed: before hook failed: this agent may not greet anyone today"
    );
    assert_eq!(
        text_of(&results[2]),
        "Tool greet failed: before hook failed: say who to greet in full"
    );
    assert_eq!(greet.runs.load(Ordering::SeqCst), 0, "no call ran");
}

#[tokio::test]
async fn the_after_hook_replaces_content_details_and_error_flag() {
    let (tools, greet) = greet_tools();
    let seen: Arc<Mutex<Vec<AfterCall>>> = Arc::default();
    let record = Arc::clone(&seen);
    let ctx = RunOptions::new().with_after_hook(move |call| {
        record.lock().unwrap().push(call.clone());
        async move {
            let before = call.output.content[0].as_text().unwrap_or("").to_owned();
            Ok(if call.output.is_error {
                // A failure turned into a success...
                ToolOutput::new(vec![Content::text(format!("recovered from: {before}"))])
                    .with_details(json!({"was": call.output.details}))
            } else {
                // ...and a success into a failure.
                ToolOutput::new(vec![Content::text("redacted")])
                    .with_details(json!({"redacted": true}))
                    .into_error()
            })
        }
    });
    let calls = [
        ToolCall::new("a0", "greet", json!({"name": "Ada", "times": 1, "junk": 0})),
        ToolCall::new("a1", "greet", json!({"name": "fail"})),
    ];
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(ids(&results), ["a0", "a1"]);
    assert_eq!(text_of(&results[0]), "redacted");
    assert_eq!(results[0].details, Some(json!({"redacted": true})));
    assert!(results[0].is_error);
    assert_eq!(
        text_of(&results[1]),
        "recovered from: Tool greet failed: no such person"
    );
    assert_eq!(
        results[1].details,
        Some(json!({"was": {"error": "no such person"}}))
    );
    assert!(!results[1].is_error);
    assert_eq!(greet.runs.load(Ordering::SeqCst), 2);

    let mut seen = seen.lock().unwrap().clone();
    seen.sort_by(|a, b| a.call_id.cmp(&b.call_id));
    let seen: Vec<_> = seen
        .iter()
        .map(|call| {
            (
                call.call_id.as_str(),
                call.tool_name.as_str(),
                call.arguments.clone(),
                call.output.clone(),
                call.failure_kind,
                call.internal_error.clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "a0",
                "greet",
                json!({"name": "Ada", "times": 1}),
                ToolOutput::new(vec![Content::text("hello Ada")])
                    .with_details(json!({"nickname": null})),
                None,
                None,
            ),
            (
                "a1",
                "greet",
                json!({"name": "fail", "times": 3}),
                ToolOutput::new(vec![Content::text("Tool greet failed: no such person")])
                    .with_details(json!({"error": "no such person"}))
                    .into_error(),
                Some(FailureKind::Retry),
                None,
            ),
        ]
    );
}

#[tokio::test]
async fn a_failing_or_panicking_after_hook_keeps_the_tools_result_with_a_note() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_after_hook(|call| {
        if call.call_id == "sync-panic" {
            panic!("after hook exploded while starting (token=tk1)");
        }
        async move {
            match call.call_id.as_str() {
                "error" => Err("redactor offline".into()),
                "async-panic" => panic!("after hook exploded while running (token=tk2)"),
                _ => Ok(call.output),
            }
        }
    });
    let results = run_hook_faults(&tools, ctx, ExecutionMode::Sequential).await;
    // The tool ran every time: its result stays, a success, so the model is
    // not invited to run it again; a note says the hook failed.
    for result in &results {
        assert!(!result.is_error, "{result:?}");
        assert_eq!(result.failure_kind, None);
        assert_eq!(text_of(result), "hello Ada");
        assert_eq!(result.details, Some(json!({"nickname": null})));
    }
    let notes: Vec<Vec<&str>> = results
        .iter()
        .map(|result| {
            result.content[1..]
                .iter()
                .filter_map(Content::as_text)
                .collect()
        })
        .collect();
    assert_eq!(
        notes,
        [
            vec!["[The after hook failed: redactor offline. The result above is the tool's own.]"],
            // A panic is a programming error: logged in full, not shown.
            vec!["[The after hook failed. The result above is the tool's own.]"],
            vec!["[The after hook failed. The result above is the tool's own.]"],
            vec![],
        ]
    );
    for result in &results {
        let wire = serde_json::to_string(result).unwrap();
        assert!(!wire.contains("tk1") && !wire.contains("tk2"), "{wire}");
    }
    assert_eq!(greet.runs.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn an_after_hooks_failure_kind_is_honoured_on_the_kept_result() {
    let (tools, greet) = greet_tools();
    let ctx = RunOptions::new().with_after_hook(|call| async move {
        Err::<ToolOutput<Value>, _>(failing_with(&call.call_id))
    });
    let results = run_batch(&failing_hook_calls(), &tools, ctx, ExecutionMode::Parallel).await;
    assert_eq!(greet.runs.load(Ordering::SeqCst), 4);
    for result in &results {
        assert_eq!(text_of(result), "hello Ada", "the tool's own result");
    }
    let note = |result: &ToolResultMessage| result.content[1].as_text().unwrap().to_owned();
    // Internal: redacted, the tool's success kept.
    let internal = serde_json::to_string(&results[0]).unwrap();
    assert!(!internal.contains("pw1"), "{internal}");
    assert!(!results[0].is_error);
    assert!(
        note(&results[0]).starts_with("[The after hook failed: internal error (reference "),
        "{}",
        note(&results[0])
    );
    // Fatal: the tool's result, marked fatal.
    assert!(results[1].is_error);
    assert_eq!(results[1].failure_kind, Some(FailureKind::Fatal));
    assert_eq!(
        note(&results[1]),
        "[The after hook failed: this agent may not greet anyone today. The result above is the tool's own.]"
    );
    // Retry or a plain error: never a retry failure of a tool that ran.
    for result in &results[2..] {
        assert!(!result.is_error, "{result:?}");
        assert_eq!(result.failure_kind, None);
    }
}

// ---------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------

/// A tool named `name` that reports two steps; between them it waits for
/// every call of the batch to have reported its first, which only calls
/// running together can do.
fn reporter(name: &'static str, barrier: &Arc<Barrier>) -> DynamicTool {
    let barrier = Arc::clone(barrier);
    DynamicTool::new(name, "Reports progress", move |_, ctx| {
        let barrier = Arc::clone(&barrier);
        async move {
            ctx.report_progress(vec![Content::text(format!("{} step 1", ctx.call_id))]);
            barrier.wait().await;
            ctx.report_progress(vec![Content::text(format!("{} step 2", ctx.call_id))]);
            Ok(ToolOutput::text("done"))
        }
    })
}

#[tokio::test]
async fn progress_events_are_tagged_with_call_id_and_tool_name() {
    let barrier = Arc::new(Barrier::new(4));
    let tools = registry(["alpha", "beta"].map(|name| reporter(name, &barrier)));
    let events: Arc<Mutex<Vec<ProgressEvent>>> = Arc::default();
    let record_events = Arc::clone(&events);
    let ctx =
        RunOptions::new().with_progress(move |event| record_events.lock().unwrap().push(event));
    let calls = [
        ToolCall::new("p0", "alpha", json!({})),
        ToolCall::new("p1", "beta", json!({})),
        ToolCall::new("p2", "alpha", json!({})),
        ToolCall::new("p3", "beta", json!({})),
    ];
    let results = run_batch(&calls, &tools, ctx, ExecutionMode::Parallel).await;
    assert!(results.iter().all(|r| text_of(r) == "done"));

    let events = events.lock().unwrap().clone();
    assert_eq!(events.len(), 8);
    for (i, event) in events.iter().enumerate() {
        let call = calls
            .iter()
            .find(|call| call.id == event.call_id)
            .expect("a known call id");
        assert_eq!(event.tool_name, call.name, "{event:?}");
        let step = if i < 4 { 1 } else { 2 };
        assert_eq!(
            event.content,
            vec![Content::text(format!("{} step {step}", call.id))],
            "the calls interleave: every first step comes before any second"
        );
    }
    let mut first_steps: Vec<&str> = events[..4].iter().map(|e| e.call_id.as_str()).collect();
    first_steps.sort_unstable();
    assert_eq!(first_steps, ["p0", "p1", "p2", "p3"]);
}

// ---------------------------------------------------------------------------
// Bugs these tests found, fixed since: kept as regression tests.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn cancelling_while_a_before_hook_waits_answers_the_call() {
    // A before hook is where a permission prompt waits for a human. The
    // caller cancels the turn meanwhile: the call should be answered
    // `cancelled` (at the latest after the grace period), not wait forever.
    let (tools, greet) = greet_tools();
    let (asked, mut waiting) = watch::channel(false);
    let ctx_stop = CancellationToken::new();
    let stop = ctx_stop.clone();
    tokio::spawn(async move {
        waiting.wait_for(|asked| *asked).await.unwrap();
        stop.cancel();
    });
    let ctx = RunOptions::new()
        .with_signal(ctx_stop)
        .with_cancel_grace(Duration::from_millis(50))
        .with_before_hook(move |_| {
            asked.send_replace(true);
            // Nobody ever answers the prompt.
            std::future::pending()
        });
    let call = ToolCall::new("prompt", "greet", json!({"name": "Ada"}));
    let result = run_call(&call, &tools, ctx).await;
    assert_eq!(text_of(&result), "Tool greet failed: cancelled");
    assert_eq!(greet.runs.load(Ordering::SeqCst), 0);
}

/// A parameter type whose JSON form panics: a bug in user code, like the
/// panicking parser that `executor.rs` shows is answered.
struct Brittle;

impl tool_core::params::ParamValue for Brittle {
    fn schema() -> Value {
        json!({})
    }
    fn parse_value(
        _: &Value,
        _: &tool_core::params::ParamPath<'_>,
        _: &mut tool_core::params::ParseContext,
    ) -> Option<Self> {
        Some(Brittle)
    }
    fn to_json(&self) -> Value {
        panic!("brittle to_json")
    }
}

#[derive(ToolParams)]
struct BrittleParams {
    #[allow(dead_code)]
    input: Brittle,
}

struct UsesBrittle;

impl Tool for UsesBrittle {
    type Params = BrittleParams;
    type Details = ();
    fn name(&self) -> &str {
        "brittle"
    }
    fn description(&self) -> &str {
        "Its parameters cannot be shown as JSON"
    }
    async fn execute(&self, _: BrittleParams, _: ToolContext) -> Result<ToolOutput<()>, ToolError> {
        Ok(ToolOutput::text("ran"))
    }
}

#[tokio::test]
async fn a_panic_while_showing_arguments_to_a_hook_is_paired() {
    let tools = registry([UsesBrittle]);
    let ctx = RunOptions::new().with_before_hook(|_| async { Ok(HookDecision::Allow) });
    let call = ToolCall::new("brittle-1", "brittle", json!({"input": 1}));
    // Run on a task of its own, so the escaping panic is observed as a
    // JoinError instead of failing the test from inside.
    let answered = tokio::spawn(async move { execute_tool_call(&call, &tools, ctx).await }).await;
    let result = answered.expect("execute_tool_call never panics");
    assert!(result.is_error);
    assert_eq!(
        text_of(&result),
        "Tool brittle failed: panicked: brittle to_json"
    );
}

/// Panics when dropped: a tool's future holding one panics when the
/// executor drops it at its deadline.
struct PanicOnDrop;

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("dropped while running");
        }
    }
}

#[tokio::test]
async fn a_tool_future_panicking_on_drop_at_its_timeout_is_paired() {
    let tools = registry([DynamicTool::new(
        "trap",
        "Panics when dropped",
        |_, _| async {
            let _trap = PanicOnDrop;
            tokio::time::sleep(FOREVER).await;
            Ok(ToolOutput::text("unreachable"))
        },
    )]);
    let calls = [
        ToolCall::new("t0", "trap", json!({})),
        ToolCall::new("t1", "missing", json!({})),
    ];
    let ctx = RunOptions::new().with_timeout(Duration::from_millis(20));
    let answered = tokio::spawn(async move {
        execute_tool_calls(&calls, &tools, ctx, ExecutionMode::Parallel).await
    })
    .await;
    let results = answered.expect("execute_tool_calls never panics");
    assert_eq!(ids(&results), ["t0", "t1"]);
    assert!(results[0].is_error);
    assert!(text_of(&results[0]).starts_with("Tool trap failed: "));
    assert_eq!(text_of(&results[1]), "Tool missing failed: unknown tool");
}
