//! What every API's stream accumulator shares: the events it reports, the
//! calls it has open, the partial arguments it shows, and the reading of an
//! event's fields.

pub(super) mod calls;
pub(super) mod fields;
mod partial_json;

pub use partial_json::PartialJson;

use crate::message::ToolCall;

/// What one event of a stream did to its tool calls.
///
/// The partial arguments are not carried: the accumulator's
/// `partial_arguments(index)` borrows them when the caller wants them, so
/// reading a stream never copies them.
///
/// ```
/// use tool_core::providers::{openai_responses, StreamEvent};
/// use serde_json::json;
///
/// let mut stream = openai_responses::StreamAccumulator::new();
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
