//! What one turn shows the model: the registry's tools as the run options
//! see them (enabled, prepared, deferred or loaded).

use super::{RegisteredTool, ToolDefinition, ToolRegistry};
use crate::turn::Turn;
use std::borrow::Cow;

impl ToolRegistry {
    /// The tools `turn` offers whose names `sent` most likely misspells,
    /// at most `limit`: the "did you mean" of a call of an unknown tool
    /// (the same near-miss rule as a misspelt field's: case and
    /// separators ignored, one or two edits by length).
    ///
    /// ```
    /// use tool_core::{DynamicTool, RunOptions, ToolOutput, ToolRegistry};
    ///
    /// let mut tools = ToolRegistry::new();
    /// for name in ["get_weather", "set_timer"] {
    ///     tools.register(DynamicTool::new(name, "A tool", |_, _| async { Ok(ToolOutput::text("ok")) })).unwrap();
    /// }
    /// assert_eq!(tools.names_like("get_wether", &RunOptions::new(), 3), ["get_weather"]);
    /// assert!(tools.names_like("ghost", &RunOptions::new(), 3).is_empty());
    /// ```
    pub fn names_like(&self, sent: &str, turn: &impl AsRef<Turn>, limit: usize) -> Vec<&str> {
        let turn = turn.as_ref();
        self.iter()
            .filter(|tool| tool.is_available_in(turn))
            .map(RegisteredTool::name)
            .filter(|name| {
                crate::params::suggest::near_miss(name, std::iter::once(sent), &[]).is_some()
            })
            .take(limit)
            .collect()
    }

