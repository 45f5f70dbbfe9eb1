//! Gemini's result: a `functionResponse` part, with the images a function
//! response may carry in its `parts`.

use super::GENERATED_ID_PREFIX;
use crate::model::Content;
use crate::model::ToolResultMessage;
use crate::providers::media::{accepts, lines, media_note};
use serde_json::{Map, Value, json};

/// The image types a function response may carry in its `parts`:
/// "image/png, image/jpeg, image/webp" (beside `application/pdf` and
/// `text/plain` documents; no audio), for Gemini 3 series models
/// (<https://ai.google.dev/gemini-api/docs/function-calling#multimodal>).
const PART_IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/webp"];

/// The part answering a call:
/// `{"functionResponse":{"name","id"?,"response":{"output":"<text>"},"parts"?}}`,
/// or `{"error":"<text>"}` in `response` for a failed call.
///
/// The text is the result's items one per line, each that is not in
/// `parts` as its [`media_note`]. An image of a type a function response
/// takes (PNG, JPEG, WEBP) goes in `parts` instead, in order, as
/// `{"inlineData":{"mimeType","data"}}`: "For Gemini 3 series models, you
/// can include multimodal content in the function response parts"
/// (<https://ai.google.dev/gemini-api/docs/function-calling#multimodal>).
/// The guide offers this for Gemini 3 series models only, and earlier
/// models are reported to refuse it with HTTP 400 ("Multimodal function
/// responses are not supported for this model"): for those, send results
/// without images. A result without such images has no `parts`.
pub fn write_result(result: &ToolResultMessage) -> Value {
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
