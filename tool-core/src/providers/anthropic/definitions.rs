//! Anthropic tool definitions.

use crate::providers::common::convert_each;
use crate::providers::diagnostic::Converted;
use crate::providers::merge_root::{ANTHROPIC, flatten_root};
use crate::providers::names::NameRule;
use crate::registry::ToolDefinition;
use serde_json::json;

/// The request's `tools`: `[{"name","description","input_schema"}]`.
///
/// The full schema is kept, but for an enum as the whole parameters,
/// written as one object (its diagnostic says how): the Messages API
/// answers a choice there with HTTP 400, "input_schema does not support
/// oneOf, allOf, or anyOf at the top level".
///
/// ```
/// use tool_core::providers::anthropic;
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
/// let tools = anthropic::tools(&[ToolDefinition::new("get_weather", "Get the weather", schema.clone())]);
/// assert_eq!(tools.value, json!([{"name": "get_weather", "description": "Get the weather", "input_schema": schema}]));
/// assert!(tools.diagnostics.is_empty());
/// ```
pub fn tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::ANTHROPIC, |definition, report| {
        json!({
            "name": definition.name,
            "description": definition.description,
            "input_schema": flatten_root(&definition.parameters, &ANTHROPIC, report),
        })
    })
}
