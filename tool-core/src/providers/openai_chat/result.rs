//! Chat Completions results: the tool message, which holds text only, and
//! the user message its media follow in. Only the function that sends that
//! user message tells the model the media were sent.

use crate::model::Content;
use crate::model::ToolResultMessage;
use crate::providers::media::{accepts, data_url, lines, media_note, note};
use crate::providers::openai::IMAGE_TYPES;
use serde_json::{Value, json};

/// What the note of an item sent in the user message says.
const SENT_AFTER: &str = "sent in the next user message";

/// The Chat Completions message answering a call:
/// `{"role":"tool","tool_call_id","content":"<text>"}`.
///
/// A tool message holds text only (its `content` is a string or text parts:
/// `ChatCompletionToolMessageParam` in openai/openai-python, generated from
/// the API's OpenAPI spec), so `content` is
/// [`content_text`](crate::providers::content_text) of the result: each
/// item that is not text is its [`media_note`],
/// `[image: image/png, 1234 bytes]`. This function sends nothing else, so
/// the model reads that an image was there but not the image; to send it,
/// use [`write_results`], which adds the user message carrying the media
/// and says so in the note.
///
/// ```
/// use tool_core::providers::openai_chat;
/// use tool_core::{ToolResultMessage, Content};
/// use serde_json::json;
///
/// let mut result = ToolResultMessage::new(&tool_core::ToolCall::new("call_1", "chart", serde_json::Value::Null), vec![Content::text("Sales by month"), Content::image(b"\x89PNG", "image/png")]);
/// result.timestamp = 0;
/// assert_eq!(
///     openai_chat::write_result(&result),
///     json!({
///         "role": "tool",
///         "tool_call_id": "call_1",
///         "content": "Sales by month\n[image: image/png, 4 bytes]",
///     }),
/// );
/// ```
pub fn write_result(result: &ToolResultMessage) -> Value {
    tool_message(result, lines(result.content.iter().map(media_note)))
}

/// The tool message of a result whose media [`write_results`] sends in the
/// user message after it: the note of each item sent says so,
/// `[image: image/png, 1234 bytes, sent in the next user message]`.
fn tool_message_before_media(result: &ToolResultMessage) -> Value {
    let content = lines(result.content.iter().map(|item| match ChatMedia::of(item) {
        Some(_) => note(item, Some(SENT_AFTER)),
        None => media_note(item),
    }));
    tool_message(result, content)
}

fn tool_message(result: &ToolResultMessage, content: String) -> Value {
    json!({
        "role": "tool",
        "tool_call_id": result.tool_call_id,
        "content": content,
    })
}

/// The Chat Completions messages answering the calls of one assistant
/// message, media included: first the tool message of each result, in
/// order, then, when any result has media the user message can hold, one
/// user message carrying them. Each tool message is [`write_result`]'s,
/// except that the note of an item the user message carries says so:
/// `[image: image/png, 1234 bytes, sent in the next user message]`.
///
/// The tool messages come first and together because OpenAI refuses
/// anything between an assistant message with `tool_calls` and the tool
/// messages answering it ("An assistant message with 'tool_calls' must be
/// followed by tool messages responding to each 'tool_call_id'"); pass
/// every result of the turn in one call.
///
/// The user message's `content` has, for each result with media, a text
/// part `From the result of <tool> (call <id>):` followed by the result's
/// media parts in order:
///
/// - an image of a type OpenAI takes (PNG, JPEG, WEBP, GIF) as
///   `{"type":"image_url","image_url":{"url":"data:<mime>;base64,<data>"}}`
///   (<https://developers.openai.com/api/docs/guides/images-vision>);
/// - a WAV or MP3 sound as
///   `{"type":"input_audio","input_audio":{"data":"<base64>","format":"wav"|"mp3"}}`
///   (<https://platform.openai.com/docs/guides/audio>), which only an
///   audio-capable model reads.
///
/// Other items stay notes in the tool message. Text-only results give
/// their tool messages alone, exactly as [`write_result`] writes them.
///
/// ```
/// use tool_core::providers::openai_chat;
/// use tool_core::{ToolResultMessage, Content};
/// use serde_json::json;
///
/// let mut result = ToolResultMessage::new(&tool_core::ToolCall::new("call_1", "chart", serde_json::Value::Null), vec![Content::text("Sales by month"), Content::image(b"\x89PNG", "image/png")]);
/// result.timestamp = 0;
/// assert_eq!(
///     openai_chat::write_results(&[result]),
///     vec![
///         json!({
///             "role": "tool",
///             "tool_call_id": "call_1",
///             "content": "Sales by month\n[image: image/png, 4 bytes, sent in the next user message]",
///         }),
///         json!({
///             "role": "user",
///             "content": [
///                 {"type": "text", "text": "From the result of chart (call call_1):"},
///                 {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw=="}},
///             ],
///         }),
///     ],
/// );
/// ```
pub fn write_results(results: &[ToolResultMessage]) -> Vec<Value> {
    let mut messages: Vec<Value> = results.iter().map(tool_message_before_media).collect();
    let mut parts = Vec::new();
    for result in results {
        let media: Vec<Value> = result
            .content
            .iter()
            .filter_map(ChatMedia::of)
            .map(ChatMedia::part)
            .collect();
        if !media.is_empty() {
            let intro = format!(
                "From the result of {} (call {}):",
                result.tool_name, result.tool_call_id
            );
            parts.push(json!({"type": "text", "text": intro}));
            parts.extend(media);
        }
    }
    if !parts.is_empty() {
        messages.push(json!({"role": "user", "content": parts}));
    }
    messages
}

/// An item a Chat Completions user message can hold.
enum ChatMedia<'a> {
    Image { data: &'a str, mime_type: &'a str },
    Audio { data: &'a str, format: &'static str },
}

impl<'a> ChatMedia<'a> {
    fn of(item: &'a Content) -> Option<Self> {
        match item {
            Content::Image { data, mime_type } if accepts(IMAGE_TYPES, mime_type) => {
                Some(ChatMedia::Image { data, mime_type })
            }
            Content::Audio { data, mime_type } => {
                audio_format(mime_type).map(|format| ChatMedia::Audio { data, format })
            }
            _ => None,
        }
    }

    fn part(self) -> Value {
        match self {
            ChatMedia::Image { data, mime_type } => json!({
                "type": "image_url",
                "image_url": {"url": data_url(mime_type, data)},
            }),
            ChatMedia::Audio { data, format } => json!({
                "type": "input_audio",
                "input_audio": {"data": data, "format": format},
            }),
        }
    }
}

/// The `input_audio` format of a sound of this MIME type: "wav" or "mp3"
/// (`ChatCompletionContentPartInputAudioParam` in openai/openai-python).
fn audio_format(mime_type: &str) -> Option<&'static str> {
    if accepts(&["audio/wav", "audio/x-wav", "audio/wave"], mime_type) {
        Some("wav")
    } else if accepts(&["audio/mpeg", "audio/mp3"], mime_type) {
        Some("mp3")
    } else {
        None
    }
}
