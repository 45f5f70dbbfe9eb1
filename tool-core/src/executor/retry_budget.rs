//! How many times in a row a model may get a tool wrong before it is told
//! to stop: small models often loop on the same mistake.

use crate::model::{Content, FailureKind};
use crate::model::{ToolCall, ToolResultMessage};
use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Counts consecutive retry failures per tool, across the turns of one
/// conversation: keep one value for the conversation and pass a clone in
/// each turn's [`RunOptions`](crate::RunOptions::with_retry_budget)
/// (clones share the counts). A success of a tool resets its count. Once a
/// tool's count is past its limit, its failed result says, in words for the
/// model, to stop calling it in this turn, and is marked
/// [`Fatal`](FailureKind::Fatal).
///
/// A tool's limit is its own [`Tool::retries`](crate::Tool::retries)
/// (`#[tool(retries = N)]`) when it has one, else the budget's. Only
/// [`Retry`](FailureKind::Retry) failures count; a
/// [`Denied`](FailureKind::Denied) call (a person or a policy said no) is
/// neither counted nor a success, and leaves the count as it was.
///
/// **In one batch** (one [`execute_tool_calls`](crate::execute_tool_calls)),
/// once a tool's count has gone past its limit, the calls of that tool that
/// have not started yet are answered `Fatal` without running, with a text
/// saying why: in a parallel batch, those waiting for a free slot or for an
/// exclusive call, and in a sequential batch every later one. Calls already
/// running finish; one of them succeeding resets the count, and the calls
/// after it run again. The next batch starts over: its first call of the
/// tool runs even when the count is still past the limit (a failure then is
/// fatal at once, as above). [`execute_tool_call`](crate::execute_tool_call)
/// is a batch of its own call, so it never refuses one.
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
///
/// In one batch, the calls after the one that spent the budget do not run:
///
/// ```
/// use tool_core::{execute_tool_calls, tool, ExecutionMode, RunOptions, FailureKind, executor::RetryBudget, ToolCall, ToolRegistry};
/// use serde_json::json;
///
/// /// Look a word up
/// #[tool(retries = 1)]
/// async fn lookup(word: String) -> Result<String, String> {
///     Err(format!("no entry for {word}"))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(LookupTool).unwrap();
/// let ctx = RunOptions::new().with_retry_budget(RetryBudget::new(5));
/// let calls: Vec<ToolCall> = (0..4)
///     .map(|i| ToolCall::new(format!("c{i}"), "lookup", json!({"word": "qi"})))
///     .collect();
/// let results = execute_tool_calls(&calls, &tools, ctx, ExecutionMode::Sequential).await;
/// let kinds: Vec<_> = results.iter().map(|r| r.failure_kind).collect();
/// // The tool's own limit (1) wins over the budget's (5).
/// assert_eq!(kinds, [Some(FailureKind::Retry), Some(FailureKind::Fatal), Some(FailureKind::Fatal), Some(FailureKind::Fatal)]);
/// assert!(results[3].content[0].as_text().unwrap().contains("not run"));
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct RetryBudget {
    limit: u32,
    failures: Arc<Mutex<HashMap<String, Failures>>>,
    /// The batch this clone counts for: set by `execute_tool_calls` on its
    /// own clone, `None` otherwise (a single call, a caller's value).
    batch: Option<NonZeroU64>,
}

/// One tool's record.
#[derive(Debug, Default)]
struct Failures {
    /// Consecutive retry failures.
    in_a_row: u32,
    /// The batch in which the count went past the limit, if it did in one.
    spent_in: Option<NonZeroU64>,
}

impl RetryBudget {
    /// A budget allowing `limit` consecutive retry failures per tool (for a
    /// tool without a limit of its own); the next one is fatal.
    pub fn new(limit: u32) -> Self {
        RetryBudget {
            limit,
            failures: Arc::default(),
            batch: None,
        }
    }

    /// The consecutive retry failures allowed per tool, unless a tool has
    /// its own [`retries`](crate::Tool::retries).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// How many times in a row `tool`'s calls have failed with a retry.
    pub fn consecutive_failures(&self, tool: &str) -> u32 {
        self.counts().get(tool).map_or(0, |record| record.in_a_row)
    }

    /// Forgets every count (a new conversation).
    pub fn reset(&self) {
        self.counts().clear();
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<String, Failures>> {
        // A count is a plain number: one left by a panicking holder is fine.
        self.failures.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A clone counting for a new batch: the same counts, and a batch
    /// number no other batch of the process has.
    pub(crate) fn for_batch(&self) -> Self {
        static BATCHES: AtomicU64 = AtomicU64::new(1);
        RetryBudget {
            batch: NonZeroU64::new(BATCHES.fetch_add(1, Ordering::Relaxed)),
            ..self.clone()
        }
    }

    /// The answer to `call` when its tool's budget was spent earlier in
    /// this batch: `Fatal`, saying why, and the tool does not run.
    pub(crate) fn refusal(&self, call: &ToolCall) -> Option<ToolResultMessage> {
        let batch = self.batch?;
        let in_a_row = {
            let counts = self.counts();
            let record = counts.get(&call.name)?;
            if record.spent_in != Some(batch) {
                return None;
            }
            record.in_a_row
        };
        crate::trace::info!(
            in_a_row,
            "the call was not run: its tool's retries are spent in this batch"
        );
        Some(ToolResultMessage::failed(
            call,
            &format!(
                "not run: its calls before this one failed {in_a_row} times in a row, past its retry limit. Do not call it again in this turn: tell the user what went wrong instead."
            ),
            FailureKind::Fatal,
        ))
    }

    /// Counts `result` against its tool, whose own limit is `tool_limit`
    /// (else the budget's), and marks it fatal (with a note to the model)
    /// when it is one retry failure too many.
    pub(crate) fn record(&self, result: &mut ToolResultMessage, tool_limit: Option<u32>) {
        let mut counts = self.counts();
        match result.failure_kind {
            None => {
                counts.remove(&result.tool_name);
            }
            Some(FailureKind::Retry) => {
                let record = counts.entry(result.tool_name.clone()).or_default();
                record.in_a_row = record.in_a_row.saturating_add(1);
                if record.in_a_row > tool_limit.unwrap_or(self.limit) {
                    record.spent_in = self.batch;
                    let times = match record.in_a_row {
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
            // A person's "no" is not the model's mistake to correct, and not a success either.
            Some(
                FailureKind::Fatal
                | FailureKind::Internal
                | FailureKind::Denied
                | FailureKind::Interrupted,
            ) => {}
        }
    }
}
