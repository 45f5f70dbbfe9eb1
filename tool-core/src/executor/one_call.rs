//! One call, start to answer, as a sequence of named steps: is the tool
//! there and available, parse (and repair) its arguments, the `before`
//! hook, the tool under its timeout and the caller's cancellation, the
//! `after` hook, then what the result records (repairs, the retry budget).
//! Every path ends in exactly one paired result; a hook that fails is
//! answered as [`hook_faults`](super::hook_faults) says. The call runs in
//! its `execute_tool` span ([`call_span`](super::call_span)); each step
//! that fails it says why, for the span's `error.type`.

use super::arguments::{self, Parsed};
use super::call_span::{self, Trace};
use super::catch_unwind::CatchUnwind;
use super::error_type::{ErrorType, Failed};
use super::hook_faults::{HookFault, after_hook_failed, before_hook_failed, guarded};
use super::hooks::{AfterCall, BeforeCall, HookDecision};
use super::outcome;
use super::run_options::RunOptions;
use super::supervise::{Stopped, caller_cancelled, finish, is_cancelled, supervise};
use crate::approval::{ApprovalRequest, Asking, Decision, Standing, answers, shown};
use crate::model::{Content, FailureKind};
use crate::model::{Repair, RepairRule};
use crate::model::{ToolCall, ToolResultMessage};
use crate::registry::{PreparedCall, RegisteredTool, ToolRegistry};
use crate::repair::repair_note;
use crate::tool::{ToolError, ToolOutput};
use futures_util::FutureExt;
use serde_json::Value;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use crate::trace::{Instrument, Span};

/// Answers `call`; `tool` is what `registry` holds under its name (the
/// caller looked it up once, and may have needed it before).
pub(crate) async fn run(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&RegisteredTool>,
    ctx: &RunOptions,
) -> ToolResultMessage {
    // Every event of the call (a timeout, a panic, a repair...) is an event
    // of this span. With no subscriber it is a disabled span: a check of
    // one static, no formatting, and nothing recorded on the way or at the
    // end. The span and the trace come out of one call: a local borrowed
    // before an await (the span, to ask whether it is recording) would
    // stay in the call's future after it, and every byte of that future is
    // copied for every call.
    let (span, trace) = call_span::open(call, tool, ctx);
    // A disabled span records nothing and entering it changes nothing
    // (events inside have the same parent either way): the call is not
    // wrapped in it, which would move its whole future once more and
    // enter and leave the span on every poll.
    if !trace.recording {
        #[allow(
            clippy::drop_non_drop,
            reason = "without the `tracing` feature the span is a stand-in with nothing to drop"
        )]
        drop(span);
        return run_in_span(call, registry, tool, ctx, trace).await;
    }
    run_in_span(call, registry, tool, ctx, trace)
        .instrument(span)
        .await
}

/// The call's answer, recorded on its span (the current one) at the end.
async fn run_in_span(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&RegisteredTool>,
    ctx: &RunOptions,
    mut trace: Trace,
) -> ToolResultMessage {
    // A tool whose retries this batch has spent does not run again in it.
    if let Some(budget) = &ctx.retry_budget
        && let Some(refused) = budget.refusal(call)
    {
        trace.why = Some(ErrorType::Fatal);
        record_end(call, &refused, &trace, ctx);
        return refused;
    }
    let mut result = match available(call, registry, tool, ctx) {
        Ok(tool) => answer(call, tool, ctx, &mut trace).await,
        Err(refused) => answered(*refused, &mut trace),
    };
    // A batch the caller cancelled is not the model's mistake, nor is a
    // call that suspended itself.
    if let Some(budget) = &ctx.retry_budget
        && !is_cancelled(ctx.signal.as_ref())
        && !tool.is_some_and(|tool| suspended_itself(call, tool, ctx))
    {
        // The budget may make the failure fatal: the span names what went
        // wrong, fixed before.
        trace.why = ErrorType::of_result(&result, trace.why);
        budget.record(&mut result, tool.and_then(RegisteredTool::retries));
    }
    record_end(call, &result, &trace, ctx);
    result
}

