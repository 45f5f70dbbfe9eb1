//! Groups of tools that compose before they are registered: a toolbox, an
//! imported MCP server, a registry or a list of tools, prefixed, filtered,
//! renamed, prepared per turn, marked as needing approval, or deferred
//! until a search finds them.
//!
//! Every combinator takes the set and gives it back changed, so a set
//! reads as the sentence that built it:
//!
//! ```
//! use std::sync::Arc;
//! use tool_core::toolset::Toolset;
//! use tool_core::{tools, ToolRegistry};
//!
//! struct Github;
//! struct Jira;
//!
//! #[tools]
//! impl Github {
//!     /// Search issues and pull requests
//!     #[tool(read_only)]
//!     async fn search(&self, query: String) -> String { format!("github: {query}") }
//!     /// Close an issue
//!     #[tool(destructive)]
//!     async fn close(&self, number: u64) -> String { format!("closed #{number}") }
//! }
//!
//! #[tools]
//! impl Jira {
//!     /// Search tickets
//!     #[tool(read_only)]
//!     async fn search(&self, query: String) -> String { format!("jira: {query}") }
//! }
//!
//! let mut tools = ToolRegistry::new();
//! tools.register_all(Toolset::from_toolbox(Github).prefixed("github")).unwrap();
//! // Both boxes have `search`: without a prefix the second is refused,
//! // naming both sides.
//! let clash = tools.register_all(Toolset::from_toolbox(Jira).prefixed("github")).unwrap_err();
//! assert!(clash.to_string().starts_with(
//!     "Tool already exists: github_search (registered from toolbox Github; the new one is from toolbox Jira)"
//! ), "{clash}");
//! tools.register_all(
//!     Toolset::from_toolbox(Jira)
//!         .prefixed("jira")
//!         .filtered(|tool| tool.annotations().read_only == Some(true))
//!         .deferred(),
//! ).unwrap();
//! let names: Vec<_> = tools.iter().map(|tool| tool.name()).collect();
//! // A deferred tool brings the built-in search with it.
//! assert_eq!(names, ["github_close", "github_search", "jira_search", "tool_search"]);
//! assert!(tools.get("jira_search").unwrap().is_deferred());
//! ```

pub(crate) mod search;

use crate::model::ToolDefinition;
use crate::registered::{IntoToolbox, Toolbox};
use crate::registered::{PrepareFn, RegisteredTool, RegistryError};
use crate::tool::Tool;
use crate::turn::Turn;
use std::collections::HashMap;
use std::sync::Arc;

pub use search::{SEARCH_TOOL_NAME, SearchMode, found_tools, searchable_text};

/// A group of tools, changed as a whole before a registry takes it
/// ([`ToolRegistry::register_all`](crate::ToolRegistry::register_all): all or nothing).
///
/// Its label names it in messages (a collision names the toolsets of both
/// tools): a toolbox's type, an MCP server's address, or what
/// [`new`](Toolset::new) was given.
#[derive(Clone, Debug)]
pub struct Toolset {
    label: Arc<str>,
    tools: Vec<RegisteredTool>,
    /// Mistakes in building the set (a rename of a name it does not have),
    /// reported when a registry is given it rather than lost.
    problems: Vec<String>,
}

impl Toolset {
    /// A set of these tools, as they are (a registry's, say).
    pub(crate) fn of_tools(label: &str, tools: Vec<RegisteredTool>) -> Self {
        Toolset {
            label: Arc::from(label),
            tools,
            problems: Vec::new(),
        }
    }