    /// The definitions to send the model in a turn run with `options`,
    /// for any provider: the tools that are not deferred, sorted by name,
    /// with the built-in `tool_search` among them when some tool is
    /// deferred; then the deferred tools the options load
    /// ([`RunOptions::with_loaded`](crate::RunOptions::with_loaded)), in the order they were loaded. Tools
    /// the options do not enable, or a toolset's preparation hides, are
    /// left out.
    ///
    /// A search only ever appends, so the definitions sent before it keep
    /// their bytes and order. That keeps a cache that matches a prefix of
    /// the tools alone, not Anthropic's: its cache is one prefix, tools
    /// then system then messages, and a change to the tools invalidates
    /// all of it
    /// (<https://docs.claude.com/en/docs/build-with-claude/prompt-caching>,
    /// "what invalidates the cache"). For Anthropic, send every tool with
    /// [`definitions_for_native_search`](Self::definitions_for_native_search)
    /// and let its own search load them.
    ///
    /// ```
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, RunOptions, ToolOutput, ToolRegistry};
    ///
    /// let tool = |name: &str, description: &str| {
    ///     DynamicTool::new(name, description, |_args, _ctx| async { Ok(ToolOutput::text("")) })
    /// };
    /// let mut tools = ToolRegistry::new();
    /// tools.register(tool("echo", "Echo a value")).unwrap();
    /// tools.register_all(
    ///     Toolset::new("extra")
    ///         .with(tool("weather", "Get the weather"))
    ///         .with(tool("stocks", "Get a stock price"))
    ///         .deferred(),
    /// ).unwrap();
    ///
    /// let names = |options: &RunOptions| -> Vec<String> {
    ///     tools.definitions_for(options).into_iter().map(|d| d.name).collect()
    /// };
    /// assert_eq!(names(&RunOptions::new()), ["echo", "tool_search"]);
    /// let later = RunOptions::new().with_loaded(["weather"]);
    /// assert_eq!(names(&later), ["echo", "tool_search", "weather"]);
    /// ```
    pub fn definitions_for(&self, turn: &impl AsRef<Turn>) -> Vec<ToolDefinition> {
        let options = turn.as_ref();
        let mut shown: Vec<ToolDefinition> = self
            .iter()
            .filter(|tool| !tool.is_deferred())
            .filter_map(|tool| shown_in(tool, options))
            .collect();
        let mut loaded: Vec<&str> = Vec::new();
        for name in options.loaded() {
            let Some(tool) = self.get(name) else { continue };
            if !tool.is_deferred() || loaded.contains(&tool.name()) {
                continue;
            }
            loaded.push(tool.name());
            if let Some(mut definition) = shown_in(tool, options) {
                definition.defer_loading = false;
                shown.push(definition);
            }
        }
        shown
    }

    /// The definitions to send a provider that searches deferred tools
    /// itself (Anthropic's tool search tool, OpenAI's `tool_search`): every
    /// tool the options enable and no preparation hides, sorted by name,
    /// deferred ones marked `defer_loading`, and not the built-in
    /// `tool_search` (the format adds the provider's own search tool, see
    /// [`anthropic::tools`](crate::providers::anthropic::tools) and
    /// [`openai_responses::tools`](crate::providers::openai_responses::tools)).
    ///
    /// ```
    /// use tool_core::providers::{anthropic, Strict};
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, RunOptions, ToolOutput, ToolRegistry};
    ///
    /// let tool = |name: &str| DynamicTool::new(name, "", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let mut tools = ToolRegistry::new();
    /// tools.register(tool("echo")).unwrap();
    /// tools.register_all(Toolset::new("extra").with(tool("weather")).deferred()).unwrap();
    ///
    /// let definitions = tools.definitions_for_native_search(&RunOptions::new());
    /// let request = anthropic::tools(&definitions, Strict::Off).value;
    /// assert_eq!(request[1]["name"], "weather");
    /// assert_eq!(request[1]["defer_loading"], true);
    /// assert_eq!(request[2]["type"], "tool_search_tool_bm25_20251119");
    /// ```
    pub fn definitions_for_native_search(&self, turn: &impl AsRef<Turn>) -> Vec<ToolDefinition> {
        let options = turn.as_ref();
        self.iter()
            .filter(|tool| !self.is_builtin_search(tool))
            .filter_map(|tool| shown_in(tool, options))
            .collect()
    }

    /// The definitions for a provider whose requests carry every tool, the
    /// deferred ones marked `defer_loading`, found by the built-in
    /// `tool_search` whose answers load them by reference (Anthropic's
    /// `tool_reference` blocks: [`ToolSearch::Client`](crate::providers::anthropic::ToolSearch::Client),
    /// [`write_result_referencing`](crate::providers::anthropic::write_result_referencing)):
    /// what [`definitions_for_native_search`](Self::definitions_for_native_search)
    /// gives, and `tool_search` among them, not deferred. The list is the
    /// same every turn, so a provider's prompt cache holds across searches.
    ///
    /// ```
    /// use tool_core::providers::anthropic::{self, ToolSearch};
    /// use tool_core::providers::Strict;
    /// use tool_core::toolset::Toolset;
    /// use tool_core::{DynamicTool, RunOptions, ToolOutput, ToolRegistry};
    ///
    /// let tool = |name: &str| DynamicTool::new(name, "", |_args, _ctx| async { Ok(ToolOutput::text("")) });
    /// let mut tools = ToolRegistry::new();
    /// tools.register(tool("echo")).unwrap();
    /// tools.register_all(Toolset::new("extra").with(tool("weather")).deferred()).unwrap();
    ///
    /// let definitions = tools.definitions_for_referenced_search(&RunOptions::new());
    /// let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    /// assert_eq!(names, ["echo", "tool_search", "weather"]);
    /// let request = anthropic::tools_with_search(&definitions, Strict::Off, ToolSearch::Client);
    /// assert_eq!(request.value[2]["defer_loading"], true);
    /// assert!(request.value[1].get("defer_loading").is_none());
    /// ```
    pub fn definitions_for_referenced_search(
        &self,
        turn: &impl AsRef<Turn>,
    ) -> Vec<ToolDefinition> {
        let options = turn.as_ref();
        self.iter()
            .filter_map(|tool| shown_in(tool, options))
            .collect()
    }
}

/// The tool's definition in this turn, if the options show it.
fn shown_in(tool: &RegisteredTool, options: &Turn) -> Option<ToolDefinition> {
    if !options.is_enabled(tool.name()) {
        return None;
    }
    tool.definition_for(options).map(Cow::into_owned)
}
