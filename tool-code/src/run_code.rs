//! The `run_code` tool: one script, its calls run by the executor as calls
//! of their own, and what it printed and returned given back, bounded.
//!
//! A run is a sequence of named steps: [`RunCode::execute`] starts the
//! script's thread, [`serve`] answers its calls until it ends, and
//! [`report`] writes what the model reads.

use crate::engine::{self, EngineLimits, Finished, Limit, Outcome, Request, Settled};
use crate::journal::{Answer, Entry, Journal, Made, Replay, Replayed};
use crate::{CodeLimits, declarations};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tokio::sync::mpsc;
use tool_core::approval::{ApprovalRequest, InnerDecision};
use tool_core::{
    RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry,
    ToolResultMessage, execute_tool_call,
};

/// The arguments of `run_code`.
#[derive(ToolParams, Debug)]
pub struct RunCodeArgs {
    /// The body of an async JavaScript function: call tools with
    /// `await tools.<name>({...})`, print with `console.log`, and `return`
    /// what the answer needs. Only what it prints and returns is shown.
    pub code: String,
}

/// What a run tells the program around the model, beside the text.
#[derive(Debug, serde::Serialize)]
pub struct RunCodeDetails {
    /// How many tool calls the script made.
    pub calls: usize,
    /// What the script returned, as JSON (absent for `undefined`, or when
    /// it did not end well).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<Value>,
}

/// The built-in tool that runs a script over a registry's tools; see the
/// [crate docs](crate).
pub struct RunCode {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) tools: Arc<ToolRegistry>,
    pub(crate) limits: CodeLimits,
}

impl std::fmt::Debug for RunCode {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.debug_struct("RunCode")
            .field("name", &self.name)
            .field("tools", &self.tools.len())
            .field("limits", &self.limits)
            .finish()
    }
}

impl RunCode {
    pub(crate) fn new(name: String, tools: Arc<ToolRegistry>, limits: CodeLimits) -> Self {
        let description = describe(&tools, &limits);
        RunCode {
            name,
            description,
            tools,
            limits,
        }
    }
}

/// The description the model reads: what the tool is for, the limits, and
/// the typed API of every tool the script may call.
fn describe(tools: &ToolRegistry, limits: &CodeLimits) -> String {
    let definitions: Vec<_> = tools.definitions().to_vec();
    format!(
        "Run a JavaScript program that calls tools, instead of calling them one by one: \
         loops, filters and joins over many results stay in the program, and only what \
         it prints (console.log) and returns comes back to you. The code is the body of an \
         async function: `await` each call, run independent calls together with \
         `await Promise.all([...])`, and `return` the answer. A failed call throws an Error \
         with the tool's message. There is no clock, file system or network. Limits: {} s, \
         {} MiB of memory, {} tool calls, {} KiB of output.\n\nThe tools, as TypeScript:\n\n{}",
        limits.time.as_secs_f64(),
        limits.memory / (1024 * 1024),
        limits.calls,
        limits.output / 1024,
        declarations::declarations(&definitions),
    )
}

impl Tool for RunCode {
    type Params = RunCodeArgs;
    type Details = RunCodeDetails;

    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn runs_tools(&self) -> bool {
        true
    }

    async fn execute(
        &self,
        params: RunCodeArgs,
        ctx: ToolContext,
    ) -> Result<ToolOutput<RunCodeDetails>, ToolError> {
        let options = inner_options(&ctx);
        let replay = match ctx.resumed() {
            Some(resumed) => match Journal::read(&resumed.state) {
                Ok(journal) => Some(Replay::new(journal, resumed.decision.clone())),
                Err(problem) => return Err(format!("this run cannot be resumed: {problem}").into()),
            },
            None => None,
        };
        let names: Vec<String> = self
            .tools
            .iter()
            .filter(|tool| options.is_enabled(tool.name()))
            .map(|tool| tool.name().to_owned())
            .collect();
        let (requests, incoming) = mpsc::unbounded_channel();
        let (answers, answered) = std::sync::mpsc::channel();
        let abort = Arc::new(AtomicBool::new(false));
        let limits = EngineLimits {
            memory: self.limits.memory,
            stack: self.limits.stack,
            output: self.limits.output,
            deadline: Instant::now() + self.limits.time,
        };
        let script = params.code;
        let stop = Arc::clone(&abort);
        let thread = std::thread::Builder::new()
            .name("tool-code".to_owned())
            .spawn(move || {
                let finished = engine::run(&script, &names, limits, &requests, &answered, &stop);
                let _ = requests.send(Request::Done(finished));
            })
            .map_err(|error| format!("the script's thread did not start: {error}"))?;
        let mut served = Serve {
            tools: &self.tools,
            options: &options,
            outer_id: &ctx.call_id,
            limits: &self.limits,
            abort: &abort,
            answers: Some(answers),
            calls: 0,
            refused: None,
            ctx: &ctx,
            made: Vec::new(),
            delivered: Vec::new(),
            waiting: None,
            replay,
            diverged: None,
        };
        let finished = served.serve(incoming).await;
        // The thread has ended (it sent its outcome), or was told to.
        abort.store(true, Ordering::Relaxed);
        drop(thread);
        if let Some(why) = served.diverged {
            let details = RunCodeDetails {
                calls: served.calls,
                returned: None,
            };
            return Ok(ToolOutput::text(why).with_details(details).into_error());
        }
        if served.refused.is_none()
            && let Some((request, waiting)) = served.waiting.take()
        {
            let journal = served.journal(waiting);
            let state = serde_json::to_value(&journal)
                .map_err(|error| format!("the run's journal did not serialize: {error}"))?;
            return Err(ctx.suspend(request, state));
        }
        Ok(report(finished, served.calls, served.refused, &self.limits))
    }
}