/// Records how the call ended on its span (the current one), when a
/// subscriber wants the span.
#[inline]
fn record_end(call: &ToolCall, result: &ToolResultMessage, trace: &Trace, ctx: &RunOptions) {
    if trace.recording {
        call_span::finish(&Span::current(), call, result, trace, ctx);
    }
}

/// How many available tools a refusal names.
const AVAILABLE_NAMES_SHOWN: usize = 20;

/// A failure the executor made, as the call's answer, its reason kept for
/// the span.
#[cold]
fn answered(failed: Failed, trace: &mut Trace) -> ToolResultMessage {
    trace.why = Some(failed.why);
    failed.result
}

/// The registered tool, if the model may call it in this batch.
#[inline]
fn available<'a>(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&'a RegisteredTool>,
    ctx: &RunOptions,
) -> Result<&'a RegisteredTool, Box<Failed>> {
    let Some(tool) = tool else {
        return Err(Failed::boxed(
            ToolResultMessage::failure(call, &unknown_tool(&call.name, registry, ctx)),
            ErrorType::UnknownTool,
        ));
    };
    if tool.is_available_in(&ctx.turn) {
        return Ok(tool);
    }
    let mut names = registry
        .iter()
        .filter(|tool| tool.is_available_in(&ctx.turn))
        .map(RegisteredTool::name);
    // A registry of thousands of tools would make a message of thousands
    // of names: the first ones, and how many more.
    let shown: Vec<&str> = names.by_ref().take(AVAILABLE_NAMES_SHOWN).collect();
    let more = names.count();
    let message = match (shown.is_empty(), more) {
        (true, _) => "not available in this turn (no tools are)".to_owned(),
        (false, 0) => format!(
            "not available in this turn (available: {})",
            shown.join(", ")
        ),
        (false, more) => format!(
            "not available in this turn (available: {} and {more} more)",
            shown.join(", ")
        ),
    };
    Err(Failed::boxed(
        ToolResultMessage::failure(call, &message),
        ErrorType::NotAvailable,
    ))
}

/// How many near names an unknown tool's answer offers.
const NEAR_NAMES_SHOWN: usize = 3;

/// `unknown tool`, and the names the model most likely meant, among the
/// tools it may call: `unknown tool (did you mean "get_weather"?)`. Only
/// on this cold path are the names compared.
#[cold]
fn unknown_tool(sent: &str, registry: &ToolRegistry, ctx: &RunOptions) -> String {
    let near: Vec<String> = registry
        .names_like(sent, ctx, NEAR_NAMES_SHOWN)
        .into_iter()
        .map(|name| format!("\"{name}\""))
        .collect();
    if near.is_empty() {
        return "unknown tool".to_owned();
    }
    format!("unknown tool (did you mean {}?)", near.join(" or "))
}

