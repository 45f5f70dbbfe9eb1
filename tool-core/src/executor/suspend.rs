//! A batch that suspends for approval: the calls that need a person's
//! decision are parsed and set aside, the others run (in sequential mode,
//! only those before the first call that waits); the batch's state is
//! sealed for the application to store.

use super::arguments::{self, Parsed};
use super::run_options::RunOptions;
use super::self_suspend::{Suspender, self_suspending};
use super::{ExecutionMode, execute_tool_calls};
use crate::approval::{
    ApprovalKey, ApprovalRequest, Asking, SUSPENSION_FORMAT, Slot, State, Suspension, answers,
    random_id,
};
use crate::model::Repair;
use crate::model::{ToolCall, ToolResultMessage, now_millis};
use crate::registry::ToolRegistry;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// What a batch run with suspending approvals ended as.
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a suspended batch must be stored and resumed (or closed), or its pending calls never get a result"]
pub enum BatchOutcome {
    /// Every call is answered: one result per call, in call order.
    Complete(Vec<ToolResultMessage>),
    /// Some calls wait for a person's decision; the others' results are in
    /// the suspension ([`Suspension::answered`]).
    Suspended(Suspension),
}

/// Runs a batch like [`execute_tool_calls`], except that with suspending
/// approvals ([`Approvals::suspend`](crate::approval::Approvals::suspend))
/// a call that needs approval does not run: the batch returns
/// [`BatchOutcome::Suspended`] with the results it has and the waiting
/// calls (parsed and repaired as they would run). What runs before the
/// batch suspends depends on `mode`:
///
/// - [`ExecutionMode::Parallel`]: every call that needs no approval, at
///   once; the decided calls run when the batch is resumed.
/// - [`ExecutionMode::Sequential`]: only the calls before the first one
///   that waits. The calls after it wait for their turn, in call order:
///   those that need approval are asked now (a person may decide them all
///   at once), and none of them runs before the calls before it are
///   decided.
///
/// Only the calls the turn makes available are asked about (a call of a
/// tool that is not enabled, or that a toolset's preparation hides, is
/// answered `not available` as always), and a call whose arguments do not
/// parse is answered at once: there is nothing to approve. A call that
/// would wait while another call of the batch has the same id is answered
/// with an error instead (a decision names its call by id). Without
/// suspending approvals it is `execute_tool_calls`.
///
/// A call of a tool that runs other tools ([`Tool::runs_tools`](crate::Tool::runs_tools),
/// such as `tool-code`'s `run_code`) may suspend itself when one of its
/// inner calls needs approval ([`ToolContext::suspend`](crate::ToolContext::suspend)):
/// it is then a pending call like the others, listed as that inner call,
/// and in sequential mode the calls after it wait for their turn.
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
    let mut waiting = set_aside(calls, registry, &ctx);
    // Calls of tools that run tools may suspend themselves for one of
    // their inner calls.
    let self_suspending = self_suspending(calls, registry);
    if waiting.iter().all(Option::is_none) && self_suspending.is_empty() {
        return BatchOutcome::Complete(execute_tool_calls(calls, registry, ctx, mode).await);
    }
    let refused = refuse_shared_ids(calls, &mut waiting);
    if waiting.iter().all(Option::is_none) && self_suspending.is_empty() {
        return BatchOutcome::Complete(
            unsealable(calls, registry, ctx, mode, waiting, refused).await,
        );
    }
    let Some(batch) = random_id() else {
        return BatchOutcome::Complete(
            unsealable(calls, registry, ctx, mode, waiting, refused).await,
        );
    };
    let first_waiting = waiting.iter().position(Option::is_some);
    let waits: Vec<bool> = waiting.iter().map(Option::is_some).collect();
    let runs_now = |index: usize| match mode {
        ExecutionMode::Parallel => !waits[index],
        ExecutionMode::Sequential => first_waiting.is_none_or(|first| index < first),
    };
    let runnable: Vec<ToolCall> = (0..calls.len())
        .filter(|index| runs_now(*index) && !refused.contains_key(index))
        .map(|index| calls[index].clone())
        .collect();
    let suspender = Arc::new(Suspender::new(self_suspending, HashMap::new()));
    let mut results = run_until_suspended(&runnable, registry, ctx.clone(), mode, &suspender)
        .await
        .into_iter();
    let expires_at = now_millis().saturating_add(millis(ttl));
    let mut slots = Vec::with_capacity(calls.len());
    for (index, (call, pending)) in calls.iter().zip(waiting).enumerate() {
        let slot = if let Some(result) = refused.get(&index) {
            Slot::Answered {
                result: result.clone(),
            }
        } else if let Some((mut request, repairs)) = pending {
            request.approval_id = format!("{batch}.{index}");
            request.expires_at_ms = Some(expires_at);
            Slot::Pending { request, repairs }
        } else if runs_now(index) {
            match results.next() {
                Some(Some(result)) => ran(call, result, &suspender, (&batch, index, expires_at)),
                // Sequential: a call before it suspended itself.
                Some(None) => Slot::Held { call: call.clone() },
                None => answered(None, call),
            }
        } else {
            Slot::Held { call: call.clone() }
        };
        slots.push(slot);
    }
    // No call waits (the calls of tools that run tools did not suspend).
    if !slots.iter().any(Slot::waits) {
        let results = slots
            .into_iter()
            .zip(calls)
            .map(|(slot, call)| match slot {
                Slot::Answered { result } => result,
                _ => ToolResultMessage::failure(call, "not run"),
            })
            .collect();
        return BatchOutcome::Complete(results);
    }
    let state = State {
        version: SUSPENSION_FORMAT,
        id: random_id().unwrap_or_else(|| batch.clone()),
        batch,
        expires_at,
        standing: ctx
            .approvals
            .as_ref()
            .map(|approvals| approvals.standing().snapshot())
            .unwrap_or_default(),
        calls: slots,
    };
    match Suspension::seal(state.clone(), &key) {
        Some(suspension) => BatchOutcome::Suspended(suspension),
        None => BatchOutcome::Complete(unsealed(state)),
    }
}

