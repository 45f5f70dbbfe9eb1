//! One script on a thread of its own: a QuickJS runtime with the run's
//! limits, whose tool calls go to a [`Host`] on the same thread, and an
//! event loop that runs the script's jobs, then the calls' futures, until
//! its main promise settles.
//!
//! The runtime is not `Send`, and a script must never hold the caller's
//! task: the thread owns it from start to end. The calls' futures are
//! polled here too, with a waker that unparks this thread: a call that
//! answers at once (most do) costs no thread hop, and one that waits is
//! woken by the runtime it waits on. Nothing of the host is reachable from
//! the script but the three functions installed here (`__start`, `__print`,
//! `__done`); the prelude hides the first two behind `tools` and `console`.

use rquickjs::{Context, Ctx, Exception, Function, Object, Persistent, Promise, Runtime, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Wake, Waker};
use std::thread::Thread;
use std::time::Instant;

/// The other side of a script's calls, on the script's thread.
pub(crate) trait Host {
    /// The script made call `ticket`: `tool` with `arguments` (JSON text).
    fn start(&mut self, ticket: u32, tool: String, arguments: String);

    /// Moves the calls in flight on, with `cx`'s waker, and puts the
    /// answers the script may have now into `ready`.
    fn poll_answers(&mut self, cx: &mut std::task::Context<'_>, ready: &mut Vec<Settled>);
}

/// A waker that unparks the thread that made it: the script's thread
/// sleeps in [`std::thread::park`] while its calls wait, and any wake
/// (a timer, a socket, another thread's answer) sends it back to polling.
pub(crate) fn thread_waker() -> Waker {
    struct Unpark(Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.unpark();
        }
    }
    Waker::from(Arc::new(Unpark(std::thread::current())))
}

/// A tool call's answer, for the script.
#[derive(Debug)]
pub(crate) struct Settled {
    pub ticket: u32,
    /// `Ok(JSON text)` resolves the call's promise, `Err(message)` rejects
    /// it with an `Error`.
    pub answer: Result<String, String>,
}

/// How a script ended.
#[derive(Debug)]
pub(crate) struct Finished {
    pub outcome: Outcome,
    pub printed: String,
    /// Whether printing stopped at the output limit.
    pub cut: bool,
}

/// The script's end.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// It returned this value (JSON text; `None` for `undefined`).
    Returned(Option<String>),
    /// It threw, or failed to compile: the message, as JavaScript says it.
    Threw(String),
    /// A limit ended it.
    Stopped(Limit),
}

/// Which limit ended a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    Time,
    Memory,
    Stack,
    /// It awaited something no call will ever settle.
    Stuck,
    /// The host ended it: the call was cancelled, or another limit (the
    /// calls per run) was reached there.
    Aborted,
}

/// The limits the engine enforces itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineLimits {
    pub memory: usize,
    pub stack: usize,
    pub output: usize,
    pub deadline: Instant,
}

/// What the script sees besides its own code: `tools.<name>(args)` as
/// async functions, `console.log` (and `info`, `warn`, `error`), and no
/// clock: `Date` throws (a script's result must not depend on when it ran,
/// so a replay gives the same calls), and `Math.random` is a fixed
/// sequence for the same reason.
const PRELUDE: &str = r#"
"use strict";
(() => {
  const start = globalThis.__start, print = globalThis.__print;
  // `__start` returns the call's promise, settled from the host's side.
  const call = (name) => (args) => {
    let text;
    try {
      text = JSON.stringify(args === undefined ? {} : args);
    } catch (error) {
      return Promise.reject(error);
    }
    return start(name, text === undefined ? "{}" : text);
  };
  const tools = {};
  for (const name of JSON.parse(globalThis.__names)) tools[name] = call(name);
  globalThis.tools = Object.freeze(tools);
  const show = (value) => typeof value === "string" ? value : (() => {
    try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; }
    catch (_) { return String(value); }
  })();
  const log = (...values) => print(values.map(show).join(" "));
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  globalThis.Date = function Date() {
    throw new Error("there is no clock in code mode: pass times in as arguments, or ask a tool");
  };
  let seed = 0x2545f491;
  Math.random = () => {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  delete globalThis.performance;
  delete globalThis.__start; delete globalThis.__print; delete globalThis.__names;
})();
"#;

/// Runs `script` (the body of an async function: it may `await` and
/// `return`) to its end, within `limits`, with `names` as its tools. Every
/// call goes to `host`, which answers it. `abort` ends it from outside
/// (with an unpark of this thread when it waits). Never panics on what the
/// script does.
pub(crate) fn run(
    script: &str,
    names: &[String],
    limits: EngineLimits,
    host: &mut dyn Host,
    abort: &Arc<AtomicBool>,
) -> Finished {
    let output = Rc::new(RefCell::new(Output::new(limits.output)));
    let outcome = match start(script, names, limits, abort, &output) {
        Ok((runtime, context, state)) => {
            let outcome = drive(&runtime, &context, &state, limits, host, abort);
            state.borrow_mut().promised.clear();
            outcome
        }
        Err(outcome) => outcome,
    };
    let output = output.take();
    Finished {
        outcome,
        printed: output.text,
        cut: output.cut,
    }
}