/// The options of the script's calls: the caller's, its signal the
/// `run_code` call's own, so cancelling the run cancels them.
fn inner_options(ctx: &ToolContext) -> RunOptions {
    let options = ctx.run_options().cloned().unwrap_or_default();
    match &ctx.signal {
        Some(signal) => options.with_signal(signal.clone()),
        None => options,
    }
}

/// The host side of one run.
struct Serve<'a> {
    tools: &'a Arc<ToolRegistry>,
    options: &'a RunOptions,
    outer_id: &'a str,
    limits: &'a CodeLimits,
    abort: &'a Arc<AtomicBool>,
    /// The script's inbox; dropped to wake a script that waits for an
    /// answer when the host ends it.
    answers: Option<std::sync::mpsc::Sender<Settled>>,
    calls: usize,
    /// Why the host ended the script, when it did.
    refused: Option<String>,
    ctx: &'a ToolContext,
    /// The calls the script made (call `n` at `n - 1`), with their
    /// answers once they came.
    made: Vec<(Made, Option<Answer>)>,
    /// The calls whose answers reached the script, in the order they did.
    delivered: Vec<u32>,
    /// The call that waits for a person's approval, which stopped the
    /// script: its request, and the call as the journal keeps it.
    waiting: Option<(ApprovalRequest, Made)>,
    /// What a resumed run replays.
    replay: Option<Replay>,
    /// Why a resumed run was refused: it did not replay its journal.
    diverged: Option<String>,
}

/// An inner call's answer, for the script's call `ticket`.
type Answering = BoxFuture<'static, (u32, Answer)>;

