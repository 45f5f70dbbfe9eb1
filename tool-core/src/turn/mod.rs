//! What one turn makes available and who asks: the tools enabled, the
//! deferred tools a search loaded, the authenticated caller. The registry,
//! toolsets and the built-in search read it; the executor's
//! [`RunOptions`](crate::RunOptions) carries one. It sits below all of them,
//! so none of them needs the executor to know what a turn shows.

mod caller;

pub use caller::Caller;

use std::collections::HashSet;
use std::sync::Arc;

/// A turn's tools and caller. `Default` enables every registered tool,
/// loads no deferred one, and names no caller. Cloning it is cheap.
///
/// ```
/// use tool_core::Turn;
///
/// let turn = Turn::new().with_enabled(["read", "list"]).with_loaded(["weather"]);
/// assert!(turn.is_enabled("read"));
/// assert!(!turn.is_enabled("write"));
/// assert_eq!(turn.loaded(), ["weather"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    enabled: Option<Arc<HashSet<String>>>,
    loaded: Arc<[String]>,
    caller: Option<Arc<Caller>>,
}

impl Turn {
    /// Every tool enabled, none loaded, no caller.
    pub fn new() -> Self {
        Turn::default()
    }

    /// Makes only these registered tools available (names that are not
    /// registered are ignored).
    pub fn with_enabled<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.enabled = Some(Arc::new(names.into_iter().map(Into::into).collect()));
        self
    }

    /// Loads these deferred tools, after the ones loaded already, in this
    /// order; names that are not deferred tools are ignored where they are
    /// read.
    pub fn with_loaded<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let mut loaded: Vec<String> = self.loaded.to_vec();
        for name in names {
            let name = name.into();
            if !loaded.contains(&name) {
                loaded.push(name);
            }
        }
        self.loaded = Arc::from(loaded);
        self
    }

    /// Says who asks (a transport's authenticated caller). Takes a
    /// `Caller` or an `Arc<Caller>` (shared by many calls, not copied).
    pub fn with_caller(mut self, caller: impl Into<Arc<Caller>>) -> Self {
        self.caller = Some(caller.into());
        self
    }

    /// Whether the tool called `name` is enabled (all are, unless
    /// [`with_enabled`](Self::with_enabled) says otherwise).
    pub fn is_enabled(&self, name: &str) -> bool {
        self.enabled
            .as_ref()
            .is_none_or(|enabled| enabled.contains(name))
    }

    /// The enabled tools, when the turn limits them.
    pub fn enabled(&self) -> Option<&HashSet<String>> {
        self.enabled.as_deref()
    }

    /// The deferred tools loaded, in the order they were loaded.
    pub fn loaded(&self) -> &[String] {
        &self.loaded
    }

    /// Who asks, if a transport said.
    pub fn caller(&self) -> Option<&Caller> {
        self.caller.as_deref()
    }

    /// Who asks, shared.
    pub(crate) fn caller_arc(&self) -> Option<&Arc<Caller>> {
        self.caller.as_ref()
    }
}

impl AsRef<Turn> for Turn {
    fn as_ref(&self) -> &Turn {
        self
    }
}
