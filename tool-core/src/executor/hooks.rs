//! Hooks around a call: `before` sees the parsed arguments and may block the
//! call (a permission prompt, a policy, a dry run); `after` may rewrite what
//! the model reads (redaction, truncation, a note). Both are async, and both
//! are guarded: a hook that fails or panics is answered as a paired error.

use crate::tool::{ToolError, ToolOutput};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// What a `before` hook sees: the call, with its arguments as parsed (unknown
/// keys dropped, defaults filled in), and the caller's signal. A hook that
/// waits (a permission prompt) is abandoned when the signal is cancelled,
/// and the call is answered `cancelled`.
#[derive(Clone, Debug)]
pub struct BeforeCall {
    /// The call's id.
    pub call_id: String,
    /// The tool about to run.
    pub tool_name: String,
    /// The parsed arguments, as JSON.
    pub arguments: Value,
    /// The caller's cancellation signal, if any.
    pub signal: Option<CancellationToken>,
}

/// A `before` hook's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookDecision {
    /// Run the tool.
    Allow,
    /// Do not run it; the call is answered with this reason as its error.
    Block(String),
}

/// What an `after` hook sees: the call and what it produced. The hook
/// returns the output to send instead (or the same one).
#[derive(Clone, Debug, PartialEq)]
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
}

type HookFuture<T> = Pin<Box<dyn Future<Output = Result<T, ToolError>> + Send>>;

/// Runs before a tool; see [`CallContext::with_before_hook`](crate::CallContext::with_before_hook).
pub type BeforeHook = Arc<dyn Fn(BeforeCall) -> HookFuture<HookDecision> + Send + Sync>;

/// Runs after a tool; see [`CallContext::with_after_hook`](crate::CallContext::with_after_hook).
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
