//! A parallel batch: calls run concurrently on the caller's task, at most
//! `max_concurrency` at once, exclusive tools alone, results in call order.

use super::call_context::CallContext;
use super::one_call;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::{RegisteredTool, ToolRegistry};
use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};

pub(crate) async fn run_parallel(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: &CallContext,
) -> Vec<ToolResultMessage> {
    let limit = ctx.max_concurrency.map_or(usize::MAX, |limit| limit.get());
    let mut results: Vec<Option<ToolResultMessage>> = (0..calls.len()).map(|_| None).collect();
    // Only the futures that are ready get polled: a batch of thousands of
    // mostly idle calls costs what its active calls cost.
    let mut running = FuturesUnordered::new();
    for (index, call) in calls.iter().enumerate() {
        let tool = registry.get(&call.name);
        if tool.is_some_and(RegisteredTool::exclusive) {
            while let Some((done, result)) = running.next().await {
                results[done] = Some(result);
            }
            results[index] = Some(one_call::run(call, registry, tool, ctx).await);
            continue;
        }
        while running.len() >= limit {
            if let Some((done, result)) = running.next().await {
                results[done] = Some(result);
            }
        }
        // Most calls of a batch finish without waiting (a parse error, an
        // unknown tool, a quick tool): polled once here, they never enter
        // the set of running futures. One that has to wait is pushed, and
        // the set polls it again with a waker that will wake it.
        let mut call =
            Box::pin(async move { (index, one_call::run(call, registry, tool, ctx).await) });
        match call.as_mut().now_or_never() {
            Some((done, result)) => results[done] = Some(result),
            None => running.push(call),
        }
    }
    while let Some((done, result)) = running.next().await {
        results[done] = Some(result);
    }
    results
        .into_iter()
        .zip(calls)
        // Every index was filled above; this keeps the "one result per call"
        // promise even if that ever stopped being so.
        .map(|(result, call)| result.unwrap_or_else(|| ToolResultMessage::failure(call, "not run")))
        .collect()
}
