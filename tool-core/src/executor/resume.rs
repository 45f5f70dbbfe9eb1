//! Resuming a suspended batch: the decisions are checked against the
//! state before anything runs, the ledger is claimed (once per state,
//! across everything sharing it), the decided calls run through the same
//! path as every call while the claim is held, and the batch comes back
//! complete or suspended again under the same expiry.

use super::ExecutionMode;
use super::arguments::{self, Parsed};
use super::call_span;
use super::error_type::ErrorType;
use super::run_options::RunOptions;
use super::self_suspend::{Suspender, self_suspending};
use super::suspend::{BatchOutcome, answered, ran, run_until_suspended};
use crate::approval::{
    Asking, Claimed, Decision, InnerDecision, Lease, RECORD_RETENTION, Resolved, ResumeError,
    Resumed, Slot, Standing, StandingDecisions, State, Suspension, answers, random_id,
};
use crate::model::{Repair, RepairRule};
use crate::model::{ToolCall, ToolResultMessage, now_millis};
use crate::registry::ToolRegistry;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Resumes a suspended batch with `decisions` (call id -> [`Decision`]),
/// for all of its pending calls or some: approved calls run (with edited
/// arguments, parsed strictly, for [`Decision::ApproveWith`]), denied ones
/// are answered `denied`, responded ones with the result given. A standing
/// decision ([`Decision::AlwaysApprove`], [`Decision::AlwaysDeny`], now or
/// earlier in the run) decides every waiting call of its tool. The batch
/// is then complete, or suspended again: a new state for the calls still
/// waiting, with the same expiry.
///
/// A call that suspended itself for one of its inner calls
/// ([`ToolContext::suspend`](crate::ToolContext::suspend)) is decided by
/// that inner call's id; it then runs again, from the start, with its
/// state and the decision ([`ToolContext::resumed`](crate::ToolContext::resumed)),
/// and may suspend itself again (the batch is then suspended again).
///
/// In [`ExecutionMode::Sequential`], calls run in call order: a call
/// approved after a call still undecided waits for it (and so do the calls
/// that need no approval after it).
///
/// A state resumes once. The approvals' ledger records the resume as
/// started, renews it while the calls run, and records it finished; a
/// second resume of the same state is refused
/// ([`ResumeError::AlreadyResumed`], or [`ResumeError::InProgress`] while
/// the first runs). A resume whose future is dropped, or whose process
/// dies, before its calls are answered leaves them to the next resume of
/// the same state, which answers them `interrupted` (they may or may not
/// have run) without running them again.
///
/// Refused, with nothing run, when the state is not one these approvals
/// sealed, has expired, or was resumed before, or when a decision does not
/// fit (an unknown call, two decisions for one, edited arguments that do
/// not parse, a result that does not fit the output schema); see
/// [`ResumeError`].
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
    let Some(approvals) = ctx.approvals.as_ref() else {
        return Err(ResumeError::NoKey);
    };
    let Asking::Suspend {
        key, ledger, lease, ..
    } = &approvals.asking
    else {
        return Err(ResumeError::NoKey);
    };
    let (key, ledger, lease) = (key.clone(), Arc::clone(ledger), *lease);
    let standing = approvals.standing().clone();
    let state = Suspension::open(suspension.sealed(), &key)?.state;
    if now_millis() > state.expires_at {
        return Err(ResumeError::Expired {
            expired_at_ms: state.expires_at,
        });
    }
    standing.adopt(&state.standing);
    let decided = decisions_by_call(&state, decisions)?;
    let Plan {
        mut steps,
        decides,
        standing: newly_standing,
    } = plan(&state.calls, decided, &standing, registry, mode)?;
    if !decides {
        return Err(ResumeError::NoDecisions);
    }
    let running: Vec<String> = steps.iter().filter_map(Step::runs).collect();
    let keep_until = state
        .expires_at
        .saturating_add(super::suspend::millis(RECORD_RETENTION));
    let (claimed, held) = Lease::claim(ledger, &state.id, &running, lease, keep_until)
        .await
        .map_err(ResumeError::Ledger)?;
    match claimed {
        Claimed::Finished => return Err(ResumeError::AlreadyResumed { id: state.id }),
        Claimed::Busy { lease_until_ms } => {
            return Err(ResumeError::InProgress {
                id: state.id,
                lease_until_ms,
            });
        }
        Claimed::TakenOver { ref interrupted } => interrupt(&mut steps, interrupted),
        _ => {}
    }
    let Some(held) = held else {
        return Err(ResumeError::Ledger(format!(
            "the ledger answered {claimed:?} without a claim"
        )));
    };
    for (tool, decision) in newly_standing {
        standing.set(tool, decision);
    }
    let slots = held
        .hold(run_plan(
            steps,
            registry,
            ctx.clone(),
            mode,
            (&state.batch, state.expires_at),
        ))
        .await;
    if let Err(problem) = held.finish().await {
        // Its calls are answered; a later resume of this state will find
        // the claim lapsed and answer them `interrupted`, never run them.
        crate::trace::warn!(id = %state.id, %problem, "the approval ledger could not record a resume finished");
    }
    Ok(outcome(state, slots, &standing, &key))
}