/// Runs `calls` as [`execute_tool_calls`] does, with `suspender` on the
/// options, so a call of a tool that runs tools can suspend itself. In
/// sequential mode the calls after one that suspended itself do not run
/// (`None`): they wait for their turn.
pub(super) async fn run_until_suspended(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    mut ctx: RunOptions,
    mode: ExecutionMode,
    suspender: &Arc<Suspender>,
) -> Vec<Option<ToolResultMessage>> {
    ctx.suspender = Some(Arc::clone(suspender));
    match mode {
        ExecutionMode::Parallel => execute_tool_calls(calls, registry, ctx, mode)
            .await
            .into_iter()
            .map(Some)
            .collect(),
        ExecutionMode::Sequential => {
            if let Some(budget) = &mut ctx.retry_budget {
                *budget = budget.for_batch();
            }
            let mut results = Vec::with_capacity(calls.len());
            for call in calls {
                if suspender.any() {
                    results.push(None);
                    continue;
                }
                let tool = registry.get(&call.name);
                results.push(Some(super::one_call::run(call, registry, tool, &ctx).await));
            }
            results
        }
    }
}

/// The slot of a call that ran: answered, or waiting for a person's
/// decision on an inner call, when it suspended itself (its approval id
/// made from the batch's id, the call's place and the inner call's id).
pub(super) fn ran(
    call: &ToolCall,
    result: ToolResultMessage,
    suspender: &Suspender,
    (batch, index, expires_at): (&str, usize, u64),
) -> Slot {
    match suspender.take(&call.id) {
        Some((mut request, state)) => {
            request.approval_id = format!("{batch}.{index}.{}", request.tool_call_id);
            request.expires_at_ms = Some(expires_at);
            Slot::Suspended {
                call: call.clone(),
                request,
                state,
                decided: None,
            }
        }
        None => Slot::Answered { result },
    }
}

/// The key and lifetime of suspending approvals, if the options have them.
fn suspending(ctx: &RunOptions) -> Option<(ApprovalKey, Duration)> {
    match ctx.approvals.as_ref().map(|approvals| &approvals.asking) {
        Some(Asking::Suspend { key, ttl, .. }) => Some((key.clone(), *ttl)),
        _ => None,
    }
}

/// A waiting call's request (its approval id and expiry not yet set) and
/// the repairs made to its arguments.
pub(super) type Waiting = (ApprovalRequest, Vec<Repair>);

