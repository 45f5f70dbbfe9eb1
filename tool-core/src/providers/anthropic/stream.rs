//! Anthropic Messages streams: `tool_use` content blocks, their input as
//! `input_json_delta` pieces.
//!
//! The event shapes, from "Streaming Messages"
//! (<https://platform.claude.com/docs/en/build-with-claude/streaming>):
//! a stream is `message_start`, then content blocks, each a
//! `content_block_start`, `content_block_delta`s and a
//! `content_block_stop`, each with an `index` that "corresponds to its index
//! in the final Message `content` array"; then `message_delta`s and
//! `message_stop`, with `ping`s anywhere. "The deltas for `tool_use` content
//! blocks correspond to updates for the `input` field of the block", as
//! `{"type":"input_json_delta","partial_json":".."}`; the block starts as
//! `{"type":"tool_use","id","name","input":{}}`. "New event types may be
//! added, and your code should handle unknown event types gracefully": they
//! are ignored here. The SDK's accumulator (anthropic-sdk-python,
//! `lib/streaming/_messages.py`, `accumulate_event`) also keeps the block's
//! `input` when no delta arrives, as here.

use crate::params::describe::json_type;
use crate::providers::diagnostic::{AdapterError, AdapterErrorKind};
use crate::providers::stream::StreamEvent;
use crate::providers::stream::calls::OpenCalls;
use crate::providers::stream::fields::{event_type, field, index, object, reported, string};
use serde_json::Value;
use std::collections::BTreeSet;

/// The tool calls of one Anthropic Messages stream, read event by event.
///
/// [`push`](StreamAccumulator::push) takes each event's JSON (the `data:` of
/// a server-sent event). A `tool_use` block's `content_block_start` starts a
/// call ([`StreamEvent::Started`]), its `input_json_delta`s grow its
/// arguments, and its `content_block_stop` finishes it. The index of the
/// events is the content block's. Every other event and block (`text`,
/// `thinking`, `server_tool_use`, which Anthropic runs itself, `ping`,
/// `message_delta`, ...) is accepted and ignored; an `error` event is
/// returned as an error naming what the stream reported.
///
/// ```
/// use tool_core::providers::{anthropic, StreamEvent};
/// use tool_core::ToolCall;
/// use serde_json::json;
///
/// let mut stream = anthropic::StreamAccumulator::new();
/// let started = stream.push(&json!({"type": "content_block_start", "index": 1,
///     "content_block": {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}}))?;
/// assert_eq!(started, [StreamEvent::Started { index: 1, id: "toolu_01".into(), name: "get_weather".into() }]);
///
/// let grew = stream.push(&json!({"type": "content_block_delta", "index": 1,
///     "delta": {"type": "input_json_delta", "partial_json": "{\"location\": \"San Fra"}}))?;
/// assert_eq!(grew, [StreamEvent::ArgumentsGrew {
///     index: 1,
///     delta: "{\"location\": \"San Fra".into(),
///     shows_more: true,
/// }]);
/// assert_eq!(stream.partial_arguments(1), Some(&json!({"location": "San Fra"})));
///
/// stream.push(&json!({"type": "content_block_delta", "index": 1,
///     "delta": {"type": "input_json_delta", "partial_json": "ncisco, CA\"}"}}))?;
/// // The block's deltas, concatenated, are the text the call is read from.
/// let finished = stream.push(&json!({"type": "content_block_stop", "index": 1}))?;
/// assert_eq!(finished, [StreamEvent::Finished {
///     index: 1,
///     call: ToolCall::new("toolu_01", "get_weather", json!({"location": "San Francisco, CA"})),
/// }]);
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct StreamAccumulator {
    calls: OpenCalls,
    /// Open blocks that are not `tool_use`: their deltas are not ours.
    others: BTreeSet<usize>,
}

impl StreamAccumulator {
    /// A stream with no block open yet.
    pub fn new() -> Self {
        StreamAccumulator::default()
    }

    /// Reads one event. An event that is not the shape it should be (a
    /// delta for a block that is not open, an index that is not a number)
    /// is refused with an error saying what was wrong, and changes nothing.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, AdapterError> {
        let mut events = Vec::new();
        match event_type(event, "a Messages stream event")? {
            "content_block_start" => self.start(event, &mut events)?,
            "content_block_delta" => {
                let what = "a content_block_delta event";
                let index = index(event, "index", &what)?;
                let delta = object(event, "delta", &what)?;
                let kind = string(delta, "type", &"a content_block_delta event's `delta`")?;
                if self.calls.get(index).is_some() {
                    if kind == "input_json_delta" {
                        let piece = string(delta, "partial_json", &"an input_json_delta")?;
                        self.calls.grow(index, piece, &mut events);
                    }
                } else if !self.others.contains(&index) {
                    return Err(not_open(what, index));
                }
            }
            "content_block_stop" => {
                let what = "a content_block_stop event";
                let index = index(event, "index", &what)?;
                if !self.calls.finish(index, &mut events) && !self.others.remove(&index) {
                    return Err(not_open(what, index));
                }
            }
            "error" => return Err(reported(field(event, "error"))),
            _ => {}
        }
        Ok(events)
    }

    /// The arguments of the open call at content block `index` so far (see
    /// [`PartialJson`](crate::providers::PartialJson) for what they show); `None` when
    /// no call is open there or nothing shows yet.
    pub fn partial_arguments(&self, index: usize) -> Option<&Value> {
        self.calls.partial(index)
    }

    /// Finishes every call still open, in index order: for a stream that
    /// ended without their `content_block_stop` (cut off). Their arguments
    /// are what arrived, read as a whole.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        self.calls.finish_all(&mut events);
        self.others.clear();
        events
    }

    fn start(&mut self, event: &Value, events: &mut Vec<StreamEvent>) -> Result<(), AdapterError> {
        let what = "a content_block_start event";
        let index = index(event, "index", &what)?;
        let block = object(event, "content_block", &what)?;
        let kind = string(
            block,
            "type",
            &"a content_block_start event's `content_block`",
        )?;
        if self.calls.get(index).is_some() || self.others.contains(&index) {
            return Err(AdapterError::new(
                AdapterErrorKind::OutOfOrder,
                format!("{what}: a content block is already open at index {index}"),
            ));
        }
        if kind != "tool_use" {
            self.others.insert(index);
            return Ok(());
        }
        let id = string(block, "id", &"a tool_use block")?;
        let name = string(block, "name", &"a tool_use block")?;
        // The input is `{}` until the deltas fill it; one given whole is
        // read as if it had been streamed.
        let given = match field(block, "input") {
            None | Some(Value::Null) => None,
            Some(Value::Object(input)) if input.is_empty() => None,
            Some(input @ Value::Object(_)) => Some(input.to_string()),
            Some(other) => {
                return Err(AdapterError::new(
                    AdapterErrorKind::WrongShape,
                    format!(
                        "a tool_use block: `input` must be an object, not {}",
                        json_type(other)
                    ),
                ));
            }
        };
        self.calls.start(index, id, name, events);
        // Programmatic calling: `caller` comes with the block's start.
        self.calls
            .set_origin(index, super::programmatic::origin(block));
        if let Some(text) = given {
            self.calls.grow(index, &text, events);
        }
        Ok(())
    }
}

fn not_open(what: &str, index: usize) -> AdapterError {
    AdapterError::new(
        AdapterErrorKind::OutOfOrder,
        format!("{what}: no content block is open at index {index}"),
    )
}