/// The batch after a resume: complete, or a new state for what still
/// waits (same batch, same expiry, the run's standing decisions).
fn outcome(
    state: State,
    slots: Vec<Slot>,
    standing: &StandingDecisions,
    key: &crate::approval::ApprovalKey,
) -> BatchOutcome {
    if !slots.iter().any(Slot::waits) {
        let results = slots
            .into_iter()
            .filter_map(|slot| match slot {
                Slot::Answered { result } => Some(result),
                _ => None,
            })
            .collect();
        return BatchOutcome::Complete(results);
    }
    let next = State {
        id: random_id().unwrap_or_else(|| format!("{}.next", state.id)),
        standing: standing.snapshot(),
        calls: slots,
        ..state
    };
    match Suspension::seal(next.clone(), key) {
        Some(suspension) => BatchOutcome::Suspended(suspension),
        None => BatchOutcome::Complete(
            next.calls
                .into_iter()
                .map(|slot| match slot {
                    Slot::Answered { result } => result,
                    waiting => answers::unanswered(
                        &waiting.call(),
                        "its approval state could not be sealed again: the system gave no randomness",
                    ),
                })
                .collect(),
        ),
    }
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
        let waiting = state.calls.iter().any(|slot| match slot {
            Slot::Pending { request, .. }
            | Slot::Suspended {
                request,
                decided: None,
                ..
            } => request.tool_call_id == call_id,
            _ => false,
        });
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
    /// Runs: the call as it runs, the repairs to put on its result, and
    /// whether a person approved it (else it needs no approval).
    Run {
        call: ToolCall,
        repairs: Vec<Repair>,
        approved: bool,
    },
    /// Answered without running, in its own span.
    Answer(ToolCall, Answer),
    /// A call that suspended itself runs again, with its state and the
    /// decision for its inner call.
    Resume {
        call: ToolCall,
        request: crate::approval::ApprovalRequest,
        state: serde_json::Value,
        resolved: Resolved,
    },
}

/// How a call is answered without running.
enum Answer {
    Denied(Option<String>),
    Unanswered(String),
    Responded {
        result: serde_json::Value,
        structured: bool,
    },
    Interrupted,
}

impl Step {
    /// The id of the call it runs, if it runs one.
    fn runs(&self) -> Option<String> {
        match self {
            Step::Run { call, .. } | Step::Resume { call, .. } => Some(call.id.clone()),
            _ => None,
        }
    }
}

/// Every slot's step, and whether the resume decides anything and which
/// standing decisions it adds.
struct Plan {
    steps: Vec<Step>,
    decides: bool,
    standing: BTreeMap<String, Standing>,
}