/// What the script has printed, up to the limit.
#[derive(Default)]
struct Output {
    text: String,
    limit: usize,
    cut: bool,
}

impl Output {
    fn new(limit: usize) -> Self {
        Output {
            text: String::new(),
            limit,
            cut: false,
        }
    }

    fn line(&mut self, line: &str) {
        if self.cut {
            return;
        }
        let room = self.limit.saturating_sub(self.text.len());
        if line.len() + 1 > room {
            let mut end = room.min(line.len());
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            self.text.push_str(&line[..end]);
            self.cut = true;
            return;
        }
        self.text.push_str(line);
        self.text.push('\n');
    }
}

/// The script's state the host functions share.
#[derive(Default)]
struct State {
    next_ticket: u32,
    /// Calls started and not yet answered.
    outstanding: u32,
    /// Calls the script made since the host last took them.
    made: Vec<(u32, String, String)>,
    /// The functions that settle call `n`'s promise, at `n` until it is
    /// settled. They hold the context: cleared before it is dropped.
    promised: Vec<Option<Settle>>,
    /// Set by `__done`.
    ended: Option<Outcome>,
}

/// How a call's promise is settled: kept on the host's side, so an answer
/// reaches the script without a lookup of its own in JavaScript.
struct Settle {
    resolve: Persistent<Function<'static>>,
    reject: Persistent<Function<'static>>,
}

type Started = (Runtime, Context, Rc<RefCell<State>>);

fn start(
    script: &str,
    names: &[String],
    limits: EngineLimits,
    abort: &Arc<AtomicBool>,
    output: &Rc<RefCell<Output>>,
) -> Result<Started, Outcome> {
    let failed =
        |error: rquickjs::Error| Outcome::Threw(format!("the engine did not start: {error}"));
    let runtime = Runtime::new().map_err(failed)?;
    runtime.set_memory_limit(limits.memory);
    runtime.set_max_stack_size(limits.stack);
    let stop = Arc::clone(abort);
    let deadline = limits.deadline;
    runtime.set_interrupt_handler(Some(Box::new(move || {
        stop.load(Ordering::Relaxed) || Instant::now() >= deadline
    })));
    let context = Context::full(&runtime).map_err(failed)?;
    let state = Rc::new(RefCell::new(State::default()));
    let names = serde_json::to_string(names).unwrap_or_else(|_| "[]".to_owned());
    let installed = context.with(|ctx| {
        install(&ctx, &names, &state, output)?;
        ctx.eval::<(), _>(PRELUDE)?;
        // On the script's first line, so its line numbers are its own.
        let wrapped = format!(
            "(async () => {{{script}\n}})().then(\
             (value) => __done(true, value === undefined ? undefined : JSON.stringify(value)),\
             (error) => __done(false, (error && error.stack) ? String(error) + \"\\n\" + error.stack : String(error)));"
        );
        ctx.eval::<(), _>(wrapped)
    });
    match installed {
        Ok(()) => Ok((runtime, context, state)),
        Err(error) => {
            let outcome = context.with(|ctx| thrown(&ctx, error, limits, abort));
            state.borrow_mut().promised.clear();
            Err(outcome)
        }
    }
}

/// The host functions: `__start` (a tool call), `__print`, `__done`, and
/// the tools' names.
fn install<'js>(
    ctx: &Ctx<'js>,
    names: &str,
    state: &Rc<RefCell<State>>,
    output: &Rc<RefCell<Output>>,
) -> rquickjs::Result<()> {
    let globals: Object<'js> = ctx.globals();
    globals.set("__names", names)?;
    let started = Rc::clone(state);
    globals.set(
        "__start",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>,
                  tool: String,
                  arguments: String|
                  -> rquickjs::Result<Promise<'js>> {
                let (promise, resolve, reject) = ctx.promise()?;
                let mut state = started.borrow_mut();
                let ticket = state.next_ticket;
                state.next_ticket += 1;
                state.outstanding += 1;
                state.promised.push(Some(Settle {
                    resolve: Persistent::save(&ctx, resolve),
                    reject: Persistent::save(&ctx, reject),
                }));
                // Given to the host once the script's jobs have run, so the
                // calls of a `Promise.all` start together.
                state.made.push((ticket, tool, arguments));
                Ok(promise)
            },
        )?,
    )?;
    let printed = Rc::clone(output);
    globals.set(
        "__print",
        Function::new(ctx.clone(), move |line: String| {
            printed.borrow_mut().line(&line);
        })?,
    )?;
    let ended = Rc::clone(state);
    globals.set(
        "__done",
        Function::new(ctx.clone(), move |ok: bool, text: Option<String>| {
            ended.borrow_mut().ended = Some(if ok {
                Outcome::Returned(text)
            } else {
                Outcome::Threw(text.unwrap_or_default())
            });
        })?,
    )?;
    Ok(())
}

