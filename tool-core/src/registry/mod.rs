//! The tools one agent run may use, by name. Each registry owns its tools;
//! there is no global list.
//!
//! **Order.** Definitions come out sorted by name (byte order), whatever
//! order the tools were registered in: a provider's prompt cache, and an
//! MCP client's, see the same bytes when the same tools are registered
//! (the MCP specification asks `tools/list` for a deterministic order:
//! <https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2516>).
//! A turn's tools loaded by a search come after, in the order they were
//! loaded, so a search never changes the definitions sent before it.

mod turn;

pub use crate::model::ToolDefinition;
pub use crate::registered::{
    IntoToolbox, PrepareFn, PreparedCall, RegisteredTool, RegistryError, Toolbox,
};

use crate::name_map::NameMap;
use crate::providers::{NameRule, ProviderFormat};
use crate::tool::Tool;
use crate::toolset::search::{SEARCH_TOOL_NAME, SearchCorpus, search_tool};
use crate::toolset::{IntoToolset, Toolset};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The tools one agent run may use.
///
/// ```
/// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
///
/// let echo = || DynamicTool::new("echo", "Echo one value", |_args, _ctx| async {
///     Ok(ToolOutput::text("hi"))
/// });
///
/// let mut tools = ToolRegistry::new();
/// tools.register(echo()).unwrap();
/// assert!(tools.register(echo()).unwrap_err().to_string().starts_with("Tool already exists: echo"));
/// assert!(tools.get("echo").is_some());
/// assert_eq!(tools.definitions()[0].parameters, serde_json::json!({"type": "object"}));
/// ```
#[derive(Clone, Default)]
pub struct ToolRegistry {
    /// In registration order; `by_name` points into it.
    tools: Vec<RegisteredTool>,
    by_name: NameMap<usize>,
    /// The name rules of the formats the registry was made for.
    rules: Vec<NameRule>,
    /// How many of the tools are deferred.
    deferred: usize,
    /// The tools sorted, with the built-in search when any tool is
    /// deferred: built when first read after a change.
    view: OnceLock<View>,
}

