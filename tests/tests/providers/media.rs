//! Golden tests of media in results (`tool_core::providers`): for each
//! provider's result adapter, a result of text, an image, a sound and a
//! resource link gives exactly the payload shape the provider documents
//! (each test cites its source), what a provider has no place for becomes
//! a note, and a text-only result is written in the provider's plain text
//! shape, byte for byte. Also: MCP definitions with `outputSchema` and `annotations`.

use serde_json::{Value, json};
use tests::wire::{assert_json, definition, diagnostics};
use tool_core::providers::{
    anthropic, content_text, gemini, mcp, media_note, openai_chat, openai_responses,
};
use tool_core::{Content, ToolAnnotations, ToolDefinition, ToolResultMessage};

/// The first eight bytes of a PNG file; base64 `iVBORw0KGgo=`.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
/// The first twelve bytes of a WAV file; base64 `UklGRiQAAABXQVZF`.
const WAV: &[u8] = b"RIFF\x24\x00\x00\x00WAVE";

fn result(id: &str, name: &str, content: Vec<Content>, is_error: bool) -> ToolResultMessage {
    let mut result =
        ToolResultMessage::new(&tool_core::ToolCall::new(id, name, Value::Null), content);
    result.is_error = is_error;
    result.failure_kind = is_error.then_some(tool_core::FailureKind::Retry);
    result.timestamp = 1_764_000_000_000;
    result
}

/// Text, a PNG image, a WAV sound and a link to a CSV file.
fn mixed(id: &str) -> ToolResultMessage {
    result(
        id,
        "chart",
        vec![
            Content::text("Here is the chart."),
            Content::image(PNG, "image/png"),
            Content::audio(WAV, "audio/wav"),
            Content::resource_link("file:///reports/q3.csv", "q3.csv").with_mime_type("text/csv"),
        ],
        false,
    )
}

/// Two text items, as the weather tools of `providers_calls` answer.
fn text_only(id: &str) -> ToolResultMessage {
    result(
        id,
        "two_lines",
        vec![Content::text("first"), Content::text("second")],
        false,
    )
}

// ---------------------------------------------------------------------------
// Notes
// ---------------------------------------------------------------------------

#[test]
fn content_text_keeps_text_and_notes_everything_else() {
    assert_eq!(
        content_text(&[Content::text("a"), Content::text("b")]),
        "a\nb"
    );
    assert_eq!(
        content_text(&mixed("call_1").content),
        "Here is the chart.\n\
         [image: image/png, 8 bytes]\n\
         [audio: audio/wav, 12 bytes]\n\
         [resource: q3.csv <file:///reports/q3.csv>, text/csv]"
    );
    let described = Content::resource_link("https://example.com/q3", "Q3 report")
        .with_description("Sales, third quarter")
        .with_mime_type("application/pdf");
    assert_eq!(
        media_note(&described),
        "[resource: Q3 report <https://example.com/q3>, application/pdf: Sales, third quarter]"
    );
    assert_eq!(
        media_note(&Content::image([0u8], "image/gif")),
        "[image: image/gif, 1 byte]"
    );
}

// ---------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------

// "These content blocks can use the `text`, `image`, `document`, or
// `search_result` types", with the "Example of tool result with images":
// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>.
// The Messages API has no audio block: the sound and the link are notes.
#[test]
fn anthropic_carries_images_as_image_blocks_and_notes_the_rest() {
    assert_json(
        &anthropic::write_result(&mixed("toolu_01A09q90qw90lq917835lq9")),
        &json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": [
                {"type": "text", "text": "Here is the chart."},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
                },
                {"type": "text", "text": "[audio: audio/wav, 12 bytes]"},
                {"type": "text", "text": "[resource: q3.csv <file:///reports/q3.csv>, text/csv]"},
            ],
            "is_error": false,
        }),
    );
}

