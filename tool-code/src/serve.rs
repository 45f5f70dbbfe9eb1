//! The host side of one run, on the script's thread: each call the script
//! makes is replayed, refused, set aside for a person's approval, or run
//! through the executor, and its answer filed for the journal and given to
//! the script.
//!
//! The calls' futures are polled on this thread by the engine's loop, so a
//! call that answers at once reaches the script without a thread hop; the
//! thread enters the caller's tokio runtime and the run's span, so timers,
//! sockets and spawned tasks work as they would in the caller's task, and
//! each call's span is a child of the run's.

use crate::CodeLimits;
use crate::engine::{Finished, Host, Limit, Outcome, Settled, thread_waker};
use crate::journal::{Answer, Entry, Journal, Made, Replay, Replayed};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;
use tool_core::approval::{ApprovalRequest, InnerDecision};
use tool_core::{
    RunOptions, ToolCall, ToolContext, ToolRegistry, ToolResultMessage, execute_tool_call,
};

/// An inner call's answer, for the script's call `ticket`.
type Answering = BoxFuture<'static, (u32, Answer)>;

/// A call the script made, as it made it: its digest for the journal
/// ([`Made`]) is taken only when a journal is written, as few runs
/// suspend.
struct Call {
    tool: String,
    /// The arguments as the script gave them, JSON text.
    arguments: String,
}

impl Call {
    fn made(&self) -> Made {
        match serde_json::from_str::<Value>(&self.arguments) {
            Ok(arguments) => Made::new(&self.tool, &arguments),
            Err(_) => Made::new(&self.tool, &Value::String(self.arguments.clone())),
        }
    }
}

/// The host side of one run.
pub(crate) struct Serve {
    tools: Arc<ToolRegistry>,
    /// The options of the script's calls: the caller's, with the run's
    /// signal; shared by the calls in flight, not cloned for each.
    options: Arc<RunOptions>,
    limits: CodeLimits,
    abort: Arc<AtomicBool>,
    ctx: ToolContext,
    /// Whether answers still go to the script: not once the host ended it.
    listening: bool,
    /// Whether the calls are recorded for a journal: only when the run can
    /// suspend (most cannot, and a call then costs no copy of its answer).
    journaling: bool,
    /// The calls in flight.
    running: FuturesUnordered<Answering>,
    /// How many calls the script made.
    pub(crate) calls: usize,
    /// Why the host ended the script, when it did.
    pub(crate) refused: Option<String>,
    /// The calls the script made (call `n` at `n - 1`), with their
    /// answers once they came; only when journaling.
    made: Vec<(Call, Option<Answer>)>,
    /// The calls whose answers reached the script, in the order they did.
    delivered: Vec<u32>,
    /// The call that waits for a person's approval, which stopped the
    /// script: its request, and the call as the journal keeps it.
    pub(crate) waiting: Option<(ApprovalRequest, Made)>,
    /// What a resumed run replays.
    replay: Option<Replay>,
    /// Why a resumed run was refused: it did not replay its journal.
    pub(crate) diverged: Option<String>,
}

impl Serve {
    pub(crate) fn new(
        tools: Arc<ToolRegistry>,
        options: RunOptions,
        limits: CodeLimits,
        abort: Arc<AtomicBool>,
        ctx: ToolContext,
        replay: Option<Replay>,
    ) -> Self {
        Serve {
            tools,
            options: Arc::new(options),
            limits,
            abort,
            journaling: ctx.can_suspend(),
            ctx,
            listening: true,
            running: FuturesUnordered::new(),
            calls: 0,
            refused: None,
            made: Vec::new(),
            delivered: Vec::new(),
            waiting: None,
            replay,
            diverged: None,
        }
    }

