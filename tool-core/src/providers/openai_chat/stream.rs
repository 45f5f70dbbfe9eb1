//! OpenAI Chat Completions streams: `tool_calls` deltas in
//! `chat.completion.chunk`s.
//!
//! The shapes, from the function calling guide ("Streaming",
//! <https://platform.openai.com/docs/guides/function-calling#streaming>)
//! and openai-python (`types/chat/chat_completion_chunk.py`): a chunk is
//! `{"choices":[{"index","delta":{"tool_calls":[..]},"finish_reason"}]}`;
//! each `tool_calls` entry has an `index` that "identifies which function
//! call the delta is for", and "many of these fields are only set for the
//! first delta of each tool call, like `id`, `function.name`, and `type`"
//! (later ones carry them as `null`, or not at all). `choices` "can also be
//! empty for the last chunk if you set `stream_options:
//! {"include_usage": true}`". `finish_reason` is `tool_calls` when the model
//! called tools (`stop`, `length`, `content_filter` otherwise).

use crate::params::describe::json_type;
use crate::providers::diagnostic::{AdapterError, AdapterErrorKind};
use crate::providers::stream::StreamEvent;
use crate::providers::stream::calls::OpenCalls;
use crate::providers::stream::fields::{
    Within, changed, field, index, optional_object, optional_string, reported,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The tool calls of one choice of an OpenAI Chat Completions stream, read
/// chunk by chunk.
///
/// [`push`](StreamAccumulator::push) takes each whole chunk's JSON (the
/// `data:` of a server-sent event; the closing `data: [DONE]` is not JSON:
/// call [`finish`](StreamAccumulator::finish) instead). The first delta of
/// a call (with `id` and `function.name`) starts it, each delta's
/// `function.arguments` grows it, and the choice's `finish_reason` (any, not
/// only `tool_calls`: `length` means the arguments were cut off, which the
/// executor then reports) finishes every call of the choice, in index
/// order. Calls at several indexes may be interleaved. A chunk's other
/// choices are left to an accumulator made with
/// [`for_choice`](StreamAccumulator::for_choice). Text deltas, custom tool
/// calls (free text, not JSON) and the deprecated `function_call` are
/// ignored; a chunk holding an `error` is returned as an error naming what
/// the stream reported.
///
/// ```
/// use tool_core::providers::{openai_chat, StreamEvent};
/// use tool_core::ToolCall;
/// use serde_json::json;
///
/// let mut stream = openai_chat::StreamAccumulator::new();
/// let delta = |tool_call| json!({"choices": [{"index": 0, "delta": {"tool_calls": [tool_call]}, "finish_reason": null}]});
///
/// let events = stream.push(&delta(json!({"index": 0, "id": "call_1", "type": "function",
///     "function": {"name": "get_weather", "arguments": ""}})))?;
/// assert_eq!(events, [StreamEvent::Started { index: 0, id: "call_1".into(), name: "get_weather".into() }]);
///
/// stream.push(&delta(json!({"index": 0, "function": {"arguments": "{\"location\":\"Par"}})))?;
/// assert_eq!(stream.partial_arguments(0), Some(&json!({"location": "Par"})));
/// stream.push(&delta(json!({"index": 0, "function": {"arguments": "is\"}"}})))?;
///
/// let events = stream.push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))?;
/// assert_eq!(events, [StreamEvent::Finished {
///     index: 0,
///     call: ToolCall::new("call_1", "get_weather", json!({"location": "Paris"})),
/// }]);
/// # Ok::<(), tool_core::providers::AdapterError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct StreamAccumulator {
    choice: usize,
    calls: OpenCalls,
    /// Indexes of open custom tool calls: their deltas are not ours.
    custom: BTreeSet<usize>,
}

/// One `tool_calls` entry of a delta, checked.
struct ToolCallDelta<'a> {
    index: usize,
    id: Option<&'a str>,
    name: Option<&'a str>,
    arguments: Option<&'a str>,
    custom: bool,
}

impl StreamAccumulator {
    /// The calls of choice 0 (the only one unless the request set `n`).
    pub fn new() -> Self {
        StreamAccumulator::default()
    }

    /// The calls of the choice whose `index` is `choice`.
    pub fn for_choice(choice: usize) -> Self {
        StreamAccumulator {
            choice,
            ..StreamAccumulator::default()
        }
    }

    /// Reads one chunk. A chunk that is not the shape it should be (a delta
    /// for an index where no call started, a call's `id` changing) is
    /// refused with an error saying what was wrong, and changes nothing.
    pub fn push(&mut self, chunk: &Value) -> Result<Vec<StreamEvent>, AdapterError> {
        let what = "a chat.completion.chunk";
        if !chunk.is_object() {
            return Err(AdapterError::new(
                AdapterErrorKind::WrongShape,
                format!("{what}: must be an object, not {}", json_type(chunk)),
            ));
        }
        if let Some(error) = field(chunk, "error").filter(|error| !error.is_null()) {
            return Err(reported(Some(error)));
        }
        let choices = match field(chunk, "choices") {
            Some(Value::Array(choices)) => choices,
            Some(other) => {
                return Err(AdapterError::new(
                    AdapterErrorKind::WrongShape,
                    format!(
                        "{what}: `choices` must be an array, not {}",
                        json_type(other)
                    ),
                ));
            }
            None => {
                return Err(AdapterError::new(
                    AdapterErrorKind::Missing,
                    format!("{what}: `choices` is missing"),
                ));
            }
        };
        let at = |position| Within {
            outer: &what,
            part: "choices",
            position: Some(position),
        };
        let mut ours = None;
        for (position, choice) in choices.iter().enumerate() {
            if index(choice, "index", &at(position))? == self.choice {
                ours = Some((position, choice));
            }
        }
        let mut events = Vec::new();
        if let Some((position, choice)) = ours {
            let what = at(position);
            let deltas = self.check(choice, &what)?;
            let finish_reason = optional_string(choice, "finish_reason", &what)?;
            self.apply(&deltas, &mut events);
            if finish_reason.is_some() {
                self.calls.finish_all(&mut events);
                self.custom.clear();
            }
        }
        Ok(events)
    }

