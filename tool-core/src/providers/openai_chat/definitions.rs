//! Chat Completions tool definitions.

use crate::model::ToolDefinition;
use crate::providers::common::{Api, convert_each};
use crate::providers::diagnostic::Converted;
use crate::providers::names::NameRule;
use crate::providers::openai::parameters;
use crate::providers::strict::Strict;
use serde_json::{Map, Value, json};

/// Chat Completions' tool list: no examples, no tool search, and at most
/// 128 tools. The reference no longer states the limit (it read "A max of
/// 128 functions are supported" until 2025-08, openai/openai-python
/// `caf837bb`), but the API still refuses a longer list: "Invalid 'tools':
/// array too long. Expected an array with maximum length 128"
/// (`array_above_max_length`, seen in musistudio/claude-code-router#686 and
/// zed-industries/zed#32946; checked 2026-12-07).
const CHAT: Api = Api::plain(NameRule::OPENAI)
    .with_max_tools(128, "\"Expected an array with maximum length 128\"");

/// The request's `tools`:
/// `[{"type":"function","function":{"name","description","parameters","strict"?}}]`.
///
/// The schema is kept, but for what OpenAI refuses: an enum as the whole
/// parameters is written as one object (the root must be an object), and
/// `oneOf` as `anyOf`. With [`Strict::On`] each function has `"strict":
/// true` and the strict form of its schema; a tool whose schema cannot be
/// strict (a map, a value of any type) gets `"strict": false` and its
/// schema as [`Strict::Off`] writes it, and the reason is reported. With
/// [`Strict::Off`], `strict` is left out.
///
/// ```
/// use tool_core::providers::{openai_chat, Strict};
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let definitions = [ToolDefinition::new("echo", "Echo a value", json!({
///     "type": "object",
///     "properties": {"value": {"type": "string", "maxLength": 100}},
///     "required": ["value"],
/// }))];
/// let strict = openai_chat::tools(&definitions, Strict::On);
/// assert_eq!(strict.value, json!([{"type": "function", "function": {
///     "name": "echo",
///     "description": "Echo a value",
///     "parameters": {
///         "type": "object",
///         "properties": {"value": {"type": "string", "description": "At most 100 characters."}},
///         "required": ["value"],
///         "additionalProperties": false,
///     },
///     "strict": true,
/// }}]));
/// // maxLength is not in strict mode's subset: dropped, said so, and
/// // told to the model in the description.
/// assert_eq!(strict.diagnostics[0].path, "/properties/value/maxLength");
/// assert_eq!(strict.diagnostics[1].path, "/properties/value/description");
/// ```
pub fn tools(definitions: &[ToolDefinition], strict: Strict) -> Converted {
    convert_each(definitions, &CHAT, |definition, report| {
        let (parameters, is_strict) = parameters(definition, strict, report);
        let mut function = Map::new();
        function.insert("name".into(), Value::String(definition.name.clone()));
        function.insert(
            "description".into(),
            Value::String(definition.description.clone()),
        );
        function.insert("parameters".into(), parameters);
        if strict == Strict::On {
            function.insert("strict".into(), Value::Bool(is_strict));
        }
        json!({"type": "function", "function": function})
    })
}
