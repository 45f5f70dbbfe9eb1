//! Tool calls read from a model's stream, as they arrive.
//!
//! Providers stream a tool call in pieces: its id and name first, then its
//! arguments as fragments of JSON text. One accumulator per format reads
//! the stream's events (each event's JSON, as the provider sends it) and
//! says what happened, as [`StreamEvent`]s:
//!
//! - [`Started`](StreamEvent::Started): a call's id and name, as soon as
//!   they arrive, so a caller can react to a tool it does not have (or
//!   show which tool runs) before the arguments are in;
//! - [`ArgumentsGrew`](StreamEvent::ArgumentsGrew): the open call's
//!   arguments show more; `partial_arguments(index)` borrows them, as a
//!   best-effort JSON value (open strings, arrays and objects shown as far
//!   as they go; see [`PartialJson`]);
//! - [`Finished`](StreamEvent::Finished): the [`ToolCall`], its arguments
//!   read from the whole text exactly as the non-streaming adapters read
//!   them (blank text is `{}`; text that is not JSON stays a string, which
//!   the executor answers with a paired error naming the JSON problem).
//!
//! Several calls may be open at once, each at its own index (the content
//! block's, the output item's, the `tool_calls` entry's).
//!
//! | provider | accumulator | events | a call's id |
//! | --- | --- | --- | --- |
//! | OpenAI Chat Completions | [`OpenAiChatStream`] | `chat.completion.chunk`s | `id` |
//! | OpenAI Responses | [`OpenAiResponsesStream`] | `response.*` events | `call_id` |
//! | Anthropic Messages | [`AnthropicStream`] | `message_start` .. `message_stop` | `id` |
//!
//! **Cost.** Each piece is read once: the partial value is updated in
//! place, and the events name it by index instead of carrying a copy. A
//! call streamed one character at a time costs time linear in its length.
//!
//! ```
//! use tool_core::streaming::{AnthropicStream, StreamEvent};
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
//! let mut stream = AnthropicStream::new();
//! let mut log = Vec::new();
//! for event in &events {
//!     for happened in stream.push(event)? {
//!         match happened {
//!             StreamEvent::Started { name, .. } if !known.contains(&name.as_str()) => {
//!                 log.push(format!("unknown tool {name}, before its arguments"));
//!             }
//!             StreamEvent::Started { .. } => {}
//!             StreamEvent::ArgumentsGrew { index } => {
//!                 log.push(stream.partial_arguments(index).unwrap().to_string());
//!             }
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

mod anthropic;
mod calls;
mod fields;
mod openai_chat;
mod openai_responses;
mod partial_json;

pub use anthropic::AnthropicStream;
pub use openai_chat::OpenAiChatStream;
pub use openai_responses::OpenAiResponsesStream;
pub use partial_json::PartialJson;

use crate::message::ToolCall;

/// What one event of a stream did to its tool calls.
///
/// The partial arguments are not carried: the accumulator's
/// `partial_arguments(index)` borrows them when the caller wants them, so
/// reading a stream never copies them.
///
/// ```
/// use tool_core::streaming::{OpenAiResponsesStream, StreamEvent};
/// use serde_json::json;
///
/// let mut stream = OpenAiResponsesStream::new();
/// let events = stream.push(&json!({"type": "response.output_item.added", "output_index": 2,
///     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "search", "arguments": "{\"q\":\"ru"}}))?;
/// assert_eq!(events, [
///     StreamEvent::Started { index: 2, id: "call_1".into(), name: "search".into() },
///     StreamEvent::ArgumentsGrew { index: 2 },
/// ]);
/// assert_eq!(events[1].index(), 2);
/// assert_eq!(stream.partial_arguments(2), Some(&json!({"q": "ru"})));
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// A call started: its id and the tool it names are known.
    Started {
        /// Where the call is in the stream (see the accumulator).
        index: usize,
        /// The call's id, which its result answers.
        id: String,
        /// The tool the call names (not checked against any registry).
        name: String,
    },
    /// The arguments of the call at `index`, still open, show more than
    /// before. (A call that finishes in the same event is reported
    /// [`Finished`](StreamEvent::Finished) only: its arguments are whole.)
    ArgumentsGrew {
        /// Where the call is in the stream.
        index: usize,
    },
    /// The call at `index` is whole.
    Finished {
        /// Where the call was in the stream.
        index: usize,
        /// The call, its arguments read from the whole text.
        call: ToolCall,
    },
}

impl StreamEvent {
    /// The index of the call the event is about.
    pub fn index(&self) -> usize {
        match self {
            StreamEvent::Started { index, .. }
            | StreamEvent::ArgumentsGrew { index }
            | StreamEvent::Finished { index, .. } => *index,
        }
    }
}
