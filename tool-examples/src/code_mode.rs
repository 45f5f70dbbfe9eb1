//! `mcp --code-mode`: the served tools, upstream ones included, also as
//! one `run_code` tool (tool-code), so any MCP host can have its model
//! write one program over all of them instead of one call per turn: one
//! server that turns several others into one code-mode tool.

use tool_code::{CodeLimits, CodeMode, RUN_CODE_TOOL_NAME};
use tool_core::ToolRegistry;
use tool_core::registry::RegistryError;
use tool_core::toolset::IntoToolset;

/// `registry` with `run_code` over its other tools, built again when it
/// already has one (an upstream that connected late brought more tools:
/// the new `run_code` sees them, and its description declares them).
///
/// ```
/// use std::time::Duration;
/// use tool_code::CodeLimits;
/// use tool_examples::code_mode::with_run_code;
///
/// let root = tempfile::tempdir().unwrap();
/// let limits = CodeLimits::default().with_time(Duration::from_secs(5));
/// let tools = with_run_code(tool_examples::example_registry(root.path()).unwrap(), limits).unwrap();
/// let described = &tools.get("run_code").unwrap().definition().description;
/// assert!(described.contains("upper(args: {"));
/// assert!(described.contains("Limits: 5 s"), "{described}");
/// // Again, after more tools: still one run_code, now declaring them too.
/// let tools = with_run_code(tools, limits).unwrap();
/// assert_eq!(tools.iter().filter(|tool| tool.name() == "run_code").count(), 1);
/// ```
pub fn with_run_code(
    registry: ToolRegistry,
    limits: CodeLimits,
) -> Result<ToolRegistry, RegistryError> {
    CodeMode::new()
        .with_limits(limits)
        .registry(without_run_code(registry)?)
}

/// `registry`'s tools but `run_code`, each keeping where it came from.
fn without_run_code(registry: ToolRegistry) -> Result<ToolRegistry, RegistryError> {
    if registry.get(RUN_CODE_TOOL_NAME).is_none() {
        return Ok(registry);
    }
    let mut rest = ToolRegistry::new();
    rest.register_all(
        registry
            .into_toolset()
            .filtered(|tool| tool.name() != RUN_CODE_TOOL_NAME),
    )?;
    Ok(rest)
}
