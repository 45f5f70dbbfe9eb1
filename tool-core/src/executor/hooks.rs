//! Hooks around a call: `before` sees the parsed arguments and may block the
//! call (a permission prompt, a policy, a dry run); `after` may rewrite what
//! the model reads (redaction, truncation, a note). Both are async, and both
//! are guarded. A before hook that fails or panics answers the call, its
//! error's [`ToolFailure`](crate::ToolFailure) kind kept (an internal one's
//! message to the logs only, as a tool's). An after hook that fails or
//! panics leaves the tool's result as it was, with a note that the hook
//! failed: the tool has already run, and a retry failure would invite the
//! model to run it again.

use crate::model::{FailureKind, ToolAnnotations};
use crate::tool::{ToolError, ToolOutput};
use crate::turn::Caller;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// What a `before` hook sees: the call, with its arguments as parsed (unknown
/// keys dropped, defaults filled in), the tool's annotations, and the
/// caller's signal. A hook that waits (a permission prompt) is abandoned
/// when the signal is cancelled, and the call is answered `cancelled`.
///
/// Asking a person before anything destructive runs:
///
/// ```
/// use tool_core::{execute_tool_call, tools, RunOptions, executor::HookDecision, ToolCall, ToolRegistry};
/// use serde_json::json;
///
/// struct Disk;
///
/// #[tools]
/// impl Disk {
///     /// Delete a file
///     #[tool(destructive)]
///     async fn delete(&self, path: String) -> String {
///         format!("deleted {path}")
///     }
///
///     /// Show a file's size
///     #[tool(read_only)]
///     async fn size(&self, path: String) -> String {
///         format!("{path}: 3 bytes")
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register_all(Disk).unwrap();
/// let ask_first = RunOptions::new().with_before_hook(|call| async move {
///     if call.annotations.may_destroy() {
///         // A real application asks a person here.
///         return Ok(HookDecision::Block(format!("{} needs a person's approval", call.tool_name)));
///     }
///     Ok(HookDecision::Allow)
/// });
/// let size = ToolCall::new("c1", "size", json!({"path": "a.txt"}));
/// let delete = ToolCall::new("c2", "delete", json!({"path": "a.txt"}));
/// let sized = execute_tool_call(&size, &tools, ask_first.clone()).await;
/// let blocked = execute_tool_call(&delete, &tools, ask_first).await;
/// assert!(!sized.is_error);
/// assert!(blocked.is_error);
/// assert_eq!(blocked.failure_kind, Some(tool_core::FailureKind::Denied));
/// # });
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BeforeCall {
    /// The call's id.
    pub call_id: String,
    /// The tool about to run.
    pub tool_name: String,
    /// The parsed arguments, as JSON.
    pub arguments: Value,
    /// The tool's hints about its effects ([`Tool::annotations`](crate::Tool::annotations)).
    pub annotations: ToolAnnotations,
    /// The caller's cancellation signal, if any.
    pub signal: Option<CancellationToken>,
    /// Who asked for the call, when the transport authenticated someone
    /// ([`RunOptions::with_caller`](crate::RunOptions::with_caller)): an
    /// MCP server's OAuth caller, say.
    pub caller: Option<Arc<Caller>>,
}

/// A `before` hook's answer: approve, edit, or deny.
#[derive(Clone, Debug, PartialEq)]
pub enum HookDecision {
    /// Run the tool.
    Allow,
    /// Run the tool with these arguments instead (a person edited them, a
    /// policy narrowed them). They are parsed as the model's are; the change
    /// is on the result's `repairs` (rule `before_hook`); arguments that do
    /// not parse are a paired error naming the hook.
    Rewrite(Value),
    /// Do not run it; the call is answered with this reason as its error,
    /// marked [`Denied`](FailureKind::Denied): a refusal, not a mistake, so
    /// a [`RetryBudget`](crate::executor::RetryBudget) does not count it.
    Block(String),
}

/// What an `after` hook sees: the call and what it produced. The hook
/// returns the output to send instead (or the same one).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AfterCall {
    /// The call's id.
    pub call_id: String,
    /// The tool that ran.
    pub tool_name: String,
    /// The parsed arguments, as JSON.
    pub arguments: Value,
    /// The result's content, details and error flag, as the executor made
    /// them (a failure's text and `{"error": ..}` details included).
    pub output: ToolOutput<Value>,
    /// What the failure means, when the call failed.
    pub failure_kind: Option<FailureKind>,
    /// An internal failure's full message, which the model does not see (it
    /// reads a generic text with the same reference).
    pub internal_error: Option<String>,
}

type HookFuture<T> = Pin<Box<dyn Future<Output = Result<T, ToolError>> + Send>>;

/// Runs before a tool; see [`RunOptions::with_before_hook`](crate::RunOptions::with_before_hook).
pub type BeforeHook = Arc<dyn Fn(BeforeCall) -> HookFuture<HookDecision> + Send + Sync>;

/// Runs after a tool; see [`RunOptions::with_after_hook`](crate::RunOptions::with_after_hook).
pub type AfterHook = Arc<dyn Fn(AfterCall) -> HookFuture<ToolOutput<Value>> + Send + Sync>;

pub(crate) fn before_hook<F, Fut>(hook: F) -> BeforeHook
where
    F: Fn(BeforeCall) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<HookDecision, ToolError>> + Send + 'static,
{
    Arc::new(move |call| Box::pin(hook(call)))
}

pub(crate) fn after_hook<F, Fut>(hook: F) -> AfterHook
where
    F: Fn(AfterCall) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + 'static,
{
    Arc::new(move |call| Box::pin(hook(call)))
}
