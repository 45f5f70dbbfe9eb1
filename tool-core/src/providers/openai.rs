//! OpenAI: Chat Completions and Responses tool definitions, and tool calls
//! (whose `arguments` arrive as a JSON *string*). Results are in
//! `openai_results`.

use super::common::{check_type, convert_each, string_field};
use super::diagnostic::{AdapterError, Converted, Report};
use super::merge_root::{OPENAI, flatten_root, is_one_key_choice};
use super::names::NameRule;
use super::one_of::one_of_as_any_of;
use super::strict::strict_schema;
use crate::message::ToolCall;
use crate::registry::ToolDefinition;
use serde_json::{Value, json};

/// Why `oneOf` is rewritten for OpenAI, strict or not.
const NO_ONE_OF: &str = "OpenAI refuses `oneOf` (\"'oneOf' is not permitted\")";

/// Chat Completions: `[{"type":"function","function":{"name","description","parameters"}}]`.
///
/// The schema is kept, but for what OpenAI refuses: an enum as the whole
/// parameters is written as one object (the root must be an object), and
/// `oneOf` as `anyOf`.
pub fn openai_tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::OPENAI, |definition, report| {
        json!({
            "type": "function",
            "function": {
                "name": definition.name,
                "description": definition.description,
                "parameters": non_strict(&definition.parameters, report),
            },
        })
    })
}

/// Chat Completions with `"strict": true`. A tool whose schema cannot be
/// strict (a map, a value of any type) is sent with `"strict": false` and
/// its schema as [`openai_tools`] writes it, and the reason is reported.
pub fn openai_tools_strict(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::OPENAI, |definition, report| {
        let (parameters, strict) = strict_or_not(definition, report);
        json!({
            "type": "function",
            "function": {
                "name": definition.name,
                "description": definition.description,
                "parameters": parameters,
                "strict": strict,
            },
        })
    })
}

/// Responses: `[{"type":"function","name","description","parameters","strict"}]`.
pub fn openai_responses_tools(definitions: &[ToolDefinition], strict: bool) -> Converted {
    convert_each(definitions, &NameRule::OPENAI, |definition, report| {
        let (parameters, strict) = if strict {
            strict_or_not(definition, report)
        } else {
            (non_strict(&definition.parameters, report), false)
        };
        json!({
            "type": "function",
            "name": definition.name,
            "description": definition.description,
            "parameters": parameters,
            "strict": strict,
        })
    })
}

/// The schema as OpenAI takes it without strict mode.
fn non_strict(schema: &Value, report: &mut Report<'_>) -> Value {
    let flat = flatten_root(schema, &OPENAI, report);
    one_of_as_any_of(&flat, NO_ONE_OF, report)
}

fn strict_or_not(definition: &ToolDefinition, report: &mut Report<'_>) -> (Value, bool) {
    let flat = flatten_root(&definition.parameters, &OPENAI, report);
    if is_one_key_choice(&definition.parameters) {
        report.push(
            "/oneOf",
            "an externally tagged enum cannot be strict: strict mode would require every variant's key (null when unused), and parse takes exactly one key",
        );
    } else if let Some(strict) = strict_schema(&flat, report) {
        return (strict, true);
    }
    let parameters = one_of_as_any_of(&flat, NO_ONE_OF, report);
    let how = if parameters == definition.parameters {
        "its schema unchanged"
    } else {
        "its schema as non-strict OpenAI takes it"
    };
    report.push(
        "",
        format!(
            "sent with \"strict\": false and {how}: the schema cannot be strict (see the other diagnostics)"
        ),
    );
    (parameters, false)
}

/// One entry of a Chat Completions message's `tool_calls`:
/// `{"id","type":"function","function":{"name","arguments":"<JSON text>"}}`.
///
/// `arguments` is JSON written as a string. An empty string means `{}`; text
/// that is not valid JSON is kept as a string, and the executor answers the
/// call with a paired error naming the JSON problem (line and column).
pub fn openai_tool_call(entry: &Value) -> Result<ToolCall, AdapterError> {
    let id = string_field(entry, "id", "a tool_calls entry")?;
    let function = entry
        .get("function")
        .ok_or_else(|| AdapterError::new("a tool_calls entry: `function` is missing"))?;
    let name = string_field(function, "name", "a tool_calls entry's function")?;
    let arguments = decode_arguments(function.get("arguments"));
    Ok(ToolCall::new(id, name, arguments))
}

/// A `function_call` item of the Responses API:
/// `{"type":"function_call","call_id","name","arguments":"<JSON text>"}`.
pub fn openai_responses_function_call(item: &Value) -> Result<ToolCall, AdapterError> {
    check_type(item, "function_call", "item")?;
    let id = string_field(item, "call_id", "a function_call item")?;
    let name = string_field(item, "name", "a function_call item")?;
    let arguments = decode_arguments(item.get("arguments"));
    Ok(ToolCall::new(id, name, arguments))
}

/// `arguments` as OpenAI sends them: JSON text, decoded, or the text itself
/// when it is not JSON (the executor reports where it breaks); absent,
/// `null` or blank text is `{}`; an object as it is (some OpenAI-compatible
/// servers send the object itself).
fn decode_arguments(arguments: Option<&Value>) -> Value {
    match arguments {
        None | Some(Value::Null) => json!({}),
        Some(Value::String(text)) if text.trim().is_empty() => json!({}),
        Some(Value::String(text)) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
        }
        Some(object) => object.clone(),
    }
}