/// For each call, what it waits with when it needs approval and its
/// arguments parse; `None` for the calls that run (a call that does not
/// parse, or is not available, is answered by the usual path, which fails
/// it the same way; a standing decision for its tool decides it there).
fn set_aside(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> Vec<Option<Waiting>> {
    calls
        .iter()
        .map(|call| waits_for_person(call, registry, ctx))
        .collect()
}

/// What `call` waits with when it needs a person's approval under the
/// options' approvals and its arguments parse; `None` when it runs (or
/// fails) by the usual path.
pub(super) fn waits_for_person(
    call: &ToolCall,
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> Option<Waiting> {
    let tool = registry.get(&call.name)?;
    let approvals = ctx.approvals.as_ref()?;
    let by_tool = approvals.requires_tool(tool);
    if by_tool == Some(false)
        || !tool.is_available_in(&ctx.turn)
        || approvals.standing().get(&call.name).is_some()
    {
        return None;
    }
    let Parsed { prepared, repairs } = arguments::parse(call, tool, ctx.repair.as_ref()).ok()?;
    let parsed = arguments::arguments_of(call, &prepared).ok()?;
    if by_tool.is_none() && !approvals.requires(tool, &parsed) {
        return None;
    }
    let request = ApprovalRequest::new(
        String::new(),
        &call.id,
        &call.name,
        tool.description(),
        tool.annotations(),
        parsed,
    );
    Some((request, repairs))
}

/// Answers each waiting call whose id another call of the batch shares
/// (a decision names its call by id, so it would decide both), by index;
/// they no longer wait.
fn refuse_shared_ids(
    calls: &[ToolCall],
    waiting: &mut [Option<Waiting>],
) -> HashMap<usize, ToolResultMessage> {
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for call in calls {
        *uses.entry(call.id.as_str()).or_default() += 1;
    }
    let mut refused = HashMap::new();
    for (index, call) in calls.iter().enumerate() {
        if waiting[index].is_some() && uses[call.id.as_str()] > 1 {
            waiting[index] = None;
            let message = format!(
                "call id {:?} is also another call's in this batch; a call that waits for a \
                 person's approval needs an id of its own (it did not run)",
                call.id
            );
            crate::trace::warn!(call_id = %call.id, tool = %call.name, "a call that needs approval shares its id; it is refused");
            refused.insert(index, ToolResultMessage::failure(call, &message));
        }
    }
    refused
}

/// The batch answered without a state: the calls `refused` answered so,
/// the others that still wait answered that no approval could be asked
/// (no state can be sealed: the system gave no randomness), the rest run.
async fn unsealable(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: RunOptions,
    mode: ExecutionMode,
    waiting: Vec<Option<Waiting>>,
    mut refused: HashMap<usize, ToolResultMessage>,
) -> Vec<ToolResultMessage> {
    let runs = |index: usize| waiting[index].is_none() && !refused.contains_key(&index);
    let runnable: Vec<ToolCall> = (0..calls.len())
        .filter(|index| runs(*index))
        .map(|index| calls[index].clone())
        .collect();
    let mut results = execute_tool_calls(&runnable, registry, ctx, mode)
        .await
        .into_iter();
    let mut answered = Vec::with_capacity(calls.len());
    for (index, call) in calls.iter().enumerate() {
        answered.push(if let Some(result) = refused.remove(&index) {
            result
        } else if waiting[index].is_some() {
            answers::unanswered(call, NO_RANDOMNESS)
        } else {
            results
                .next()
                .unwrap_or_else(|| ToolResultMessage::failure(call, "not run"))
        });
    }
    answered
}

/// The results of a state that could not be sealed: every call that
/// waits is answered that no approval could be asked.
fn unsealed(state: State) -> Vec<ToolResultMessage> {
    state
        .calls
        .into_iter()
        .map(|slot| match slot {
            Slot::Answered { result } => result,
            waiting => answers::unanswered(&waiting.call(), NO_RANDOMNESS),
        })
        .collect()
}

const NO_RANDOMNESS: &str = "its approval state could not be sealed: the system gave no randomness";

/// A slot for a call's result (a batch answers every call; were one
/// missing, the call would still get a paired failure, not a shifted one).
pub(super) fn answered(result: Option<ToolResultMessage>, call: &ToolCall) -> Slot {
    let result = result.unwrap_or_else(|| ToolResultMessage::failure(call, "not run"));
    Slot::Answered { result }
}

/// A duration in whole milliseconds, saturating.
pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
