//! Runs tool calls: lookup, parse, execute, and always exactly one paired
//! result per call, whatever the model sent or the tool did.
//!
//! # Tracing
//!
//! Each call runs in a `tracing` span named `execute_tool`, whose fields
//! follow OpenTelemetry's GenAI conventions for tool execution
//! (<https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#execute-tool-span>),
//! so that `tracing-opentelemetry` exports it as the conventions' span:
//!
//! | field | value |
//! | --- | --- |
//! | `otel.name` | `execute_tool {tool}`, the span's name in OpenTelemetry |
//! | `otel.kind` | `internal` |
//! | `gen_ai.operation.name` | `execute_tool` |
//! | `gen_ai.tool.name` | the name the call asked for |
//! | `gen_ai.tool.call.id` | the call's id |
//! | `gen_ai.tool.type` | `function` |
//! | `gen_ai.tool.description` | the tool's description, when it is registered |
//! | `error.type` | why the call failed, when it did (below) |
//! | `otel.status_code` | `error` when the call failed, else not recorded |
//! | `otel.status_description` | the failure's message as the model reads it (an internal failure's reference), at most 256 bytes |
//! | `gen_ai.tool.call.arguments` | only with [`RunOptions::with_traced_content`]: the arguments as JSON text, bounded |
//! | `gen_ai.tool.call.result` | only with [`RunOptions::with_traced_content`], and only when the call succeeded: the result, bounded |
//!
//! `error.type` is one of these values (a low-cardinality class of the
//! error, as OpenTelemetry asks):
//!
//! | `error.type` | the call failed because |
//! | --- | --- |
//! | `unknown_tool` | no tool of that name is registered |
//! | `not_available` | the tool is not available in this turn ([`RunOptions::with_enabled`], or a toolset's preparation hides it); a deferred tool not yet loaded is available: deferral decides what the model is shown, not what it may call (a provider's own search loads a tool on its side, unseen here) |
//! | `invalid_arguments` | the arguments do not parse (or a before hook's or a person's replacement does not) |
//! | `tool_error` | the tool answered with an output marked as an error (or the after hook marked it so) |
//! | `retry` | the tool (or the before hook) returned an error of kind [`Retry`](crate::FailureKind::Retry), or any other error |
//! | `fatal` | a [`Fatal`](crate::FailureKind::Fatal) failure, or a call not run because its tool's retries are spent ([`RetryBudget`]) |
//! | `internal` | an [`Internal`](crate::FailureKind::Internal) failure |
//! | `denied` | a person, an approval policy or the before hook refused the call |
//! | `interrupted` | a person approved the call, and its run (a resumed batch's) was lost before it answered: it may or may not have run |
//! | `timeout` | the tool ran past its timeout and was stopped |
//! | `cancelled` | the caller cancelled the call |
//! | `panic` | the tool panicked (or its parameters' parser, or the before hook) |
//! | `_OTHER` | a result marked as an error with no failure kind (never from the executor itself) |
//!
//! It names what went wrong first: a failure a [`RetryBudget`] then makes
//! fatal keeps its value, and the result's
//! [`failure_kind`](crate::ToolResultMessage::failure_kind) says what the
//! agent is to do.
//!
//! Inside the span, events (which `tracing-opentelemetry` exports as span
//! events) say what happened on the way: a repair, the before hook's or an
//! approver's decision, a timeout, a cancellation, a panic. Their messages
//! and levels are listed in `docs/running.md` (section Logs). With no
//! subscriber, or one that does not want the span, it is disabled: one
//! check of a static, and none of its values is formatted or computed.

// Without `tracing`, the values only events and spans read go unread.
#![cfg_attr(not(feature = "tracing"), allow(unused_variables, unused_imports))]

mod arguments;
mod batch;
mod call_span;
mod catch_unwind;
mod error_type;
mod hook_faults;
mod hooks;
mod one_call;
mod outcome;
#[cfg(feature = "approval-state")]
mod resume;
mod retry_budget;
mod run_options;
#[cfg(feature = "approval-state")]
mod self_suspend;
mod supervise;
#[cfg(feature = "approval-state")]
mod suspend;

