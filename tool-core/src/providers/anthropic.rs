//! Anthropic Messages: tool definitions, `tool_use` blocks and `tool_result`
//! blocks. The full schema is kept, but for an enum as the whole
//! parameters, written as one object: "input_schema does not support
//! oneOf, allOf, or anyOf at the top level" (see `merge_root`).

use super::common::{check_type, convert_each, string_field};
use super::diagnostic::{AdapterError, Converted};
use super::media::{accepts, media_note};
use super::merge_root::{ANTHROPIC, flatten_root};
use super::names::NameRule;
use crate::message::{ToolCall, ToolResultMessage};
use crate::registry::ToolDefinition;
use crate::tool::Content;
use serde_json::{Value, json};

/// The image types Anthropic takes: the `media_type` of a base64 image
/// source is one of these (<https://platform.claude.com/docs/en/build-with-claude/vision>;
/// `Base64ImageSourceParam` in anthropics/anthropic-sdk-python, generated
/// from the API's OpenAPI spec).
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// `[{"name","description","input_schema"}]`.
pub fn anthropic_tools(definitions: &[ToolDefinition]) -> Converted {
    convert_each(definitions, &NameRule::ANTHROPIC, |definition, report| {
        json!({
            "name": definition.name,
            "description": definition.description,
            "input_schema": flatten_root(&definition.parameters, &ANTHROPIC, report),
        })
    })
}

/// A `tool_use` content block: `{"type":"tool_use","id","name","input"}`.
pub fn anthropic_tool_use(block: &Value) -> Result<ToolCall, AdapterError> {
    check_type(block, "tool_use", "block")?;
    let id = string_field(block, "id", "a tool_use block")?;
    let name = string_field(block, "name", "a tool_use block")?;
    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
    Ok(ToolCall::new(id, name, input))
}

/// The `tool_result` block answering a call:
/// `{"type":"tool_result","tool_use_id","content":[..],"is_error"}`.
///
/// Each item is one block, in order. "These content blocks can use the
/// `text`, `image`, `document`, or `search_result` types"
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>):
/// a text item is a text block, an image an image block,
/// `{"type":"image","source":{"type":"base64","media_type":"image/png","data":".."}}`.
///
/// What has no block becomes a text block holding its
/// [`media_note`](super::media_note): a sound (the Messages API takes no
/// audio), a resource link (a document block would have Anthropic fetch
/// the URI, which it can do only for a PDF on the web; the note keeps the
/// link for the model to ask about), an image of a type Anthropic does not
/// take, and every image of a failed result, since Anthropic answers a
/// `tool_result` with `is_error: true` holding anything but text with HTTP
/// 400, "all content must be type 'text' if 'is_error' is true" (reported
/// in <https://github.com/vellum-ai/vellum-assistant/pull/18387>).
///
/// ```
/// use tool_core::providers::anthropic_tool_result;
/// use tool_core::{ToolResultMessage, Content};
/// use serde_json::json;
///
/// let result = ToolResultMessage {
///     tool_call_id: "toolu_01".into(),
///     tool_name: "screenshot".into(),
///     content: vec![Content::text("The page:"), Content::image(b"\x89PNG", "image/png"), Content::audio(b"RIFF", "audio/wav")],
///     details: None,
///     is_error: false,
///     failure_kind: None,
///     repairs: vec![],
///     timestamp: 0,
/// };
/// assert_eq!(
///     anthropic_tool_result(&result)["content"],
///     json!([
///         {"type": "text", "text": "The page:"},
///         {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
///         {"type": "text", "text": "[audio: audio/wav, 4 bytes]"},
///     ]),
/// );
/// ```
pub fn anthropic_tool_result(result: &ToolResultMessage) -> Value {
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
