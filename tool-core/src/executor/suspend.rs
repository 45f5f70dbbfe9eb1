//! A batch that suspends for approval, and its resumption: the calls that
//! need a person's decision are parsed and set aside, the others run; the
//! decided ones run later through the same path as every call, marked
//! approved.

use super::arguments::{self, Parsed};
use super::call_span;
use super::error_type::ErrorType;
use super::run_options::RunOptions;
use super::{ExecutionMode, execute_tool_calls};
use crate::approval::{
    ApprovalKey, ApprovalRequest, Asking, Decision, ResumeError, Slot, State, Suspension,
};
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolRegistry;
use crate::repair::{Repair, RepairRule};
use crate::tool::FailureKind;
use std::collections::HashMap;
use std::sync::Arc;

/// What a batch run with suspending approvals ended as.
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a suspended batch must be stored and resumed, or its pending calls never get a result"]
pub enum BatchOutcome {
    /// Every call is answered: one result per call, in call order.
    Complete(Vec<ToolResultMessage>),
    /// Some calls wait for a person's decision; the others' results are in
    /// the suspension ([`Suspension::answered`]).
    Suspended(Suspension),
}

/// Runs a batch like [`execute_tool_calls`], except that with suspending
/// approvals ([`Approvals::suspend`](crate::approval::Approvals::suspend))
/// a call that needs approval does not run: once the others are answered,
/// the batch returns [`BatchOutcome::Suspended`] with their results and the
/// waiting calls (parsed and repaired as they would run). A call whose
/// arguments do not parse is answered at once, as always: there is nothing
/// to approve. Without suspending approvals it is `execute_tool_calls`.
///
/// See [`approval`](crate::approval) for the whole round trip.
pub async fn execute_batch(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: RunOptions,
    mode: ExecutionMode,
) -> BatchOutcome {
    let Some((key, ttl)) = suspending(&ctx) else {
        return BatchOutcome::Complete(execute_tool_calls(calls, registry, ctx, mode).await);
    };
    let waiting = set_aside(calls, registry, &ctx);
    if waiting.iter().all(Option::is_none) {
        return BatchOutcome::Complete(execute_tool_calls(calls, registry, ctx, mode).await);
    }
    let runnable: Vec<ToolCall> = calls
        .iter()
        .zip(&waiting)
        .filter(|(_, pending)| pending.is_none())
        .map(|(call, _)| call.clone())
        .collect();
    let mut results = execute_tool_calls(&runnable, registry, ctx, mode)
        .await
        .into_iter();
    let slots = calls
        .iter()
        .zip(waiting)
        .map(|(call, pending)| match pending {
            Some(slot) => slot,
            None => answered(results.next(), call),
        })
        .collect();
    BatchOutcome::Suspended(Suspension::seal(slots, &key, ttl))
}

/// Resumes a suspended batch with `decisions` (call id -> [`Decision`]),
/// for all of its pending calls or some: approved calls run (with edited
/// arguments, parsed strictly, for [`Decision::ApproveWith`]), denied ones
/// are answered `denied` with the reason. The batch is then complete, or
/// suspended again (a new suspension, for the calls still waiting).
///
/// Refused, with nothing run, when the state is not one these approvals
/// signed, has expired, or was resumed before, or when a decision does not
/// fit (an unknown call, two decisions for one, edited arguments that do
/// not parse); see [`ResumeError`].
pub async fn resume_batch<I, K>(
    suspension: &Suspension,
    decisions: I,
    registry: &ToolRegistry,
    ctx: RunOptions,
    mode: ExecutionMode,
) -> Result<BatchOutcome, ResumeError>
where
    I: IntoIterator<Item = (K, Decision)>,
    K: Into<String>,
{
    let Some(Asking::Suspend { key, ttl, ledger }) = ctx.approvals.as_ref().map(|a| &a.asking)
    else {
        return Err(ResumeError::NoKey);
    };
    let (key, ttl, ledger) = (key.clone(), *ttl, Arc::clone(ledger));
    let state = suspension.open(&key)?;
    let decided = decisions_by_call(state, decisions)?;
    let plan = plan(&state.calls, decided, registry)?;
    match ledger.claim(&state.id, state.expires_at).await {
        Ok(true) => {}
        Ok(false) => {
            return Err(ResumeError::AlreadyResumed {
                id: state.id.clone(),
            });
        }
        Err(problem) => return Err(ResumeError::Ledger(problem)),
    }
    let slots = run_plan(plan, registry, ctx, mode).await;
    if slots
        .iter()
        .any(|slot| matches!(slot, Slot::Pending { .. }))
    {
        return Ok(BatchOutcome::Suspended(Suspension::seal(slots, &key, ttl)));
    }
    let results = slots
        .into_iter()
        .filter_map(|slot| match slot {
            Slot::Answered { result } => Some(result),
            Slot::Pending { .. } => None,
        })
        .collect();
    Ok(BatchOutcome::Complete(results))
}