/// The event loop: the script's jobs, then its new calls to the host, then
/// the answers ready, until it ends; parked, waiting for a wake, while
/// none is.
fn drive(
    runtime: &Runtime,
    context: &Context,
    state: &Rc<RefCell<State>>,
    limits: EngineLimits,
    host: &mut dyn Host,
    abort: &Arc<AtomicBool>,
) -> Outcome {
    let waker = thread_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    let mut ready = Vec::new();
    loop {
        if let Err(outcome) = run_jobs(runtime, context, limits, abort) {
            return outcome;
        }
        let made = std::mem::take(&mut state.borrow_mut().made);
        for (ticket, tool, arguments) in made {
            host.start(ticket, tool, arguments);
        }
        if let Some(outcome) = state.borrow_mut().ended.take() {
            return match outcome {
                Outcome::Threw(message) => limit_or_thrown(&message, limits, abort),
                other => other,
            };
        }
        host.poll_answers(&mut cx, &mut ready);
        if abort.load(Ordering::Relaxed) {
            return Outcome::Stopped(Limit::Aborted);
        }
        if ready.is_empty() {
            if state.borrow().outstanding == 0 {
                return Outcome::Stopped(Limit::Stuck);
            }
            let now = Instant::now();
            if now >= limits.deadline {
                return Outcome::Stopped(Limit::Time);
            }
            std::thread::park_timeout(limits.deadline - now);
            continue;
        }
        state.borrow_mut().outstanding -= ready.len() as u32;
        if let Err(error) = deliver(context, state, &mut ready) {
            return context.with(|ctx| thrown(&ctx, error, limits, abort));
        }
    }
}

/// Runs the script's pending jobs until none is left.
fn run_jobs(
    runtime: &Runtime,
    context: &Context,
    limits: EngineLimits,
    abort: &Arc<AtomicBool>,
) -> Result<(), Outcome> {
    loop {
        match runtime.execute_pending_job() {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(_) => {
                // An exception out of a job: the script's own errors end
                // in its promise, so this is the interrupt or memory.
                return Err(context.with(|ctx| {
                    let error = ctx.catch();
                    limit_or_thrown(&describe(&ctx, error), limits, abort)
                }));
            }
        }
    }
}

/// Settles the calls' promises with their answers, in order: an answer's
/// JSON resolves it, a failure rejects it with an `Error` of its message.
fn deliver(
    context: &Context,
    state: &Rc<RefCell<State>>,
    ready: &mut Vec<Settled>,
) -> rquickjs::Result<()> {
    context.with(|ctx| {
        for settled in ready.drain(..) {
            let settle = state
                .borrow_mut()
                .promised
                .get_mut(settled.ticket as usize)
                .and_then(Option::take);
            // A call is answered once; the host never answers another.
            let Some(settle) = settle else { continue };
            match settled.answer {
                Ok(text) => {
                    let value = ctx.json_parse(text)?;
                    settle.resolve.restore(&ctx)?.call::<_, ()>((value,))?;
                }
                Err(message) => {
                    let error = Exception::from_message(ctx.clone(), &message)?;
                    settle.reject.restore(&ctx)?.call::<_, ()>((error,))?;
                }
            }
        }
        Ok(())
    })
}

/// An error out of the engine, as the model should read it.
fn thrown(
    ctx: &Ctx<'_>,
    error: rquickjs::Error,
    limits: EngineLimits,
    abort: &Arc<AtomicBool>,
) -> Outcome {
    let message = match error {
        rquickjs::Error::Exception => describe(ctx, ctx.catch()),
        other => other.to_string(),
    };
    limit_or_thrown(&message, limits, abort)
}

/// A thrown value's text: an `Error`'s message and stack, else its string.
fn describe(_ctx: &Ctx<'_>, value: Value<'_>) -> String {
    if let Some(exception) = value.as_object().cloned().and_then(Exception::from_object) {
        let name: Option<String> = exception.get("name").ok();
        let message = match (name, exception.message()) {
            (Some(name), Some(message)) if !name.is_empty() => format!("{name}: {message}"),
            (_, message) => message.unwrap_or_default(),
        };
        return match exception.stack() {
            Some(stack) if !stack.trim().is_empty() => format!("{message}\n{}", stack.trim_end()),
            _ => message,
        };
    }
    value
        .as_string()
        .and_then(|text| text.to_string().ok())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// QuickJS says a limit in its own words: "interrupted", "out of memory",
/// "stack overflow". Those become the limit; anything else is the
/// script's own error.
fn limit_or_thrown(message: &str, limits: EngineLimits, abort: &Arc<AtomicBool>) -> Outcome {
    let first = message.lines().next().unwrap_or_default();
    if first.contains("interrupted") {
        if abort.load(Ordering::Relaxed) {
            return Outcome::Stopped(Limit::Aborted);
        }
        if Instant::now() >= limits.deadline {
            return Outcome::Stopped(Limit::Time);
        }
    }
    if first.contains("out of memory") {
        return Outcome::Stopped(Limit::Memory);
    }
    if first.contains("stack overflow") || first.contains("call stack size exceeded") {
        return Outcome::Stopped(Limit::Stack);
    }
    Outcome::Threw(message.to_owned())
}