/// Parse, the before hook, the run and the after hook, then the repairs
/// made on the way recorded on the result.
async fn answer(
    call: &ToolCall,
    tool: &RegisteredTool,
    ctx: &RunOptions,
    trace: &mut Trace,
) -> ToolResultMessage {
    if is_cancelled(ctx.signal.as_ref()) {
        crate::trace::info!("the call was cancelled before it started");
        trace.why = Some(ErrorType::Cancelled);
        return ToolResultMessage::failure(call, "cancelled");
    }
    let Parsed {
        mut prepared,
        mut repairs,
    } = match arguments::parse(call, tool, ctx.repair.as_ref()) {
        Ok(parsed) => parsed,
        Err(failure) => return answered(*failure, trace),
    };
    let mut gate = approval_gate(call, tool, ctx, &mut repairs);
    // The parsed arguments as JSON, only when someone will look at them.
    let mut parsed = Value::Null;
    if gate != Gate::Open || ctx.before.is_some() || ctx.after.is_some() {
        parsed = match arguments::arguments_of(call, &prepared) {
            Ok(parsed) => parsed,
            Err(failure) => return with_repairs(answered(*failure, trace), repairs, ctx),
        };
    }
    if gate == Gate::Depends {
        let requires = ctx
            .approvals
            .as_ref()
            .is_some_and(|approvals| approvals.requires(tool, &parsed));
        gate = if requires { Gate::Ask } else { Gate::Open };
    }

    // Who may stop or change the call before it runs: the approver, then
    // the before hook.
    for rule in [RepairRule::Approval, RepairRule::BeforeHook] {
        let verdict = match rule {
            RepairRule::Approval if gate == Gate::Ask => {
                Box::pin(approval(call, tool, ctx, &parsed)).await
            }
            RepairRule::BeforeHook if ctx.before.is_some() => {
                Box::pin(before_hook(call, tool, ctx, &parsed)).await
            }
            _ => continue,
        };
        let current = (&mut parsed, &mut prepared, &mut repairs);
        if let Err(answer) = follow(verdict, call, tool, current, rule) {
            return with_repairs(answered(*answer, trace), repairs, ctx);
        }
    }
    if trace.content {
        traced_arguments(&parsed, &prepared, ctx, trace);
    }
    let Started {
        running,
        timeout,
        signal,
    } = start(call, tool, prepared, ctx);
    // The rare paths (a timer, a signal, the hooks) are boxed, so the
    // future of every call does not carry their state.
    let stopped = if timeout.is_none() && signal.is_none() {
        finish(running).await
    } else {
        Box::pin(supervise(running, timeout, ctx, signal.as_ref())).await
    };
    if suspended_itself(call, tool, ctx) {
        return suspended(call, trace);
    }
    let mut internal_error = None;
    let mut result = stopped_result(call, stopped, &mut internal_error, trace);
    if ctx.after.is_some() {
        result = Box::pin(after_hook(call, ctx, parsed, result, internal_error)).await;
    }
    record_repairs(&mut result, repairs, ctx);
    result
}

/// Whether the call (of a tool that runs tools) suspended itself
/// ([`ToolContext::suspend`](crate::ToolContext::suspend)): its batch
/// makes it a pending call.
#[inline]
fn suspended_itself(call: &ToolCall, tool: &RegisteredTool, ctx: &RunOptions) -> bool {
    #[cfg(feature = "approval-state")]
    if let Some(suspender) = &ctx.suspender
        && tool.runs_tools()
    {
        return suspender.suspended(&call.id);
    }
    let _ = (call, tool, ctx);
    false
}

/// What a call that suspended itself answers, which its batch replaces
/// with a pending call (no after hook: nothing of it reaches the model).
#[cold]
fn suspended(call: &ToolCall, trace: &mut Trace) -> ToolResultMessage {
    crate::trace::info!(
        "the call suspended itself until a person decides on one of its inner calls"
    );
    trace.why = None;
    outcome::success(
        call,
        ToolOutput::text("suspended until a person decides on one of its calls"),
    )
}

/// Records the arguments the tool is given, as JSON, on the call's span
/// (the current one): the ones the hooks saw when they were written for
/// them, else written now. The tool's code writes them: if it panics, the
/// span goes without them (the call is not failed for a trace's sake).
#[cold]
fn traced_arguments(
    parsed: &Value,
    prepared: &PreparedCall<'_>,
    ctx: &RunOptions,
    trace: &mut Trace,
) {
    let span = Span::current();
    if !parsed.is_null() {
        call_span::record_arguments(&span, parsed, ctx, trace);
    } else if let Ok(arguments) = catch_unwind(AssertUnwindSafe(|| prepared.arguments())) {
        call_span::record_arguments(&span, &arguments, ctx, trace);
    }
}

