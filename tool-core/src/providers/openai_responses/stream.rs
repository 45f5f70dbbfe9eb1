//! OpenAI Responses streams: `function_call` output items, their arguments
//! as `response.function_call_arguments.delta` events.
//!
//! The shapes, from the function calling guide ("Streaming",
//! <https://platform.openai.com/docs/guides/function-calling#streaming>)
//! and the streaming reference
//! (<https://platform.openai.com/docs/api-reference/responses-streaming>):
//! "when the model calls one or more functions an event of type
//! `response.output_item.added` will be emitted for each function call"
//! with `output_index` and the item (`{"type":"function_call","id","call_id",
//! "name","arguments":""}`); then `response.function_call_arguments.delta`
//! events (`item_id`, `output_index`, `delta`); then
//! `response.function_call_arguments.done` with the whole `arguments`, and
//! `response.output_item.done` with the whole item. The call's id is the
//! item's `call_id` (what `function_call_output` answers), not its `id`.

use crate::params::describe::StrExcerpt;
use crate::providers::diagnostic::{AdapterError, AdapterErrorKind};
use crate::providers::stream::StreamEvent;
use crate::providers::stream::calls::OpenCalls;
use crate::providers::stream::fields::{
    event_type, index, object, optional_string, reported, string,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The function calls of one OpenAI Responses stream, read event by event.
///
/// [`push`](StreamAccumulator::push) takes each event's JSON (the
/// `data:` of a server-sent event). A `function_call` item's
/// `response.output_item.added` starts a call, its
/// `response.function_call_arguments.delta`s grow it, and
/// `response.function_call_arguments.done` finishes it with the whole
/// `arguments` the event repeats (what the deltas missed is read then;
/// text that disagrees with them replaces them). A
/// `response.output_item.done` finishes a call still open the same way, or
/// makes one of an item never announced; for a finished call it changes
/// nothing. Calls are indexed by `output_index`, and may be interleaved.
/// Every other event and item (text, reasoning, custom tool calls, built-in
/// tools) is accepted and ignored; an `error` event is returned as an error
/// naming what the stream reported.
///
/// ```
/// use tool_core::providers::{openai_responses, StreamEvent};
/// use tool_core::ToolCall;
/// use serde_json::json;
///
/// let mut stream = openai_responses::StreamAccumulator::new();
/// let events = stream.push(&json!({"type": "response.output_item.added", "output_index": 0,
///     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": ""}}))?;
/// assert_eq!(events, [StreamEvent::Started { index: 0, id: "call_1".into(), name: "get_weather".into() }]);
///
/// stream.push(&json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
///     "output_index": 0, "delta": "{\"location\":\"Paris"}))?;
/// assert_eq!(stream.partial_arguments(0), Some(&json!({"location": "Paris"})));
///
/// // The `.done` event repeats the whole text: what the deltas missed is
/// // one more delta, then the call is finished.
/// let events = stream.push(&json!({"type": "response.function_call_arguments.done", "item_id": "fc_1",
///     "output_index": 0, "arguments": "{\"location\":\"Paris, France\"}"}))?;
/// assert_eq!(events, [
///     StreamEvent::ArgumentsGrew { index: 0, delta: ", France\"}".into(), shows_more: true },
///     StreamEvent::Finished {
///         index: 0,
///         call: ToolCall::new("call_1", "get_weather", json!({"location": "Paris, France"})),
///     },
/// ]);
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct StreamAccumulator {
    calls: OpenCalls,
    /// The item `id` of each open call, to check the deltas' `item_id`.
    item_ids: BTreeMap<usize, String>,
    /// Output indexes of calls finished, whose `output_item.done` is a
    /// repeat.
    finished: BTreeSet<usize>,
}

impl StreamAccumulator {
    /// A stream with no call yet.
    pub fn new() -> Self {
        StreamAccumulator::default()
    }

    /// Reads one event. An event that is not the shape it should be (a
    /// delta for an output index where no call is open, an `item_id` that
    /// is not the call's) is refused with an error saying what was wrong,
    /// and changes nothing.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, AdapterError> {
        let mut events = Vec::new();
        match event_type(event, "a Responses stream event")? {
            "response.output_item.added" => {
                let what = "a response.output_item.added event";
                let output_index = index(event, "output_index", &what)?;
                let item = object(event, "item", &what)?;
                if let Some(call) = FunctionCall::read(item)? {
                    if self.calls.get(output_index).is_some() {
                        return Err(AdapterError::new(
                            AdapterErrorKind::OutOfOrder,
                            format!(
                                "{what}: a function_call is already open at output_index {output_index}"
                            ),
                        ));
                    }
                    self.start(output_index, &call, &mut events);
                    // Programmatic calling: `caller` comes with the item.
                    self.calls
                        .set_origin(output_index, super::programmatic::origin(item));
                    if let Some(piece) = call.arguments {
                        self.calls.grow(output_index, piece, &mut events);
                    }
                }
            }
            "response.function_call_arguments.delta" => {
                let what = "a response.function_call_arguments.delta event";
                let output_index = self.open_index(event, what)?;
                let piece = string(event, "delta", &what)?;
                self.calls.grow(output_index, piece, &mut events);
            }
            "response.function_call_arguments.done" => {
                let what = "a response.function_call_arguments.done event";
                let output_index = index(event, "output_index", &what)?;
                let whole = string(event, "arguments", &what)?;
                if !self.finished.contains(&output_index) {
                    self.open_index(event, what)?;
                    self.finish_call(output_index, Some(whole), &mut events);
                }
            }
            "response.output_item.done" => {
                let what = "a response.output_item.done event";
                let output_index = index(event, "output_index", &what)?;
                let item = object(event, "item", &what)?;
                if let Some(call) = FunctionCall::read(item)? {
                    if self.finished.contains(&output_index) {
                        return Ok(events);
                    }
                    if self.calls.get(output_index).is_none() {
                        self.start(output_index, &call, &mut events);
                    }
                    self.finish_call(output_index, call.arguments, &mut events);
                }
            }
            "error" => return Err(reported(Some(event))),
            _ => {}
        }
        Ok(events)
    }

    /// The arguments of the open call at `output_index` so far (see
    /// [`PartialJson`](crate::providers::PartialJson) for what they show); `None` when
    /// no call is open there or nothing shows yet.
    pub fn partial_arguments(&self, output_index: usize) -> Option<&Value> {
        self.calls.partial(output_index)
    }

    /// Finishes every call still open, in index order: for a stream that
    /// ended without their `.done` events (`response.incomplete`,
    /// `response.failed`, a cut connection). Their arguments are what
    /// arrived, read as a whole.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        self.calls.finish_all(&mut events);
        self.item_ids.clear();
        self.finished.clear();
        events
    }

    fn start(
        &mut self,
        output_index: usize,
        call: &FunctionCall<'_>,
        events: &mut Vec<StreamEvent>,
    ) {
        self.finished.remove(&output_index);
        match call.item_id {
            Some(item_id) => self.item_ids.insert(output_index, item_id.to_owned()),
            None => self.item_ids.remove(&output_index),
        };
        self.calls
            .start(output_index, call.call_id, call.name, events);
    }

    /// The call at `output_index` ends, with the whole arguments text when
    /// the event repeats it.
    fn finish_call(
        &mut self,
        output_index: usize,
        whole: Option<&str>,
        events: &mut Vec<StreamEvent>,
    ) {
        if let Some(whole) = whole {
            self.calls.settle(output_index, whole, events);
        }
        self.calls.finish(output_index, events);
        self.item_ids.remove(&output_index);
        self.finished.insert(output_index);
    }

    /// The event's `output_index`, where a call must be open, with the
    /// event's `item_id` (when it has one) that call's.
    fn open_index(&self, event: &Value, what: &str) -> Result<usize, AdapterError> {
        let output_index = index(event, "output_index", &what)?;
        if self.calls.get(output_index).is_none() {
            return Err(AdapterError::new(
                AdapterErrorKind::OutOfOrder,
                format!("{what}: no function_call is open at output_index {output_index}"),
            ));
        }
        let item_id = optional_string(event, "item_id", &what)?;
        if let (Some(item_id), Some(open)) = (item_id, self.item_ids.get(&output_index))
            && item_id != open
        {
            return Err(AdapterError::new(
                AdapterErrorKind::OutOfOrder,
                format!(
                    "{what}: `item_id` {} is not the id of the function_call at output_index {output_index} ({})",
                    StrExcerpt(item_id),
                    StrExcerpt(open),
                ),
            ));
        }
        Ok(output_index)
    }
}

/// A `function_call` item: `{"type":"function_call","id","call_id","name","arguments"}`.
struct FunctionCall<'a> {
    item_id: Option<&'a str>,
    call_id: &'a str,
    name: &'a str,
    arguments: Option<&'a str>,
}

impl<'a> FunctionCall<'a> {
    /// The item, when it is a function call; `None` for other items.
    fn read(item: &'a Value) -> Result<Option<Self>, AdapterError> {
        let what = "a function_call item";
        if string(item, "type", &"an output item")? != "function_call" {
            return Ok(None);
        }
        Ok(Some(FunctionCall {
            item_id: optional_string(item, "id", &what)?,
            call_id: string(item, "call_id", &what)?,
            name: string(item, "name", &what)?,
            arguments: optional_string(item, "arguments", &what)?,
        }))
    }
}
