//! tool-core speaks through `tracing` only: one `execute_tool` span per
//! call, carrying its id and tool (its other fields are checked in
//! `call_span.rs`), and an event for each thing an operator wants to see in
//! the logs (a timeout, a cancellation, a panic, a hook's decision or
//! failure, a repair, an internal error's full message). Captured here as
//! the log lines a real subscriber writes.
//!
//! It shares its test binary with the other executor tests: each capture
//! installs its subscriber for its own thread only (`with_default`, never a
//! global default) and runs the call on a current-thread runtime there, so
//! it sees none of the other tests' events and they see none of its.

use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::{
    DynamicTool, LogEvent, LogLevel, RunOptions, ToolCall, ToolFailure, ToolOutput, ToolRegistry,
    execute_tool_call, executor::HookDecision, repair::RepairPolicy, tool,
};

/// Counts (a typed parameter, so a string "3" needs repair).
#[tool]
async fn count(count: u32) -> String {
    count.to_string()
}

/// Log output, shared with the subscriber's writer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every log line `call` produces under `ctx`, with tool-core's events at
/// every level.
fn logs_of(call: ToolCall, ctx: RunOptions) -> String {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::TRACE)
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(execute_tool_call(&call, &registry(), ctx));
    });
    let bytes = captured.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    let act = DynamicTool::new("act", "Does what it is told", |args, ctx| async move {
        match args.get("how").and_then(serde_json::Value::as_str) {
            Some("log") => {
                ctx.info("fetched 3 pages");
                ctx.log(LogLevel::Critical, "the disk is full");
                Ok(ToolOutput::text("logged"))
            }
            Some("sleep") => {
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(ToolOutput::text("woke"))
            }
            Some("panic") => panic!("the work exploded"),
            Some("internal") => Err(ToolFailure::internal("the ledger is locked by pid 42").into()),
            _ => Ok(ToolOutput::text("done")),
        }
    })
    .with_parameters(json!({
        "type": "object",
        "properties": {"how": {"type": "string"}, "count": {"type": "integer"}}
    }));
    tools.register(act).unwrap();
    tools.register(CountTool).unwrap();
    tools
}

fn call(arguments: serde_json::Value) -> ToolCall {
    ToolCall::new("call-7", "act", arguments)
}

/// The line of `logs` that holds `message`, which must also hold each of
/// `parts`.
fn logged<'a>(logs: &'a str, message: &str, parts: &[&str]) -> &'a str {
    let line = logs
        .lines()
        .find(|line| line.contains(message))
        .unwrap_or_else(|| panic!("no log line says {message:?}; the logs:\n{logs}"));
    for part in parts {
        assert!(line.contains(part), "{part:?} missing from {line:?}");
    }
    line
}

/// [`logged`] for the `act` call of [`call`]: the line is in its span, and
/// holds each of `also`.
fn line_with<'a>(logs: &'a str, message: &str, also: &[&str]) -> &'a str {
    let parts: Vec<&str> = [
        "execute_tool{",
        "otel.name=execute_tool act",
        "gen_ai.tool.name=act",
        "gen_ai.tool.call.id=call-7",
    ]
    .into_iter()
    .chain(also.iter().copied())
    .collect();
    logged(logs, message, &parts)
}

#[test]
fn a_timeout_is_logged_as_a_warning_in_the_calls_span() {
    let logs = logs_of(
        call(json!({"how": "sleep"})),
        RunOptions::new().with_timeout(Duration::from_millis(20)),
    );
    line_with(
        &logs,
        "the tool timed out and was stopped",
        &["WARN", "after_ms=20"],
    );
}

#[test]
fn a_cancellation_is_logged() {
    let signal = CancellationToken::new();
    signal.cancel();
    let logs = logs_of(
        call(json!({"how": "sleep"})),
        RunOptions::new().with_signal(signal),
    );
    line_with(&logs, "the call was cancelled before it started", &[]);

    let signal = CancellationToken::new();
    let cancel_soon = signal.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        cancel_soon.cancel();
    });
    let logs = logs_of(
        call(json!({"how": "sleep"})),
        RunOptions::new()
            .with_signal(signal)
            .with_cancel_grace(Duration::from_millis(10)),
    );
    line_with(&logs, "the call was cancelled and the tool stopped", &[]);
}

#[test]
fn a_panic_is_logged_as_an_error_with_its_message() {
    let logs = logs_of(call(json!({"how": "panic"})), RunOptions::new());
    line_with(&logs, "the tool panicked", &["ERROR", "the work exploded"]);
}

