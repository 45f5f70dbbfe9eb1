//! `wait`: a stand-in for a long job (a build, a crawl). It reports
//! progress as it goes and stops as soon as the caller cancels it, so
//! progress and cancellation can be seen end to end, across MCP hops too.

use std::time::Duration;
use tokio::time::Instant;
use tool_core::{Content, ToolContext, ToolError, tool};

/// How often `wait` reports progress.
pub const TICK: Duration = Duration::from_millis(100);

/// Wait for a number of milliseconds, reporting progress every 100 ms, and
/// stop at once when cancelled
#[tool(read_only, idempotent, open_world = false)]
pub async fn wait(
    ctx: ToolContext,
    /// How long to wait, in milliseconds (at most 60000)
    #[param(max = 60000)]
    ms: u64,
) -> Result<String, ToolError> {
    let start = Instant::now();
    let total = Duration::from_millis(ms);
    loop {
        let waited = start.elapsed();
        if waited >= total {
            return Ok(format!("waited {ms} ms"));
        }
        let next = TICK.min(total - waited);
        tokio::select! {
            () = tokio::time::sleep(next) => {
                let waited = start.elapsed().min(total).as_millis();
                ctx.report_progress(vec![Content::text(format!("waited {waited} of {ms} ms"))]);
            }
            () = ctx.cancelled() => {
                let message = format!("cancelled after {} ms", start.elapsed().as_millis());
                // A log line (stderr, never stdout): what shows, from outside
                // the process, that a cancellation arrived.
                tracing::info!("wait {}: {message}", ctx.call_id);
                return Err(message.into());
            }
        }
    }
}