    /// The arguments of the open call at `index` so far (see
    /// [`PartialJson`](crate::providers::PartialJson) for what they show); `None` when
    /// no call is open there or nothing shows yet.
    pub fn partial_arguments(&self, index: usize) -> Option<&Value> {
        self.calls.partial(index)
    }

    /// Finishes every call still open, in index order: at the stream's end
    /// (`data: [DONE]`), for a stream whose `finish_reason` never came.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        self.calls.finish_all(&mut events);
        self.custom.clear();
        events
    }

    /// The choice's `tool_calls` entries, each checked against the calls
    /// open (and those the entries before it start), before any is applied.
    fn check<'a>(
        &self,
        choice: &'a Value,
        what: &dyn fmt::Display,
    ) -> Result<Vec<ToolCallDelta<'a>>, AdapterError> {
        let Some(delta) = optional_object(choice, "delta", what)? else {
            return Ok(Vec::new());
        };
        let entries = match field(delta, "tool_calls") {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(entries)) => entries,
            Some(other) => {
                return Err(AdapterError::new(
                    AdapterErrorKind::WrongShape,
                    format!(
                        "{what}: `delta.tool_calls` must be an array, not {}",
                        json_type(other)
                    ),
                ));
            }
        };
        let mut deltas: Vec<ToolCallDelta<'a>> = Vec::with_capacity(entries.len());
        // What the entries before this one start, by index.
        let mut starting: BTreeMap<usize, Option<(&'a str, &'a str)>> = BTreeMap::new();
        for (position, entry) in entries.iter().enumerate() {
            let what = Within {
                outer: what,
                part: "delta.tool_calls",
                position: Some(position),
            };
            let delta = read_delta(entry, &what)?;
            let earlier = starting.get(&delta.index).copied();
            let custom =
                delta.custom || self.custom.contains(&delta.index) || earlier == Some(None);
            let open = match self.calls.get(delta.index) {
                Some(call) => Some((call.id.as_str(), call.name.as_str())),
                None => earlier.flatten(),
            };
            match (open, delta.id, delta.name) {
                _ if custom => {
                    starting.entry(delta.index).or_insert(None);
                }
                (Some((id, name)), new_id, new_name) => {
                    if let Some(new) = new_id.filter(|new| !new.is_empty() && *new != id) {
                        return Err(changed(&what, "id", id, new));
                    }
                    if let Some(new) = new_name.filter(|new| !new.is_empty() && *new != name) {
                        return Err(changed(&what, "function.name", name, new));
                    }
                }
                (None, Some(id), Some(name)) => {
                    starting.insert(delta.index, Some((id, name)));
                }
                (None, ..) => {
                    return Err(AdapterError::new(
                        AdapterErrorKind::OutOfOrder,
                        format!(
                            "{what}: no call is open at index {}, and this delta does not start one (a first delta has `id` and `function.name`)",
                            delta.index
                        ),
                    ));
                }
            }
            deltas.push(delta);
        }
        Ok(deltas)
    }

    fn apply(&mut self, deltas: &[ToolCallDelta<'_>], events: &mut Vec<StreamEvent>) {
        for delta in deltas {
            if delta.custom || self.custom.contains(&delta.index) {
                self.custom.insert(delta.index);
                continue;
            }
            if self.calls.get(delta.index).is_none() {
                let (Some(id), Some(name)) = (delta.id, delta.name) else {
                    continue; // refused by `check`
                };
                self.calls.start(delta.index, id, name, events);
            }
            if let Some(piece) = delta.arguments.filter(|piece| !piece.is_empty()) {
                self.calls.grow(delta.index, piece, events);
            }
        }
    }
}

/// One `tool_calls` entry: `{"index","id","type","function":{"name","arguments"}}`
/// (or a custom tool's `{"index","id","type":"custom","custom":{..}}`).
fn read_delta<'a>(
    entry: &'a Value,
    what: &dyn fmt::Display,
) -> Result<ToolCallDelta<'a>, AdapterError> {
    let index = index(entry, "index", what)?;
    let id = optional_string(entry, "id", what)?;
    let kind = optional_string(entry, "type", what)?;
    let function = optional_object(entry, "function", what)?;
    let custom = kind == Some("custom") || (function.is_none() && field(entry, "custom").is_some());
    let (name, arguments) = match function {
        Some(function) if !custom => {
            let what = Within {
                outer: what,
                part: "function",
                position: None,
            };
            (
                optional_string(function, "name", &what)?,
                optional_string(function, "arguments", &what)?,
            )
        }
        _ => (None, None),
    };
    Ok(ToolCallDelta {
        index,
        id,
        name,
        arguments,
        custom,
    })
}