/// Every slot's step, edited arguments and given results checked now, so
/// a decision that does not fit is refused before anything runs. In
/// sequential mode a call still undecided blocks every call after it from
/// running (a decided one waits, approved, for its turn).
fn plan(
    slots: &[Slot],
    mut decided: HashMap<String, Decision>,
    standing: &StandingDecisions,
    registry: &ToolRegistry,
    mode: ExecutionMode,
) -> Result<Plan, ResumeError> {
    let mut blocked = false;
    let mut decides = false;
    let mut new_standing = BTreeMap::new();
    let mut steps = Vec::with_capacity(slots.len());
    for slot in slots {
        let step = match slot {
            Slot::Answered { .. } => Step::Keep(slot.clone()),
            Slot::Held { call } if !blocked => Step::Run {
                call: call.clone(),
                repairs: Vec::new(),
                approved: false,
            },
            Slot::Approved { call, repairs } if !blocked => Step::Run {
                call: call.clone(),
                repairs: repairs.clone(),
                approved: true,
            },
            Slot::Held { .. } | Slot::Approved { .. } => Step::Keep(slot.clone()),
            Slot::Suspended {
                call,
                request,
                state,
                decided: Some(resolved),
            } if !blocked => Step::Resume {
                call: call.clone(),
                request: request.clone(),
                state: state.clone(),
                resolved: resolved.clone(),
            },
            Slot::Suspended {
                decided: Some(_), ..
            } => Step::Keep(slot.clone()),
            Slot::Suspended {
                call,
                request,
                state,
                decided: None,
            } => {
                let Some(decision) = take_decision(
                    &request.tool_name,
                    &request.tool_call_id,
                    &mut decided,
                    &mut new_standing,
                    standing,
                ) else {
                    blocked |= mode == ExecutionMode::Sequential;
                    steps.push(Step::Keep(slot.clone()));
                    continue;
                };
                decides = true;
                let resolved = resolve(request, decision, registry)?;
                if blocked {
                    Step::Keep(Slot::Suspended {
                        call: call.clone(),
                        request: request.clone(),
                        state: state.clone(),
                        decided: Some(resolved),
                    })
                } else {
                    Step::Resume {
                        call: call.clone(),
                        request: request.clone(),
                        state: state.clone(),
                        resolved,
                    }
                }
            }
            Slot::Pending { request, repairs } => {
                let call = slot.call();
                let Some(decision) = take_decision(
                    &call.name,
                    &request.tool_call_id,
                    &mut decided,
                    &mut new_standing,
                    standing,
                ) else {
                    blocked |= mode == ExecutionMode::Sequential;
                    steps.push(Step::Keep(slot.clone()));
                    continue;
                };
                decides = true;
                decided_step(call, request, repairs, decision, blocked, registry)?
            }
        };
        steps.push(step);
    }
    Ok(Plan {
        steps,
        decides,
        standing: new_standing,
    })
}

/// The standing decision an `Always` decision makes.
/// The decision for call `call_id` of `tool`: the one given for it, else
/// a standing decision for its tool (one this resume adds first). A
/// decision that stands is recorded in `new_standing`.
fn take_decision(
    tool: &str,
    call_id: &str,
    decided: &mut HashMap<String, Decision>,
    new_standing: &mut BTreeMap<String, Standing>,
    standing: &StandingDecisions,
) -> Option<Decision> {
    let stands = new_standing
        .get(tool)
        .cloned()
        .or_else(|| standing.get(tool));
    let decision = decided
        .remove(call_id)
        .or_else(|| stands.as_ref().map(standing_decision))?;
    if let Some(stands) = standing_of(&decision) {
        new_standing.insert(tool.to_owned(), stands);
    }
    Some(decision)
}

fn standing_of(decision: &Decision) -> Option<Standing> {
    match decision {
        Decision::AlwaysApprove => Some(Standing::Approve),
        Decision::AlwaysDeny { reason } => Some(Standing::Deny {
            reason: reason.clone(),
        }),
        _ => None,
    }
}

/// A decision for the inner call a call suspended itself for, checked
/// now as a pending call's is: edited arguments parsed, a result given
/// checked against the output schema.
fn resolve(
    request: &crate::approval::ApprovalRequest,
    decision: Decision,
    registry: &ToolRegistry,
) -> Result<Resolved, ResumeError> {
    let call = ToolCall::new(
        &request.tool_call_id,
        &request.tool_name,
        request.arguments.clone(),
    );
    Ok(match decision {
        Decision::Approve | Decision::AlwaysApprove => Resolved::Run {
            call,
            repairs: Vec::new(),
        },
        Decision::ApproveWith { arguments } => {
            let edited = edited_arguments(request, &arguments, registry)?;
            let repair = Repair::new("", &request.arguments, &edited, RepairRule::Approval);
            Resolved::Run {
                call: ToolCall {
                    arguments: edited,
                    ..call
                },
                repairs: vec![repair],
            }
        }
        Decision::Deny { reason } | Decision::AlwaysDeny { reason } => Resolved::Denied { reason },
        Decision::Respond { result } => {
            let structured = checked_result(request, &result, registry)?;
            Resolved::Responded { result, structured }
        }
        Decision::Unanswered { reason } => Resolved::Unanswered { reason },
    })
}

/// A standing decision as the decision it makes.
fn standing_decision(standing: &Standing) -> Decision {
    match standing {
        Standing::Approve => Decision::Approve,
        Standing::Deny { reason } => Decision::Deny {
            reason: reason.clone(),
        },
    }
}