impl Serve<'_> {
    /// Answers the script's calls, each through the executor, concurrently,
    /// until it ends; ends it when the call is cancelled or the calls run
    /// out, or when a call waits for a person's approval (the calls
    /// running then finish, for the journal). Returns how it ended.
    async fn serve(&mut self, mut incoming: mpsc::UnboundedReceiver<Request>) -> Finished {
        let mut running: FuturesUnordered<Answering> = FuturesUnordered::new();
        let finished = loop {
            tokio::select! {
                request = incoming.recv() => match request {
                    Some(Request::Call { ticket, tool, arguments }) => {
                        if let Some(answering) = self.start(ticket, tool, arguments) {
                            running.push(answering);
                        }
                        self.give_recorded();
                    }
                    Some(Request::Done(finished)) => break finished,
                    // The thread ended without a word: it cannot, but the
                    // run still answers.
                    None => break Finished {
                        outcome: Outcome::Stopped(Limit::Aborted),
                        printed: String::new(),
                        cut: false,
                    },
                },
                Some((ticket, answer)) = running.next(), if !running.is_empty() => {
                    self.answered(ticket, answer);
                }
                () = self.ctx.cancelled(), if self.refused.is_none() => {
                    self.end("the call was cancelled".to_owned());
                }
            }
        };
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
        // A run that waits for a person keeps the answers of the calls it
        // started: they ran, and must not run again.
        if self.waiting.is_some() && self.diverged.is_none() {
            while self.refused.is_none() && !running.is_empty() {
                tokio::select! {
                    Some((ticket, answer)) = running.next() => self.answered(ticket, answer),
                    () = self.ctx.cancelled() => self.end("the call was cancelled".to_owned()),
                }
            }
        }
        finished
    }

    /// The script's call `ticket`: replayed, refused, started, or set
    /// aside for a person's approval (which stops the script). The
    /// answer to come, when it is started.
    fn start(&mut self, ticket: u32, tool: String, arguments: String) -> Option<Answering> {
        if self.refused.is_some() || self.waiting.is_some() || self.diverged.is_some() {
            // The script is ending: nothing more runs.
            return None;
        }
        let parsed: Result<Value, _> = serde_json::from_str(&arguments);
        let made = Made::new(
            &tool,
            parsed.as_ref().unwrap_or(&Value::String(arguments.clone())),
        );
        let replayed = match &mut self.replay {
            Some(replay) => replay.check(ticket, &made),
            None => Replayed::Past,
        };
        if let Replayed::Diverged(why) = replayed {
            self.diverged = Some(why);
            self.end("it did not make the calls it made before".to_owned());
            return None;
        }
        if let Err(refused) = self.admit() {
            self.end(refused);
            return None;
        }
        let id = format!("{}.{}", self.outer_id, ticket + 1);
        match replayed {
            Replayed::Recorded => {
                self.made.push((made, None));
                None
            }
            Replayed::Decided(decision) => {
                self.made.push((made, None));
                Some(self.decided(ticket, decision))
            }
            Replayed::Past | Replayed::Diverged(_) => {
                let arguments = match parsed {
                    Ok(arguments) => arguments,
                    Err(error) => {
                        self.made.push((made, None));
                        let answer = Err(format!("arguments are not JSON: {error}"));
                        return Some(async move { (ticket, answer) }.boxed());
                    }
                };
                let call = ToolCall::new(id, tool, arguments);
                if let Some(request) = self.ctx.would_suspend(&call, self.tools) {
                    // The script stops here; the run suspends once the
                    // calls before this one have answered.
                    self.waiting = Some((request, made));
                    self.abort.store(true, Ordering::Relaxed);
                    self.answers = None;
                    return None;
                }
                self.made.push((made, None));
                Some(self.call(ticket, call))
            }
        }
    }

    /// Gives the script the recorded answers it may have now (a resumed
    /// run's replay), in the order they first reached it.
    fn give_recorded(&mut self) {
        while let Some((ticket, answer)) = self.replay.as_mut().and_then(Replay::next_answer) {
            self.answered(ticket, answer);
        }
    }

    /// Files call `ticket`'s answer, and gives it to the script unless the
    /// script is ending.
    fn answered(&mut self, ticket: u32, answer: Answer) {
        if let Some((_, slot)) = self.made.get_mut(ticket as usize) {
            *slot = Some(answer.clone());
        }
        if let Some(answers) = &self.answers
            && answers.send(Settled { ticket, answer }).is_ok()
        {
            self.delivered.push(ticket);
        }
    }

    /// The call that waited for a person, as they decided: run (approved,
    /// it is not asked again), or answered (denied, or given a result).
    fn decided(&self, ticket: u32, decision: InnerDecision) -> Answering {
        match decision {
            InnerDecision::Run(call) => self.call(ticket, call),
            InnerDecision::Answered(result) => {
                let answer = answer_of(self.tools, &result);
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
    fn journal(&self, waiting: Made) -> Journal {
        let calls = self
            .made
            .iter()
            .map(|(call, answer)| Entry {
                call: call.clone(),
                answer: answer
                    .clone()
                    .unwrap_or_else(|| Err("this call did not answer".to_owned())),
            })
            .collect();
        Journal::new(calls, self.delivered.clone(), waiting)
    }

    /// Ends the script from here: the interrupt handler stops it at once,
    /// and a wait for an answer ends with the inbox.
    fn end(&mut self, why: String) {
        self.refused = Some(why);
        self.abort.store(true, Ordering::Relaxed);
        self.answers = None;
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
        let registry = Arc::clone(self.tools);
        let options = self.options.clone();
        async move {
            let result = execute_tool_call(&call, &registry, options).await;
            (ticket, answer_of(&registry, &result))
        }
        .boxed()
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

/// What the model reads of a run: what the script printed, then what it
/// returned, or why it did not end well, within the output limit.
fn report(
    finished: Finished,
    calls: usize,
    refused: Option<String>,
    limits: &CodeLimits,
) -> ToolOutput<RunCodeDetails> {
    let mut text = finished.printed;
    if finished.cut {
        text.push_str(&format!(
            "\n[output cut at {} bytes, this run's limit]\n",
            limits.output
        ));
    }
    let mut returned = None;
    let failure = match finished.outcome {
        Outcome::Returned(value) => {
            if let Some(value) = value {
                let shown = bounded(&value, limits.output);
                text.push_str(&format!("[returned] {shown}\n"));
                returned = serde_json::from_str(&value).ok();
            }
            None
        }
        Outcome::Threw(message) => Some(format!("the script threw: {}", bounded(&message, 2048))),
        Outcome::Stopped(limit) => Some(match (limit, refused) {
            (Limit::Aborted, Some(why)) => format!("the script was stopped: {why}"),
            (Limit::Aborted, None) => "the script was stopped".to_owned(),
            (Limit::Time, _) => format!(
                "the script ran past its time limit of {} s",
                limits.time.as_secs_f64()
            ),
            (Limit::Memory, _) => format!(
                "the script used more than its memory limit of {} MiB",
                limits.memory / (1024 * 1024)
            ),
            (Limit::Stack, _) => {
                "the script recursed too deep (stack overflow): use a loop".to_owned()
            }
            (Limit::Stuck, _) => "the script awaited something that never settles \
                                  (a promise no tool call resolves)"
                .to_owned(),
        }),
    };
    let details = RunCodeDetails { calls, returned };
    match failure {
        None => ToolOutput::text(text).with_details(details),
        Some(failure) => {
            let text = if text.is_empty() {
                format!("{failure} (after {calls} tool calls)")
            } else {
                format!("{failure} (after {calls} tool calls). It printed:\n{text}")
            };
            ToolOutput::text(text).with_details(details).into_error()
        }
    }
}

/// `text` cut to at most `limit` bytes, at a character boundary.
fn bounded(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}
