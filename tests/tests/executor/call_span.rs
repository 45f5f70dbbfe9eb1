//! The `execute_tool` span of every call, in OpenTelemetry's GenAI
//! conventions: its name and fields, `error.type` and the error status of
//! each kind of failure, none for a success, the opt-in content (only when
//! asked for, bounded, never computed when nobody listens), the events
//! inside it, and the span of a call denied when a batch resumes. Captured
//! by [`span_capture`](super::span_capture), which keeps every field as
//! last recorded.

use super::span_capture::{ClosedSpan, capture, only};
use serde_json::{Value, json};
use std::cell::Cell;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::approval::{ApprovalKey, Approvals, Decision};
use tool_core::params::{ParamPath, ParamValue, ParseContext};
use tool_core::{
    BatchOutcome, DynamicTool, ExecutionMode, RunOptions, ToolCall, ToolFailure, ToolOutput,
    ToolRegistry, execute_batch, execute_tool_call, executor::HookDecision, executor::RetryBudget,
    repair::RepairPolicy, resume_batch, tool,
};
use tracing::Level;

/// Counts (a typed parameter, so a string "3" needs repair).
#[tool]
async fn count(count: u32) -> String {
    count.to_string()
}

thread_local! {
    /// How many times this thread wrote a [`Counted`] as JSON.
    static WRITTEN: Cell<usize> = const { Cell::new(0) };
}

/// A parameter that counts how often it is written as JSON: the parsed
/// arguments are written only for a hook, an approver or a span that
/// records content.
struct Counted(String);

impl ParamValue for Counted {
    fn schema() -> Value {
        json!({"type": "string"})
    }
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        String::parse_value(value, path, errors).map(Counted)
    }
    fn to_json(&self) -> Value {
        WRITTEN.with(|written| written.set(written.get() + 1));
        Value::String(self.0.clone())
    }
}

/// Says what it was given (its argument is counted when written).
#[tool]
async fn say(text: Counted) -> String {
    text.0
}

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    let act = DynamicTool::new("act", "Does what it is told", |args, _ctx| async move {
        match args.get("how").and_then(Value::as_str) {
            Some("sleep") => {
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(ToolOutput::text("woke"))
            }
            Some("panic") => panic!("the work exploded"),
            Some("retry") => Err("the disk is full".into()),
            Some("fatal") => Err(ToolFailure::fatal("the account is closed").into()),
            Some("internal") => Err(ToolFailure::internal("the ledger is locked by pid 42").into()),
            Some("output_error") => Ok(ToolOutput::text("no such city").into_error()),
            Some("details") => Ok(ToolOutput::text("12 °C").with_details(json!({"celsius": 12}))),
            Some("long") => Ok(ToolOutput::text("é".repeat(600_000))),
            _ => Ok(ToolOutput::text("done")),
        }
    })
    .with_parameters(json!({
        "type": "object",
        "properties": {"how": {"type": "string"}, "pad": {"type": "string"}}
    }));
    tools.register(act).unwrap();
    tools.register(CountTool).unwrap();
    tools.register(SayTool).unwrap();
    tools
}

fn act(how: &str) -> ToolCall {
    ToolCall::new("call-7", "act", json!({ "how": how }))
}

/// The one `execute_tool` span of running `call` under `ctx`.
fn span_of(call: ToolCall, ctx: RunOptions) -> ClosedSpan {
    let (_, spans) = capture(async move { execute_tool_call(&call, &registry(), ctx).await });
    only(&spans, "execute_tool").clone()
}

#[test]
fn a_call_is_an_execute_tool_span_with_the_conventions_fields() {
    let span = span_of(act("done"), RunOptions::new());
    assert_eq!(span.expect("otel.name"), "execute_tool act");
    assert_eq!(span.expect("otel.kind"), "internal");
    assert_eq!(span.expect("gen_ai.operation.name"), "execute_tool");
    assert_eq!(span.expect("gen_ai.tool.name"), "act");
    assert_eq!(span.expect("gen_ai.tool.call.id"), "call-7");
    assert_eq!(span.expect("gen_ai.tool.type"), "function");
    assert_eq!(
        span.expect("gen_ai.tool.description"),
        "Does what it is told"
    );
    // A success records no error and no status; no content unless asked.
    for absent in [
        "error.type",
        "otel.status_code",
        "otel.status_description",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
    ] {
        assert_eq!(span.field(absent), None, "{absent} on {span:#?}");
    }
}

