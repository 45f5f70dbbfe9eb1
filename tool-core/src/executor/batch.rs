//! A parallel batch: calls run concurrently on the caller's task, at most
//! `max_concurrency` at once, exclusive tools alone, results in call order.

use super::one_call;
use super::run_options::RunOptions;
use crate::model::{ToolCall, ToolResultMessage};
use crate::registry::{RegisteredTool, ToolRegistry};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

pub(crate) async fn run_parallel(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: &RunOptions,
) -> Vec<ToolResultMessage> {
    let limit = ctx.max_concurrency.map_or(usize::MAX, |limit| limit.get());
    let mut results = InOrder::with_capacity(calls.len());
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
            while let Some((done, result)) = running.next().await {
                results.file(done, result);
            }
            results.file(index, Some(one_call::run(call, registry, tool, ctx).await));
            continue;
        }
        while running.len() >= limit {
            if let Some((done, result)) = running.next().await {
                results.file(done, result);
            }
        }
        slot.set(Some(one_call::run(call, registry, tool, ctx)));
        match poll_once(slot.as_mut()) {
            Poll::Ready(result) => results.file(index, result),
            Poll::Pending => running.push(Numbered {
                index,
                slot: std::mem::replace(&mut slot, empty_slot()),
            }),
        }
    }
    while let Some((done, result)) = running.next().await {
        results.file(done, result);
    }
    results.finish(calls)
}

/// Where a call's future is polled, boxed once and used again while calls
/// finish at once (a named `async fn`'s future: every call's is one type).
type Slot<F> = Pin<Box<Option<F>>>;

fn empty_slot<F>() -> Slot<F> {
    Box::pin(None)
}

/// Polls the call in `slot` once, with a waker that does nothing: a call
/// that is not done is pushed into the running set, which polls it again
/// at once with its own waker (so nothing it waits on keeps this one).
/// An empty slot (never: it was filled just before) is done with no result,
/// and the batch answers that call "not run" instead of waiting forever.
fn poll_once<F: Future>(slot: Pin<&mut Option<F>>) -> Poll<Option<F::Output>> {
    match slot.as_pin_mut() {
        Some(call) => call.poll(&mut Context::from_waker(Waker::noop())).map(Some),
        None => Poll::Ready(None),
    }
}

/// A call that had to wait, with its place in the batch.
struct Numbered<F> {
    index: usize,
    slot: Slot<F>,
}

impl<F: Future> Future for Numbered<F> {
    type Output = (usize, Option<F::Output>);

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        match this.slot.as_mut().as_pin_mut() {
            Some(call) => call.poll(cx).map(|result| (this.index, Some(result))),
            // Never (only a filled slot is pushed); as in `poll_once`.
            None => Poll::Ready((this.index, None)),
        }
    }
}

/// The results, filed by call index. Those that come in call order (all of
/// them, when no call waits) go straight into the list that is returned;
/// one that finishes before an earlier call waits aside until its turn.
struct InOrder {
    done: Vec<ToolResultMessage>,
    early: BTreeMap<usize, ToolResultMessage>,
}

impl InOrder {
    fn with_capacity(calls: usize) -> Self {
        InOrder {
            done: Vec::with_capacity(calls),
            early: BTreeMap::new(),
        }
    }

    /// Files the result of call `index`; `None` (no result) leaves a gap
    /// that [`finish`](Self::finish) answers.
    fn file(&mut self, index: usize, result: Option<ToolResultMessage>) {
        let Some(result) = result else { return };
        if index != self.done.len() {
            self.early.insert(index, result);
            return;
        }
        self.done.push(result);
        while let Some(next) = self.early.remove(&self.done.len()) {
            self.done.push(next);
        }
    }

    /// One result per call, in call order. Every index was filed; a gap
    /// would still get a paired failure rather than shift the others.
    fn finish(mut self, calls: &[ToolCall]) -> Vec<ToolResultMessage> {
        for call in &calls[self.done.len().min(calls.len())..] {
            let index = self.done.len();
            let result = self
                .early
                .remove(&index)
                .unwrap_or_else(|| ToolResultMessage::failure(call, "not run"));
            self.done.push(result);
        }
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::InOrder;
    use crate::model::{ToolCall, ToolResultMessage};
    use serde_json::json;

    fn calls(count: usize) -> Vec<ToolCall> {
        (0..count)
            .map(|index| ToolCall::new(format!("call-{index}"), "echo", json!({})))
            .collect()
    }

    fn answered(call: &ToolCall) -> Option<ToolResultMessage> {
        Some(ToolResultMessage::failure(call, "answered"))
    }

    fn texts(results: &[ToolResultMessage]) -> Vec<(String, String)> {
        results
            .iter()
            .map(|result| {
                let text = result.content[0].as_text().unwrap_or_default();
                (result.tool_call_id.clone(), text.to_owned())
            })
            .collect()
    }

    #[test]
    fn results_out_of_order_come_back_in_call_order() {
        let calls = calls(4);
        let mut results = InOrder::with_capacity(calls.len());
        for index in [2, 0, 3, 1] {
            results.file(index, answered(&calls[index]));
        }
        let ids: Vec<String> = texts(&results.finish(&calls))
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        assert_eq!(ids, ["call-0", "call-1", "call-2", "call-3"]);
    }

    #[test]
    fn a_call_with_no_result_is_answered_not_run_in_its_place() {
        let calls = calls(3);
        let mut results = InOrder::with_capacity(calls.len());
        results.file(0, answered(&calls[0]));
        results.file(1, None);
        results.file(2, answered(&calls[2]));
        let got = texts(&results.finish(&calls));
        assert_eq!(
            got[0],
            ("call-0".into(), "Tool echo failed: answered".into())
        );
        assert_eq!(
            got[1],
            ("call-1".into(), "Tool echo failed: not run".into())
        );
        assert_eq!(
            got[2],
            ("call-2".into(), "Tool echo failed: answered".into())
        );
    }
}