/// The step of a pending call given `decision`.
fn decided_step(
    call: ToolCall,
    request: &crate::approval::ApprovalRequest,
    repairs: &[Repair],
    decision: Decision,
    blocked: bool,
    registry: &ToolRegistry,
) -> Result<Step, ResumeError> {
    let run = |call: ToolCall, repairs: Vec<Repair>| {
        if blocked {
            Step::Keep(Slot::Approved { call, repairs })
        } else {
            Step::Run {
                call,
                repairs,
                approved: true,
            }
        }
    };
    Ok(match decision {
        Decision::Approve | Decision::AlwaysApprove => run(call, repairs.to_vec()),
        Decision::ApproveWith { arguments } => {
            let edited = edited_arguments(request, &arguments, registry)?;
            let mut repairs = repairs.to_vec();
            repairs.push(Repair::new(
                "",
                &request.arguments,
                &edited,
                RepairRule::Approval,
            ));
            run(
                ToolCall {
                    arguments: edited,
                    ..call
                },
                repairs,
            )
        }
        Decision::Deny { reason } | Decision::AlwaysDeny { reason } => {
            Step::Answer(call, Answer::Denied(reason))
        }
        Decision::Respond { result } => {
            let structured = checked_result(request, &result, registry)?;
            Step::Answer(call, Answer::Responded { result, structured })
        }
        Decision::Unanswered { reason } => Step::Answer(call, Answer::Unanswered(reason)),
    })
}

/// Answers `interrupted` the calls an earlier, lost resume may have run.
fn interrupt(steps: &mut [Step], interrupted: &[String]) {
    for step in steps.iter_mut() {
        let call = match step {
            Step::Keep(slot) if slot.waits() => slot.call(),
            Step::Run { call, .. } | Step::Answer(call, _) | Step::Resume { call, .. } => {
                call.clone()
            }
            Step::Keep(_) => continue,
        };
        if interrupted.contains(&call.id) {
            *step = Step::Answer(call, Answer::Interrupted);
        }
    }
}

/// A person's edited arguments, parsed strictly, as JSON.
fn edited_arguments(
    request: &crate::approval::ApprovalRequest,
    arguments: &serde_json::Value,
    registry: &ToolRegistry,
) -> Result<serde_json::Value, ResumeError> {
    let tool = registered(request, registry)?;
    let call = ToolCall::new(&request.tool_call_id, &request.tool_name, arguments.clone());
    let refused = |problem: String| ResumeError::Arguments {
        call_id: request.tool_call_id.clone(),
        problem,
    };
    let Parsed { prepared, .. } = arguments::parse(&call, tool, None)
        .map_err(|failure| refused(failure_text(&failure.result)))?;
    arguments::arguments_of(&call, &prepared)
        .map_err(|failure| refused(failure_text(&failure.result)))
}

/// Checks a result given from outside against the tool's output schema;
/// whether the tool has one (the result is then structured).
pub(super) fn checked_result(
    request: &crate::approval::ApprovalRequest,
    result: &serde_json::Value,
    registry: &ToolRegistry,
) -> Result<bool, ResumeError> {
    let tool = registered(request, registry)?;
    crate::approval::check_result(tool, result).map_err(|problem| ResumeError::Result {
        call_id: request.tool_call_id.clone(),
        problem,
    })
}

fn registered<'a>(
    request: &crate::approval::ApprovalRequest,
    registry: &'a ToolRegistry,
) -> Result<&'a crate::registry::RegisteredTool, ResumeError> {
    registry
        .get(&request.tool_name)
        .ok_or_else(|| ResumeError::UnknownTool {
            call_id: request.tool_call_id.clone(),
            tool: request.tool_name.clone(),
        })
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

