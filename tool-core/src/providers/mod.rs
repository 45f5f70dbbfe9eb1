//! Each provider API's tool definitions, tool calls, tool results and
//! streamed calls, converted to and from ours.
//!
//! One module per API, each with the same verbs for the same job:
//!
//! | API | definitions | a call in | a result out | a call streamed in |
//! | --- | --- | --- | --- | --- |
//! | [`openai_chat`] | [`tools`](openai_chat::tools)`(definitions, Strict)` | [`read_call`](openai_chat::read_call)`(entry)`: a `tool_calls` entry | [`write_result`](openai_chat::write_result): a `tool` message; [`write_results`](openai_chat::write_results): a turn's, media included | [`StreamAccumulator`](openai_chat::StreamAccumulator) |
//! | [`openai_responses`] | [`tools`](openai_responses::tools)`(definitions, Strict)` | [`read_call`](openai_responses::read_call)`(item)`: a `function_call` item | [`write_result`](openai_responses::write_result): a `function_call_output` item | [`StreamAccumulator`](openai_responses::StreamAccumulator) |
//! | [`anthropic`] | [`tools`](anthropic::tools)`(definitions, Strict)` | [`read_call`](anthropic::read_call)`(block)`: a `tool_use` block | [`write_result`](anthropic::write_result): a `tool_result` block | [`StreamAccumulator`](anthropic::StreamAccumulator) |
//! | [`gemini`] | [`tools`](gemini::tools)`(definitions, Dialect)` | [`read_call`](gemini::read_call)`(part, index)`: a `functionCall` | [`write_result`](gemini::write_result): a `functionResponse` part | each chunk's parts through `read_call` |
//! | [`mcp`] | [`tools`](mcp::tools)`(definitions)` | [`read_call`](mcp::read_call)`(request_id, params)`: `tools/call` params | [`write_result`](mcp::write_result): a `CallToolResult` | (not streamed) |
//!
//! - `tools` writes the request's tool list as a [`Converted`]: the JSON,
//!   and a [`Diagnostic`] for each thing the API could not take as it
//!   was. Its second argument is the API's own choice, where it has one:
//!   [`Strict`] for OpenAI's and Anthropic's strict modes,
//!   [`gemini::Dialect`] for Gemini's two schema fields.
//! - `read_call` reads the model's call into a [`ToolCall`](crate::ToolCall),
//!   or says which field of what was wrong ([`AdapterError`]). It takes
//!   what the API has beside the payload where a call needs it: Gemini's
//!   position for calls without an id, MCP's request id.
//! - `write_result` writes a [`ToolResultMessage`](crate::ToolResultMessage)
//!   as the API takes it back.
//! - `StreamAccumulator` reads the API's stream event by event and says
//!   what happened to its calls as [`StreamEvent`]s.
//!
//! [`ProviderFormat`] is every definitions format as one value, for
//! choosing one at run time (the command line's `--format`).
//!
//! # Definitions
//!
//! Every format is written from the one derived schema. What a format
//! cannot express is not hidden: each conversion returns [`Diagnostic`]s
//! saying what was dropped or changed, where, and why, so a caller can log
//! them or refuse to go on. Local parsing keeps enforcing everything a
//! provider's schema lost (a dropped `maxLength` is still checked when the
//! call arrives). Tool names are checked against each provider's
//! [`NameRule`], and reported, not rewritten.
//!
//! ```
//! use tool_core::providers::{openai_chat, Strict};
//! use tool_core::{ToolDefinition, ToolParams};
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     #[param(max_length = 100)]
//!     query: String,
//!     limit: Option<u32>,
//! }
//!
//! let definitions = vec![ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let strict = openai_chat::tools(&definitions, Strict::On);
//! let parameters = &strict.value[0]["function"]["parameters"];
//! assert_eq!(parameters["required"], serde_json::json!(["query", "limit"]));
//! assert!(parameters["properties"]["limit"]["anyOf"].is_array());
//! // maxLength is not accepted by OpenAI's strict mode: dropped, and said so.
//! assert_eq!(strict.diagnostics[0].path, "/properties/query/maxLength");
//! ```
//!
//! # Results
//!
//! Each `write_result` writes images (and sounds, where a provider takes
//! them) in the shape its provider accepts, and what a provider has no
//! place for becomes a short text note ([`media_note`]: `[image:
//! image/gif, 1234 bytes]`, `[resource: notes.md <file:///notes.md>]`), so
//! nothing vanishes without the model knowing. A text-only result is its
//! text, one item per line ([`content_text`]). OpenAI Chat Completions
//! tool messages take text only: their images follow in a user message
//! ([`openai_chat::write_results`]).
//!
//! # Streams
//!
//! Providers stream a tool call in pieces: its id and name first, then its
//! arguments as fragments of JSON text. An API's `StreamAccumulator` reads
//! the stream's events (each event's JSON, as the provider sends it) and
//! says what happened, as [`StreamEvent`]s:
//!
//! - [`Started`](StreamEvent::Started): a call's id and name, as soon as
//!   they arrive, so a caller can react to a tool it does not have (or
//!   show which tool runs) before the arguments are in;
//! - [`ArgumentsGrew`](StreamEvent::ArgumentsGrew): the open call's
//!   arguments text grew by `delta`, the piece as the provider sent it (the
//!   deltas of a call, concatenated, are its whole text), and `shows_more`
//!   says whether `partial_arguments(index)`, a best-effort JSON value
//!   borrowed from the accumulator (open strings, arrays and objects shown
//!   as far as they go; see [`PartialJson`]), shows more than before;
//! - [`Finished`](StreamEvent::Finished): the [`ToolCall`](crate::ToolCall),
//!   its arguments read from the whole text exactly as the API's
//!   `read_call` reads them (blank text is `{}`; text that is not JSON
//!   stays a string, which the executor answers with a paired error naming
//!   the JSON problem).
//!
//! Several calls may be open at once, each at its own index (the content
//! block's, the output item's, the `tool_calls` entry's).
//!
//! | API | events | index | a call's id |
//! | --- | --- | --- | --- |
//! | [`openai_chat`] | `chat.completion.chunk`s | the `tool_calls` entry's `index` | `id` |
//! | [`openai_responses`] | `response.*` events | `output_index` | `call_id` |
//! | [`anthropic`] | `message_start` .. `message_stop` | the content block's `index` | `id` |
//!
//! **Cost.** Each piece is read once: the partial value is updated in
//! place, and the events name it by index instead of carrying a copy; each
//! event carries only its own piece of text. A call streamed one character
//! at a time costs time linear in its length, and so does a UI that
//! appends the deltas; reading the events costs less than parsing them
//! from their JSON text (`docs/performance.md`, "Streaming").
//!
//! ```
//! use tool_core::providers::{anthropic, StreamEvent};
//! use serde_json::{json, Value};
//!
//! let known = ["get_weather"];
//! let events: Vec<Value> = vec![
//!     json!({"type": "message_start", "message": {"id": "msg_1", "content": []}}),
//!     json!({"type": "content_block_start", "index": 0,
//!            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_wether", "input": {}}}),
//!     json!({"type": "content_block_delta", "index": 0,
//!            "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Pa"}}),
//!     json!({"type": "ping"}),
//!     json!({"type": "content_block_delta", "index": 0,
//!            "delta": {"type": "input_json_delta", "partial_json": "ris\"}"}}),
//!     json!({"type": "content_block_stop", "index": 0}),
//!     json!({"type": "message_stop"}),
//! ];
//!
//! let mut stream = anthropic::StreamAccumulator::new();
//! let mut log = Vec::new();
//! for event in &events {
//!     for happened in stream.push(event)? {
//!         match happened {
//!             StreamEvent::Started { name, .. } if !known.contains(&name.as_str()) => {
//!                 log.push(format!("unknown tool {name}, before its arguments"));
//!             }
//!             StreamEvent::Started { .. } => {}
//!             StreamEvent::ArgumentsGrew { index, shows_more: true, .. } => {
//!                 log.push(stream.partial_arguments(index).unwrap().to_string());
//!             }
//!             StreamEvent::ArgumentsGrew { .. } => {}
//!             StreamEvent::Finished { call, .. } => log.push(format!("{} {}", call.name, call.arguments)),
//!         }
//!     }
//! }
//! assert_eq!(log, [
//!     "unknown tool get_wether, before its arguments",
//!     r#"{"city":"Pa"}"#,
//!     r#"{"city":"Paris"}"#,
//!     r#"get_wether {"city":"Paris"}"#,
//! ]);
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

pub mod anthropic;
pub mod gemini;
pub mod mcp;
pub mod openai_chat;
pub mod openai_responses;

mod common;
mod diagnostic;
mod dropped_words;
mod format;
mod media;
mod merge_root;
mod names;
mod openai;
mod rewrite;
mod stream;
mod strict;
mod turns;
mod walk;

pub use diagnostic::{AdapterError, AdapterErrorKind, Converted, Diagnostic};
pub use format::ProviderFormat;
pub use media::{content_text, media_note};
pub use names::NameRule;
pub use stream::{PartialJson, StreamEvent};
pub use strict::Strict;
