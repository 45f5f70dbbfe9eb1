//! The `run_code` tool: one script, its calls run by the executor as calls
//! of their own, and what it printed and returned given back, bounded.
//!
//! A run is a sequence of named steps: [`RunCode::execute`] reads what a
//! resumed run replays, [`spawn`] starts the script's thread, where
//! [`Serve`] answers its calls until it ends, and [`report`] writes what
//! the model reads.

use crate::engine::{self, EngineLimits, Finished, Limit, Outcome};
use crate::journal::{Journal, Replay};
use crate::serve::Serve;
use crate::{CodeLimits, declarations};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tokio::sync::oneshot;
use tool_core::{RunOptions, Tool, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry};

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
        let replay = match ctx.resumed() {
            Some(resumed) => match Journal::read(&resumed.state) {
                Ok(journal) => Some(Replay::new(journal, resumed.decision.clone())),
                Err(problem) => return Err(format!("this run cannot be resumed: {problem}").into()),
            },
            None => None,
        };
        let (finished, served) = self.spawn(params.code, replay, &ctx)?.wait(&ctx).await?;
        if let Some(why) = served.diverged {
            let details = RunCodeDetails {
                calls: served.calls,
                returned: None,
            };
            return Ok(ToolOutput::text(why).with_details(details).into_error());
        }
        if served.refused.is_none()
            && let Some((request, waiting)) = served.waiting.as_ref()
        {
            let journal = served.journal(waiting.clone());
            let state = serde_json::to_value(&journal)
                .map_err(|error| format!("the run's journal did not serialize: {error}"))?;
            return Err(ctx.suspend(request.clone(), state));
        }
        Ok(report(finished, served.calls, served.refused, &self.limits))
    }
}

impl RunCode {
    /// Starts `script` on a thread of its own, in the caller's runtime,
    /// subscriber and span, with the tools the call's options enable.
    fn spawn(
        &self,
        script: String,
        replay: Option<Replay>,
        ctx: &ToolContext,
    ) -> Result<Running, ToolError> {
        let options = inner_options(ctx);
        let names: Vec<String> = self
            .tools
            .iter()
            .filter(|tool| options.is_enabled(tool.name()))
            .map(|tool| tool.name().to_owned())
            .collect();
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "run_code runs only inside a tokio runtime")?;
        // The caller's subscriber may be this thread's only (a scoped
        // default): it goes with the span.
        let dispatch = tracing::dispatcher::get_default(tracing::Dispatch::clone);
        let span = tracing::Span::current();
        let abort = Arc::new(AtomicBool::new(false));
        let limits = EngineLimits {
            memory: self.limits.memory,
            stack: self.limits.stack,
            output: self.limits.output,
            deadline: Instant::now() + self.limits.time,
        };
        let mut serve = Serve::new(
            Arc::clone(&self.tools),
            options,
            self.limits,
            Arc::clone(&abort),
            ctx.clone(),
            replay,
        );
        let (done, ended) = oneshot::channel();
        let stop = Arc::clone(&abort);
        let thread = std::thread::Builder::new()
            .name("tool-code".to_owned())
            .spawn(move || {
                let _runtime = runtime.enter();
                let _dispatch = tracing::dispatcher::set_default(&dispatch);
                let _span = span.enter();
                let finished = engine::run(&script, &names, limits, &mut serve, &stop);
                serve.settle(&finished);
                let _ = done.send((finished, serve));
            })
            .map_err(|error| format!("the script's thread did not start: {error}"))?;
        Ok(Running {
            thread: thread.thread().clone(),
            abort,
            ended,
        })
    }
}

/// A script running on its thread.
struct Running {
    thread: std::thread::Thread,
    abort: Arc<AtomicBool>,
    ended: oneshot::Receiver<(Finished, Serve)>,
}

impl Running {
    /// Waits for the script's end; when the call is cancelled first, stops
    /// it (the interrupt handler ends a busy script, the unpark a waiting
    /// one) and waits for that end.
    async fn wait(mut self, ctx: &ToolContext) -> Result<(Finished, Serve), ToolError> {
        let ended = tokio::select! {
            ended = &mut self.ended => ended,
            () = ctx.cancelled() => {
                self.stop();
                (&mut self.ended).await
            }
        };
        ended.map_err(|_| "the script's thread ended without an answer".into())
    }

    fn stop(&self) {
        self.abort.store(true, Ordering::Relaxed);
        self.thread.unpark();
    }
}

/// A run whose caller stopped waiting (its future dropped: a timeout, a
/// lost client) is stopped, with the calls it has in flight: nothing it
/// started goes on for no one.
impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
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