/// The key and lifetime of suspending approvals, if the options have them.
fn suspending(ctx: &RunOptions) -> Option<(ApprovalKey, std::time::Duration)> {
    match ctx.approvals.as_ref().map(|approvals| &approvals.asking) {
        Some(Asking::Suspend { key, ttl, .. }) => Some((key.clone(), *ttl)),
        _ => None,
    }
}

/// For each call, its pending slot when it needs approval and its
/// arguments parse; `None` for the calls that run now (a call that does
/// not parse is answered by the usual path, which fails it the same way).
fn set_aside(calls: &[ToolCall], registry: &ToolRegistry, ctx: &RunOptions) -> Vec<Option<Slot>> {
    calls
        .iter()
        .map(|call| {
            let tool = registry.get(&call.name)?;
            let approvals = ctx.approvals.as_ref()?;
            if !ctx.is_enabled(&call.name) || !approvals.requires(tool) {
                return None;
            }
            let Parsed { prepared, repairs } =
                arguments::parse(call, tool, ctx.repair.as_ref()).ok()?;
            let parsed = arguments::arguments_of(call, &prepared).ok()?;
            let request = ApprovalRequest::new(
                &call.id,
                &call.name,
                tool.description(),
                tool.annotations(),
                parsed,
            );
            Some(Slot::Pending { request, repairs })
        })
        .collect()
}

/// The decisions by call id, each for a call that is waiting.
fn decisions_by_call<I, K>(
    state: &State,
    decisions: I,
) -> Result<HashMap<String, Decision>, ResumeError>
where
    I: IntoIterator<Item = (K, Decision)>,
    K: Into<String>,
{
    let mut decided = HashMap::new();
    for (call_id, decision) in decisions {
        let call_id = call_id.into();
        let waiting = state.calls.iter().any(
            |slot| matches!(slot, Slot::Pending { request, .. } if request.call_id == call_id),
        );
        if !waiting {
            return Err(ResumeError::NotPending { call_id });
        }
        if decided.contains_key(&call_id) {
            return Err(ResumeError::DecidedTwice { call_id });
        }
        decided.insert(call_id, decision);
    }
    Ok(decided)
}

/// What becomes of each slot on this resume.
enum Step {
    /// Stays as it is (answered already, or still waiting).
    Keep(Slot),
    /// Runs, approved: the call to run and the repairs to put on its result.
    Run(ToolCall, Vec<Repair>),
    /// Answered `denied`, with the person's reason.
    Denied(ToolCall, String),
}

/// Every slot's step, with edited arguments parsed strictly now, so a
/// decision that does not fit is refused before anything runs.
fn plan(
    slots: &[Slot],
    mut decided: HashMap<String, Decision>,
    registry: &ToolRegistry,
) -> Result<Vec<Step>, ResumeError> {
    slots
        .iter()
        .map(|slot| {
            let Slot::Pending { request, repairs } = slot else {
                return Ok(Step::Keep(slot.clone()));
            };
            let Some(decision) = decided.remove(&request.call_id) else {
                return Ok(Step::Keep(slot.clone()));
            };
            let call = ToolCall::new(
                &request.call_id,
                &request.tool_name,
                request.arguments.clone(),
            );
            match decision {
                Decision::Approve => Ok(Step::Run(call, repairs.clone())),
                Decision::ApproveWith { arguments } => {
                    let edited = edited_arguments(request, &arguments, registry)?;
                    let mut repairs = repairs.clone();
                    repairs.push(Repair::new(
                        "",
                        &request.arguments,
                        &edited,
                        RepairRule::Approval,
                    ));
                    Ok(Step::Run(
                        ToolCall {
                            arguments: edited,
                            ..call
                        },
                        repairs,
                    ))
                }
                Decision::Deny { reason } => Ok(Step::Denied(call, reason)),
            }
        })
        .collect()
}