    /// After the script ended: why, when the host's side says more than
    /// the engine (a cancellation, a replay the script did not finish),
    /// and, for a run that waits for a person, the answers of the calls it
    /// started (they ran, and must not run again).
    pub(crate) fn settle(&mut self, finished: &Finished) {
        self.watch_cancellation();
        // A script that ended by itself (not stopped by a limit) before
        // making the call that waited did not replay its journal.
        let by_itself = matches!(
            finished.outcome,
            Outcome::Returned(_) | Outcome::Threw(_) | Outcome::Stopped(Limit::Stuck)
        );
        if self.diverged.is_none()
            && self.refused.is_none()
            && by_itself
            && let Some(unfinished) = self.replay.as_ref().and_then(Replay::unfinished)
        {
            self.diverged = Some(unfinished);
        }
        if self.waiting.is_some() && self.diverged.is_none() {
            self.finish_running();
        }
    }

    /// Polls the calls in flight to their ends, parked between wakes,
    /// unless the run is cancelled (the caller unparks this thread then).
    fn finish_running(&mut self) {
        let waker = thread_waker();
        let mut cx = std::task::Context::from_waker(&waker);
        while self.refused.is_none() {
            match self.running.poll_next_unpin(&mut cx) {
                Poll::Ready(Some((ticket, answer))) => self.answered(ticket, answer, None),
                Poll::Ready(None) => return,
                Poll::Pending => {
                    self.watch_cancellation();
                    if self.refused.is_none() {
                        std::thread::park();
                    }
                }
            }
        }
    }

    /// Ends the script when its call was cancelled.
    fn watch_cancellation(&mut self) {
        if self.refused.is_none() && self.ctx.is_cancelled() {
            self.end("the call was cancelled".to_owned());
        }
    }

    /// Files call `made` for the journal, when the run keeps one.
    fn record(&mut self, made: Option<Call>) {
        if let Some(made) = made {
            self.made.push((made, None));
        }
    }

    /// Gives the script the recorded answers it may have now (a resumed
    /// run's replay), in the order they first reached it.
    fn give_recorded(&mut self, ready: &mut Vec<Settled>) {
        while let Some((ticket, answer)) = self.replay.as_mut().and_then(Replay::next_answer) {
            self.answered(ticket, answer, Some(ready));
        }
    }

    /// Files call `ticket`'s answer, and gives it to the script (into
    /// `ready`) unless the script is ending.
    fn answered(&mut self, ticket: u32, answer: Answer, ready: Option<&mut Vec<Settled>>) {
        let Some(ready) = ready.filter(|_| self.listening) else {
            if let Some((_, slot)) = self.made.get_mut(ticket as usize) {
                *slot = Some(answer);
            }
            return;
        };
        if let Some((_, slot)) = self.made.get_mut(ticket as usize) {
            *slot = Some(answer.clone());
        }
        if self.journaling {
            self.delivered.push(ticket);
        }
        ready.push(Settled { ticket, answer });
    }

    /// The call that waited for a person, as they decided: run (approved,
    /// it is not asked again), or answered (denied, or given a result).
    fn decided(&self, ticket: u32, decision: InnerDecision) -> Answering {
        match decision {
            InnerDecision::Run(call) => self.call(ticket, call),
            InnerDecision::Answered(result) => {
                let answer = answer_of(&self.tools, &result);
                async move { (ticket, answer) }.boxed()
            }
            // A decision of a later version: nothing runs unasked.
            _ => async move {
                (
                    ticket,
                    Err("this call got no decision this version knows".to_owned()),
                )
            }
            .boxed(),
        }
    }

    /// The journal to suspend with: the calls made before the one that
    /// waits, each answered.
    pub(crate) fn journal(&self, waiting: Made) -> Journal {
        let calls = self
            .made
            .iter()
            .map(|(call, answer)| Entry {
                call: call.made(),
                answer: answer
                    .clone()
                    .unwrap_or_else(|| Err("this call did not answer".to_owned())),
            })
            .collect();
        Journal::new(calls, self.delivered.clone(), waiting)
    }

    /// Ends the script from here: the interrupt handler stops it at once,
    /// and the engine's loop sees the flag before it waits again.
    fn end(&mut self, why: String) {
        self.refused = Some(why);
        self.abort.store(true, Ordering::Relaxed);
        self.listening = false;
    }