// Anthropic refuses anything but text in a tool_result with is_error true
// ("all content must be type 'text' if 'is_error' is true", reported in
// <https://github.com/vellum-ai/vellum-assistant/pull/18387>), and takes
// image/jpeg, image/png, image/gif and image/webp only
// (<https://platform.claude.com/docs/en/build-with-claude/vision>).
#[test]
fn anthropic_failed_results_and_other_image_types_get_notes() {
    let failed = result(
        "toolu_01",
        "screenshot",
        vec![
            Content::text("The page did not load:"),
            Content::image(PNG, "image/png"),
        ],
        true,
    );
    assert_json(
        &anthropic::write_result(&failed),
        &json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": [
                {"type": "text", "text": "The page did not load:"},
                {"type": "text", "text": "[image: image/png, 8 bytes]"},
            ],
            "is_error": true,
        }),
    );
    let bitmap = result(
        "toolu_02",
        "scan",
        vec![Content::image(b"BM", "image/bmp")],
        false,
    );
    assert_eq!(
        anthropic::write_result(&bitmap)["content"],
        json!([{"type": "text", "text": "[image: image/bmp, 2 bytes]"}]),
    );
}

// ---------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------

// "For functions that return images or files, you can pass an array of
// image or file objects instead of a string"
// (<https://platform.openai.com/docs/guides/function-calling>); the items
// are `input_text`, `input_image` (`image_url`: a data URL) and
// `input_file` (openai-python `ResponseFunctionCallOutputItemParam`). The
// Responses API takes no audio: the sound is a note, as is the link.
#[test]
fn openai_responses_output_is_an_array_when_an_image_goes_along() {
    assert_json(
        &openai_responses::write_result(&mixed("call_abc123")),
        &json!({
            "type": "function_call_output",
            "call_id": "call_abc123",
            "output": [
                {"type": "input_text", "text": "Here is the chart."},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
                {"type": "input_text", "text": "[audio: audio/wav, 12 bytes]"},
                {"type": "input_text", "text": "[resource: q3.csv <file:///reports/q3.csv>, text/csv]"},
            ],
        }),
    );
}

// Same guide: "The result you pass in the function_call_output message
// should typically be a string". Without an image there is nothing the
// array form would carry, so the output stays a string, with notes.
#[test]
fn openai_responses_output_stays_a_string_without_an_image() {
    let sound = result(
        "call_abc123",
        "record",
        vec![Content::text("Recorded."), Content::audio(WAV, "audio/wav")],
        false,
    );
    assert_json(
        &openai_responses::write_result(&sound),
        &json!({
            "type": "function_call_output",
            "call_id": "call_abc123",
            "output": "Recorded.\n[audio: audio/wav, 12 bytes]",
        }),
    );
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------

// A tool message's content is a string or text parts (openai-python
// `ChatCompletionToolMessageParam`); a user message takes
// `{"type":"image_url","image_url":{"url":"data:image/png;base64,.."}}`
// (<https://developers.openai.com/api/docs/guides/images-vision>) and
// `{"type":"input_audio","input_audio":{"data","format":"wav"}}`
// (<https://platform.openai.com/docs/guides/audio>). Every tool message
// comes before the user message: nothing may come between the assistant's
// `tool_calls` and the tool messages answering them.
#[test]
fn openai_chat_media_follow_every_tool_message_in_one_user_message() {
    let results = [mixed("call_chart"), text_only("call_lines")];
    let messages = openai_chat::write_results(&results);
    assert_json(
        &Value::Array(messages),
        &json!([
            {
                "role": "tool",
                "tool_call_id": "call_chart",
                "content": "Here is the chart.\n\
                            [image: image/png, 8 bytes, sent in the next user message]\n\
                            [audio: audio/wav, 12 bytes, sent in the next user message]\n\
                            [resource: q3.csv <file:///reports/q3.csv>, text/csv]",
            },
            {"role": "tool", "tool_call_id": "call_lines", "content": "first\nsecond"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "From the result of chart (call call_chart):"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                    {"type": "input_audio", "input_audio": {"data": "UklGRiQAAABXQVZF", "format": "wav"}},
                ],
            },
        ]),
    );
}

// `write_result` alone sends no user message, so its notes do not say the
// media were sent: the model learns an image was there, not that it will
// see it. Only `write_results`, which sends them, says so.
#[test]
fn openai_chat_write_result_alone_does_not_claim_to_send_media() {
    let chart = mixed("call_chart");
    let alone = openai_chat::write_result(&chart);
    assert_json(
        &alone,
        &json!({
            "role": "tool",
            "tool_call_id": "call_chart",
            "content": "Here is the chart.\n\
                        [image: image/png, 8 bytes]\n\
                        [audio: audio/wav, 12 bytes]\n\
                        [resource: q3.csv <file:///reports/q3.csv>, text/csv]",
        }),
    );
    assert!(!alone.to_string().contains("sent"), "{alone}");
    let with_media = openai_chat::write_results(std::slice::from_ref(&chart));
    assert_eq!(with_media.len(), 2, "the tool message and the user message");
    let told = with_media[0]["content"].as_str().unwrap();
    assert_eq!(
        told.matches("sent in the next user message").count(),
        2,
        "{told}"
    );
    assert_eq!(with_media[1]["role"], "user");
}

