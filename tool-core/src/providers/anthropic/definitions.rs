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
/// deferred tools are marked `defer_loading` and found by Anthropic's own
/// BM25 tool search tool. Both need the `advanced-tool-use-2025-11-20`
/// beta header on the request
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>,
/// <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-use-examples>,
/// checked 2026-12-02).
const MESSAGES: Api = Api {
    rule: NameRule::ANTHROPIC,
    examples: Some("input_examples"),
    search_tool: Some(
        || serde_json::json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
    ),
};

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
/// assert_eq!(strict.value[0]["input_schema"]["properties"]["city"], json!({"type": "string"}));
/// assert_eq!(strict.value[0]["input_schema"]["required"], json!(["city"]));
/// assert_eq!(strict.diagnostics[0].path, "/properties/city/maxLength");
/// ```
pub fn tools(definitions: &[ToolDefinition], strict: Strict) -> Converted {
    let mut budget = Budget::default();
    convert_each(definitions, &MESSAGES, |definition, report| {
        let flat = flatten_root(&definition.parameters, &ANTHROPIC, report);
        let (schema, is_strict) = match strict {
            Strict::Off => (flat.into_owned(), false),
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
