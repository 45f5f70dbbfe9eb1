//! `#[tools]` in a crate that denies missing docs: methods with and
//! without `#[tool]`, a context parameter, doc comments on parameters,
//! `# Arguments`, annotations, `Json<T>`, and the methods callable as
//! written.

#![deny(missing_docs)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tool_core::{Json, Tool, ToolContext, ToolError, ToolParams, ToolRegistry, tools};

/// A counter shared by its tools.
pub struct Counter {
    count: AtomicU64,
}

/// The counter's state.
#[derive(ToolParams)]
pub struct State {
    /// The count.
    pub count: u64,
}

#[tools]
impl Counter {
    /// Add to the counter
    ///
    /// # Arguments
    ///
    /// * `by` - How much to add
    /// * `ctx` - The call's context
    #[tool(idempotent = false, destructive = false, title = "Add")]
    pub async fn add(&self, ctx: &ToolContext, by: u64) -> Result<String, ToolError> {
        let _ = &ctx.call_id;
        Ok((self.count.fetch_add(by, Ordering::Relaxed) + by).to_string())
    }

    /// Read the counter
    #[tool(read_only, open_world = false)]
    pub async fn state(
        &self,
        /// Ignored: a parameter with a doc comment
        #[param(default)]
        verbose: bool,
    ) -> Json<State> {
        let _ = verbose;
        Json(State {
            count: self.count.load(Ordering::Relaxed),
        })
    }

    /// Not a tool.
    pub fn reset(&self) {
        self.count.store(0, Ordering::Relaxed);
    }

    /// Not a tool either, and async.
    pub async fn get(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let counter = Arc::new(Counter {
        count: AtomicU64::new(0),
    });
    let mut tools = ToolRegistry::new();
    tools.register_all(Arc::clone(&counter)).unwrap();
    counter.reset();
    // The methods are callable as written (their futures, not awaited).
    drop(counter.get());
    drop(counter.add(&ToolContext::new("direct"), 2));
    assert_eq!(tools.len(), 2);
    let tool = CounterAddTool(counter);
    assert_eq!(tool.name(), "add");
    assert_eq!(
        tool.parameters()["properties"]["by"]["description"],
        "How much to add"
    );
    let _ = CounterStateParams { verbose: true };
}
