//! The Responses result: a `function_call_output` item, whose output may
//! hold images.

use crate::model::Content;
use crate::model::ToolResultMessage;
use crate::providers::media::{accepts, content_text, data_url, media_note};
use crate::providers::openai::IMAGE_TYPES;
use serde_json::{Value, json};

/// The Responses input item answering a call:
/// `{"type":"function_call_output","call_id","output":"<text>"}`.
///
/// `output` stays the string [`content_text`] writes unless an image of a
/// type OpenAI takes goes along: "For functions that return images or
/// files, you can pass an array of image or file objects instead of a
/// string" (<https://platform.openai.com/docs/guides/function-calling>).
/// Then `output` is one entry per item, in order: a text item as
/// `{"type":"input_text","text"}`, an image as
/// `{"type":"input_image","image_url":"data:<mime>;base64,<data>"}`, and
/// anything else as an `input_text` holding its [`media_note`]: the output
/// array takes text, images and files only
/// (`ResponseFunctionCallOutputItemParam` in openai/openai-python), and
/// the Responses API takes no audio input at all.
pub fn write_result(result: &ToolResultMessage) -> Value {
    // A program receives a string (the Agents SDK writes program outputs
    // as text or JSON), and its call's `caller` goes back unchanged.
    let output = if result.origin.is_none() && result.content.iter().any(is_responses_image) {
        Value::Array(result.content.iter().map(responses_item).collect())
    } else {
        Value::String(content_text(&result.content))
    };
    let mut written = json!({
        "type": "function_call_output",
        "call_id": result.tool_call_id,
        "output": output,
    });
    if let Some(origin) = &result.origin {
        written["caller"] = super::programmatic::caller(origin);
    }
    written
}

fn is_responses_image(item: &Content) -> bool {
    matches!(item, Content::Image { mime_type, .. } if accepts(IMAGE_TYPES, mime_type))
}

/// One item of a `function_call_output`'s array `output`.
fn responses_item(item: &Content) -> Value {
    match item {
        Content::Image { data, mime_type } if accepts(IMAGE_TYPES, mime_type) => json!({
            "type": "input_image",
            "image_url": data_url(mime_type, data),
        }),
        other => json!({"type": "input_text", "text": media_note(other)}),
    }
}