/// What the approver or the before hook decided, as the next step needs it.
enum Verdict {
    Run,
    RunInstead(Value),
    Answer(Box<Failed>),
}

/// Applies a verdict: nothing to do, arguments replaced (parsed again and
/// recorded as a repair of `rule`), or the call answered without running
/// (the `Err`).
fn follow<'a>(
    verdict: Verdict,
    call: &ToolCall,
    tool: &'a RegisteredTool,
    (parsed, prepared, repairs): (&mut Value, &mut PreparedCall<'a>, &mut Vec<Repair>),
    rule: RepairRule,
) -> Result<(), Box<Failed>> {
    match verdict {
        Verdict::Run => Ok(()),
        Verdict::RunInstead(replacement) => {
            let (rewritten, used, repair) =
                arguments::rewritten(call, tool, parsed, &replacement, rule)?;
            *parsed = used;
            repairs.push(repair);
            *prepared = rewritten;
            Ok(())
        }
        Verdict::Answer(result) => Err(result),
    }
}

/// Whether the call must be approved before it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// It needs no approval, or a person gave it (a resumed batch).
    Open,
    /// It needs approval: ask (or refuse when nobody can be asked).
    Ask,
    /// The policy decides from the arguments ([`ApprovalPolicy::when`](crate::approval::ApprovalPolicy::when)).
    Depends,
}

/// The call's gate. A call a person approved earlier (a resumed batch)
/// passes, and the repairs made before it was suspended go first on its
/// result.
#[inline]
fn approval_gate(
    call: &ToolCall,
    tool: &RegisteredTool,
    ctx: &RunOptions,
    repairs: &mut Vec<Repair>,
) -> Gate {
    let gate = match &ctx.approvals {
        None if tool.needs_approval() => Gate::Ask,
        None => return Gate::Open,
        Some(approvals) => match approvals.requires_tool(tool) {
            Some(false) => return Gate::Open,
            Some(true) => Gate::Ask,
            None => Gate::Depends,
        },
    };
    match ctx
        .approved
        .as_ref()
        .and_then(|approved| approved.get(&call.id))
    {
        Some(earlier) => {
            repairs.splice(0..0, earlier.iter().cloned());
            Gate::Open
        }
        None => gate,
    }
}

/// Asks for approval, when the options say how: a standing decision for
/// the tool answers first, then the inline asker. Suspending approvals
/// suspend in [`execute_batch`](crate::execute_batch) only; a call that
/// reaches this point through another entry (or with no approvals at all)
/// is answered that no one approved it, never run unasked.
async fn approval(
    call: &ToolCall,
    tool: &RegisteredTool,
    ctx: &RunOptions,
    parsed: &Value,
) -> Verdict {
    let Some(approvals) = &ctx.approvals else {
        return not_asked(
            call,
            "the run options have no approvals (RunOptions::with_approvals)",
        );
    };
    match approvals.standing().get(&call.name) {
        Some(Standing::Approve) => {
            crate::trace::debug!("a standing decision approved the call");
            return Verdict::Run;
        }
        Some(Standing::Deny { reason }) => {
            return refuse(
                answers::denied_by_person(call, reason.as_deref()),
                ErrorType::Denied,
            );
        }
        None => {}
    }
    // One way to ask without the approval state: the match stays for both.
    #[cfg_attr(
        not(feature = "approval-state"),
        allow(clippy::infallible_destructuring_match)
    )]
    let ask = match &approvals.asking {
        Asking::Ask(ask) => ask,
        #[cfg(feature = "approval-state")]
        Asking::Suspend { .. } => {
            return not_asked(
                call,
                "it was run outside execute_batch, which alone can suspend it to ask",
            );
        }
    };
    let request = ApprovalRequest::new(
        approval_id(call),
        &call.id,
        &call.name,
        tool.description(),
        tool.annotations(),
        parsed.clone(),
    );
    let asking = guarded(|| ask(request).map(Ok::<Decision, ToolError>));
    let decision = tokio::select! {
        biased;
        decision = asking => decision,
        () = caller_cancelled(ctx) => {
            crate::trace::info!("the call was cancelled while its approval was asked");
            return cancelled(call);
        }
    };
    match decision {
        Ok(decision) => decided(call, tool, decision, approvals.standing()),
        Err(fault) => {
            // A panicking asker is a bug of the application's: logged in
            // full, and nothing runs unapproved.
            if let HookFault::Panicked(payload) = &fault {
                crate::trace::error!(panic = %payload, "the approval asker panicked; the call is denied");
            }
            not_asked(call, "asking for it failed")
        }
    }
}