    /// Whether one more call may start.
    fn admit(&mut self) -> Result<(), String> {
        if self.calls >= self.limits.calls {
            return Err(format!(
                "the script made more than {} tool calls, this run's limit",
                self.limits.calls
            ));
        }
        self.calls += 1;
        Ok(())
    }

    /// One call of the script, through the executor: the caller's hooks,
    /// scopes, repair and budget apply, and its span is a child of the
    /// run's.
    fn call(&self, ticket: u32, call: ToolCall) -> Answering {
        let registry = Arc::clone(&self.tools);
        let options = Arc::clone(&self.options);
        async move {
            let result = execute_tool_call(&call, &registry, &*options).await;
            (ticket, answer_of(&registry, &result))
        }
        .boxed()
    }

    /// The answer call `ticket` gets when it cannot run at all.
    fn answer_now(&mut self, ticket: u32, answer: Answer) {
        self.running.push(async move { (ticket, answer) }.boxed());
    }
}

impl Host for Serve {
    /// The script's call `ticket`: replayed, refused, started, or set
    /// aside for a person's approval (which stops the script).
    fn start(&mut self, ticket: u32, tool: String, arguments: String) {
        if self.refused.is_some() || self.waiting.is_some() || self.diverged.is_some() {
            // The script is ending: nothing more runs.
            return;
        }
        let parsed: Result<Value, _> = serde_json::from_str(&arguments);
        let made = self.journaling.then(|| Call {
            tool: tool.clone(),
            arguments,
        });
        // A run that replays is a resumed one, which journals.
        let replayed = match (&mut self.replay, &made) {
            (Some(replay), Some(made)) => replay.check(ticket, &made.made()),
            _ => Replayed::Past,
        };
        if let Replayed::Diverged(why) = replayed {
            self.diverged = Some(why);
            self.end("it did not make the calls it made before".to_owned());
            return;
        }
        if let Err(refused) = self.admit() {
            self.end(refused);
            return;
        }
        match replayed {
            Replayed::Recorded => self.record(made),
            Replayed::Decided(decision) => {
                self.record(made);
                let deciding = self.decided(ticket, decision);
                self.running.push(deciding);
            }
            Replayed::Past | Replayed::Diverged(_) => {
                let arguments = match parsed {
                    Ok(arguments) => arguments,
                    Err(error) => {
                        self.record(made);
                        return self
                            .answer_now(ticket, Err(format!("arguments are not JSON: {error}")));
                    }
                };
                let id = format!("{}.{}", self.ctx.call_id, ticket + 1);
                let call = ToolCall::new(id, tool, arguments);
                if let Some(request) = self.ctx.would_suspend(&call, &self.tools) {
                    // The script stops here; the run suspends once the
                    // calls before this one have answered.
                    let waiting = match &made {
                        Some(made) => made.made(),
                        None => Made::new(&call.name, &call.arguments),
                    };
                    self.waiting = Some((request, waiting));
                    self.abort.store(true, Ordering::Relaxed);
                    self.listening = false;
                    return;
                }
                self.record(made);
                let calling = self.call(ticket, call);
                self.running.push(calling);
            }
        }
    }

    fn poll_answers(&mut self, cx: &mut std::task::Context<'_>, ready: &mut Vec<Settled>) {
        self.watch_cancellation();
        self.give_recorded(ready);
        while let Poll::Ready(Some((ticket, answer))) = self.running.poll_next_unpin(cx) {
            self.answered(ticket, answer, Some(ready));
        }
    }
}

/// A result as the script receives it: a tool with an output schema gives
/// its structured value, any other its text; a failure throws its text.
fn answer_of(registry: &ToolRegistry, result: &ToolResultMessage) -> Result<String, String> {
    let text: Vec<&str> = result
        .content
        .iter()
        .filter_map(|item| item.as_text())
        .collect();
    let text = text.join("\n");
    if result.is_error {
        return Err(text);
    }
    let structured = registry
        .get(&result.tool_name)
        .is_some_and(|tool| tool.definition().output_schema.is_some());
    let value = match (&result.details, structured) {
        (Some(details), true) => details.clone(),
        _ => Value::String(text),
    };
    Ok(value.to_string())
}
