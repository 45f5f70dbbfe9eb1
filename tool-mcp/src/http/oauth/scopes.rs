//! Which scope each tool needs, and what a request was granted: the gate
//! puts a [`Grant`] in the request's extensions, where the handler finds
//! it (rmcp hands the request's `http::request::Parts` to the handler's
//! context) to filter `tools/list` and to tell the before hook who called.

use super::OAuthConfig;
use std::collections::HashMap;
use std::sync::Arc;
use tool_core::ToolRegistry;
use tool_core::executor::Caller;

/// The scope each registered tool needs.
pub(crate) struct ScopeTable {
    needs: HashMap<String, String>,
    read: String,
    write: String,
}

impl ScopeTable {
    /// Every tool of `registry`: its own scope if configured, else the
    /// read scope when its annotations say read-only, else the write scope.
    pub(crate) fn new(config: &OAuthConfig, registry: &ToolRegistry) -> ScopeTable {
        let needs = registry
            .iter()
            .map(|tool| {
                let name = tool.name().to_owned();
                let scope = match config.tool_scopes.get(&name) {
                    Some(scope) => scope.clone(),
                    None if tool.annotations().read_only == Some(true) => config.read_scope.clone(),
                    None => config.write_scope.clone(),
                };
                (name, scope)
            })
            .collect();
        ScopeTable {
            needs,
            read: config.read_scope.clone(),
            write: config.write_scope.clone(),
        }
    }

    /// The scope `tool` needs; `None` for a name no tool has (the handler
    /// answers it as unknown).
    pub(crate) fn needs(&self, tool: &str) -> Option<&str> {
        self.needs.get(tool).map(String::as_str)
    }

    /// The scope `caller` lacks to call `tool`, if any. The write scope
    /// includes the read scope.
    pub(crate) fn missing(&self, caller: &Caller, tool: &str) -> Option<&str> {
        let needed = self.needs(tool)?;
        let granted =
            caller.has_scope(needed) || (needed == self.read && caller.has_scope(&self.write));
        (!granted).then_some(needed)
    }
}

/// What a request's credentials allow.
#[derive(Clone)]
pub(crate) enum Grant {
    /// The static token: every tool, and no one named.
    Everything,
    /// An OAuth access token: the tools its scopes allow.
    Scoped {
        caller: Arc<Caller>,
        scopes: Arc<ScopeTable>,
    },
}

impl Grant {
    /// The scope this grant lacks to call `tool`, if any.
    pub(crate) fn missing(&self, tool: &str) -> Option<&str> {
        match self {
            Grant::Everything => None,
            Grant::Scoped { caller, scopes } => scopes.missing(caller, tool),
        }
    }

    /// The caller, when the credentials named one.
    pub(crate) fn caller(&self) -> Option<&Arc<Caller>> {
        match self {
            Grant::Everything => None,
            Grant::Scoped { caller, .. } => Some(caller),
        }
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
        let table = ScopeTable::new(&config, &registry);
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
    }
}