// `input_audio`'s format is "wav" or "mp3" (openai-python
// `ChatCompletionContentPartInputAudioParam`): an MP3 goes along, an Ogg
// sound stays a note (without "sent in the next user message").
#[test]
fn openai_chat_sends_wav_and_mp3_only() {
    let sounds = result(
        "call_1",
        "record",
        vec![
            Content::audio(b"\xff\xfb\x90\x00", "audio/mpeg"),
            Content::audio(b"OggS", "audio/ogg"),
        ],
        false,
    );
    assert_json(
        &Value::Array(openai_chat::write_results(&[sounds])),
        &json!([
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": "[audio: audio/mpeg, 4 bytes, sent in the next user message]\n\
                            [audio: audio/ogg, 4 bytes]",
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "From the result of record (call call_1):"},
                    {"type": "input_audio", "input_audio": {"data": "//uQAA==", "format": "mp3"}},
                ],
            },
        ]),
    );
}

// ---------------------------------------------------------------------------
// Gemini
// ---------------------------------------------------------------------------

// "For Gemini 3 series models, you can include multimodal content in the
// function response parts": images (image/png, image/jpeg, image/webp) and
// documents, as `{"inlineData":{"mimeType","data"}}` parts nested in the
// functionResponse (REST example: name, id, response, parts):
// <https://ai.google.dev/gemini-api/docs/function-calling#multimodal>.
// No audio: the sound and the link are notes in `output`.
#[test]
fn gemini_nests_images_in_the_function_response_parts() {
    assert_json(
        &gemini::write_result(&mixed("UNIQUE_CALL_ID_HERE")),
        &json!({
            "functionResponse": {
                "name": "chart",
                "id": "UNIQUE_CALL_ID_HERE",
                "response": {
                    "output": "Here is the chart.\n\
                               [audio: audio/wav, 12 bytes]\n\
                               [resource: q3.csv <file:///reports/q3.csv>, text/csv]",
                },
                "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}],
            }
        }),
    );
}

// The same, for a failed call Gemini sent without an id (`error` instead of
// `output`, no `id`), and a GIF, which a function response does not take.
#[test]
fn gemini_failed_results_keep_their_images_and_gifs_are_notes() {
    let failed = result(
        "gemini-call-0",
        "screenshot",
        vec![
            Content::text("Timed out; the last frame:"),
            Content::image(PNG, "image/png"),
            Content::image(b"GIF89a", "image/gif"),
        ],
        true,
    );
    assert_json(
        &gemini::write_result(&failed),
        &json!({
            "functionResponse": {
                "name": "screenshot",
                "response": {"error": "Timed out; the last frame:\n[image: image/gif, 6 bytes]"},
                "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}],
            }
        }),
    );
}

// ---------------------------------------------------------------------------
// MCP
// ---------------------------------------------------------------------------

// CallToolResult content blocks: `{"type":"image","data","mimeType"}`,
// `{"type":"audio","data","mimeType"}`, `{"type":"resource_link","uri",
// "name","mimeType"?}`: `schema/2025-11-25/schema.ts` (ImageContent,
// AudioContent, ResourceLink),
// <https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result>.
#[test]
fn mcp_results_carry_every_item_as_it_is() {
    assert_json(
        &mcp::write_result(&mixed("1")),
        &json!({
            "content": [
                {"type": "text", "text": "Here is the chart."},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"},
                {
                    "type": "resource_link",
                    "uri": "file:///reports/q3.csv",
                    "name": "q3.csv",
                    "mimeType": "text/csv",
                },
            ],
            "isError": false,
        }),
    );
}

fn with_output(
    name: &str,
    output_schema: Option<Value>,
    annotations: ToolAnnotations,
) -> ToolDefinition {
    let mut tool = definition(name, "Read a file", json!({"type": "object"}));
    tool.output_schema = output_schema;
    tool.annotations = annotations;
    tool
}