/// The id of an approval asked inline: random with the approval state's
/// randomness, else the call's own id (unique in its batch).
fn approval_id(call: &ToolCall) -> String {
    #[cfg(feature = "approval-state")]
    if let Some(id) = crate::approval::random_id() {
        return id;
    }
    call.id.clone()
}

/// What an inline asker's decision makes of the call; an `Always` one
/// also stands for the tool's later calls in the run.
fn decided(
    call: &ToolCall,
    tool: &RegisteredTool,
    decision: Decision,
    standing: &crate::approval::StandingDecisions,
) -> Verdict {
    match decision {
        Decision::Approve | Decision::AlwaysApprove => {
            if decision == Decision::AlwaysApprove {
                standing.set(&call.name, Standing::Approve);
            }
            crate::trace::debug!("a person approved the call");
            Verdict::Run
        }
        Decision::ApproveWith { arguments } => {
            crate::trace::debug!("a person approved the call with edited arguments");
            Verdict::RunInstead(arguments)
        }
        Decision::Deny { reason } => refuse(
            answers::denied_by_person(call, reason.as_deref()),
            ErrorType::Denied,
        ),
        Decision::AlwaysDeny { reason } => {
            standing.set(
                &call.name,
                Standing::Deny {
                    reason: reason.clone(),
                },
            );
            refuse(
                answers::denied_by_person(call, reason.as_deref()),
                ErrorType::Denied,
            )
        }
        Decision::Respond { result } => responded(call, tool, result),
        Decision::Unanswered { reason } => not_asked(call, &reason),
    }
}

/// The call answered with a result from outside, when it fits the tool's
/// output schema; else a fatal failure naming the problem (the model
/// cannot fix what the asker gave).
fn responded(call: &ToolCall, tool: &RegisteredTool, result: Value) -> Verdict {
    match crate::approval::check_result(tool, &result) {
        Ok(structured) => refuse(
            answers::responded(call, result, structured),
            ErrorType::Other,
        ),
        Err(problem) => refuse(
            ToolResultMessage::failed(
                call,
                &format!(
                    "the result given for this call does not fit its output schema: {problem}"
                ),
                FailureKind::Fatal,
            ),
            ErrorType::Fatal,
        ),
    }
}

/// The call answered that no person approved it, because of `why`.
#[cold]
fn not_asked(call: &ToolCall, why: &str) -> Verdict {
    refuse(answers::unanswered(call, why), ErrorType::Denied)
}

/// The call answered without running, because of `why`.
#[cold]
fn refuse(result: ToolResultMessage, why: ErrorType) -> Verdict {
    Verdict::Answer(Failed::boxed(result, why))
}

/// The call answered `cancelled` before the tool started.
#[cold]
fn cancelled(call: &ToolCall) -> Verdict {
    refuse(
        ToolResultMessage::failure(call, "cancelled"),
        ErrorType::Cancelled,
    )
}

