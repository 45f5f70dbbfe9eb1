//! The registry the MCP end-to-end tests serve: in process over HTTP
//! (`tests/mcp/http.rs`) and from the `mcp_fixture` binary over stdio
//! (`tests/mcp/stdio.rs`).
//!
//! - `echo`: returns its value, with details `{"echo": <value>}`.
//! - `slow`: reports three progress steps, then waits `millis` or until the
//!   call is cancelled; a cancelled call adds one to the registry's counter.
//! - `stats`: that counter, as text (and details `{"cancelled": n}`).

use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tool_core::{
    Content, Tool, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry, tool,
};

/// How many progress updates `slow` reports before it waits.
pub const SLOW_STEPS: usize = 3;

/// The progress text of `slow`'s step `step` (1-based).
pub fn slow_step(step: usize) -> String {
    format!("step {step} of {SLOW_STEPS}")
}

/// Echo one value
#[tool]
pub async fn echo(value: String) -> ToolOutput<Value> {
    ToolOutput::new(vec![Content::text(value.clone())]).with_details(json!({"echo": value}))
}

/// How long to wait
#[derive(ToolParams, Debug)]
pub struct SlowParams {
    /// How long to wait, in milliseconds
    pub millis: u64,
}

/// Waits, reporting progress, until done or cancelled.
#[derive(Clone, Debug)]
pub struct SlowTool {
    cancelled: Arc<AtomicU64>,
}

impl Tool for SlowTool {
    type Params = SlowParams;
    type Details = Value;

    fn name(&self) -> &str {
        "slow"
    }

    fn description(&self) -> &str {
        "Wait a while, reporting progress"
    }

    async fn execute(
        &self,
        params: SlowParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        for step in 1..=SLOW_STEPS {
            ctx.report_progress(vec![Content::text(slow_step(step))]);
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(params.millis)) => {
                Ok(ToolOutput::text(format!("slept {} ms", params.millis)))
            }
            () = ctx.cancelled() => {
                self.cancelled.fetch_add(1, Ordering::SeqCst);
                Ok(ToolOutput::text("cancelled").into_error())
            }
        }
    }
}

// `stats` takes no parameters (and so no doc comment: it would become the
// schema's description).
#[derive(ToolParams, Debug)]
#[allow(missing_docs)]
pub struct StatsParams {}

/// Tells how many `slow` calls saw their cancellation.
#[derive(Clone, Debug)]
pub struct StatsTool {
    cancelled: Arc<AtomicU64>,
}

impl Tool for StatsTool {
    type Params = StatsParams;
    type Details = Value;

    fn name(&self) -> &str {
        "stats"
    }

    fn description(&self) -> &str {
        "How many slow calls were cancelled"
    }

    async fn execute(
        &self,
        _params: StatsParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let cancelled = self.cancelled.load(Ordering::SeqCst);
        Ok(ToolOutput::text(cancelled.to_string()).with_details(json!({"cancelled": cancelled})))
    }
}

/// `echo`, `slow` and `stats`, with a cancellation counter of their own.
pub fn fixture_registry() -> ToolRegistry {
    let cancelled = Arc::new(AtomicU64::new(0));
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).expect("echo registers");
    tools
        .register(SlowTool {
            cancelled: Arc::clone(&cancelled),
        })
        .expect("slow registers");
    tools
        .register(StatsTool { cancelled })
        .expect("stats registers");
    tools
}