// Tool: name, title?, description?, inputSchema, outputSchema? ("Currently
// restricted to type: "object" at the root level"), annotations?
// (ToolAnnotations: title, readOnlyHint, destructiveHint, idempotentHint,
// openWorldHint): `schema/2025-11-25/schema.ts`,
// <https://modelcontextprotocol.io/specification/2025-11-25/schema#tool>.
#[test]
fn mcp_tools_write_output_schema_and_annotations_when_set() {
    let entry = json!({
        "type": "object",
        "properties": {"size": {"type": "integer"}},
        "required": ["size"],
    });
    let converted = mcp::tools(&[
        with_output(
            "stat",
            Some(entry.clone()),
            ToolAnnotations::new().with_title("Stat a file").read_only(),
        ),
        with_output("plain", None, ToolAnnotations::new()),
    ]);
    assert_json(
        &converted.value,
        &json!([
            {
                "name": "stat",
                "title": "Stat a file",
                "description": "Read a file",
                "inputSchema": {"type": "object"},
                "outputSchema": entry,
                "annotations": {"title": "Stat a file", "readOnlyHint": true},
            },
            {"name": "plain", "description": "Read a file", "inputSchema": {"type": "object"}},
        ]),
    );
    assert!(converted.diagnostics.is_empty());
}

// Details that are not an object become `{"value": <details>}` in
// `structuredContent`; an output schema of another type is wrapped the
// same way, so it still describes what is sent, and said so.
#[test]
fn mcp_tools_wrap_an_output_schema_that_is_not_an_object() {
    let converted = mcp::tools(&[
        with_output(
            "count",
            Some(json!({"type": "integer"})),
            ToolAnnotations::new(),
        ),
        with_output("any", Some(json!({})), ToolAnnotations::new()),
    ]);
    assert_json(
        &converted.value[0]["outputSchema"],
        &json!({
            "type": "object",
            "properties": {"value": {"type": "integer"}},
            "required": ["value"],
        }),
    );
    assert_json(&converted.value[1]["outputSchema"], &json!({}));
    assert_eq!(
        diagnostics(&converted),
        [
            (
                "count",
                "",
                "MCP wants an outputSchema of type \"object\"; sent as {\"type\":\"object\",\"properties\":{\"value\":<schema>},\"required\":[\"value\"]}, the shape of the structuredContent such details become",
            ),
            (
                "any",
                "",
                "MCP wants an outputSchema of type \"object\"; this one has no type and is sent as it is",
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// Text only: unchanged
// ---------------------------------------------------------------------------

// The payloads of `providers_calls` (which also checks these shapes on
// executed calls), written out as text: key order and all.
#[test]
fn text_only_results_are_written_as_before_byte_for_byte() {
    let lines = text_only("call_1");
    let written = |value: Value| serde_json::to_string(&value).unwrap();
    assert_eq!(
        written(anthropic::write_result(&lines)),
        r#"{"type":"tool_result","tool_use_id":"call_1","content":[{"type":"text","text":"first"},{"type":"text","text":"second"}],"is_error":false}"#
    );
    assert_eq!(
        written(openai_chat::write_result(&lines)),
        r#"{"role":"tool","tool_call_id":"call_1","content":"first\nsecond"}"#
    );
    assert_eq!(
        openai_chat::write_results(std::slice::from_ref(&lines)),
        vec![openai_chat::write_result(&lines)]
    );
    assert_eq!(
        written(openai_responses::write_result(&lines)),
        r#"{"type":"function_call_output","call_id":"call_1","output":"first\nsecond"}"#
    );
    assert_eq!(
        written(gemini::write_result(&lines)),
        r#"{"functionResponse":{"name":"two_lines","id":"call_1","response":{"output":"first\nsecond"}}}"#
    );
    assert_eq!(
        written(mcp::write_result(&lines)),
        r#"{"content":[{"type":"text","text":"first"},{"type":"text","text":"second"}],"isError":false}"#
    );
    let empty = result("call_2", "nothing", vec![], false);
    assert_eq!(openai_responses::write_result(&empty)["output"], "");
    assert_eq!(anthropic::write_result(&empty)["content"], json!([]));
}
