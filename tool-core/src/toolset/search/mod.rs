//! `tool_search`: the built-in tool that finds deferred tools for a model
//! whose provider has no tool search of its own (and for MCP clients).
//!
//! The model calls it with a query; it answers with the definitions of the
//! tools it found, which the model can read at once, and their names in
//! the result's details (`{"found": [..]}`), which the application adds to
//! the next turn's loaded set ([`RunOptions::load_found`](crate::RunOptions::load_found)).
//! The loaded set lives in the turn ([`Turn`]), not in the registry, so a
//! turn is reproducible from its options alone.
//!
//! A search finds only the tools the call's turn makes callable (those
//! [`RunOptions::with_enabled`] enables and no toolset's preparation hides,
//! the executor's own test): a caller restricted to some tools, such as an
//! MCP client whose token allows only read-only ones, never learns the
//! definitions of the others from it.

mod index;
mod tokens;

use crate::model::ToolAnnotations;
use crate::model::ToolDefinition;
use crate::model::ToolResultMessage;
use crate::registered::RegisteredTool;
use crate::tool::{DynamicTool, ToolContext, ToolError, ToolOutput};
use crate::turn::Turn;
use index::Index;
use serde_json::{Map, Value, json};
use std::sync::{Arc, OnceLock};

/// The built-in search tool's name, valid under every provider's rule.
pub const SEARCH_TOOL_NAME: &str = crate::model::SEARCH_TOOL;

/// The text `tool_search` ranks and matches for a tool: its name, its
/// description, then each parameter's `name: description` and its allowed
/// values, a line each. Public so another ranker can be measured on the
/// same text (`scripts/search-eval.sh`, `scripts/bm25-compare.sh`).
///
/// ```
/// use serde_json::json;
/// use tool_core::ToolDefinition;
///
/// let weather = ToolDefinition::new("get_weather", "Get the weather", json!({
///     "type": "object",
///     "properties": {"unit": {"type": "string", "description": "The unit", "enum": ["c", "f"]}},
/// }));
/// assert_eq!(tool_core::toolset::searchable_text(&weather), "get_weather\nGet the weather\nunit: The unit\nc, f");
/// ```
pub fn searchable_text(definition: &ToolDefinition) -> String {
    index::fields(definition, |_, _| {})
}

/// Results a search returns when the call gives no limit.
const DEFAULT_LIMIT: u64 = 5;
/// Most results one search may return: enough to choose from, few enough
/// that a search cannot send a thousand schemas back.
const MAX_LIMIT: u64 = 20;
/// Longest regex accepted, as Anthropic's regex tool search allows.
const MAX_PATTERN_CHARS: usize = 200;
/// Compiled size limit of a regex: a pattern cannot make the search slow.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// How `tool_search` matches its query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Words, ranked by BM25F over names, descriptions, parameters and
    /// their allowed values, a word in the name counting most (see
    /// `index.rs`); plurals match singulars, and common English words
    /// ("could you tell me") are left out.
    Bm25,
    /// A regular expression (Rust's `regex` syntax, case-insensitive),
    /// matched against the same text; tools whose name matches come
    /// first.
    Regex,
}

/// The deferred tools a search runs over (the registered tools, whose
/// availability in a call's turn is asked of them), indexed the first
/// time a search needs them.
pub(crate) struct SearchCorpus {
    tools: Vec<RegisteredTool>,
    index: OnceLock<Index>,
}

impl SearchCorpus {
    pub(crate) fn new(tools: &[RegisteredTool]) -> Self {
        SearchCorpus {
            tools: tools
                .iter()
                .filter(|tool| tool.is_deferred())
                .cloned()
                .collect(),
            index: OnceLock::new(),
        }
    }

    fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Index::new(self.tools.iter().map(RegisteredTool::definition)))
    }

    /// The definitions `query` finds, best first, among the tools `turn`
    /// makes callable (all of them without one: a search run by hand with
    /// a bare [`ToolContext`]).
    pub(crate) fn find(
        &self,
        query: &str,
        mode: SearchMode,
        limit: usize,
        turn: Option<&Turn>,
    ) -> Result<Vec<&ToolDefinition>, String> {
        let index = self.index();
        let keep =
            |position: usize| turn.is_none_or(|turn| self.tools[position].is_available_in(turn));
        let positions: Vec<usize> = match mode {
            SearchMode::Bm25 => index
                .bm25(query, limit, keep)
                .into_iter()
                .map(|(document, _)| document)
                .collect(),
            SearchMode::Regex => regex_matches(index, query, limit, keep)?,
        };
        Ok(positions
            .into_iter()
            .map(|position| self.tools[position].definition())
            .collect())
    }
}

