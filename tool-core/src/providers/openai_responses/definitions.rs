//! Responses tool definitions.

use crate::model::ToolDefinition;
use crate::providers::common::{Api, convert_each};
use crate::providers::diagnostic::Converted;
use crate::providers::names::NameRule;
use crate::providers::openai::parameters;
use crate::providers::strict::Strict;
use serde_json::json;

/// The Responses API's tool list: deferred functions are marked
/// `defer_loading` and found by the hosted `tool_search` tool
/// (<https://developers.openai.com/api/docs/guides/tools-tool-search>,
/// checked 2026-12-02). It has no field for example inputs.
const RESPONSES: Api = Api {
    rule: NameRule::OPENAI,
    examples: None,
    search_tool: Some(|| json!({"type": "tool_search"})),
    max_tools: None,
};

/// The request's `tools`:
/// `[{"type":"function","name","description","parameters","strict"}]`.
///
/// The schema is written as for Chat Completions
/// ([`openai_chat::tools`](crate::providers::openai_chat::tools)), with
/// `strict` always present: the Responses API makes a function strict
/// unless told otherwise ("Whether to enforce strict parameter validation.
/// Default `true`.": `FunctionTool` in openai/openai-python, generated from
/// the API's OpenAPI spec), so [`Strict::Off`] writes `"strict": false`.
///
/// ```
/// use tool_core::providers::{openai_responses, Strict};
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let definitions = [ToolDefinition::new("echo", "Echo a value", json!({
///     "type": "object",
///     "properties": {"value": {"type": "string"}},
///     "required": ["value"],
/// }))];
/// let tools = openai_responses::tools(&definitions, Strict::Off);
/// assert_eq!(tools.value, json!([{
///     "type": "function",
///     "name": "echo",
///     "description": "Echo a value",
///     "parameters": {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]},
///     "strict": false,
/// }]));
/// ```
pub fn tools(definitions: &[ToolDefinition], strict: Strict) -> Converted {
    let mut converted = convert_each(definitions, &RESPONSES, |definition, report| {
        let (parameters, strict) = parameters(definition, strict, report);
        let mut function = json!({
            "type": "function",
            "name": definition.name,
            "description": definition.description,
            "parameters": parameters,
            "strict": strict,
        });
        if let Some(allowed) = super::programmatic::allowed_callers(definition.allowed_callers) {
            function["allowed_callers"] = allowed;
        }
        function
    });
    // Programs may call some of them: the tool that lets the model write one.
    if definitions
        .iter()
        .any(|definition| definition.allowed_callers.code)
        && let serde_json::Value::Array(tools) = &mut converted.value
    {
        tools.push(super::programmatic::programmatic_tool());
    }
    converted
}