#[test]
fn each_failure_records_its_error_type_and_an_error_status() {
    let cancelled = CancellationToken::new();
    cancelled.cancel();
    let block = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Block("not on a Sunday".into())) });
    let cases = [
        (
            ToolCall::new("call-7", "missing", json!({})),
            RunOptions::new(),
            "unknown_tool",
            "unknown tool",
        ),
        (
            act("done"),
            RunOptions::new().with_enabled(["count"]),
            "not_available",
            "not available in this turn (available: count)",
        ),
        (
            ToolCall::new("call-7", "count", json!({"count": "three"})),
            RunOptions::new(),
            "invalid_arguments",
            "count: expected",
        ),
        (
            act("output_error"),
            RunOptions::new(),
            "tool_error",
            "the tool's output is marked as an error",
        ),
        (act("retry"), RunOptions::new(), "retry", "the disk is full"),
        (
            act("fatal"),
            RunOptions::new(),
            "fatal",
            "the account is closed",
        ),
        // The model's text, with the reference to the log line: the
        // message itself goes to the logs only.
        (
            act("internal"),
            RunOptions::new(),
            "internal",
            "internal error (reference ",
        ),
        (act("done"), block, "denied", "not on a Sunday"),
        (
            act("sleep"),
            RunOptions::new().with_timeout(Duration::from_millis(20)),
            "timeout",
            "timed out after 20 ms",
        ),
        (
            act("sleep"),
            RunOptions::new().with_signal(cancelled),
            "cancelled",
            "cancelled",
        ),
        (
            act("panic"),
            RunOptions::new(),
            "panic",
            "panicked: the work exploded",
        ),
    ];
    for (call, ctx, error_type, description) in cases {
        let span = span_of(call, ctx);
        assert_eq!(span.field("error.type"), Some(error_type), "{span:#?}");
        assert_eq!(span.field("otel.status_code"), Some("error"), "{span:#?}");
        let status = span.expect("otel.status_description");
        assert!(
            status.starts_with(description),
            "{error_type}: {status:?} should start with {description:?}"
        );
        assert!(
            !status.contains("pid 42"),
            "an internal message reached the span: {status}"
        );
    }
}

#[test]
fn a_before_hooks_panic_and_an_after_hooks_error_output_are_named() {
    let panicking = RunOptions::new().with_before_hook(|_| async { panic!("the policy crashed") });
    let span = span_of(act("done"), panicking);
    assert_eq!(span.field("error.type"), Some("panic"));

    let marking =
        RunOptions::new().with_after_hook(|call| async move { Ok(call.output.into_error()) });
    let span = span_of(act("done"), marking);
    assert_eq!(span.field("error.type"), Some("tool_error"));

    let clearing = RunOptions::new().with_after_hook(|_| async { Ok(ToolOutput::text("fine")) });
    let span = span_of(act("retry"), clearing);
    assert_eq!(span.field("error.type"), None, "{span:#?}");
}

#[test]
fn a_retry_budget_keeps_the_reason_and_its_refusal_is_fatal() {
    let budget = RetryBudget::new(1);
    let calls: Vec<ToolCall> = (0..3)
        .map(|index| ToolCall::new(format!("call-{index}"), "act", json!({"how": "retry"})))
        .collect();
    let (results, spans) = capture(async move {
        let ctx = RunOptions::new().with_retry_budget(budget);
        tool_core::execute_tool_calls(&calls, &registry(), ctx, ExecutionMode::Sequential).await
    });
    // The second failure is one too many: fatal, but still the tool's
    // error; the third is refused without running.
    assert_eq!(results[1].failure_kind, Some(tool_core::FailureKind::Fatal));
    let error_types: Vec<(&str, Option<&str>)> = spans
        .iter()
        .map(|span| (span.expect("gen_ai.tool.call.id"), span.field("error.type")))
        .collect();
    assert_eq!(
        error_types,
        [
            ("call-0", Some("retry")),
            ("call-1", Some("retry")),
            ("call-2", Some("fatal")),
        ]
    );
}

