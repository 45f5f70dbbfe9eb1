//! What every API's stream accumulator shares: the events it reports, the
//! calls it has open, the partial arguments it shows, and the reading of an
//! event's fields.

pub(super) mod calls;
pub(super) mod fields;
mod partial_json;

pub use partial_json::PartialJson;

use crate::model::ToolCall;

/// What one event of a stream did to its tool calls.
///
/// The partial arguments are not carried: the accumulator's
/// `partial_arguments(index)` borrows them when the caller wants them, so
/// reading a stream never copies them. What is carried is the new text of
/// each piece ([`ArgumentsGrew::delta`](StreamEvent::ArgumentsGrew)): a UI
/// that shows the arguments as they are written appends it, and so does
/// work linear in the arguments' length, where re-rendering the whole
/// partial value at each event is quadratic.
///
/// ```
/// use tool_core::providers::{openai_responses, StreamEvent};
/// use tool_core::ToolCall;
/// use serde_json::{json, Value};
///
/// let mut stream = openai_responses::StreamAccumulator::new();
/// let events = stream.push(&json!({"type": "response.output_item.added", "output_index": 2,
///     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "search", "arguments": "{\"q\":\"ru"}}))?;
/// assert_eq!(events, [
///     StreamEvent::Started { index: 2, id: "call_1".into(), name: "search".into() },
///     StreamEvent::ArgumentsGrew { index: 2, delta: r#"{"q":"ru"#.into(), shows_more: true },
/// ]);
/// assert_eq!(events[1].index(), 2);
/// assert_eq!(stream.partial_arguments(2), Some(&json!({"q": "ru"})));
///
/// let delta = |piece: &str| json!({"type": "response.function_call_arguments.delta",
///     "item_id": "fc_1", "output_index": 2, "delta": piece});
/// let mut text = String::from(r#"{"q":"ru"#);
/// // The text is handed out as it comes, even where the value cannot show
/// // it yet: an escape is shown once whole, a number once something follows.
/// for (piece, shown) in [(r#"st \u00"#, true), (r#"e9""#, true), (r#", "limit": 1"#, false)] {
///     let events = stream.push(&delta(piece))?;
///     assert_eq!(events, [StreamEvent::ArgumentsGrew { index: 2, delta: piece.into(), shows_more: shown }]);
///     text.push_str(piece);
/// }
/// assert_eq!(stream.partial_arguments(2), Some(&json!({"q": "rust é"})));
///
/// // The closing event repeats the whole text: what the deltas missed is
/// // one more delta, then the call is finished.
/// let events = stream.push(&json!({"type": "response.function_call_arguments.done",
///     "item_id": "fc_1", "output_index": 2, "arguments": r#"{"q":"rust \u00e9", "limit": 1}"#}))?;
/// let StreamEvent::ArgumentsGrew { delta, .. } = &events[0] else { panic!("{events:?}") };
/// text.push_str(delta);
/// assert_eq!(text, r#"{"q":"rust \u00e9", "limit": 1}"#);
/// assert_eq!(events[1], StreamEvent::Finished {
///     index: 2,
///     call: ToolCall::new("call_1", "search", serde_json::from_str::<Value>(&text)?),
/// });
/// # Ok::<(), Box<dyn std::error::Error>>(())
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
    /// The arguments' text of the call at `index` grew by `delta`: one
    /// event for each piece of text a provider event brings (an empty piece
    /// brings nothing and is not reported).
    ///
    /// Concatenated in order, the deltas of a call are exactly the text its
    /// [`Finished`](StreamEvent::Finished) arguments were read from, so each
    /// character is handed out once. The one exception is a provider that
    /// contradicts itself: OpenAI Responses' closing event repeats the
    /// whole text, and a repeat that does not continue the deltas replaces
    /// them; the finished call has the repeat's arguments.
    ArgumentsGrew {
        /// Where the call is in the stream.
        index: usize,
        /// The text the piece added, as the provider sent it: JSON text,
        /// which may end inside a string, an escape or a number. (An
        /// Anthropic `tool_use` block whose `input` comes whole at its
        /// start, not as deltas, gives that input's compact JSON text.)
        delta: String,
        /// Whether `partial_arguments(index)` shows more than before this
        /// piece: false for a piece that only closes something or ends
        /// inside a key, a number, a literal or an escape (the value shows
        /// those once they are whole). When the call finishes in the same
        /// event, the `Finished` that follows has the arguments whole and
        /// the partial value is gone.
        shows_more: bool,
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
            | StreamEvent::ArgumentsGrew { index, .. }
            | StreamEvent::Finished { index, .. } => *index,
        }
    }
}