    /// An empty set labelled `label`; add tools with [`with`](Self::with).
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, ToolOutput};
    ///
    /// let ping = DynamicTool::new("ping", "Answer pong", |_args, _ctx| async {
    ///     Ok(ToolOutput::text("pong"))
    /// });
    /// let set = Toolset::new("network").with(ping);
    /// assert_eq!((set.label(), set.len()), ("network", 1));
    /// ```
    pub fn new(label: impl Into<String>) -> Self {
        Toolset {
            label: Arc::from(label.into()),
            tools: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// A set of tools already built ([`RegisteredTool::new`], a
    /// [`Toolbox::tools`]), in their order.
    pub fn from_tools(label: impl Into<String>, tools: Vec<RegisteredTool>) -> Self {
        let mut set = Toolset::new(label);
        set.tools = tools
            .into_iter()
            .map(|tool| tool.with_origin(&set.label))
            .collect();
        set
    }

    /// Every tool of a toolbox (a type with `#[tools]` on its impl block),
    /// labelled `toolbox <Type>`.
    pub fn from_toolbox<B: IntoToolbox>(toolbox: B) -> Self {
        let label = format!("toolbox {}", short_type_name::<B::Toolbox>());
        Toolset::from_tools(label, Toolbox::tools(toolbox.into_arc()))
    }

    /// Adds one tool to the set.
    pub fn with<T: Tool>(mut self, tool: T) -> Self {
        self.tools
            .push(RegisteredTool::new(tool).with_origin(&self.label));
        self
    }

    /// The set's label, as messages name it.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The set's tools, in their order.
    pub fn tools(&self) -> &[RegisteredTool] {
        &self.tools
    }

    /// How many tools the set has.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when the set has no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Each tool named `<prefix>_<name>`. `_` is the separator because every
    /// provider's name rule allows it; a registry made for formats
    /// ([`ToolRegistry::for_formats`](crate::ToolRegistry::for_formats)) checks the result against their rules.
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, ToolOutput};
    ///
    /// let search = DynamicTool::new("search", "Search", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let set = Toolset::new("docs").with(search).prefixed("docs");
    /// assert_eq!(set.tools()[0].name(), "docs_search");
    /// ```
    pub fn prefixed(mut self, prefix: &str) -> Self {
        self.tools = self
            .tools
            .into_iter()
            .map(|tool| {
                let name = format!("{prefix}_{}", tool.name());
                tool.with_name(name)
            })
            .collect();
        self
    }

    /// Only the tools `keep` says yes to: by name, by annotations
    /// (`tool.annotations().read_only == Some(true)`), by anything a
    /// [`RegisteredTool`] shows.
    pub fn filtered(mut self, keep: impl Fn(&RegisteredTool) -> bool) -> Self {
        self.tools.retain(|tool| keep(tool));
        self
    }

    /// Renames tools: each `(old, new)` pair gives the tool now called
    /// `old` the name `new`; the others keep theirs. A name the set does
    /// not have is a mistake, reported when a registry is given the set.
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
    ///
    /// let read = || DynamicTool::new("files.read", "Read a file", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let set = Toolset::new("files").with(read()).renamed([("files.read", "files_read")]);
    /// assert_eq!(set.tools()[0].name(), "files_read");
    ///
    /// let typo = Toolset::new("files").with(read()).renamed([("file.read", "files_read")]);
    /// let error = ToolRegistry::new().register_all(typo).unwrap_err();
    /// assert_eq!(error.to_string(), "Toolset files: renamed file.read, which it does not have (it has: files.read)");
    /// ```
    pub fn renamed<I, K, V>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut names: HashMap<String, String> = names
            .into_iter()
            .map(|(old, new)| (old.into(), new.into()))
            .collect();
        self.tools = self
            .tools
            .into_iter()
            .map(|tool| match names.remove(tool.name()) {
                Some(new) => tool.with_name(new),
                None => tool,
            })
            .collect();
        let mut missing: Vec<String> = names.into_keys().collect();
        missing.sort();
        for old in missing {
            let problem = format!(
                "renamed {old}, which it does not have (it has: {})",
                self.names().join(", ")
            );
            self.problems.push(problem);
        }
        self
    }

    /// Changes or hides each tool's definition per turn: `prepare` gets the
    /// turn ([`Turn`]: what it enables and loads, who asks)
    /// and the definition to change,
    /// and returns `false` to hide the tool in that turn (the model is not
    /// shown it, and a call of it is answered `not available in this
    /// turn`). The name cannot change here ([`renamed`](Self::renamed)
    /// does that once, for every turn).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, RunOptions, ToolOutput, ToolRegistry};
    ///
    /// let deploy = DynamicTool::new("deploy", "Deploy", |_args, _ctx| async { Ok(ToolOutput::text("done")) });
    /// // Shown only in turns that enable it, with a description that says where.
    /// let set = Toolset::new("ops").with(deploy).prepared(|turn, definition| {
    ///     definition.description.push_str(" to staging");
    ///     turn.is_enabled("deploy")
    /// });
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(set).unwrap();
    /// let shown = tools.definitions_for(&RunOptions::new());
    /// assert_eq!(shown[0].description, "Deploy to staging");
    /// assert!(tools.definitions_for(&RunOptions::new().with_enabled(["other"])).is_empty());
    /// ```
    pub fn prepared<F>(mut self, prepare: F) -> Self
    where
        F: Fn(&Turn, &mut ToolDefinition) -> bool + Send + Sync + 'static,
    {
        let prepare: PrepareFn = Arc::new(prepare);
        self.tools = self
            .tools
            .into_iter()
            .map(|tool| tool.with_preparation(Arc::clone(&prepare)))
            .collect();
        self
    }

    /// Every tool of the set needs a person's approval of each call, as
    /// `#[tool(needs_approval)]` gives one tool (see
    /// [`approval`](crate::approval)).
    pub fn approval_required(mut self) -> Self {
        self.tools = self
            .tools
            .into_iter()
            .map(RegisteredTool::with_approval_required)
            .collect();
        self
    }

    /// Who may call every tool of the set: the model, code it writes (the
    /// provider's code execution), or both; a format with programmatic
    /// calling writes it as each tool's `allowed_callers`.
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{Callers, DynamicTool, ToolOutput, ToolRegistry};
    ///
    /// let tool = |name: &str| DynamicTool::new(name, "", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(Toolset::new("lookups").with(tool("expenses")).callers(Callers::BOTH)).unwrap();
    /// assert_eq!(tools.get("expenses").unwrap().definition().allowed_callers, Callers::BOTH);
    /// ```
    pub fn callers(mut self, callers: crate::Callers) -> Self {
        self.tools = std::mem::take(&mut self.tools)
            .into_iter()
            .map(|tool| tool.with_callers(callers))
            .collect();
        self
    }

    /// Every tool of the set waits for a search: a turn's definitions
    /// ([`ToolRegistry::definitions_for`](crate::ToolRegistry::definitions_for)) leave it out and offer the
    /// built-in `tool_search` instead, until the run options load it
    /// ([`RunOptions::with_loaded`](crate::RunOptions::with_loaded)). A format with its own tool search
    /// marks it `defer_loading` instead
    /// ([`ToolRegistry::definitions_for_native_search`](crate::ToolRegistry::definitions_for_native_search)).
    pub fn deferred(self) -> Self {
        self.deferred_except::<&str>(&[])
    }

    /// Every tool but the named core ones waits for a search (see
    /// [`deferred`](Self::deferred)). A core name the set does not have is
    /// a mistake, reported when a registry is given the set.
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, ToolOutput};
    ///
    /// let tool = |name: &str| DynamicTool::new(name, "", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let set = Toolset::new("all").with(tool("echo")).with(tool("read")).deferred_except(&["echo"]);
    /// let deferred: Vec<bool> = set.tools().iter().map(|tool| tool.is_deferred()).collect();
    /// assert_eq!(deferred, [false, true]);
    /// ```
    pub fn deferred_except<S: AsRef<str>>(mut self, core: &[S]) -> Self {
        for name in core {
            let name = name.as_ref();
            if !self.tools.iter().any(|tool| tool.name() == name) {
                let problem = format!(
                    "keeps {name} up front, which it does not have (it has: {})",
                    self.names().join(", ")
                );
                self.problems.push(problem);
            }
        }
        self.tools = self
            .tools
            .into_iter()
            .map(|tool| {
                let keep = core.iter().any(|name| name.as_ref() == tool.name());
                tool.with_deferral(!keep)
            })
            .collect();
        self
    }

    fn names(&self) -> Vec<&str> {
        self.tools.iter().map(RegisteredTool::name).collect()
    }

    /// The tools, or the first mistake made building the set.
    pub(crate) fn into_tools(self) -> Result<Vec<RegisteredTool>, RegistryError> {
        match self.problems.into_iter().next() {
            Some(problem) => Err(RegistryError::Toolset {
                toolset: self.label.to_string(),
                problem,
            }),
            None => Ok(self.tools),
        }
    }
}

/// What [`ToolRegistry::register_all`](crate::ToolRegistry::register_all) takes: a [`Toolset`], a toolbox (or
/// an `Arc` of one, to keep a handle on its shared state), or another
/// registry's tools.
pub trait IntoToolset {
    /// The tools, as one set.
    fn into_toolset(self) -> Toolset;
}

impl IntoToolset for Toolset {
    fn into_toolset(self) -> Toolset {
        self
    }
}

impl<B: Toolbox> IntoToolset for B {
    fn into_toolset(self) -> Toolset {
        Toolset::from_toolbox(self)
    }
}

impl<B: Toolbox> IntoToolset for Arc<B> {
    fn into_toolset(self) -> Toolset {
        Toolset::from_toolbox(self)
    }
}

/// `my_crate::files::Files` as `Files`: what a message needs to say which
/// box, without the path.
fn short_type_name<T: ?Sized>() -> &'static str {
    let full = std::any::type_name::<T>();
    let before_generics = full.split('<').next().unwrap_or(full);
    before_generics
        .rsplit("::")
        .next()
        .unwrap_or(before_generics)
}
