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
/// <https://github.com/vellum-ai/vellum-assistant/pull/18387>). A call made
/// by code Claude runs ([`origin`](crate::ToolResultMessage::origin)) is
/// answered with text blocks only too: the code receives "a string or
/// `text` blocks" (programmatic tool calling).
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
    // What code receives is text: images and documents are refused there.
    let text_only = result.is_error || result.origin.is_some();
    let content: Vec<Value> = result
        .content
        .iter()
        .map(|item| block(item, text_only))
        .collect();
    json!({
        "type": "tool_result",
        "tool_use_id": result.tool_call_id,
        "content": content,
        "is_error": result.is_error,
    })
}

/// [`write_result`], but a successful answer of the built-in
/// `tool_search` is written as the `tool_reference` blocks of the tools it
/// found, which load their deferred definitions into the request
/// ([`ToolSearch::Client`](super::ToolSearch::Client)):
/// `{"type":"tool_result","tool_use_id","content":[{"type":"tool_reference","tool_name":"get_weather"}]}`
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>,
/// "Custom tool search implementation"; `ToolReferenceBlockParam` in
/// anthropics/anthropic-sdk-python; checked 2026-12-07). Only references:
/// the docs show no text beside them. A search that found nothing, a
/// failed one, and every other result are written as [`write_result`]
/// writes them. Every tool referenced must be in the request's tools,
/// deferred: send
/// [`ToolRegistry::definitions_for_referenced_search`](crate::ToolRegistry::definitions_for_referenced_search).
///
/// ```
/// use tool_core::providers::anthropic;
/// use tool_core::{Content, ToolCall, ToolResultMessage};
/// use serde_json::json;
///
/// let call = ToolCall::new("toolu_01", "tool_search", json!({"query": "weather"}));
/// let mut found = ToolResultMessage::new(&call, vec![Content::text("get_weather: ...")]);
/// found.details = Some(json!({"found": ["get_weather"]}));
/// assert_eq!(anthropic::write_result_referencing(&found), json!({
///     "type": "tool_result",
///     "tool_use_id": "toolu_01",
///     "content": [{"type": "tool_reference", "tool_name": "get_weather"}],
/// }));
/// ```
pub fn write_result_referencing(result: &ToolResultMessage) -> Value {
    let found: Vec<&str> = found_by_search(result);
    if found.is_empty() {
        return write_result(result);
    }
    let references: Vec<Value> = found
        .iter()
        .map(|name| json!({"type": "tool_reference", "tool_name": name}))
        .collect();
    json!({
        "type": "tool_result",
        "tool_use_id": result.tool_call_id,
        "content": references,
    })
}

/// The tools a successful `tool_search` answer found (`details.found`).
fn found_by_search(result: &ToolResultMessage) -> Vec<&str> {
    if result.tool_name != crate::model::SEARCH_TOOL || result.is_error {
        return Vec::new();
    }
    result
        .details
        .as_ref()
        .and_then(|details| details.get("found"))
        .and_then(Value::as_array)
        .map(|found| found.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// One item as a `tool_result` content block; only text blocks when
/// `text_only`.
fn block(item: &Content, text_only: bool) -> Value {
    match item {
        Content::Text { text } => json!({"type": "text", "text": text}),
        Content::Image { data, mime_type } if !text_only && accepts(IMAGE_TYPES, mime_type) => {
            json!({
                "type": "image",
                "source": {"type": "base64", "media_type": mime_type, "data": data},
            })
        }
        other => json!({"type": "text", "text": media_note(other)}),
    }
}