async fn before_hook(
    call: &ToolCall,
    tool: &RegisteredTool,
    ctx: &RunOptions,
    parsed: &Value,
) -> Verdict {
    let Some(before) = &ctx.before else {
        return Verdict::Run;
    };
    let deciding = guarded(|| {
        before(BeforeCall {
            call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments: parsed.clone(),
            annotations: tool.annotations().clone(),
            signal: ctx.signal.clone(),
            caller: ctx.turn.caller_arc().cloned(),
        })
    });
    // A hook waiting on a human is abandoned when the caller cancels.
    let decision = tokio::select! {
        biased;
        decision = deciding => decision,
        () = caller_cancelled(ctx) => {
            crate::trace::info!("the call was cancelled while the before hook decided");
            return cancelled(call);
        }
    };
    let verdict = match decision {
        Ok(HookDecision::Allow) => {
            crate::trace::debug!("the before hook allowed the call");
            Verdict::Run
        }
        Ok(HookDecision::Rewrite(replacement)) => {
            crate::trace::debug!("the before hook rewrote the arguments");
            Verdict::RunInstead(replacement)
        }
        Ok(HookDecision::Block(reason)) => {
            crate::trace::info!(%reason, "the before hook blocked the call");
            return refuse(
                ToolResultMessage::failed(call, &reason, FailureKind::Denied),
                ErrorType::Denied,
            );
        }
        Err(fault) => return Verdict::Answer(before_hook_failed(call, fault)),
    };
    // Cancelled while the hook decided: the tool does not start.
    if is_cancelled(ctx.signal.as_ref()) {
        crate::trace::info!("the call was cancelled while the before hook decided");
        return cancelled(call);
    }
    verdict
}

/// The tool's future, under the call's own signal when something may stop
/// it alone (a timeout) or with the others (the caller's signal, its
/// parent); with the timeout and that signal, for [`supervise`].
fn start<'a>(
    call: &ToolCall,
    tool: &RegisteredTool,
    prepared: PreparedCall<'a>,
    ctx: &RunOptions,
) -> Started<impl Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + Unpin + 'a> {
    let timeout = ctx.timeout.or(tool.timeout());
    let signal = (ctx.signal.is_some() || timeout.is_some()).then(|| {
        ctx.signal
            .as_ref()
            .map_or_else(CancellationToken::new, CancellationToken::child_token)
    });
    let mut tool_ctx = ctx.tool_context(&call.id, &call.name, signal.clone());
    // Only the tool that asks: a copy of the options per call costs.
    if tool.sees_turn() {
        tool_ctx.turn = Some(Arc::new(ctx.turn.clone()));
    }
    if tool.runs_tools() {
        #[cfg(feature = "approval-state")]
        {
            tool_ctx.run_options = Some(Arc::new(super::self_suspend::for_running_tools(ctx)));
            if let Some(hold) = ctx
                .suspender
                .as_ref()
                .and_then(|suspender| suspender.for_call(&call.id))
            {
                tool_ctx.suspension = Some(Arc::new(hold));
            }
        }
        #[cfg(not(feature = "approval-state"))]
        {
            tool_ctx.run_options = Some(Arc::new(ctx.clone()));
        }
    }
    Started {
        running: CatchUnwind::new(prepared.run(tool_ctx)),
        timeout,
        signal,
    }
}

/// A tool's running future, its deadline, and the signal it watches.
struct Started<F> {
    running: CatchUnwind<F>,
    timeout: Option<Duration>,
    signal: Option<CancellationToken>,
}