/// A person's edited arguments, parsed strictly, as JSON.
fn edited_arguments(
    request: &ApprovalRequest,
    arguments: &serde_json::Value,
    registry: &ToolRegistry,
) -> Result<serde_json::Value, ResumeError> {
    let tool = registry
        .get(&request.tool_name)
        .ok_or_else(|| ResumeError::UnknownTool {
            call_id: request.call_id.clone(),
            tool: request.tool_name.clone(),
        })?;
    let call = ToolCall::new(&request.call_id, &request.tool_name, arguments.clone());
    let refused = |problem: String| ResumeError::Arguments {
        call_id: request.call_id.clone(),
        problem,
    };
    let Parsed { prepared, .. } = arguments::parse(&call, tool, None)
        .map_err(|failure| refused(failure_text(&failure.result)))?;
    arguments::arguments_of(&call, &prepared)
        .map_err(|failure| refused(failure_text(&failure.result)))
}

/// A paired failure's message, without the `Tool x failed: ` it starts with.
fn failure_text(failure: &ToolResultMessage) -> String {
    let text = failure
        .content
        .first()
        .and_then(|content| content.as_text())
        .unwrap_or_default();
    let prefix = format!("Tool {} failed: ", failure.tool_name);
    text.strip_prefix(&prefix).unwrap_or(text).to_owned()
}

/// A person's "no", as the model reads it.
pub(crate) fn denied(call: &ToolCall, reason: &str) -> ToolResultMessage {
    tracing::info!(call_id = %call.id, tool = %call.name, %reason, "the call was denied");
    ToolResultMessage::failed(call, reason, FailureKind::Denied)
}

/// A call a person denied on resume, answered in its own `execute_tool`
/// span, as every call that is answered (its span if it had run).
fn denied_on_resume(
    call: &ToolCall,
    reason: &str,
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> ToolResultMessage {
    let (span, mut trace) = call_span::open(call, registry.get(&call.name), ctx);
    trace.why = Some(ErrorType::Denied);
    let result = span.in_scope(|| denied(call, reason));
    call_span::finish(&span, call, &result, &trace, ctx);
    result
}

/// Answers the denied calls, runs the approved ones together (one batch,
/// under the same options: concurrency, exclusive tools, timeouts), then
/// files every result in its slot.
async fn run_plan(
    plan: Vec<Step>,
    registry: &ToolRegistry,
    mut ctx: RunOptions,
    mode: ExecutionMode,
) -> Vec<Slot> {
    let mut approved = HashMap::new();
    let mut calls = Vec::new();
    let mut refused = Vec::new();
    for step in &plan {
        match step {
            Step::Run(call, repairs) => {
                approved.insert(call.id.clone(), repairs.clone());
                calls.push(call.clone());
            }
            Step::Denied(call, reason) => {
                refused.push(denied_on_resume(call, reason, registry, &ctx));
            }
            Step::Keep(_) => {}
        }
    }
    ctx.approved = Some(Arc::new(approved));
    let mut results = execute_tool_calls(&calls, registry, ctx, mode)
        .await
        .into_iter();
    let mut refused = refused.into_iter();
    plan.into_iter()
        .map(|step| match step {
            Step::Keep(slot) => slot,
            Step::Run(call, _) => answered(results.next(), &call),
            Step::Denied(call, _) => answered(refused.next(), &call),
        })
        .collect()
}

/// A slot for a call's result (a batch answers every call; were one
/// missing, the call would still get a paired failure, not a shifted one).
fn answered(result: Option<ToolResultMessage>, call: &ToolCall) -> Slot {
    let result = result.unwrap_or_else(|| ToolResultMessage::failure(call, "not run"));
    Slot::Answered { result }
}
