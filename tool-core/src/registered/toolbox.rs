//! A value whose methods are tools: the state they share (a root directory,
//! a database pool) lives once, behind one `Arc`.

use super::RegisteredTool;
use std::sync::Arc;

/// A type whose methods are tools, implemented by `#[tools]` on its impl
/// block; register them all with
/// [`ToolRegistry::register_all`](crate::ToolRegistry::register_all).
///
/// Each tool holds a clone of the one `Arc`, so a call reads the shared
/// state through it and nothing is cloned per call.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use tool_core::{tools, ToolRegistry};
///
/// struct Counter {
///     count: AtomicU64,
/// }
///
/// #[tools]
/// impl Counter {
///     /// Add to the counter and say its new value
///     #[tool(idempotent = false)]
///     async fn add(&self, by: u64) -> String {
///         (self.count.fetch_add(by, Ordering::Relaxed) + by).to_string()
///     }
///
///     /// Read the counter
///     #[tool(read_only)]
///     async fn get(&self) -> String {
///         self.count.load(Ordering::Relaxed).to_string()
///     }
///
///     /// Not a tool: stays an ordinary method.
///     fn reset(&self) {
///         self.count.store(0, Ordering::Relaxed);
///     }
/// }
///
/// let mut tools = ToolRegistry::new();
/// tools.register_all(Counter { count: AtomicU64::new(0) }).unwrap();
/// let names: Vec<_> = tools.iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["add", "get"]);
/// assert_eq!(tools.get("get").unwrap().definition().annotations.read_only, Some(true));
/// ```
pub trait Toolbox: Send + Sync + 'static {
    /// The box's tools, in the order the impl block declares them, each
    /// holding a clone of `self`.
    fn tools(self: Arc<Self>) -> Vec<RegisteredTool>;
}

/// What [`register_all`](crate::ToolRegistry::register_all) accepts: a
/// toolbox, or an `Arc` of one (to keep a handle on the shared state).
pub trait IntoToolbox {
    /// The toolbox type.
    type Toolbox: Toolbox;
    /// The toolbox behind one `Arc`.
    fn into_arc(self) -> Arc<Self::Toolbox>;
}

impl<B: Toolbox> IntoToolbox for B {
    type Toolbox = B;
    fn into_arc(self) -> Arc<B> {
        Arc::new(self)
    }
}

impl<B: Toolbox> IntoToolbox for Arc<B> {
    type Toolbox = B;
    fn into_arc(self) -> Arc<B> {
        self
    }
}