/// What reading a registry needs beyond the tools themselves.
#[derive(Clone)]
struct View {
    /// Every tool, the built-in search among them, sorted by name.
    sorted: Vec<RegisteredTool>,
    /// `tool_search` over the deferred tools, when there are some.
    search: Option<RegisteredTool>,
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// An empty registry whose tools must have names every one of
    /// `formats` accepts: a name that breaks a format's rule is refused at
    /// registration ([`RegistryError::NameRefused`], with a name that would
    /// do), not by the provider when a request is sent.
    ///
    /// ```
    /// use tool_core::providers::{ProviderFormat, Strict};
    /// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
    ///
    /// let read = DynamicTool::new("files.read", "Read a file", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let mut tools = ToolRegistry::for_formats([ProviderFormat::Mcp, ProviderFormat::Anthropic(Strict::Off)]);
    /// let error = tools.register(read).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "Tool name \"files.read\" is refused by Anthropic: Anthropic allows only ASCII letters, \
    ///      digits and `_-` in tool names, not '.'; rename it, for example to \"files_read\" (Toolset::renamed)"
    /// );
    /// ```
    pub fn for_formats(formats: impl IntoIterator<Item = ProviderFormat>) -> Self {
        let mut rules: Vec<NameRule> = Vec::new();
        for rule in formats.into_iter().filter_map(ProviderFormat::name_rule) {
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
        ToolRegistry {
            rules,
            ..ToolRegistry::default()
        }
    }

    /// Adds a tool; refuses a second tool of the same name, a tool whose
    /// parameters schema does not compile ([`Tool::check_schema`]), an
    /// example that does not parse ([`Tool::examples`]), and a name a
    /// format in use refuses ([`for_formats`](Self::for_formats)).
    ///
    /// ```
    /// # #[cfg(feature = "schema-check")] {
    /// use tool_core::{DynamicTool, ToolOutput, ToolRegistry, registry::RegistryError};
    /// use serde_json::json;
    ///
    /// let broken = DynamicTool::new("broken", "", |_args, _ctx| async { Ok(ToolOutput::text("")) })
    ///     .with_parameters(json!({"type": "object", "required": "n"}));
    /// let error = ToolRegistry::new().register(broken).unwrap_err();
    /// assert!(matches!(&error, RegistryError::InvalidSchema { tool, .. } if tool == "broken"));
    /// assert!(
    ///     error.to_string().starts_with("Tool broken has a parameters schema that is not valid JSON Schema: "),
    ///     "{error}"
    /// );
    /// # }
    /// ```
    pub fn register<T: Tool>(&mut self, tool: T) -> Result<(), RegistryError> {
        self.add(vec![RegisteredTool::new(tool)])
    }

    /// Adds every tool of a [`Toolset`], or of a [`Toolbox`]
    /// (a type with `#[tools]` on its impl block, given as the value or as
    /// an `Arc` of it; its state is shared by all its tools through that
    /// one `Arc`). All or nothing: when any name is taken (the error names
    /// where both tools came from), or any tool is refused as
    /// [`register`](Self::register) refuses one, no tool of the set is
    /// added.
    ///
    /// ```
    /// use std::path::PathBuf;
    /// use std::sync::Arc;
    /// use tool_core::{tools, ToolRegistry};
    ///
    /// struct Workspace {
    ///     root: PathBuf,
    /// }
    ///
    /// #[tools]
    /// impl Workspace {
    ///     /// Say where the workspace is
    ///     #[tool(read_only)]
    ///     async fn root(&self) -> String {
    ///         self.root.display().to_string()
    ///     }
    /// }
    ///
    /// let workspace = Arc::new(Workspace { root: "/srv".into() });
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(Arc::clone(&workspace)).unwrap();
    /// let again = tools.register_all(workspace).unwrap_err();
    /// assert!(again.to_string().starts_with(
    ///     "Tool already exists: root (registered from toolbox Workspace; the new one is from toolbox Workspace)"
    /// ));
    /// assert_eq!(tools.len(), 1);
    /// ```
    pub fn register_all(&mut self, tools: impl IntoToolset) -> Result<(), RegistryError> {
        self.add(tools.into_toolset().into_tools()?)
    }

    /// Checks every tool against the registry and the others, then adds
    /// them all, or none.
    fn add(&mut self, tools: Vec<RegisteredTool>) -> Result<(), RegistryError> {
        let incoming_deferred = tools.iter().filter(|tool| tool.is_deferred()).count();
        let defers = incoming_deferred > 0 || self.deferred > 0;
        // The batch's own names, so a clash inside it is found in one pass
        // (registering ten thousand tools stays linear).
        let mut batch: NameMap<usize> = NameMap::default();
        for (index, tool) in tools.iter().enumerate() {
            let name = tool.name();
            let taken_by = self
                .by_name
                .get(name)
                .map(|&at| &self.tools[at])
                .or_else(|| batch.get(name).map(|&at| &tools[at]));
            if let Some(registered) = taken_by {
                return Err(RegistryError::NameTaken {
                    name: name.to_owned(),
                    registered: registered.origin().to_owned(),
                    incoming: tool.origin().to_owned(),
                });
            }
            if defers && name == SEARCH_TOOL_NAME {
                return Err(RegistryError::NameTaken {
                    name: name.to_owned(),
                    registered: "the built-in search over deferred tools".to_owned(),
                    incoming: tool.origin().to_owned(),
                });
            }
            self.check_name(name)?;
            tool.check()?;
            batch.insert(name.to_owned(), index);
        }
        if defers && let Some(&at) = self.by_name.get(SEARCH_TOOL_NAME) {
            return Err(RegistryError::NameTaken {
                name: SEARCH_TOOL_NAME.to_owned(),
                registered: self.tools[at].origin().to_owned(),
                incoming: "the built-in search over deferred tools".to_owned(),
            });
        }
        for tool in tools {
            self.by_name
                .insert(tool.name().to_owned(), self.tools.len());
            self.tools.push(tool);
        }
        self.deferred += incoming_deferred;
        self.view = OnceLock::new();
        Ok(())
    }

    /// Refuses a name any format in use would refuse, suggesting one all
    /// of them accept.
    fn check_name(&self, name: &str) -> Result<(), RegistryError> {
        for rule in &self.rules {
            if let Some(problem) = rule.check(name) {
                return Err(RegistryError::NameRefused {
                    name: name.to_owned(),
                    provider: rule.provider,
                    problem,
                    suggestion: NameRule::suggest(&self.rules, name),
                });
            }
        }
        Ok(())
    }

    fn has_deferred(&self) -> bool {
        self.deferred > 0
    }

    fn view(&self) -> &View {
        self.view.get_or_init(|| {
            let mut sorted: Vec<RegisteredTool> = self.tools.clone();
            sorted.sort_unstable_by(|a, b| a.name().cmp(b.name()));
            // Searched in name order, so ties rank the same whatever the
            // registration order.
            let search = self
                .has_deferred()
                .then(|| search_tool(Arc::new(SearchCorpus::new(&sorted))));
            if let Some(search) = &search {
                let at = sorted.partition_point(|tool| tool.name() < search.name());
                sorted.insert(at, search.clone());
            }
            View { sorted, search }
        })
    }

    /// The tool called `name`, if registered (or the built-in
    /// `tool_search`, when some tool is deferred).
    pub fn get(&self, name: &str) -> Option<&RegisteredTool> {
        match self.by_name.get(name) {
            Some(&index) => Some(&self.tools[index]),
            None if name == SEARCH_TOOL_NAME => self.view().search.as_ref(),
            None => None,
        }
    }

    /// Every tool's definition, sorted by name: deferred ones too, marked
    /// `defer_loading`, but not the built-in search. What a turn sends is
    /// [`definitions_for`](Self::definitions_for).
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.iter()
            .filter(|tool| !self.is_builtin_search(tool))
            .map(|tool| tool.definition().clone())
            .collect()
    }

    /// The registered tools sorted by name, the built-in `tool_search`
    /// among them when some tool is deferred.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &RegisteredTool> {
        self.view().sorted.iter()
    }

    /// How many tools are registered (the built-in search not counted).
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Whether `tool` is the built-in search (not a registered tool of
    /// that name).
    pub(crate) fn is_builtin_search(&self, tool: &RegisteredTool) -> bool {
        !self.by_name.contains_key(tool.name()) && tool.name() == SEARCH_TOOL_NAME
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_list()
            .entries(self.tools.iter().map(RegisteredTool::name))
            .finish()
    }
}

impl IntoToolset for ToolRegistry {
    /// The registry's tools, sorted by name (not the built-in search),
    /// each keeping its origin.
    fn into_toolset(self) -> Toolset {
        let tools = self
            .iter()
            .filter(|tool| !self.is_builtin_search(tool))
            .cloned()
            .collect();
        Toolset::of_tools("registry", tools)
    }
}