#[test]
fn content_is_recorded_only_when_the_application_opts_in() {
    let span = span_of(act("details"), RunOptions::new());
    assert_eq!(span.field("gen_ai.tool.call.arguments"), None);
    assert_eq!(span.field("gen_ai.tool.call.result"), None);

    let span = span_of(act("details"), RunOptions::new().with_traced_content(1024));
    assert_eq!(
        span.expect("gen_ai.tool.call.arguments"),
        r#"{"how":"details"}"#
    );
    // Details, when the tool gives them (the conventions expect an object).
    assert_eq!(span.expect("gen_ai.tool.call.result"), r#"{"celsius":12}"#);

    let span = span_of(act("done"), RunOptions::new().with_traced_content(1024));
    assert_eq!(span.expect("gen_ai.tool.call.result"), "done");
}

#[test]
fn content_is_bounded_to_the_limit_and_says_how_much_was_cut() {
    // 1 MB of argument text and 1.2 MB of result text, 1 KiB of each kept.
    let pad = "x".repeat(1 << 20);
    let call = ToolCall::new("call-7", "act", json!({"how": "long", "pad": pad}));
    let whole = serde_json::to_string(&call.arguments).unwrap();
    let span = span_of(call, RunOptions::new().with_traced_content(1024));

    // Cut JSON stays JSON: a string holding the piece kept and the marker.
    let arguments = span.expect("gen_ai.tool.call.arguments");
    let arguments: String = serde_json::from_str(arguments).expect("a JSON string");
    let marker = format!("…[{} bytes cut]", whole.len() - 1024);
    assert!(arguments.ends_with(&marker), "{}", &arguments[1000..]);
    assert_eq!(arguments.len(), 1024 + marker.len());
    assert!(whole.starts_with(&arguments[..1024]));

    // `é` is two bytes: 1024 bytes hold 512 of them exactly; 1023 would
    // cut one, and the cut goes back to the character before.
    let result = span.expect("gen_ai.tool.call.result");
    assert_eq!(
        result,
        format!("{}…[{} bytes cut]", "é".repeat(512), 1_200_000 - 1024)
    );
    let span = span_of(act("long"), RunOptions::new().with_traced_content(1023));
    let result = span.expect("gen_ai.tool.call.result");
    assert_eq!(
        result,
        format!("{}…[{} bytes cut]", "é".repeat(511), 1_200_000 - 1022)
    );
}

#[test]
fn a_failed_call_records_the_arguments_it_was_sent_and_no_result() {
    // Arguments that do not parse are recorded as the model sent them;
    // OpenAI's JSON text stays text.
    let call = ToolCall::new("call-7", "count", json!(r#"{"count": "three"}"#));
    let span = span_of(call, RunOptions::new().with_traced_content(1024));
    assert_eq!(
        span.expect("gen_ai.tool.call.arguments"),
        r#"{"count": "three"}"#
    );
    // The conventions record a result only when the execution succeeded.
    assert_eq!(span.field("gen_ai.tool.call.result"), None);

    let span = span_of(act("retry"), RunOptions::new().with_traced_content(1024));
    assert_eq!(
        span.expect("gen_ai.tool.call.arguments"),
        r#"{"how":"retry"}"#
    );
    assert_eq!(span.field("gen_ai.tool.call.result"), None);
}

#[test]
fn the_recorded_arguments_are_the_ones_the_tool_was_given() {
    let ctx = RunOptions::new()
        .with_repair(RepairPolicy::all())
        .with_traced_content(1024);
    let span = span_of(ToolCall::new("call-7", "count", json!({"count": "3"})), ctx);
    assert_eq!(span.expect("gen_ai.tool.call.arguments"), r#"{"count":3}"#);

    let rewrite = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Rewrite(json!({"how": "details"}))) })
        .with_traced_content(1024);
    let span = span_of(act("retry"), rewrite);
    assert_eq!(
        span.expect("gen_ai.tool.call.arguments"),
        r#"{"how":"details"}"#
    );
    assert_eq!(span.field("error.type"), None);
}

#[test]
fn content_is_computed_only_when_opted_in_and_a_subscriber_wants_the_span() {
    let written = |ctx: RunOptions, wanted: bool| {
        WRITTEN.with(|written| written.set(0));
        let call = ToolCall::new("call-7", "say", json!({"text": "hi"}));
        let run = async move { execute_tool_call(&call, &registry(), ctx).await };
        let result = if wanted {
            capture(run).0
        } else {
            // A subscriber that wants no INFO span. (Not "no subscriber at
            // all": the other tests of this binary install theirs on their
            // threads, and `tracing` then asks the current thread's
            // subscriber only when one of them declines.)
            let declines = tracing_subscriber::fmt()
                .with_max_level(Level::WARN)
                .with_writer(std::io::sink)
                .finish();
            tracing::subscriber::with_default(declines, || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(run)
            })
        };
        assert_eq!(result.content[0].as_text(), Some("hi"));
        WRITTEN.with(Cell::get)
    };
    let opted_in = || RunOptions::new().with_traced_content(64);
    assert_eq!(written(RunOptions::new(), true), 0, "not opted in");
    assert_eq!(written(opted_in(), false), 0, "the span is not wanted");
    assert_eq!(written(opted_in(), true), 1, "opted in and wanted");
}

