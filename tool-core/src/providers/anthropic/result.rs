//! Anthropic's result: a `tool_result` block, each item of the result one
//! block of its content.

use crate::model::Content;
use crate::model::ToolResultMessage;
use crate::providers::media::{accepts, media_note};
use serde_json::{Value, json};

/// The image types Anthropic takes: the `media_type` of a base64 image
/// source is one of these (<https://platform.claude.com/docs/en/build-with-claude/vision>;
/// `Base64ImageSourceParam` in anthropics/anthropic-sdk-python, generated
/// from the API's OpenAPI spec).
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The `tool_result` block answering a call:
/// `{"type":"tool_result","tool_use_id","content":[..],"is_error"}`.
///
/// Each item is one block, in order. "These content blocks can use the
/// `text`, `image`, `document`, or `search_result` types"
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>):
/// a text item is a text block, an image an image block,
/// `{"type":"image","source":{"type":"base64","media_type":"image/png","data":".."}}`.
///
/// What has no block becomes a text block holding its [`media_note`]: a
/// sound (the Messages API takes no audio), a resource link (a document
/// block would have Anthropic fetch the URI, which it can do only for a PDF
/// on the web; the note keeps the link for the model to ask about), an
/// image of a type Anthropic does not take, and every image of a failed
/// result, since Anthropic answers a `tool_result` with `is_error: true`
/// holding anything but text with HTTP 400, "all content must be type
/// 'text' if 'is_error' is true" (reported in
/// <https://github.com/vellum-ai/vellum-assistant/pull/18387>).
///
/// ```
/// use tool_core::providers::anthropic;
/// use tool_core::{ToolResultMessage, Content};
/// use serde_json::json;
///
/// let mut result = ToolResultMessage::new(&tool_core::ToolCall::new("toolu_01", "screenshot", serde_json::Value::Null), vec![Content::text("The page:"), Content::image(b"\x89PNG", "image/png"), Content::audio(b"RIFF", "audio/wav")]);
/// result.timestamp = 0;
/// assert_eq!(
///     anthropic::write_result(&result)["content"],
///     json!([
///         {"type": "text", "text": "The page:"},
///         {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
///         {"type": "text", "text": "[audio: audio/wav, 4 bytes]"},
///     ]),
/// );
/// ```
pub fn write_result(result: &ToolResultMessage) -> Value {
    let content: Vec<Value> = result
        .content
        .iter()
        .map(|item| block(item, result.is_error))
        .collect();
    json!({
        "type": "tool_result",
        "tool_use_id": result.tool_call_id,
        "content": content,
        "is_error": result.is_error,
    })
}

/// One item as a `tool_result` content block.
fn block(item: &Content, is_error: bool) -> Value {
    match item {
        Content::Text { text } => json!({"type": "text", "text": text}),
        Content::Image { data, mime_type } if !is_error && accepts(IMAGE_TYPES, mime_type) => {
            json!({
                "type": "image",
                "source": {"type": "base64", "media_type": mime_type, "data": data},
            })
        }
        other => json!({"type": "text", "text": media_note(other)}),
    }
}
