//! The search evaluation's catalogue (`benches/data/search_eval/`), read
//! the same way by the benches that use it: each tool a deferred
//! `DynamicTool` with its real parameter schema, in one toolset.

use serde::Deserialize;
use serde_json::{Map, Value};
use tool_core::toolset::Toolset;
use tool_core::{Content, DynamicTool, ToolOutput, ToolRegistry};

/// Where the set lives.
pub(crate) const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/search_eval");

/// One line of `tools.jsonl`.
#[derive(Deserialize)]
pub(crate) struct ToolLine {
    /// The registered name: BFCL's, with `_` appended to a later variant.
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) parameters: Value,
}

/// Every line of `file` in the set, read as a `T`.
pub(crate) fn read_lines<T: for<'de> Deserialize<'de>>(file: &str) -> Vec<T> {
    let path = format!("{DATA}/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(at, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("{path}, line {}: {error}", at + 1))
        })
        .collect()
}

/// Every tool deferred, as an application with a large catalogue registers
/// it: only `tool_search` is shown up front. Each tool answers that it ran.
pub(crate) fn registry(tools: &[ToolLine]) -> ToolRegistry {
    let set = tools.iter().fold(Toolset::new("bfcl"), |set, tool| {
        let name = tool.name.clone();
        let tool = DynamicTool::new(
            tool.name.clone(),
            tool.description.clone(),
            move |_arguments: Map<String, Value>, _ctx| {
                let text = format!("{name} ran");
                async move { Ok(ToolOutput::new(vec![Content::text(text)])) }
            },
        )
        .with_parameters(tool.parameters.clone());
        set.with(tool)
    });
    let mut registry = ToolRegistry::new();
    registry
        .register_all(set.deferred())
        .expect("every tool registers (build with --features schema-check)");
    registry
}