/// A call answered on resume without running, in its own `execute_tool`
/// span, as every call that is answered (its span if it had run).
fn answer_on_resume(
    call: &ToolCall,
    answer: Answer,
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> ToolResultMessage {
    let (span, mut trace) = call_span::open(call, registry.get(&call.name), ctx);
    trace.why = match &answer {
        Answer::Responded { .. } => None,
        Answer::Interrupted => Some(ErrorType::Interrupted),
        Answer::Denied(_) | Answer::Unanswered(_) => Some(ErrorType::Denied),
    };
    let result = span.in_scope(|| match answer {
        Answer::Denied(reason) => answers::denied_by_person(call, reason.as_deref()),
        Answer::Unanswered(reason) => answers::unanswered(call, &reason),
        Answer::Responded { result, structured } => answers::responded(call, result, structured),
        Answer::Interrupted => answers::interrupted(call),
    });
    call_span::finish(&span, call, &result, &trace, ctx);
    result
}

/// Answers the calls decided without running, runs the others together
/// (one batch, in call order, under the same options: concurrency,
/// exclusive tools, timeouts), then files every result in its slot. A call
/// that suspended itself runs again with what it left; a call of a tool
/// that runs tools may suspend itself (again), and is then filed as
/// waiting, under the batch's expiry.
async fn run_plan(
    plan: Vec<Step>,
    registry: &ToolRegistry,
    mut ctx: RunOptions,
    mode: ExecutionMode,
    (batch, expires_at): (&str, u64),
) -> Vec<Slot> {
    let mut approved = HashMap::new();
    let mut resumed = HashMap::new();
    let mut calls = Vec::new();
    let mut steps = Vec::with_capacity(plan.len());
    for step in plan {
        steps.push(match step {
            Step::Run {
                call,
                repairs,
                approved: by_person,
            } => {
                if by_person {
                    approved.insert(call.id.clone(), repairs.clone());
                }
                calls.push(call.clone());
                Step::Run {
                    call,
                    repairs,
                    approved: by_person,
                }
            }
            Step::Answer(call, answer) => {
                let result = answer_on_resume(&call, answer, registry, &ctx);
                Step::Keep(Slot::Answered { result })
            }
            Step::Resume {
                call,
                request,
                state,
                resolved,
            } => {
                let decision = inner_decision(&request, &resolved, &mut approved, registry, &ctx);
                let left = Resumed {
                    state: state.clone(),
                    request: request.clone(),
                    decision,
                };
                resumed.insert(call.id.clone(), Arc::new(left));
                // It ran before, past its own approval if it needed one:
                // it is not asked again.
                approved.entry(call.id.clone()).or_default();
                calls.push(call.clone());
                Step::Resume {
                    call,
                    request,
                    state,
                    resolved,
                }
            }
            keep => keep,
        });
    }
    ctx.approved = Some(Arc::new(approved));
    let may_suspend = self_suspending(&calls, registry);
    let suspender = Arc::new(Suspender::new(may_suspend, resumed));
    let mut results = run_until_suspended(&calls, registry, ctx, mode, &suspender)
        .await
        .into_iter();
    steps
        .into_iter()
        .enumerate()
        .map(|(index, step)| match step {
            Step::Keep(slot) => slot,
            Step::Run {
                call,
                repairs,
                approved,
            } => match results.next() {
                Some(Some(result)) => ran(&call, result, &suspender, (batch, index, expires_at)),
                // Sequential: a call before it suspended itself.
                Some(None) if approved => Slot::Approved { call, repairs },
                Some(None) => Slot::Held { call },
                None => answered(None, &call),
            },
            Step::Resume {
                call,
                request,
                state,
                resolved,
            } => match results.next() {
                Some(Some(result)) => ran(&call, result, &suspender, (batch, index, expires_at)),
                Some(None) => Slot::Suspended {
                    call,
                    request,
                    state,
                    decided: Some(resolved),
                },
                None => answered(None, &call),
            },
            // Answered above, each into a kept slot.
            Step::Answer(call, _) => answered(None, &call),
        })
        .collect()
}

/// The decision for a resumed call's inner call, as the tool gets it: the
/// call to run (approved: it is not asked about again), or its answer,
/// in its own span, as a decided call's.
fn inner_decision(
    request: &crate::approval::ApprovalRequest,
    resolved: &Resolved,
    approved: &mut HashMap<String, Vec<Repair>>,
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> InnerDecision {
    let call = ToolCall::new(
        &request.tool_call_id,
        &request.tool_name,
        request.arguments.clone(),
    );
    let answer = match resolved.clone() {
        Resolved::Run { call, repairs } => {
            approved.insert(call.id.clone(), repairs);
            return InnerDecision::Run(call);
        }
        Resolved::Denied { reason } => Answer::Denied(reason),
        Resolved::Unanswered { reason } => Answer::Unanswered(reason),
        Resolved::Responded { result, structured } => Answer::Responded { result, structured },
    };
    InnerDecision::Answered(answer_on_resume(&call, answer, registry, ctx))
}
