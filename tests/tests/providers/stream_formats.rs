//! The three streaming formats and their accumulators behind one type, for
//! the streaming tests that run the same check through each (each test
//! file writes the events its check needs).

use serde_json::Value;
use tool_core::providers::{AdapterError, StreamEvent, anthropic, openai_chat, openai_responses};

/// A streaming format.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Format {
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
}

pub(crate) const FORMATS: [Format; 3] = [
    Format::Anthropic,
    Format::OpenAiChat,
    Format::OpenAiResponses,
];

/// One format's accumulator.
pub(crate) enum Accumulator {
    Anthropic(anthropic::StreamAccumulator),
    OpenAiChat(openai_chat::StreamAccumulator),
    OpenAiResponses(openai_responses::StreamAccumulator),
}

impl Accumulator {
    pub(crate) fn new(format: Format) -> Self {
        match format {
            Format::Anthropic => Accumulator::Anthropic(anthropic::StreamAccumulator::new()),
            Format::OpenAiChat => Accumulator::OpenAiChat(openai_chat::StreamAccumulator::new()),
            Format::OpenAiResponses => {
                Accumulator::OpenAiResponses(openai_responses::StreamAccumulator::new())
            }
        }
    }

    pub(crate) fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, AdapterError> {
        match self {
            Accumulator::Anthropic(stream) => stream.push(event),
            Accumulator::OpenAiChat(stream) => stream.push(event),
            Accumulator::OpenAiResponses(stream) => stream.push(event),
        }
    }

    pub(crate) fn partial(&self, index: usize) -> Option<&Value> {
        match self {
            Accumulator::Anthropic(stream) => stream.partial_arguments(index),
            Accumulator::OpenAiChat(stream) => stream.partial_arguments(index),
            Accumulator::OpenAiResponses(stream) => stream.partial_arguments(index),
        }
    }

    pub(crate) fn finish(&mut self) -> Vec<StreamEvent> {
        match self {
            Accumulator::Anthropic(stream) => stream.finish(),
            Accumulator::OpenAiChat(stream) => stream.finish(),
            Accumulator::OpenAiResponses(stream) => stream.finish(),
        }
    }
}
