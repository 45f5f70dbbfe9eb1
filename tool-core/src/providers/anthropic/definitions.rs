//! Anthropic tool definitions, strict or not.

use super::limits::Budget;
use super::strict::RULES;
use crate::model::ToolDefinition;
use crate::providers::common::{Api, convert_each};
use crate::providers::diagnostic::{Converted, Report};
use crate::providers::merge_root::{ANTHROPIC, flatten_root};
use crate::providers::names::NameRule;
use crate::providers::strict::{NO_STRICT_FORM, Strict, report_not_strict, strict_schema};
use serde_json::{Map, Value};

/// Anthropic's tool list: example inputs go in `input_examples`, and
/// deferred tools are marked `defer_loading` and found by a tool search.
/// Tool search is generally available, with no beta header: the header
/// `advanced-tool-use-2025-11-20` left the docs on 2026-02-18, and the
/// Python SDK moved its types out of `beta` in 0.80.0
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>,
/// <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-use-examples>,
/// checked 2026-12-07). A request may defer at most 10,000 tools and must
/// keep one not deferred; it has no documented limit on its tools.
const MESSAGES: Api = Api {
    rule: NameRule::ANTHROPIC,
    examples: Some("input_examples"),
    search_tool: Some(
        || serde_json::json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
    ),
    max_tools: None,
};

/// How Claude finds a request's deferred tools (`defer_loading`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolSearch {
    /// Anthropic's server-side BM25 search tool,
    /// `tool_search_tool_bm25_20251119`, after the tools: it searches
    /// names, descriptions and parameters with natural language.
    #[default]
    Bm25,
    /// Anthropic's server-side regex search tool,
    /// `tool_search_tool_regex_20251119`: Claude writes a Python regex.
    Regex,
    /// No server-side search: the built-in `tool_search` is among the
    /// definitions (send [`ToolRegistry::definitions_for_referenced_search`](crate::ToolRegistry::definitions_for_referenced_search)),
    /// and its answers are written as `tool_reference` blocks
    /// ([`write_result_referencing`](super::write_result_referencing)), so
    /// the tools block never changes between turns and the prompt cache
    /// holds: "Deferred tools are not included in the system-prompt prefix
    /// [...] The prefix is untouched, so prompt caching is preserved"
    /// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching>).
    Client,
}

/// The request's `tools`: `[{"name","description","input_schema","strict"?}]`.
///
/// With [`Strict::Off`] the full schema is kept, but for an enum as the
/// whole parameters, written as one object (its diagnostic says how): the
/// Messages API answers a choice there with HTTP 400, "input_schema does
/// not support oneOf, allOf, or anyOf at the top level".
///
/// With [`Strict::On`] each tool has `"strict": true` and the form of its
/// schema Anthropic's strict tool use takes: what that subset lacks
/// (number bounds, string lengths, `minItems` above 1, `oneOf`, tuples,
/// `uniqueItems`, ...) dropped or rewritten and said so, optional
/// properties kept optional. A tool whose schema cannot be strict (a map,
/// a value of any type, a recursive type), or one past the request's
/// limits (20 strict tools, 24 optional and 16 union-typed parameters over
/// all of them), is sent without `strict` and its schema as
/// [`Strict::Off`] writes it, and the reason is reported.
///
/// ```
/// use tool_core::providers::{anthropic, Strict};
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"city": {"type": "string", "maxLength": 80}, "days": {"type": "integer"}},
///     "required": ["city"],
///     "additionalProperties": false,
/// });
/// let definitions = [ToolDefinition::new("get_weather", "Get the weather", schema.clone())];
///
/// let tools = anthropic::tools(&definitions, Strict::Off);
/// assert_eq!(tools.value, json!([{"name": "get_weather", "description": "Get the weather", "input_schema": schema}]));
/// assert!(tools.diagnostics.is_empty());
///
/// let strict = anthropic::tools(&definitions, Strict::On);
/// assert_eq!(strict.value[0]["strict"], true);
/// // What strict mode dropped, the model still reads in the description.
/// assert_eq!(strict.value[0]["input_schema"]["properties"]["city"], json!({"type": "string", "description": "At most 80 characters."}));
/// assert_eq!(strict.value[0]["input_schema"]["required"], json!(["city"]));
/// assert_eq!(strict.diagnostics[0].path, "/properties/city/maxLength");
/// ```
pub fn tools(definitions: &[ToolDefinition], strict: Strict) -> Converted {
    tools_with_search(definitions, strict, ToolSearch::Bm25)
}