/// How the tool stopped, as its result, and why it failed into `trace`.
/// An internal failure's full message, which the result does not carry,
/// goes to `internal_error`.
fn stopped_result(
    call: &ToolCall,
    stopped: Stopped,
    internal_error: &mut Option<String>,
    trace: &mut Trace,
) -> ToolResultMessage {
    // An output marked as an error needs no reason: a result no step
    // failed is the tool's own (`tool_error`).
    let (result, why) = match stopped {
        Stopped::Finished(Ok(Ok(output))) => return outcome::success(call, output),
        Stopped::Finished(Ok(Err(error))) => {
            let result = outcome::failed(call, &error, internal_error);
            let why = ErrorType::of_kind(result.failure_kind);
            (result, why)
        }
        Stopped::Finished(Err(payload)) => (outcome::panicked(call, &*payload), ErrorType::Panic),
        Stopped::TimedOut(after) => {
            let after_ms = after.as_millis();
            crate::trace::warn!(after_ms, "the tool timed out and was stopped");
            let message = format!("timed out after {after_ms} ms");
            (
                ToolResultMessage::failure(call, &message),
                ErrorType::Timeout,
            )
        }
        Stopped::Cancelled => {
            crate::trace::info!("the call was cancelled and the tool stopped");
            (
                ToolResultMessage::failure(call, "cancelled"),
                ErrorType::Cancelled,
            )
        }
    };
    trace.why = Some(why);
    result
}

/// The after hook's rewrite of the result. The failure kind stays the
/// tool's while the result is still an error (and so does the span's
/// `error.type`; an output the hook marks as an error is a `tool_error`).
/// A hook that fails or panics leaves the tool's result as it was, with a
/// note ([`after_hook_failed`]).
async fn after_hook(
    call: &ToolCall,
    ctx: &RunOptions,
    parsed: Value,
    result: ToolResultMessage,
    internal_error: Option<String>,
) -> ToolResultMessage {
    let Some(after) = &ctx.after else {
        return result;
    };
    let kind = result.failure_kind;
    // The hook takes the output; the result is kept in case the hook fails.
    let output = ToolOutput {
        content: result.content.clone(),
        details: result.details.clone(),
        is_error: result.is_error,
    };
    let rewritten = guarded(|| {
        after(AfterCall {
            call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments: parsed,
            output,
            failure_kind: kind,
            internal_error,
        })
    })
    .await;
    match rewritten {
        Ok(output) => {
            let mut result = outcome::success(call, output);
            if result.is_error {
                result.failure_kind = kind.or(result.failure_kind);
            }
            result
        }
        Err(fault) => after_hook_failed(call, result, fault),
    }
}

/// A failure answered before the tool ran, with the repairs made so far.
fn with_repairs(
    mut result: ToolResultMessage,
    repairs: Vec<Repair>,
    ctx: &RunOptions,
) -> ToolResultMessage {
    record_repairs(&mut result, repairs, ctx);
    result
}

/// Puts the repairs on the result and, unless the policy is silent, tells
/// the model what its own arguments became (a hook's rewrite is the
/// caller's doing, so it is recorded but not announced).
#[inline]
fn record_repairs(result: &mut ToolResultMessage, repairs: Vec<Repair>, ctx: &RunOptions) {
    if repairs.is_empty() {
        return;
    }
    for repair in &repairs {
        crate::trace::info!(
            path = %repair.path,
            rule = ?repair.rule,
            sent = %repair.sent,
            used = %repair.used,
            "the arguments were repaired"
        );
    }
    let announced: Vec<Repair> = repairs
        .iter()
        .filter(|repair| !matches!(repair.rule, RepairRule::BeforeHook | RepairRule::Approval))
        .cloned()
        .collect();
    if !announced.is_empty() && ctx.repair.is_some_and(|policy| policy.tells_model()) {
        result.content.push(Content::text(repair_note(&announced)));
    }
    // A person changed what the model asked for: the model must not think
    // its own arguments ran.
    if let Some(edit) = repairs
        .iter()
        .rfind(|repair| repair.rule == RepairRule::Approval)
    {
        result
            .content
            .push(Content::text(approval_note(&edit.used)));
    }
    result.repairs = repairs;
}

/// `[A person approved this call with edited arguments: {...}]`, the
/// arguments cut as an approval question shows them.
fn approval_note(used: &Value) -> String {
    format!(
        "[A person approved this call with edited arguments: {}]",
        shown(used)
    )
}