#[test]
fn a_hooks_block_is_logged_with_its_reason() {
    let ctx = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Block("not on a Sunday".into())) });
    let logs = logs_of(call(json!({})), ctx);
    line_with(
        &logs,
        "the before hook blocked the call",
        &["not on a Sunday"],
    );
}

#[test]
fn a_hooks_allow_and_rewrite_are_logged_at_debug() {
    let allow = RunOptions::new().with_before_hook(|_| async { Ok(HookDecision::Allow) });
    let logs = logs_of(call(json!({})), allow);
    line_with(&logs, "the before hook allowed the call", &["DEBUG"]);

    let rewrite = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Rewrite(json!({"how": "done"}))) });
    let logs = logs_of(call(json!({"how": "panic"})), rewrite);
    line_with(&logs, "the before hook rewrote the arguments", &["DEBUG"]);
    // The rewrite is also a repair, with what changed.
    line_with(
        &logs,
        "the arguments were repaired",
        &["INFO", "rule=BeforeHook"],
    );
}

#[test]
fn a_repair_is_logged_with_what_changed() {
    let ctx = RunOptions::new().with_repair(RepairPolicy::all());
    let logs = logs_of(ToolCall::new("call-7", "count", json!({"count": "3"})), ctx);
    logged(
        &logs,
        "the arguments were repaired",
        &[
            "execute_tool{",
            "gen_ai.tool.name=count",
            "gen_ai.tool.call.id=call-7",
            "path=count",
            "sent=\"3\"",
            "used=3",
        ],
    );
}

#[test]
fn a_repair_that_does_not_make_the_arguments_parse_is_not_logged() {
    // `"-3"` reads as -3, which a `u32` refuses: the call fails, telling
    // the model the bound, and nothing was repaired.
    let ctx = RunOptions::new().with_repair(RepairPolicy::all());
    let logs = logs_of(
        ToolCall::new("call-7", "count", json!({"count": "-3"})),
        ctx,
    );
    assert!(
        !logs.contains("the arguments were repaired"),
        "the logs:\n{logs}"
    );
}

#[test]
fn an_internal_errors_full_message_reaches_the_logs_only() {
    let logs = logs_of(call(json!({"how": "internal"})), RunOptions::new());
    line_with(
        &logs,
        "internal tool error",
        &["the ledger is locked by pid 42"],
    );
}

#[test]
fn a_hooks_internal_failure_and_an_after_hooks_panic_reach_the_logs_in_full() {
    let before = RunOptions::new().with_before_hook(|_| async {
        Err::<HookDecision, _>(ToolFailure::internal("policy db down (password=pw1)").into())
    });
    let logs = logs_of(call(json!({})), before);
    line_with(
        &logs,
        "internal before hook error",
        &["ERROR", "policy db down (password=pw1)", "reference="],
    );

    let after = RunOptions::new().with_after_hook(|_| async {
        panic!("the redactor lost its rules");
    });
    let logs = logs_of(call(json!({})), after);
    line_with(
        &logs,
        "the after hook panicked",
        &["ERROR", "the redactor lost its rules"],
    );
}

#[test]
fn a_plain_call_logs_nothing_above_debug() {
    let logs = logs_of(call(json!({})), RunOptions::new());
    assert!(
        !logs.contains("WARN") && !logs.contains("ERROR") && !logs.contains("INFO"),
        "{logs}"
    );
}

#[test]
fn what_a_tool_logs_goes_to_tracing_without_a_sink() {
    let logs = logs_of(call(json!({"how": "log"})), RunOptions::new());
    let info = logged(
        &logs,
        "fetched 3 pages",
        &[
            "tool_core::tool_log",
            "call_id=\"call-7\"",
            "level=\"info\"",
        ],
    );
    assert!(info.contains(" INFO "), "{info}");
    // Critical and above are tracing's errors.
    let critical = logged(&logs, "the disk is full", &["level=\"critical\""]);
    assert!(critical.contains(" ERROR "), "{critical}");
}

#[test]
fn what_a_tool_logs_goes_to_the_runs_sink_tagged_with_its_call() {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&heard);
    let ctx = RunOptions::new().with_log(move |event| sink.lock().unwrap().push(event));
    let logs = logs_of(call(json!({"how": "log"})), ctx);
    let event = |level, message: &str| LogEvent {
        call_id: "call-7".to_owned(),
        tool_name: "act".to_owned(),
        level,
        message: message.to_owned(),
    };
    assert_eq!(
        *heard.lock().unwrap(),
        [
            event(LogLevel::Info, "fetched 3 pages"),
            event(LogLevel::Critical, "the disk is full"),
        ]
    );
    assert!(
        !logs.contains("fetched 3 pages"),
        "not in tracing too: {logs}"
    );
}
