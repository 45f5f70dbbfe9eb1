//! One call, start to answer, as a sequence of named steps: is the tool
//! there and available, parse (and repair) its arguments, the `before`
//! hook, the tool under its timeout and the caller's cancellation, the
//! `after` hook, then what the result records (repairs, the retry budget).
//! Every path ends in exactly one paired result; a hook that fails is
//! answered as [`hook_faults`](super::hook_faults) says.

use super::arguments::{self, Parsed};
use super::catch_unwind::CatchUnwind;
use super::hook_faults::{HookFault, after_hook_failed, before_hook_failed, guarded};
use super::hooks::{AfterCall, BeforeCall, HookDecision};
use super::outcome;
use super::run_options::RunOptions;
use super::supervise::{Stopped, caller_cancelled, finish, is_cancelled, supervise};
use super::suspend::denied;
use crate::approval::{ApprovalRequest, Asking, Decision, shown};
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::{PreparedCall, RegisteredTool, ToolRegistry};
use crate::repair::{Repair, RepairRule, repair_note};
use crate::tool::{Content, FailureKind, ToolError, ToolOutput};
use futures_util::FutureExt;
use serde_json::Value;
use std::future::Future;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// Answers `call`; `tool` is what `registry` holds under its name (the
/// caller looked it up once, and may have needed it before).
pub(crate) async fn run(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&RegisteredTool>,
    ctx: &RunOptions,
) -> ToolResultMessage {
    // Every event of the call (a timeout, a panic, a repair...) carries its
    // id and tool through this span. With no subscriber it is a disabled
    // span: a check of one static, no formatting.
    let span = tracing::info_span!("tool_call", call_id = %call.id, tool = %call.name);
    run_in_span(call, registry, tool, ctx)
        .instrument(span)
        .await
}

async fn run_in_span(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&RegisteredTool>,
    ctx: &RunOptions,
) -> ToolResultMessage {
    // A tool whose retries this batch has spent does not run again in it.
    if let Some(budget) = &ctx.retry_budget
        && let Some(refused) = budget.refusal(call)
    {
        return refused;
    }
    let mut result = match available(call, registry, tool, ctx) {
        Ok(tool) => answer(call, tool, ctx).await,
        Err(refused) => *refused,
    };
    // A batch the caller cancelled is not the model's mistake.
    if let Some(budget) = &ctx.retry_budget
        && !is_cancelled(ctx.signal.as_ref())
    {
        budget.record(&mut result, tool.and_then(RegisteredTool::retries));
    }
    result
}

/// How many available tools a refusal names.
const AVAILABLE_NAMES_SHOWN: usize = 20;

/// The registered tool, if the model may call it in this batch.
#[inline]
fn available<'a>(
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&'a RegisteredTool>,
    ctx: &RunOptions,
) -> Result<&'a RegisteredTool, Box<ToolResultMessage>> {
    let Some(tool) = tool else {
        return Err(Box::new(ToolResultMessage::failure(call, "unknown tool")));
    };
    if ctx.is_enabled(&call.name) && !tool.hidden_in(ctx) {
        return Ok(tool);
    }
    let mut names = registry
        .iter()
        .filter(|tool| ctx.is_enabled(tool.name()) && !tool.hidden_in(ctx))
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
    Err(Box::new(ToolResultMessage::failure(call, &message)))
}

/// Parse, the before hook, the run and the after hook, then the repairs
/// made on the way recorded on the result.
async fn answer(call: &ToolCall, tool: &RegisteredTool, ctx: &RunOptions) -> ToolResultMessage {
    if is_cancelled(ctx.signal.as_ref()) {
        tracing::info!("the call was cancelled before it started");
        return ToolResultMessage::failure(call, "cancelled");
    }
    let Parsed {
        mut prepared,
        mut repairs,
    } = match arguments::parse(call, tool, ctx.repair.as_ref()) {
        Ok(parsed) => parsed,
        Err(failure) => return *failure,
    };
    let gate = approval_gate(call, tool, ctx, &mut repairs);
    // The parsed arguments as JSON, only when someone will look at them.
    let mut parsed = Value::Null;
    if gate == Gate::Ask || ctx.before.is_some() || ctx.after.is_some() {
        parsed = match arguments::arguments_of(call, &prepared) {
            Ok(parsed) => parsed,
            Err(failure) => return with_repairs(*failure, repairs, ctx),
        };
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
            return with_repairs(*answer, repairs, ctx);
        }
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
    let mut internal_error = None;
    let mut result = stopped_result(call, stopped, &mut internal_error);
    if ctx.after.is_some() {
        result = Box::pin(after_hook(call, ctx, parsed, result, internal_error)).await;
    }
    record_repairs(&mut result, repairs, ctx);
    result
}

