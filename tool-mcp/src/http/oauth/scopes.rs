//! Which scope each tool needs: an access token's
//! [`Grant`](crate::http::Grant) asks this table whether it may call a
//! tool (to filter `tools/list`, to answer a call it may not make 403) and
//! which tools its calls run with enabled (so `tool_search` finds no
//! other).

use super::OAuthConfig;
use crate::handler::Tools;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use tool_core::executor::Caller;
use tool_core::{RunOptions, ToolRegistry};

/// How many classes of callers (which of the table's scopes they hold)
/// keep their call options built: the default scopes make three, and a
/// configuration with many scopes of its own builds the rest per call.
const CLASSES_KEPT: usize = 64;

/// The scope each served tool needs, and the call options of the callers
/// whose scopes allow only some tools. Follows the server's tools as they
/// change ([`McpServer::update_tools`](crate::McpServer::update_tools)):
/// a tool added later needs its scope as one there at the start would.
pub(crate) struct ScopeTable {
    tool_scopes: HashMap<String, String>,
    read: String,
    write: String,
    /// The options of the server this table guards, which its calls run
    /// with.
    base: RunOptions,
    tools: Tools,
    state: RwLock<Arc<Needs>>,
}

/// What the table holds for one version of the served tools.
struct Needs {
    version: u64,
    needs: HashMap<String, Need>,
    /// Every scope some tool needs, once, sorted: a caller's class is
    /// which of them its scopes grant.
    scopes: Vec<String>,
    /// The base options with only the tools a class may call enabled, per
    /// class met so far; building them reads every tool, so not per call.
    classes: Mutex<HashMap<Vec<bool>, RunOptions>>,
}

impl Needs {
    fn empty() -> Needs {
        Needs {
            version: u64::MAX,
            needs: HashMap::new(),
            scopes: Vec::new(),
            classes: Mutex::default(),
        }
    }
}

/// Which of the table's scopes a tool needs.
#[derive(Clone, Copy)]
enum Need {
    Read,
    Write,
    /// Its own, configured.
    Own,
}

/// A tool [`OAuthConfig::with_tool_scope`] names that the server does not
/// have (a misspelling, most likely), and the tools it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name given.
    pub name: String,
    /// The server's tools, sorted.
    pub tools: Vec<String>,
}

impl std::fmt::Display for UnknownTool {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            out,
            "no tool is named {} (the tools are: {})",
            self.name,
            self.tools.join(", ")
        )
    }
}

impl std::error::Error for UnknownTool {}

impl OAuthConfig {
    /// Whether every tool [`with_tool_scope`](Self::with_tool_scope) names
    /// is one of `registry`'s: a misspelt name would leave the tool it
    /// meant at the default scope, and advertise a scope nothing needs,
    /// without a word. The server refuses to start on the first that is
    /// not; an application checks first to say so its own way.
    pub fn check_tool_scopes(&self, registry: &ToolRegistry) -> Result<(), UnknownTool> {
        let Some(name) = self
            .tool_scopes
            .keys()
            .find(|tool| registry.get(tool).is_none())
        else {
            return Ok(());
        };
        let mut tools: Vec<String> = registry.iter().map(|tool| tool.name().to_owned()).collect();
        tools.sort_unstable();
        Err(UnknownTool {
            name: name.clone(),
            tools,
        })
    }
}

/// [`OAuthConfig::check_tool_scopes`] as the server's start refuses it.
pub(crate) fn check_tool_scopes(
    config: &OAuthConfig,
    registry: &ToolRegistry,
) -> std::io::Result<()> {
    config.check_tool_scopes(registry).map_err(|unknown| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("OAuthConfig::with_tool_scope: {unknown}"),
        )
    })
}

impl ScopeTable {
    /// Every tool of `tools`: its own scope if configured, else the read
    /// scope when its annotations say read-only and are trusted (the
    /// built-in `tool_search`'s are; an imported tool's are not, unless its
    /// server is trusted), else the write scope. `base`: the options the
    /// server runs its calls with.
    pub(crate) fn new(config: &OAuthConfig, tools: &Tools, base: &RunOptions) -> ScopeTable {
        let mut table = ScopeTable {
            tool_scopes: config.tool_scopes.clone().into_iter().collect(),
            read: config.read_scope.clone(),
            write: config.write_scope.clone(),
            base: base.clone(),
            tools: tools.clone(),
            state: RwLock::new(Arc::new(Needs::empty())),
        };
        let needs = table.build();
        table.state = RwLock::new(Arc::new(needs));
        table
    }

    /// The needs of the tools served now: rebuilt once after each change.
    fn current(&self) -> Arc<Needs> {
        let version = self.tools.version();
        let state = Arc::clone(&self.state.read().unwrap_or_else(PoisonError::into_inner));
        if state.version == version {
            return state;
        }
        let fresh = Arc::new(self.build());
        *self.state.write().unwrap_or_else(PoisonError::into_inner) = Arc::clone(&fresh);
        fresh
    }