/// Tools whose name matches first, then those matching elsewhere in their
/// text, each group in the registry's order; only those `keep` keeps.
fn regex_matches(
    index: &Index,
    pattern: &str,
    limit: usize,
    keep: impl Fn(usize) -> bool,
) -> Result<Vec<usize>, String> {
    if pattern.chars().count() > MAX_PATTERN_CHARS {
        return Err(format!(
            "the pattern is longer than {MAX_PATTERN_CHARS} characters"
        ));
    }
    let regex = regex::RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|error| format!("the pattern is not a valid regex: {error}"))?;
    // Each name is matched once: the tools it matches lead, the others
    // are kept to be tried on their whole text. Enough names end the scan.
    let mut by_name = Vec::new();
    let mut others = Vec::new();
    for at in (0..index.documents.len()).filter(|&at| keep(at)) {
        if by_name.len() == limit {
            return Ok(by_name);
        }
        if regex.is_match(&index.documents[at].name) {
            by_name.push(at);
        } else {
            others.push(at);
        }
    }
    let elsewhere = others
        .into_iter()
        .filter(|&at| regex.is_match(&index.documents[at].text));
    Ok(by_name.into_iter().chain(elsewhere).take(limit).collect())
}

/// The `tool_search` tool over `corpus`, as a registry offers it.
pub(crate) fn search_tool(corpus: Arc<SearchCorpus>) -> RegisteredTool {
    let description = "Find tools that are not loaded yet. Give a few words saying what you \
         want to do (mode \"bm25\", the default) or a regular expression over tool names and \
         descriptions (mode \"regex\"). Answers with the definitions of the tools found; call \
         them by name from the next turn on.";
    let parameters = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "description": "Words describing the tool you need, or a regex in regex mode"},
            "mode": {"type": "string", "enum": ["bm25", "regex"], "description": "How to match the query (default bm25)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most tools to return (default 5)"}
        },
        "required": ["query"],
        "additionalProperties": false
    });
    // It only reads definitions: read-only, so a server that grants
    // read-only tools to some callers (tool-mcp's OAuth scopes) lets them
    // search too.
    let annotations = ToolAnnotations {
        read_only: Some(true),
        ..ToolAnnotations::default()
    };
    let tool = DynamicTool::new(
        SEARCH_TOOL_NAME,
        description,
        move |arguments, ctx: ToolContext| {
            let corpus = Arc::clone(&corpus);
            async move { run(&corpus, &arguments, ctx.turn.as_deref()) }
        },
    )
    .with_parameters_it_checks(parameters)
    .with_annotations(annotations);
    RegisteredTool::new(tool).seeing_turn()
}

fn run(
    corpus: &SearchCorpus,
    arguments: &Map<String, Value>,
    turn: Option<&Turn>,
) -> Result<ToolOutput<Value>, ToolError> {
    // The schema was checked before the call ran when this build can; when
    // it cannot, a missing or mistyped argument takes its default.
    let query = arguments.get("query").and_then(Value::as_str).unwrap_or("");
    let mode = match arguments.get("mode").and_then(Value::as_str) {
        Some("regex") => SearchMode::Regex,
        _ => SearchMode::Bm25,
    };
    let limit = arguments
        .get("limit")
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_LIMIT)
        .min(MAX_LIMIT) as usize;
    let found = corpus.find(query, mode, limit, turn)?;
    let names: Vec<&str> = found
        .iter()
        .map(|definition| definition.name.as_str())
        .collect();
    let details = json!({"found": names});
    if found.is_empty() {
        return Ok(
            ToolOutput::text(format!("No tool matches {query:?}; try other words."))
                .with_details(details),
        );
    }
    let mut text = format!(
        "Found {} tools for {query:?}; call them by name from the next turn on:",
        found.len()
    );
    for definition in &found {
        let shown = json!({
            "name": definition.name,
            "description": definition.description,
            "parameters": definition.parameters,
        });
        text.push('\n');
        text.push_str(&shown.to_string());
    }
    Ok(ToolOutput::text(text).with_details(details))
}

/// The names `tool_search` found in these results, in order, each once:
/// what the next turn should load
/// ([`RunOptions::load_found`](crate::RunOptions::load_found) does both).
///
/// ```
/// use tool_core::toolset::found_tools;
/// use tool_core::ToolResultMessage;
/// use serde_json::json;
///
/// let result: ToolResultMessage = serde_json::from_value(json!({
///     "role": "toolResult", "toolCallId": "c1", "toolName": "tool_search",
///     "content": [{"type": "text", "text": "Found 1 tools .."}],
///     "details": {"found": ["weather_get"]}, "isError": false, "timestamp": 0
/// })).unwrap();
/// assert_eq!(found_tools(&[result.clone(), result]), ["weather_get"]);
/// ```
pub fn found_tools(results: &[ToolResultMessage]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let found = results
        .iter()
        .filter(|result| result.tool_name == SEARCH_TOOL_NAME && !result.is_error)
        .filter_map(|result| result.details.as_ref()?.get("found")?.as_array())
        .flatten()
        .filter_map(Value::as_str);
    for name in found {
        if !names.iter().any(|seen| seen == name) {
            names.push(name.to_owned());
        }
    }
    names
}