/// What the approver or the before hook decided, as the next step needs it.
enum Verdict {
    Run,
    RunInstead(Value),
    Answer(Box<ToolResultMessage>),
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
) -> Result<(), Box<ToolResultMessage>> {
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
    let needs = tool.needs_approval()
        || ctx
            .approvals
            .as_ref()
            .is_some_and(|approvals| approvals.requires(tool));
    if !needs {
        return Gate::Open;
    }
    match ctx
        .approved
        .as_ref()
        .and_then(|approved| approved.get(&call.id))
    {
        Some(earlier) => {
            repairs.splice(0..0, earlier.iter().cloned());
            Gate::Open
        }
        None => Gate::Ask,
    }
}

/// Asks for approval, when the options say how: inline. Suspending
/// approvals suspend in [`execute_batch`](crate::execute_batch) only; a
/// call that reaches this point through another entry (or with no
/// approvals at all) is denied, never run unasked.
async fn approval(
    call: &ToolCall,
    tool: &RegisteredTool,
    ctx: &RunOptions,
    parsed: &Value,
) -> Verdict {
    let ask = match ctx.approvals.as_ref().map(|approvals| &approvals.asking) {
        Some(Asking::Ask(ask)) => ask,
        unasked => {
            let why = match unasked {
                Some(_) => "it was executed outside execute_batch, so it could not be suspended",
                None => "the run options have no approvals (RunOptions::with_approvals)",
            };
            tracing::warn!(why, "a call that needs approval was denied");
            return Verdict::Answer(Box::new(denied(
                call,
                "needs a person's approval, which could not be asked for here",
            )));
        }
    };
    let request = ApprovalRequest::new(
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
        () = caller_cancelled(ctx) => return Verdict::Answer(Box::new(ToolResultMessage::failure(call, "cancelled"))),
    };
    match decision {
        Ok(Decision::Approve) => Verdict::Run,
        Ok(Decision::ApproveWith { arguments }) => Verdict::RunInstead(arguments),
        Ok(Decision::Deny { reason }) => Verdict::Answer(Box::new(denied(call, &reason))),
        Err(fault) => {
            // A panicking asker is a bug of the application's: logged in
            // full, and nothing runs unapproved.
            if let HookFault::Panicked(payload) = &fault {
                tracing::error!(panic = %payload, "the approval asker panicked; the call is denied");
            }
            Verdict::Answer(Box::new(denied(call, "the approval could not be asked")))
        }
    }
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
        })
    });
    // A hook waiting on a human is abandoned when the caller cancels.
    let decision = tokio::select! {
        biased;
        decision = deciding => decision,
        () = caller_cancelled(ctx) => return Verdict::Answer(Box::new(ToolResultMessage::failure(call, "cancelled"))),
    };
    let verdict = match decision {
        Ok(HookDecision::Allow) => Verdict::Run,
        Ok(HookDecision::Rewrite(replacement)) => Verdict::RunInstead(replacement),
        Ok(HookDecision::Block(reason)) => {
            tracing::info!(%reason, "the before hook blocked the call");
            return Verdict::Answer(Box::new(ToolResultMessage::failed(
                call,
                &reason,
                FailureKind::Denied,
            )));
        }
        Err(fault) => return Verdict::Answer(Box::new(before_hook_failed(call, fault))),
    };
    // Cancelled while the hook decided: the tool does not start.
    if is_cancelled(ctx.signal.as_ref()) {
        return Verdict::Answer(Box::new(ToolResultMessage::failure(call, "cancelled")));
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
    let tool_ctx = ctx.tool_context(&call.id, &call.name, signal.clone());
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

/// How the tool stopped, as its result. An internal failure's full
/// message, which the result does not carry, goes to `internal_error`.
fn stopped_result(
    call: &ToolCall,
    stopped: Stopped,
    internal_error: &mut Option<String>,
) -> ToolResultMessage {
    match stopped {
        Stopped::Finished(Ok(Ok(output))) => outcome::success(call, output),
        Stopped::Finished(Ok(Err(error))) => outcome::failed(call, &error, internal_error),
        Stopped::Finished(Err(payload)) => outcome::panicked(call, &*payload),
        Stopped::TimedOut(after) => {
            let after_ms = after.as_millis();
            tracing::warn!(after_ms, "the tool timed out and was stopped");
            ToolResultMessage::failure(call, &format!("timed out after {after_ms} ms"))
        }
        Stopped::Cancelled => {
            tracing::info!("the call was cancelled and the tool stopped");
            ToolResultMessage::failure(call, "cancelled")
        }
    }
}

/// The after hook's rewrite of the result. The failure kind stays the
/// tool's while the result is still an error. A hook that fails or panics
/// leaves the tool's result as it was, with a note
/// ([`after_hook_failed`]).
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
        tracing::info!(
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
