//! The calls a stream has started and not yet finished, by index: what
//! every format's accumulator keeps, and the events it reports.

use super::StreamEvent;
use super::partial_json::PartialJson;
use crate::model::{CallOrigin, ToolCall};
use serde_json::Value;
use std::collections::BTreeMap;

/// Open calls by index (a stream's indexes come from its events: a map,
/// not a vector, so a huge index costs nothing).
#[derive(Clone, Debug, Default)]
pub(crate) struct OpenCalls {
    open: BTreeMap<usize, OpenCall>,
}

#[derive(Clone, Debug)]
pub(crate) struct OpenCall {
    pub(crate) id: String,
    pub(crate) name: String,
    arguments: PartialJson,
    /// Who made the call, when the start said it was a program.
    origin: Option<CallOrigin>,
}

impl OpenCalls {
    pub(crate) fn get(&self, index: usize) -> Option<&OpenCall> {
        self.open.get(&index)
    }

    pub(crate) fn partial(&self, index: usize) -> Option<&Value> {
        self.open.get(&index)?.arguments.value()
    }

    /// A call starts (the caller has checked that none is open at `index`).
    pub(crate) fn start(
        &mut self,
        index: usize,
        id: &str,
        name: &str,
        events: &mut Vec<StreamEvent>,
    ) {
        self.open.insert(
            index,
            OpenCall {
                id: id.to_owned(),
                name: name.to_owned(),
                arguments: PartialJson::new(),
                origin: None,
            },
        );
        events.push(StreamEvent::Started {
            index,
            id: id.to_owned(),
            name: name.to_owned(),
        });
    }

    /// The call at `index`, which is open, was made by a program.
    pub(crate) fn set_origin(&mut self, index: usize, origin: Option<CallOrigin>) {
        if let Some(call) = self.open.get_mut(&index) {
            call.origin = origin;
        }
    }

    /// More arguments text for the call at `index`, which is open: one
    /// `ArgumentsGrew` carrying the piece, unless it is empty.
    pub(crate) fn grow(&mut self, index: usize, piece: &str, events: &mut Vec<StreamEvent>) {
        if piece.is_empty() {
            return;
        }
        if let Some(call) = self.open.get_mut(&index) {
            let shows_more = call.arguments.push(piece);
            events.push(StreamEvent::ArgumentsGrew {
                index,
                delta: piece.to_owned(),
                shows_more,
            });
        }
    }

    /// The call at `index` ends with the whole arguments text `whole`, which
    /// the provider repeats at the end (OpenAI Responses): what the deltas
    /// missed is read as one more piece; text that does not continue the
    /// deltas replaces them, and is no delta (the finished call has it).
    pub(crate) fn settle(&mut self, index: usize, whole: &str, events: &mut Vec<StreamEvent>) {
        let Some(call) = self.open.get_mut(&index) else {
            return;
        };
        match whole.strip_prefix(call.arguments.text()) {
            Some(rest) => self.grow(index, rest, events),
            None => {
                call.arguments = PartialJson::new();
                call.arguments.push(whole);
            }
        }
    }

    /// The call at `index` ends; false when none was open there.
    pub(crate) fn finish(&mut self, index: usize, events: &mut Vec<StreamEvent>) -> bool {
        let Some(call) = self.open.remove(&index) else {
            return false;
        };
        finished(index, call, events);
        true
    }

    /// Every open call ends, in index order.
    pub(crate) fn finish_all(&mut self, events: &mut Vec<StreamEvent>) {
        for (index, call) in std::mem::take(&mut self.open) {
            finished(index, call, events);
        }
    }
}

/// Reports a call that ended, its whole arguments text read as each API's
/// `read_call` reads it.
fn finished(index: usize, call: OpenCall, events: &mut Vec<StreamEvent>) {
    let mut finished = ToolCall::new(call.id, call.name, call.arguments.finish());
    finished.origin = call.origin;
    events.push(StreamEvent::Finished {
        index,
        call: finished,
    });
}
