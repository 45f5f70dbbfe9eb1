//! How many times in a row a model may get a tool wrong before it is told
//! to stop: small models often loop on the same mistake.

use crate::message::ToolResultMessage;
use crate::tool::{Content, FailureKind};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Counts consecutive retry failures per tool, across the turns of one
/// conversation: keep one value for the conversation and pass a clone in
/// each turn's [`RunOptions`](crate::RunOptions::with_retry_budget)
/// (clones share the counts). A success of a tool resets its count. Once a
/// tool's count is past the limit, its failed result says, in words for the
/// model, to stop calling it in this turn, and is marked
/// [`Fatal`](FailureKind::Fatal).
///
/// ```
/// use tool_core::{execute_tool_call, tool, RunOptions, FailureKind, executor::RetryBudget, ToolCall, ToolRegistry};
/// use serde_json::json;
///
/// /// Double a number
/// #[tool]
/// async fn double(n: i64) -> String {
///     (n * 2).to_string()
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(DoubleTool).unwrap();
/// let budget = RetryBudget::new(2);
/// let ctx = RunOptions::new().with_retry_budget(budget.clone());
/// let wrong = ToolCall::new("c", "double", json!({"n": "two"}));
/// for _ in 0..2 {
///     let result = execute_tool_call(&wrong, &tools, ctx.clone()).await;
///     assert_eq!(result.failure_kind, Some(FailureKind::Retry));
/// }
/// let third = execute_tool_call(&wrong, &tools, ctx.clone()).await;
/// assert_eq!(third.failure_kind, Some(FailureKind::Fatal));
/// assert_eq!(budget.consecutive_failures("double"), 3);
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct RetryBudget {
    limit: u32,
    failures: Arc<Mutex<HashMap<String, u32>>>,
}

impl RetryBudget {
    /// A budget allowing `limit` consecutive retry failures per tool; the
    /// next one is fatal.
    pub fn new(limit: u32) -> Self {
        RetryBudget {
            limit,
            failures: Arc::default(),
        }
    }

    /// The consecutive retry failures allowed per tool.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// How many times in a row `tool`'s calls have failed with a retry.
    pub fn consecutive_failures(&self, tool: &str) -> u32 {
        self.counts().get(tool).copied().unwrap_or(0)
    }

    /// Forgets every count (a new conversation).
    pub fn reset(&self) {
        self.counts().clear();
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
        // A count is a plain number: one left by a panicking holder is fine.
        self.failures.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts `result` against its tool, and marks it fatal (with a note to
    /// the model) when it is one retry failure too many.
    pub(crate) fn record(&self, result: &mut ToolResultMessage) {
        let mut counts = self.counts();
        match result.failure_kind {
            None => {
                counts.remove(&result.tool_name);
            }
            Some(FailureKind::Retry) => {
                let count = counts.entry(result.tool_name.clone()).or_insert(0);
                *count = count.saturating_add(1);
                if *count > self.limit {
                    let times = match *count {
                        1 => "once".to_owned(),
                        count => format!("{count} times in a row"),
                    };
                    let note = format!(
                        "[{} has now failed {times}. Do not call it again in this turn: tell the user what went wrong instead.]",
                        result.tool_name
                    );
                    result.content.push(Content::text(note));
                    result.failure_kind = Some(FailureKind::Fatal);
                }
            }
            // A person's "no" is not the model's mistake.
            Some(FailureKind::Fatal | FailureKind::Internal | FailureKind::Denied) => {}
        }
    }
}