pub use crate::tool::ProgressFn;
pub use crate::turn::Caller;
pub use hooks::{AfterCall, AfterHook, BeforeCall, BeforeHook, HookDecision};
pub use retry_budget::RetryBudget;
pub use run_options::{DEFAULT_CANCEL_GRACE, ProgressEvent, RunOptions};
cfg_feature!("approval-state" =>
    pub use resume::resume_batch;
    pub use suspend::{BatchOutcome, execute_batch};
);

use crate::model::{ToolCall, ToolResultMessage};
use crate::registry::ToolRegistry;
use std::borrow::Borrow;

/// How a batch of calls runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExecutionMode {
    /// All calls at once, on the caller's task; results still in call order.
    #[default]
    Parallel,
    /// One call after another, in call order.
    Sequential,
}

/// Runs one call and answers it. Never fails and never panics: an unknown
/// tool, bad arguments, a tool error and a tool panic all become a paired
/// result with `is_error: true`.
///
/// `ctx` is the options by value or by reference: a program that runs many
/// calls with the same options passes `&ctx` and copies nothing per call
/// (a clone is a few hundred bytes and a reference count or two for each
/// hook, approval and turn it holds, which every thread running calls
/// then touches).
///
/// ```
/// use tool_core::{execute_tool_call, RunOptions, DynamicTool, ToolCall, ToolOutput, ToolRegistry};
/// use serde_json::json;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(DynamicTool::new("fail", "Always fails", |_args, _ctx| async {
///     Err("exploded".into())
/// })).unwrap();
///
/// let call = ToolCall::new("call-1", "fail", json!({}));
/// let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
/// assert_eq!(result.tool_call_id, "call-1");
/// assert!(result.is_error);
/// assert_eq!(result.content[0].as_text(), Some("Tool fail failed: exploded"));
///
/// let unknown = ToolCall::new("call-2", "missing", json!({}));
/// let result = execute_tool_call(&unknown, &tools, RunOptions::default()).await;
/// assert_eq!(result.tool_name, "missing");
/// assert_eq!(result.details, Some(json!({"error": "unknown tool"})));
///
/// // The same options for many calls: borrowed, not cloned.
/// let options = RunOptions::default();
/// for id in ["call-3", "call-4"] {
///     let call = ToolCall::new(id, "fail", json!({}));
///     assert!(execute_tool_call(&call, &tools, &options).await.is_error);
/// }
/// # });
/// ```
pub async fn execute_tool_call(
    call: &ToolCall,
    registry: &ToolRegistry,
    ctx: impl Borrow<RunOptions>,
) -> ToolResultMessage {
    one_call::run(call, registry, registry.get(&call.name), ctx.borrow()).await
}

/// Runs a batch of calls and answers each one, in call order.
///
/// In [`ExecutionMode::Parallel`] the calls run concurrently on the caller's
/// task (a tool doing blocking work should move it to a blocking thread), at
/// most [`RunOptions::max_concurrency`] at once; a call of an
/// [`exclusive`](crate::Tool::exclusive) tool runs alone. Cancelling the
/// context's signal answers every call: those not started with `cancelled`,
/// the running ones once they stop (or their grace period ends). With a
/// [`RetryBudget`], a tool whose retries the batch spends is not run again
/// in it: its later calls are answered `Fatal` (see there).
pub async fn execute_tool_calls(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    mut ctx: RunOptions,
    mode: ExecutionMode,
) -> Vec<ToolResultMessage> {
    if let Some(budget) = &mut ctx.retry_budget {
        *budget = budget.for_batch();
    }
    match mode {
        ExecutionMode::Sequential => {
            let mut results = Vec::with_capacity(calls.len());
            for call in calls {
                results.push(one_call::run(call, registry, registry.get(&call.name), &ctx).await);
            }
            results
        }
        ExecutionMode::Parallel => batch::run_parallel(calls, registry, &ctx).await,
    }
}