/// [`tools`], with deferred tools found by `search`: Anthropic's BM25 or
/// regex search tool after the tools, or none when the built-in
/// `tool_search` answers with `tool_reference` blocks ([`ToolSearch::Client`]).
/// A request whose every tool is deferred is reported: Anthropic refuses
/// it ("At least one tool must have defer_loading=false").
///
/// ```
/// use tool_core::providers::anthropic::{self, ToolSearch};
/// use tool_core::providers::Strict;
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let mut weather = ToolDefinition::new("weather", "Get the weather", json!({"type": "object"}));
/// weather.defer_loading = true;
/// let echo = ToolDefinition::new("echo", "Echo a value", json!({"type": "object"}));
/// let definitions = [echo, weather];
///
/// let regex = anthropic::tools_with_search(&definitions, Strict::Off, ToolSearch::Regex);
/// assert_eq!(regex.value[2], json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}));
/// let client = anthropic::tools_with_search(&definitions, Strict::Off, ToolSearch::Client);
/// assert_eq!(client.value.as_array().unwrap().len(), 2);
/// assert_eq!(client.value[1]["defer_loading"], true);
/// ```
pub fn tools_with_search(
    definitions: &[ToolDefinition],
    strict: Strict,
    search: ToolSearch,
) -> Converted {
    let api = match search {
        ToolSearch::Bm25 => MESSAGES,
        ToolSearch::Regex => Api {
            search_tool: Some(
                || serde_json::json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}),
            ),
            ..MESSAGES
        },
        // The deferral is still written: the references load the tools.
        ToolSearch::Client => Api {
            search_tool: Some(|| Value::Null),
            ..MESSAGES
        },
    };
    let mut converted = convert(definitions, strict, &api);
    if super::programmatic::any_from_code(definitions.iter().map(|d| d.allowed_callers))
        && let Value::Array(tools) = &mut converted.value
    {
        tools.push(super::programmatic::code_execution_tool());
    }
    if search == ToolSearch::Client
        && let Value::Array(tools) = &mut converted.value
    {
        tools.retain(|tool| !tool.is_null());
    }
    if let Some(first) = definitions.first()
        && definitions
            .iter()
            .all(|definition| definition.defer_loading)
    {
        converted.diagnostics.push(crate::providers::Diagnostic {
            tool: first.name.clone(),
            path: String::new(),
            message: "every tool is deferred, and Anthropic refuses that (\"At least one tool \
                      must have defer_loading=false\"): keep one up front, such as the search"
                .to_owned(),
        });
    }
    converted
}

fn convert(definitions: &[ToolDefinition], strict: Strict, api: &Api) -> Converted {
    let mut budget = Budget::default();
    convert_each(definitions, api, |definition, report| {
        let flat = flatten_root(&definition.parameters, &ANTHROPIC, report);
        let (schema, is_strict) = match strict {
            Strict::Off => (flat.into_owned(), false),
            // "Strict tools are not supported with programmatic calling."
            Strict::On if definition.allowed_callers.code => {
                report_not_strict(
                    report,
                    "without \"strict\"",
                    *flat == definition.parameters,
                    "Anthropic",
                    "code may call the tool (programmatic tool calling), which takes no strict tools",
                );
                (flat.into_owned(), false)
            }
            Strict::On => match strict_within(&flat, &mut budget, report) {
                Ok(strict) => (strict, true),
                Err(why) => {
                    let unchanged = *flat == definition.parameters;
                    let why = why.as_deref().unwrap_or(NO_STRICT_FORM);
                    report_not_strict(report, "without \"strict\"", unchanged, "Anthropic", why);
                    (flat.into_owned(), false)
                }
            },
        };
        let mut tool = Map::new();
        tool.insert("name".into(), Value::String(definition.name.clone()));
        tool.insert(
            "description".into(),
            Value::String(definition.description.clone()),
        );
        tool.insert("input_schema".into(), schema);
        if is_strict {
            tool.insert("strict".into(), Value::Bool(true));
        }
        if let Some(allowed) = super::programmatic::allowed_callers(definition.allowed_callers) {
            tool.insert("allowed_callers".into(), allowed);
        }
        Value::Object(tool)
    })
}

/// The strict form of `schema` when it has one and the request's limits
/// leave room for it. Otherwise `Err`: `None` when it has none (the
/// reasons reported), the limit it would pass when it has one.
fn strict_within(
    schema: &Value,
    budget: &mut Budget,
    report: &mut Report<'_>,
) -> Result<Value, Option<String>> {
    let reported_before = report.diagnostics.len();
    let strict = strict_schema(schema, &RULES, report).ok_or(None)?;
    match budget.take(&strict) {
        Ok(()) => Ok(strict),
        Err(why) => {
            // The strict form is not what is sent: its changes are not news.
            report.diagnostics.truncate(reported_before);
            Err(Some(format!(
                "this request's strict tools are at a limit: {why} (\"Schema complexity limits\")"
            )))
        }
    }
}
