//! Runs tool calls: lookup, parse, execute, and always exactly one paired
//! result per call, whatever the model sent or the tool did.

mod arguments;
mod batch;
mod catch_unwind;
mod hook_faults;
mod hooks;
mod one_call;
mod outcome;
mod retry_budget;
mod run_options;
mod supervise;
mod suspend;

pub use crate::tool::ProgressFn;
pub use hooks::{AfterCall, AfterHook, BeforeCall, BeforeHook, HookDecision};
pub use retry_budget::RetryBudget;
pub use run_options::{DEFAULT_CANCEL_GRACE, ProgressEvent, RunOptions};
pub use suspend::{BatchOutcome, execute_batch, resume_batch};

use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolRegistry;

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
/// # });
/// ```
pub async fn execute_tool_call(
    call: &ToolCall,
    registry: &ToolRegistry,
    ctx: RunOptions,
) -> ToolResultMessage {
    one_call::run(call, registry, registry.get(&call.name), &ctx).await
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