#[test]
fn what_happens_on_the_way_is_an_event_of_the_calls_span() {
    let event_of = |call: ToolCall, ctx: RunOptions, message: &str| {
        let span = span_of(call, ctx);
        span.event(message)
            .unwrap_or_else(|| panic!("no event {message:?} in {span:#?}"))
    };
    let cancelled = CancellationToken::new();
    cancelled.cancel();
    let allow = RunOptions::new().with_before_hook(|_| async { Ok(HookDecision::Allow) });
    let rewrite = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Rewrite(json!({"how": "done"}))) });
    let block = RunOptions::new()
        .with_before_hook(|_| async { Ok(HookDecision::Block("not on a Sunday".into())) });
    let cases = [
        (
            act("sleep"),
            RunOptions::new().with_timeout(Duration::from_millis(20)),
            "the tool timed out and was stopped",
            Level::WARN,
        ),
        (
            act("sleep"),
            RunOptions::new().with_signal(cancelled),
            "the call was cancelled before it started",
            Level::INFO,
        ),
        (
            act("panic"),
            RunOptions::new(),
            "the tool panicked",
            Level::ERROR,
        ),
        (
            ToolCall::new("call-7", "count", json!({"count": "3"})),
            RunOptions::new().with_repair(RepairPolicy::all()),
            "the arguments were repaired",
            Level::INFO,
        ),
        (
            act("done"),
            allow,
            "the before hook allowed the call",
            Level::DEBUG,
        ),
        (
            act("retry"),
            rewrite,
            "the before hook rewrote the arguments",
            Level::DEBUG,
        ),
        (
            act("done"),
            block,
            "the before hook blocked the call",
            Level::INFO,
        ),
    ];
    for (call, ctx, message, level) in cases {
        assert_eq!(event_of(call, ctx, message), level, "{message}");
    }
}

#[test]
fn a_cancellation_while_the_before_hook_decides_is_an_event() {
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    let ctx = RunOptions::new()
        .with_signal(signal)
        .with_before_hook(move |_| {
            let cancel = cancel.clone();
            async move {
                cancel.cancel();
                std::future::pending::<()>().await;
                Ok(HookDecision::Allow)
            }
        });
    let span = span_of(act("done"), ctx);
    assert_eq!(
        span.event("the call was cancelled while the before hook decided"),
        Some(Level::INFO)
    );
    assert_eq!(span.field("error.type"), Some("cancelled"));
}

#[test]
fn an_approvers_decisions_are_events_of_the_calls_span() {
    let needs_approval = |decision: Decision| {
        let approvals = Approvals::ask(move |_| {
            let decision = decision.clone();
            async move { decision }
        })
        .with_policy(tool_core::approval::ApprovalPolicy::every_tool());
        RunOptions::new().with_approvals(approvals)
    };
    let span = span_of(act("done"), needs_approval(Decision::Approve));
    assert_eq!(span.event("a person approved the call"), Some(Level::DEBUG));
    assert_eq!(span.field("error.type"), None);

    let edited = Decision::ApproveWith {
        arguments: json!({"how": "done"}),
    };
    let span = span_of(act("retry"), needs_approval(edited));
    assert_eq!(
        span.event("a person approved the call with edited arguments"),
        Some(Level::DEBUG)
    );

    let deny = Decision::Deny {
        reason: Some("not today".into()),
    };
    let span = span_of(act("done"), needs_approval(deny));
    assert_eq!(span.event("a person denied the call"), Some(Level::INFO));
    assert_eq!(span.field("error.type"), Some("denied"));
    assert_eq!(
        span.field("otel.status_description"),
        Some("A person denied this call: not today")
    );
}

#[test]
fn a_call_denied_when_its_batch_resumes_has_its_span() {
    let key = ApprovalKey::new(*b"a secret of 32 bytes or more!!!!").unwrap();
    let ctx = RunOptions::new().with_approvals(
        Approvals::suspend(key).with_policy(tool_core::approval::ApprovalPolicy::every_tool()),
    );
    let (outcome, spans) = capture(async move {
        let tools = registry();
        let calls = [act("done")];
        let BatchOutcome::Suspended(suspension) =
            execute_batch(&calls, &tools, ctx.clone(), ExecutionMode::Parallel).await
        else {
            panic!("the call should wait for approval");
        };
        let deny = Decision::Deny {
            reason: Some("not today".into()),
        };
        resume_batch(
            &suspension,
            [("call-7", deny)],
            &tools,
            ctx,
            ExecutionMode::Parallel,
        )
        .await
        .unwrap()
    });
    let BatchOutcome::Complete(results) = outcome else {
        panic!("the batch should be complete");
    };
    assert_eq!(
        results[0].failure_kind,
        Some(tool_core::FailureKind::Denied)
    );
    // Suspending ran nothing: the one span is the denial's.
    let span = only(&spans, "execute_tool");
    assert_eq!(span.expect("gen_ai.tool.call.id"), "call-7");
    assert_eq!(span.field("error.type"), Some("denied"));
    assert_eq!(span.event("a person denied the call"), Some(Level::INFO));
}
