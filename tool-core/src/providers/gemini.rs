//! Gemini: function declarations (JSON Schema, or the legacy OpenAPI
//! subset), `functionCall` parts and `functionResponse` parts.

use super::common::{convert_each, string_field};
use super::diagnostic::{AdapterError, Converted, Report};
use super::gemini_schema::legacy_parameters;
use super::media::{accepts, lines, media_note};
use super::merge_root::{GEMINI, flatten_root};
use super::names::NameRule;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use crate::tool::Content;
use serde_json::{Map, Value, json};

/// Ids made up for calls Gemini sent without one start with this; a
/// response to such a call leaves the id out again.
pub(super) const GENERATED_ID_PREFIX: &str = "gemini-call-";

/// The image types a function response may carry in its `parts`:
/// "image/png, image/jpeg, image/webp" (beside `application/pdf` and
/// `text/plain` documents; no audio), for Gemini 3 series models
/// (<https://ai.google.dev/gemini-api/docs/function-calling#multimodal>).
const PART_IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/webp"];

/// `{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}`.
///
/// The schema is kept, but for an enum as the whole parameters, written as
/// one object: "The schema must describe an object where the properties
/// are the parameters" (<https://ai.google.dev/api/caching#FunctionDeclaration>).
/// Deeper down, Gemini reads `oneOf` as `anyOf`, the same values for a
/// tagged enum, and ignores what it does not know (`const`, `uniqueItems`):
/// parse enforces those.
pub fn gemini_tools(definitions: &[ToolDefinition]) -> Converted {
    declarations(definitions, |definition, report| {
        json!({
            "name": definition.name,
            "description": definition.description,
            "parametersJsonSchema": flatten_root(&definition.parameters, &GEMINI, report),
        })
    })
}

/// The same with `parameters` in Gemini's OpenAPI 3.0 subset (left out for
/// a tool without parameters, which is how Gemini wants those declared).
pub fn gemini_tools_legacy(definitions: &[ToolDefinition]) -> Converted {
    declarations(definitions, |definition, report| {
        let mut declaration = Map::new();
        declaration.insert("name".into(), Value::String(definition.name.clone()));
        declaration.insert(
            "description".into(),
            Value::String(definition.description.clone()),
        );
        let flat = flatten_root(&definition.parameters, &GEMINI, report);
        if let Some(parameters) = legacy_parameters(&flat, report) {
            declaration.insert("parameters".into(), parameters);
        }
        Value::Object(declaration)
    })
}

/// Each definition converted, wrapped as `{"functionDeclarations": [...]}`.
fn declarations(
    definitions: &[ToolDefinition],
    convert: impl FnMut(&ToolDefinition, &mut Report<'_>) -> Value,
) -> Converted {
    let converted = convert_each(definitions, &NameRule::GEMINI, convert);
    Converted {
        value: json!({"functionDeclarations": converted.value}),
        diagnostics: converted.diagnostics,
    }
}

/// A `functionCall` (`{"name","args","id"?}`, or a part that holds one) as
/// a call. Gemini gives an id only sometimes; without one, the call gets
/// `gemini-call-<index>`, stable for the same position in the response
/// (`index`: the call's place among the response's function calls).
pub fn gemini_function_call(part: &Value, index: usize) -> Result<ToolCall, AdapterError> {
    let call = part.get("functionCall").unwrap_or(part);
    let name = string_field(call, "name", "a functionCall")?;
    let id = match call.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => format!("{GENERATED_ID_PREFIX}{index}"),
    };
    let arguments = call.get("args").cloned().unwrap_or_else(|| json!({}));
    Ok(ToolCall::new(id, name, arguments))
}

/// The part answering a call:
/// `{"functionResponse":{"name","id"?,"response":{"output":"<text>"},"parts"?}}`,
/// or `{"error":"<text>"}` in `response` for a failed call.
///
/// The text is the result's items one per line, each that is not in
/// `parts` as its [`media_note`](super::media_note). An image of a type a
/// function response takes (PNG, JPEG, WEBP) goes in `parts` instead, in
/// order, as `{"inlineData":{"mimeType","data"}}`: "For Gemini 3 series
/// models, you can include multimodal content in the function response
/// parts" (<https://ai.google.dev/gemini-api/docs/function-calling#multimodal>).
/// The guide offers this for Gemini 3 series models only, and earlier
/// models are reported to refuse it with HTTP 400 ("Multimodal function
/// responses are not supported for this model"): for those, send results
/// without images. A result without such images has no `parts`: only
/// `response`.
pub fn gemini_function_response(result: &ToolResultMessage) -> Value {
    let text = lines(
        result
            .content
            .iter()
            .filter(|item| !in_parts(item))
            .map(media_note),
    );
    let response = if result.is_error {
        json!({"error": text})
    } else {
        json!({"output": text})
    };
    let mut function_response = Map::new();
    function_response.insert("name".into(), Value::String(result.tool_name.clone()));
    if !result.tool_call_id.starts_with(GENERATED_ID_PREFIX) {
        function_response.insert("id".into(), Value::String(result.tool_call_id.clone()));
    }
    function_response.insert("response".into(), response);
    let parts: Vec<Value> = result.content.iter().filter_map(part_image).collect();
    if !parts.is_empty() {
        function_response.insert("parts".into(), Value::Array(parts));
    }
    json!({"functionResponse": function_response})
}

/// Whether a function response carries `item` in its `parts`.
fn in_parts(item: &Content) -> bool {
    matches!(item, Content::Image { mime_type, .. } if accepts(PART_IMAGE_TYPES, mime_type))
}

/// `item` as a part of a function response's `parts`, if it goes there.
fn part_image(item: &Content) -> Option<Value> {
    match item {
        Content::Image { data, mime_type } if in_parts(item) => {
            Some(json!({"inlineData": {"mimeType": mime_type, "data": data}}))
        }
        _ => None,
    }
}
