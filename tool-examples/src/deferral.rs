//! Many tools served through search (`--defer-all-except`): every tool but
//! a few core ones waits for the built-in `tool_search`, so a model (or an
//! MCP client) is shown a short list up front and finds the rest by what
//! they do, instead of reading every schema in every request.
//!
//! `call`, `mcp` and `definitions` all go through here, after the example
//! tools and any upstream ones are registered, so the three agree on what
//! is deferred and on what a model is shown.

use tool_core::providers::ProviderFormat;
use tool_core::registry::RegistryError;
use tool_core::toolset::IntoToolset;
use tool_core::{RunOptions, ToolDefinition, ToolRegistry};

/// `registry` again with every tool but those named in `core` deferred, so
/// it offers the built-in `tool_search`; unchanged when `core` is empty
/// (the flag not given). A name in `core` that is none of the tools is an
/// error naming it and listing the tools, and nothing is deferred.
///
/// The registry is rebuilt from its own tools
/// ([`IntoToolset`] for [`ToolRegistry`]), each keeping where it came from,
/// so a later collision still names both sides. The name rules of
/// [`ToolRegistry::for_formats`] are not carried over: the binary's
/// registries have none.
///
/// ```
/// use tool_examples::deferral::defer_all_except;
///
/// let root = tempfile::tempdir().unwrap();
/// let tools = tool_examples::example_registry(root.path()).unwrap();
/// let tools = defer_all_except(tools, &["echo".to_owned()]).unwrap();
/// assert!(!tools.get("echo").unwrap().is_deferred());
/// assert!(tools.get("upper").unwrap().is_deferred());
/// assert!(tools.get("tool_search").is_some());
///
/// let tools = tool_examples::example_registry(root.path()).unwrap();
/// let error = defer_all_except(tools, &["ecko".to_owned()]).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "Toolset registry: keeps ecko up front, which it does not have \
///      (it has: echo, label, list, read, upper, wait, write)"
/// );
/// ```
pub fn defer_all_except(
    registry: ToolRegistry,
    core: &[String],
) -> Result<ToolRegistry, RegistryError> {
    if core.is_empty() {
        return Ok(registry);
    }
    let mut deferred = ToolRegistry::new();
    deferred.register_all(registry.into_toolset().deferred_except(core))?;
    Ok(deferred)
}

/// What a model is shown of `registry`'s tools in `format` at the start of
/// a run: for a provider that searches deferred tools itself (Anthropic,
/// OpenAI Responses: [`ProviderFormat::searches_natively`]) every tool,
/// the deferred ones for the format to mark `defer_loading` beside its own
/// search tool; for the others, the tools not deferred and `tool_search`.
/// Without deferred tools both are every tool, sorted by name.
///
/// ```
/// use tool_core::providers::{ProviderFormat, Strict};
/// use tool_examples::deferral::{defer_all_except, shown_definitions};
///
/// let root = tempfile::tempdir().unwrap();
/// let tools = tool_examples::example_registry(root.path()).unwrap();
/// let tools = defer_all_except(tools, &["echo".to_owned()]).unwrap();
/// let names = |format| -> Vec<String> {
///     shown_definitions(&tools, format).into_iter().map(|d| d.name).collect()
/// };
/// assert_eq!(names(ProviderFormat::Mcp), ["echo", "tool_search"]);
/// assert_eq!(names(ProviderFormat::Anthropic(Strict::Off)).len(), 7);
/// ```
pub fn shown_definitions(registry: &ToolRegistry, format: ProviderFormat) -> Vec<ToolDefinition> {
    let first_turn = RunOptions::new();
    if format.searches_natively() {
        registry.definitions_for_native_search(&first_turn)
    } else {
        registry.definitions_for(&first_turn)
    }
}
