//! Running the executor in tests that must never hang: every call or batch
//! is given a ceiling far above what it needs, so a hang fails the test
//! instead of blocking the suite. Used by `executor::faults`,
//! `executor::recovery` and the MCP scenarios (`support::mcp`).

use std::future::Future;
use std::time::Duration;
use tool_core::{
    ExecutionMode, RunOptions, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call,
    execute_tool_calls,
};

/// Far more than any test needs: only there so a hang fails the test.
pub(crate) const HANG: Duration = Duration::from_secs(20);

/// A tool that would go on this long has to be stopped by the executor.
pub(crate) const FOREVER: Duration = Duration::from_secs(3600);

/// `future`'s output, failing the test if it takes longer than [`HANG`].
pub(crate) async fn bounded<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(HANG, future)
        .await
        .unwrap_or_else(|_| panic!("not finished within the hang ceiling ({HANG:?})"))
}

/// `execute_tool_call`, failing the test if it does not answer in time.
pub(crate) async fn run_call(
    call: &ToolCall,
    tools: &ToolRegistry,
    ctx: RunOptions,
) -> ToolResultMessage {
    bounded(execute_tool_call(call, tools, ctx)).await
}

/// `execute_tool_calls`, failing the test if it does not answer in time.
pub(crate) async fn run_batch(
    calls: &[ToolCall],
    tools: &ToolRegistry,
    ctx: RunOptions,
    mode: ExecutionMode,
) -> Vec<ToolResultMessage> {
    bounded(execute_tool_calls(calls, tools, ctx, mode)).await
}
