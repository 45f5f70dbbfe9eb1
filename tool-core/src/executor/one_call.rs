//! One call, start to answer: lookup, parse, the `before` hook, the tool
//! under its timeout and the caller's cancellation, the `after` hook. Every
//! path ends in exactly one paired result.

use super::call_context::CallContext;
use super::catch_unwind::{CatchUnwind, panic_message};
use super::hooks::{AfterCall, BeforeCall, HookDecision};
use crate::message::{ToolCall, ToolResultMessage, now_millis};
use crate::registry::RegisteredTool;
use crate::tool::{ToolError, ToolOutput};
use serde_json::Value;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Answers `call`; `tool` is what the registry holds under its name (the
/// caller looked it up once, and may have needed it before).
pub(crate) async fn run(
    call: &ToolCall,
    tool: Option<&RegisteredTool>,
    ctx: &CallContext,
) -> ToolResultMessage {
    let Some(tool) = tool else {
        return ToolResultMessage::failure(call, "unknown tool");
    };
    if is_cancelled(ctx.signal.as_ref()) {
        return ToolResultMessage::failure(call, "cancelled");
    }
    let decoded;
    let arguments = match decode_string_arguments(&call.arguments) {
        None => &call.arguments,
        Some(Ok(value)) => {
            decoded = value;
            &decoded
        }
        Some(Err(problem)) => return ToolResultMessage::failure(call, &problem),
    };
    // A user-written `ParamValue` could panic while parsing; that is the
    // call's failure, not the executor's.
    let prepared = match catch_unwind(AssertUnwindSafe(|| tool.prepare(arguments))) {
        Ok(Ok(prepared)) => prepared,
        Ok(Err(problems)) => return ToolResultMessage::failure(call, &problems.to_string()),
        Err(payload) => return panicked(call, &*payload),
    };
    // The parsed arguments as JSON, only when a hook will look at them (a
    // user's `to_json` may panic: that too is the call's failure).
    let parsed = if ctx.before.is_some() || ctx.after.is_some() {
        match catch_unwind(AssertUnwindSafe(|| prepared.arguments())) {
            Ok(arguments) => arguments,
            Err(payload) => return panicked(call, &*payload),
        }
    } else {
        Value::Null
    };

    if let Some(before) = &ctx.before {
        let deciding = guarded("before", || {
            before(BeforeCall {
                call_id: call.id.clone(),
                tool_name: call.name.clone(),
                arguments: parsed.clone(),
                annotations: tool.annotations().clone(),
                signal: ctx.signal.clone(),
            })
        });
        // A hook waiting on a human is abandoned when the caller cancels.
        let decision = tokio::select! {
            biased;
            decision = deciding => decision,
            () = caller_cancelled(ctx) => return ToolResultMessage::failure(call, "cancelled"),
        };
        match decision {
            Ok(HookDecision::Allow) => {}
            Ok(HookDecision::Block(reason)) => return ToolResultMessage::failure(call, &reason),
            Err(problem) => return ToolResultMessage::failure(call, &problem),
        }
        if is_cancelled(ctx.signal.as_ref()) {
            return ToolResultMessage::failure(call, "cancelled");
        }
    }

    let timeout = ctx.timeout.or(tool.timeout());
    // The call gets a signal of its own when something may stop it alone (a
    // timeout) or with the others (the caller's signal, its parent).
    let signal = (ctx.signal.is_some() || timeout.is_some()).then(|| {
        ctx.signal
            .as_ref()
            .map_or_else(CancellationToken::new, CancellationToken::child_token)
    });
    let tool_ctx = ctx.tool_context(&call.id, &call.name, signal.clone());
    let running = CatchUnwind::new(Box::pin(prepared.run(tool_ctx)));
    let result = match supervise(running, timeout, ctx, signal.as_ref()).await {
        Stopped::Finished(Ok(Ok(output))) => success(call, output),
        Stopped::Finished(Ok(Err(error))) => {
            ToolResultMessage::failure(call, &error_message(&*error))
        }
        Stopped::Finished(Err(payload)) => panicked(call, &*payload),
        Stopped::TimedOut(after) => {
            ToolResultMessage::failure(call, &format!("timed out after {} ms", after.as_millis()))
        }
        Stopped::Cancelled => ToolResultMessage::failure(call, "cancelled"),
    };

    match &ctx.after {
        None => result,
        Some(after) => {
            let output = ToolOutput {
                content: result.content,
                details: result.details,
                is_error: result.is_error,
            };
            let rewritten = guarded("after", || {
                after(AfterCall {
                    call_id: call.id.clone(),
                    tool_name: call.name.clone(),
                    arguments: parsed,
                    output,
                })
            })
            .await;
            match rewritten {
                Ok(output) => success(call, output),
                Err(problem) => ToolResultMessage::failure(call, &problem),
            }
        }
    }
}

type Caught<T> = Result<T, Box<dyn std::any::Any + Send>>;

/// How a running tool stopped.
enum Stopped {
    /// On its own: its output, its error, or its panic.
    Finished(Caught<Result<ToolOutput<Value>, ToolError>>),
    /// Dropped at its deadline.
    TimedOut(Duration),
    /// Dropped after the caller cancelled and the grace period passed.
    Cancelled,
}

/// Polls the tool until it finishes, its timeout passes, or the caller
/// cancels and the grace period runs out. A tool that stops is dropped
/// right away, its signal cancelled first so work it spawned can stop too.
async fn supervise<F>(
    mut running: CatchUnwind<F>,
    timeout: Option<Duration>,
    ctx: &CallContext,
    signal: Option<&CancellationToken>,
) -> Stopped
where
    F: Future<Output = Result<ToolOutput<Value>, ToolError>> + Unpin,
{
    let stopped = run_until_stopped(&mut running, timeout, ctx, signal).await;
    // Dropping a tool's future runs its destructors, which are user code:
    // a panic there is the call's, not the executor's.
    match catch_unwind(AssertUnwindSafe(move || drop(running))) {
        Ok(()) => stopped,
        Err(payload) => match stopped {
            Stopped::Finished(Ok(_)) => Stopped::Finished(Err(payload)),
            other => other,
        },
    }
}

async fn run_until_stopped<F>(
    running: &mut CatchUnwind<F>,
    timeout: Option<Duration>,
    ctx: &CallContext,
    signal: Option<&CancellationToken>,
) -> Stopped
where
    F: Future<Output = Result<ToolOutput<Value>, ToolError>> + Unpin,
{
    let deadline = async {
        match timeout {
            Some(timeout) => tokio::time::sleep(timeout).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        biased;
        finished = &mut *running => Stopped::Finished(finished),
        () = deadline => {
            if let Some(signal) = signal {
                signal.cancel();
            }
            Stopped::TimedOut(timeout.unwrap_or_default())
        }
        () = caller_cancelled(ctx) => {
            // The call's own signal is the caller's child: already cancelled.
            match tokio::time::timeout(ctx.cancel_grace, &mut *running).await {
                Ok(finished) => Stopped::Finished(finished),
                Err(_) => Stopped::Cancelled,
            }
        }
    }
}

/// Runs a hook, turning its error or panic (at the call or while polled)
/// into the message the call is answered with.
async fn guarded<T, Fut>(name: &str, start: impl FnOnce() -> Fut) -> Result<T, String>
where
    Fut: Future<Output = Result<T, ToolError>> + Unpin,
{
    let future = match catch_unwind(AssertUnwindSafe(start)) {
        Ok(future) => future,
        Err(payload) => {
            return Err(format!(
                "{name} hook panicked: {}",
                panic_message(&*payload)
            ));
        }
    };
    match CatchUnwind::new(future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(format!("{name} hook failed: {}", error_message(&*error))),
        Err(payload) => Err(format!(
            "{name} hook panicked: {}",
            panic_message(&*payload)
        )),
    }
}

/// Completes when the caller's signal is cancelled; never without one.
async fn caller_cancelled(ctx: &CallContext) {
    match &ctx.signal {
        Some(signal) => signal.cancelled().await,
        None => std::future::pending().await,
    }
}

fn is_cancelled(signal: Option<&CancellationToken>) -> bool {
    signal.is_some_and(CancellationToken::is_cancelled)
}

/// Arguments written as a JSON string (OpenAI sends them so) are decoded
/// first; text that is not valid JSON is reported with the JSON error's
/// line and column.
fn decode_string_arguments(arguments: &Value) -> Option<Result<Value, String>> {
    let Value::String(text) = arguments else {
        return None;
    };
    Some(serde_json::from_str(text).map_err(|error| format!("arguments: invalid JSON: {error}")))
}

fn success(call: &ToolCall, output: ToolOutput<Value>) -> ToolResultMessage {
    ToolResultMessage {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        content: output.content,
        details: output.details,
        is_error: output.is_error,
        timestamp: now_millis(),
    }
}

fn panicked(call: &ToolCall, payload: &(dyn std::any::Any + Send)) -> ToolResultMessage {
    ToolResultMessage::failure(call, &format!("panicked: {}", panic_message(payload)))
}

/// An error's message followed by its causes, each once: `reading config:
/// No such file or directory`. A stack trace never gets in.
fn error_message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(source) = cause {
        let text = source.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = source.source();
    }
    message
}
