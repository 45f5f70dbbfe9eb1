//! A running tool under its deadline and the caller's cancellation: it is
//! polled until it finishes, times out, or is cancelled and outlives its
//! grace period, and dropped right away when it stops.

use super::catch_unwind::CatchUnwind;
use super::run_options::RunOptions;
use crate::tool::{ToolError, ToolOutput};
use serde_json::Value;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub(crate) type Caught<T> = Result<T, Box<dyn std::any::Any + Send>>;

/// How a running tool stopped.
pub(crate) enum Stopped {
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
pub(crate) async fn supervise<F>(
    mut running: CatchUnwind<F>,
    timeout: Option<Duration>,
    ctx: &RunOptions,
    signal: Option<&CancellationToken>,
) -> Stopped
where
    F: Future<Output = Result<ToolOutput<Value>, ToolError>> + Unpin,
{
    let stopped = run_until_stopped(&mut running, timeout, ctx, signal).await;
    dropped(running, stopped)
}

/// Polls the tool until it finishes: when nothing but the tool itself can
/// stop it (no timeout, no signal). [`supervise`]'s timer and `select!`
/// are not even part of this future, which keeps it (and every call's
/// future holding it) small.
pub(crate) async fn finish<F>(mut running: CatchUnwind<F>) -> Stopped
where
    F: Future<Output = Result<ToolOutput<Value>, ToolError>> + Unpin,
{
    let stopped = Stopped::Finished((&mut running).await);
    dropped(running, stopped)
}

/// Drops the tool's future. Its destructors are user code: a panic there
/// is the call's, not the executor's.
fn dropped<F>(running: CatchUnwind<F>, stopped: Stopped) -> Stopped {
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
    ctx: &RunOptions,
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

/// Completes when the caller's signal is cancelled; never without one.
pub(crate) async fn caller_cancelled(ctx: &RunOptions) {
    match &ctx.signal {
        Some(signal) => signal.cancelled().await,
        None => std::future::pending().await,
    }
}

pub(crate) fn is_cancelled(signal: Option<&CancellationToken>) -> bool {
    signal.is_some_and(CancellationToken::is_cancelled)
}