    fn build(&self) -> Needs {
        let version = self.tools.version();
        let listing = self.tools.current();
        let needs: HashMap<String, Need> = listing
            .registry
            .iter()
            .map(|tool| {
                let name = tool.name().to_owned();
                let need = if self.tool_scopes.contains_key(&name) {
                    Need::Own
                } else if tool.is_read_only() {
                    Need::Read
                } else {
                    Need::Write
                };
                (name, need)
            })
            .collect();
        let mut scopes: Vec<String> = needs
            .iter()
            .filter_map(|(tool, need)| self.scope(tool, *need))
            .map(str::to_owned)
            .collect();
        scopes.sort_unstable();
        scopes.dedup();
        Needs {
            version,
            needs,
            scopes,
            classes: Mutex::default(),
        }
    }

    fn scope(&self, tool: &str, need: Need) -> Option<&str> {
        match need {
            Need::Read => Some(&self.read),
            Need::Write => Some(&self.write),
            Need::Own => self.tool_scopes.get(tool).map(String::as_str),
        }
    }

    /// The scope `tool` needs; `None` for a name no tool has (the handler
    /// answers it as unknown).
    pub(crate) fn needs(&self, tool: &str) -> Option<&str> {
        let need = *self.current().needs.get(tool)?;
        self.scope(tool, need)
    }

    /// The scope `caller` lacks to call `tool`, if any. The write scope
    /// includes the read scope.
    pub(crate) fn missing(&self, caller: &Caller, tool: &str) -> Option<&str> {
        let needed = self.needs(tool)?;
        (!self.grants(caller, needed)).then_some(needed)
    }

    fn grants(&self, caller: &Caller, needed: &str) -> bool {
        caller.has_scope(needed) || (needed == self.read && caller.has_scope(&self.write))
    }

    /// The options `caller`'s calls run with: the server's, with only the
    /// tools its scopes allow (among those the server enables) enabled.
    /// The executor then refuses any other, and `tool_search`, which
    /// searches what the options make callable, never shows one.
    pub(crate) fn call_options(&self, caller: &Caller) -> RunOptions {
        let current = self.current();
        let class: Vec<bool> = current
            .scopes
            .iter()
            .map(|scope| self.grants(caller, scope))
            .collect();
        let classes = || {
            current
                .classes
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(options) = classes().get(&class) {
            return options.clone();
        }
        let granted = |needed: &str| {
            current
                .scopes
                .binary_search_by(|scope| scope.as_str().cmp(needed))
                .is_ok_and(|at| class[at])
        };
        let allowed = current
            .needs
            .iter()
            .filter(|(tool, need)| {
                self.base.is_enabled(tool) && self.scope(tool, **need).is_some_and(granted)
            })
            .map(|(tool, _)| tool.clone());
        let options = self.base.clone().with_enabled(allowed);
        let mut classes = classes();
        if classes.len() < CLASSES_KEPT {
            classes.insert(class, options.clone());
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tool_core::{DynamicTool, ToolAnnotations, ToolOutput};

    #[test]
    fn annotations_choose_the_scope_unless_configured_and_write_includes_read() {
        let mut registry = ToolRegistry::new();
        let tool = |name: &str, read_only: bool| {
            let mut annotations = ToolAnnotations::default();
            annotations.read_only = Some(read_only);
            DynamicTool::new(name, "a tool", |_args, _ctx| async {
                Ok(ToolOutput::text("ok"))
            })
            .with_annotations(annotations)
        };
        registry.register(tool("look", true)).unwrap();
        registry.register(tool("change", false)).unwrap();
        registry.register(tool("purge", false)).unwrap();
        let config =
            OAuthConfig::new("https://a", "https://r", "k").with_tool_scope("purge", "admin");
        let tools = Tools::new(registry.clone(), &RunOptions::new());
        let table = ScopeTable::new(&config, &tools, &RunOptions::new());
        assert_eq!(table.needs("look"), Some("tools:read"));
        assert_eq!(table.needs("change"), Some("tools:write"));
        assert_eq!(table.needs("purge"), Some("admin"));
        assert_eq!(table.needs("nothing"), None);

        let reader = Caller::new().with_scopes(["tools:read"]);
        assert_eq!(table.missing(&reader, "look"), None);
        assert_eq!(table.missing(&reader, "change"), Some("tools:write"));
        let writer = Caller::new().with_scopes(["tools:write"]);
        assert_eq!(table.missing(&writer, "look"), None);
        assert_eq!(table.missing(&writer, "change"), None);
        assert_eq!(table.missing(&writer, "purge"), Some("admin"));

        // The call options enable what the scopes allow, per class.
        let enabled = |options: RunOptions| -> Vec<&str> {
            ["look", "change", "purge"]
                .into_iter()
                .filter(|tool| options.is_enabled(tool))
                .collect()
        };
        assert_eq!(enabled(table.call_options(&reader)), ["look"]);
        assert_eq!(enabled(table.call_options(&writer)), ["look", "change"]);
        let admin = Caller::new().with_scopes(["admin", "tools:read"]);
        assert_eq!(enabled(table.call_options(&admin)), ["look", "purge"]);
        assert_eq!(enabled(table.call_options(&reader)), ["look"]);
        assert_eq!(table.current().classes.lock().unwrap().len(), 3);

        // A tool the server's own options do not enable stays off.
        let base = RunOptions::new().with_enabled(["change", "purge"]);
        let table = ScopeTable::new(&config, &tools, &base);
        assert_eq!(enabled(table.call_options(&writer)), ["change"]);
    }
}
