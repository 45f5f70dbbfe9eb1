//! A parallel batch: calls run concurrently on the caller's task, at most
//! `max_concurrency` at once, exclusive tools alone, results in call order.

use super::call_context::CallContext;
use super::one_call;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::{RegisteredTool, ToolRegistry};
use futures_util::future::OptionFuture;
use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};
use std::future::Future;
use std::pin::Pin;

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
    // Where each call is first polled. Most calls of a batch finish without
    // waiting (a parse error, an unknown tool, a quick tool): their slot is
    // used again by the next call, so they cost no allocation. A call that
    // has to wait takes its slot (pinned, so it stays where it is) into the
    // set of running futures, which polls it again when it is woken.
    let mut slot = empty_slot();
    for (index, call) in calls.iter().enumerate() {
        let tool = registry.get(&call.name);
        if tool.is_some_and(RegisteredTool::exclusive) {
            while let Some(done) = running.next().await {
                record(&mut results, done);
            }
            results[index] = Some(one_call::run(call, registry, tool, ctx).await);
            continue;
        }
        while running.len() >= limit {
            if let Some(done) = running.next().await {
                record(&mut results, done);
            }
        }
        slot.set(OptionFuture::from(Some(numbered(
            index, call, registry, tool, ctx,
        ))));
        match slot.as_mut().now_or_never() {
            Some(done) => record(&mut results, done),
            None => running.push(std::mem::replace(&mut slot, empty_slot())),
        }
    }
    while let Some(done) = running.next().await {
        record(&mut results, done);
    }
    results
        .into_iter()
        .zip(calls)
        // Every index was filled above; this keeps the "one result per call"
        // promise even if that ever stopped being so.
        .map(|(result, call)| result.unwrap_or_else(|| ToolResultMessage::failure(call, "not run")))
        .collect()
}

/// One call of the batch, answering with its index. A named function, so
/// that every call's future has the same type and can use the same slot.
async fn numbered(
    index: usize,
    call: &ToolCall,
    registry: &ToolRegistry,
    tool: Option<&RegisteredTool>,
    ctx: &CallContext,
) -> (usize, ToolResultMessage) {
    (index, one_call::run(call, registry, tool, ctx).await)
}

fn empty_slot<F: Future>() -> Pin<Box<OptionFuture<F>>> {
    Box::pin(OptionFuture::from(None))
}

/// Files a finished call's result under its index (a slot always holds a
/// call when polled, so `done` is always `Some`).
fn record(results: &mut [Option<ToolResultMessage>], done: Option<(usize, ToolResultMessage)>) {
    if let Some((index, result)) = done {
        results[index] = Some(result);
    }
}
