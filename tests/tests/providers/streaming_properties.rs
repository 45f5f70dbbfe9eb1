//! Properties of the stream accumulators (each API's `StreamAccumulator`
//! in `tool_core::providers`), for any JSON arguments written any way and
//! cut anywhere:
//!
//! - every partial value is consistent with the final one: what it shows of
//!   an object is in the final object (every entry but the last one shown
//!   equal, the last a prefix of its final value), of an array a prefix
//!   (every item but the last equal), of a string a prefix, and any other
//!   value equal;
//! - every piece of text is reported by an `ArgumentsGrew` carrying it,
//!   whose `shows_more` is true exactly when the partial value changed, and
//!   a call's deltas, concatenated, are exactly its whole text;
//! - the finished call's arguments equal the original value exactly, and
//!   the text is read whole exactly when all of it has arrived;
//! - nothing panics, whatever the text or the events.
//!
//! Texts: serde_json's compact and pretty output, and a writer of its own
//! that escapes every non-ASCII character as `\u` escapes (surrogate pairs
//! for characters past the BMP), writes `/` as `\/`, and floats as an
//! integer mantissa with an exponent (`-12345E-3`). Pieces are cut at
//! character boundaries: each provider's events are JSON, whose strings
//! carry whole characters.

use crate::stream_formats::{Accumulator, FORMATS, Format};
use crate::support::generators::config;
use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};
use tool_core::providers::{PartialJson, StreamEvent};

// ---------------------------------------------------------------------------
// Consistency.

/// Whether `partial` may be what a reader shows of a text whose value is
/// `whole`; the reason when not.
fn consistent(partial: &Value, whole: &Value) -> Result<(), String> {
    match (partial, whole) {
        (Value::Object(shown), Value::Object(entries)) => {
            for (position, (key, value)) in shown.iter().enumerate() {
                let Some(final_value) = entries.get(key) else {
                    return Err(format!("key {key:?} is not in {whole}"));
                };
                if position + 1 < shown.len() {
                    if value != final_value {
                        return Err(format!(
                            "{key:?}: {value} before the last key, not {final_value}"
                        ));
                    }
                } else {
                    consistent(value, final_value)?;
                }
            }
            Ok(())
        }
        (Value::Array(shown), Value::Array(items)) => {
            if shown.len() > items.len() {
                return Err(format!("{partial} has more items than {whole}"));
            }
            for (position, (value, final_value)) in shown.iter().zip(items).enumerate() {
                if position + 1 < shown.len() {
                    if value != final_value {
                        return Err(format!("item {position}: {value}, not {final_value}"));
                    }
                } else {
                    consistent(value, final_value)?;
                }
            }
            Ok(())
        }
        (Value::String(shown), Value::String(text)) if text.starts_with(shown.as_str()) => Ok(()),
        _ if partial == whole => Ok(()),
        _ => Err(format!("{partial} is not a beginning of {whole}")),
    }
}

#[test]
fn the_consistency_check_refuses_what_it_should() {
    let whole = json!({"a": [1, "xy"], "b": true});
    for partial in [
        json!({}),
        json!({"a": []}),
        json!({"a": [1, "x"]}),
        json!({"a": [1, "xy"], "b": true}),
    ] {
        assert_eq!(consistent(&partial, &whole), Ok(()), "{partial}");
    }
    for partial in [
        json!([]),
        json!({"c": 1}),
        json!({"a": [2]}),
        json!({"a": [1, "y"]}),
        json!({"a": [1], "b": true}),
        json!({"a": [1, "xy", 3]}),
        json!({"b": false}),
    ] {
        assert!(consistent(&partial, &whole).is_err(), "{partial}");
    }
}

// ---------------------------------------------------------------------------
// Values and their texts.

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        (-1000.0..1000.0f64)
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        prop::sample::select(vec![
            json!(0),
            json!(-0.0),
            json!(1e-7),
            json!(1.5e300),
            json!(-2.5e-308)
        ]),
    ]
    .boxed()
}

fn text() -> BoxedStrategy<String> {
    let chars = prop_oneof![
        4 => prop::char::range('a', 'z'),
        1 => prop::sample::select(vec![
            '"', '\\', '/', '\n', '\t', '\r', '\u{0}', '\u{1f}', '\u{7f}', 'é', '中', '😀', '𝄞',
            '\u{2028}', '\u{ffff}', ' ', '{', '}', '[', ']', ':', ',',
        ]),
        1 => any::<char>(),
    ];
    vec(chars, 0..12)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

fn json_value() -> BoxedStrategy<Value> {
    json_value_of(4, 40, 5)
}

/// JSON `depth` levels deep at most, of about `size` values, `items` per
/// array or object at most.
fn json_value_of(depth: u32, size: u32, items: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        3 => text().prop_map(Value::String),
    ];
    let items = items as usize;
    leaf.prop_recursive(depth, size, items as u32, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..items).prop_map(Value::Array),
            vec((text(), inner), 0..items)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
    .boxed()
}

/// Tool arguments: an object (smaller than [`json_value`]'s: the reader
/// alone meets those; these check what each format adds).
fn arguments() -> BoxedStrategy<Value> {
    vec((text(), json_value_of(3, 16, 4)), 0..5)
        .prop_map(|entries| Value::Object(entries.into_iter().collect()))
        .boxed()
}

/// The three ways of writing a value.
fn texts(value: &Value) -> [String; 3] {
    let mut escaped = String::new();
    write_escaped(value, &mut escaped);
    [
        serde_json::to_string(value).unwrap(),
        serde_json::to_string_pretty(value).unwrap(),
        escaped,
    ]
}

/// JSON with every non-ASCII character escaped, `/` as `\/`, floats as a
/// mantissa and an exponent, and a space after each `:` and `,`.
fn write_escaped(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => write_string(text, out),
        Value::Number(number) if number.is_f64() => {
            out.push_str(&exponent_form(&number.to_string()))
        }
        Value::Array(items) => {
            out.push('[');
            for (position, item) in items.iter().enumerate() {
                if position > 0 {
                    out.push_str(", ");
                }
                write_escaped(item, out);
            }
            out.push(']');
        }
        Value::Object(entries) => {
            out.push('{');
            for (position, (key, item)) in entries.iter().enumerate() {
                if position > 0 {
                    out.push_str(", ");
                }
                write_string(key, out);
                out.push_str(": ");
                write_escaped(item, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for (position, c) in text.chars().enumerate() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    // Upper- and lower-case hex digits, alternately.
                    if position % 2 == 0 {
                        out.push_str(&format!("\\u{unit:04x}"));
                    } else {
                        out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
            }
        }
    }
    out.push('"');
}

/// `-1.2345e-7` as `-12345E-11`: the same decimal, so the same float.
fn exponent_form(float: &str) -> String {
    let (sign, rest) = float
        .strip_prefix('-')
        .map_or(("", float), |rest| ("-", rest));
    let (mantissa, exponent) = rest.split_once(['e', 'E']).unwrap_or((rest, "0"));
    let exponent: i64 = exponent.parse().unwrap();
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{integer}{fraction}");
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let exponent = exponent - fraction.len() as i64;
    format!("{sign}{digits}E{exponent:+}")
}

#[test]
fn the_escaped_writer_writes_the_same_value() {
    let value = json!({"k😀/": ["\u{1}é\"", 1.5, -0.0, 1e-7, 12, -3, 1.7976931348623157e308]});
    let [_, _, escaped] = texts(&value);
    assert!(escaped.contains(r#"\uD83D\uDE00\/"#), "{escaped}");
    assert!(escaped.contains("15E-1"), "{escaped}");
    assert_eq!(serde_json::from_str::<Value>(&escaped).unwrap(), value);
}

// ---------------------------------------------------------------------------
// Pieces.

/// The text cut at character counts `sizes` (repeated; 1 when empty).
fn pieces<'a>(text: &'a str, sizes: &[usize]) -> Vec<&'a str> {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(at, _)| at)
        .chain([text.len()])
        .collect();
    let mut cuts = Vec::new();
    let (mut at, mut turn) = (0, 0);
    while at + 1 < bounds.len() {
        let size = sizes
            .get(turn % sizes.len().max(1))
            .copied()
            .unwrap_or(1)
            .max(1);
        let next = (at + size).min(bounds.len() - 1);
        cuts.push(&text[bounds[at]..bounds[next]]);
        at = next;
        turn += 1;
    }
    cuts
}

/// The two pieces of the text cut at each character boundary.
fn halves(text: &str) -> impl Iterator<Item = [&str; 2]> {
    text.char_indices()
        .map(|(at, _)| at)
        .chain([text.len()])
        .map(move |at| [&text[..at], &text[at..]])
}

// ---------------------------------------------------------------------------
// The reader alone.

/// Pushes the pieces, checking each partial value against `whole`, and
/// `grew` against what changed; then the finished value.
fn read_checked(pieces: &[&str], whole: &Value) -> Result<(), TestCaseError> {
    let mut reader = PartialJson::new();
    let mut before: Option<Value> = None;
    for piece in pieces {
        let grew = reader.push(piece);
        let now = reader.value().cloned();
        prop_assert_eq!(
            grew,
            now != before,
            "`grew` after {:?} of {}",
            piece,
            reader.text()
        );
        if let Some(now) = &now {
            consistent(now, whole)
                .map_err(|why| TestCaseError::fail(format!("after {:?}: {why}", reader.text())))?;
        }
        before = now;
    }
    // Everything arrived: the value shows whole (but for a number, which
    // nothing followed).
    let expected = if whole.is_number() { None } else { Some(whole) };
    prop_assert_eq!(reader.value(), expected);
    prop_assert_eq!(&reader.finish(), whole);
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn any_value_read_a_character_at_a_time_is_consistent(value in json_value()) {
        for text in texts(&value) {
            read_checked(&pieces(&text, &[1]), &value)?;
        }
    }

    #[test]
    fn any_value_cut_anywhere_is_consistent(value in json_value()) {
        for text in texts(&value) {
            for halves in halves(&text) {
                read_checked(&halves, &value)?;
            }
        }
    }

    #[test]
    fn any_value_in_random_pieces_is_consistent(value in json_value(), sizes in vec(1usize..9, 1..8)) {
        for text in texts(&value) {
            read_checked(&pieces(&text, &sizes), &value)?;
        }
    }

    /// Any text at all, cut anywhere: no panic, and the text is read whole
    /// as each API's `read_call` reads `arguments`.
    #[test]
    fn any_text_is_read_whole_without_panicking(
        text in prop_oneof![
            any::<String>(),
            json_value().prop_map(|value| value.to_string()),
            (json_value(), any::<usize>(), any::<char>()).prop_map(|(value, at, c)| {
                let mut text = value.to_string();
                let at = text.char_indices().map(|(at, _)| at).nth(at % (text.chars().count() + 1)).unwrap_or(text.len());
                text.insert(at, c);
                text
            }),
        ],
        sizes in vec(1usize..5, 1..4),
    ) {
        let mut reader = PartialJson::new();
        for piece in pieces(&text, &sizes) {
            reader.push(piece);
        }
        let expected = if text.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text.clone()))
        };
        prop_assert_eq!(reader.finish(), expected);
    }
}

// ---------------------------------------------------------------------------
// Through each provider's events.

/// One format's events for a call (minimal: the fields each accumulator reads).
impl Format {
    fn accumulator(self) -> Accumulator {
        Accumulator::new(self)
    }

    fn start(self, index: usize) -> Value {
        let (id, name) = (format!("call_{index}"), format!("tool_{index}"));
        match self {
            Format::Anthropic => json!({"type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
            Format::OpenAiChat => json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}}]}),
            Format::OpenAiResponses => {
                json!({"type": "response.output_item.added", "output_index": index,
                "item": {"type": "function_call", "id": format!("fc_{index}"), "call_id": id, "name": name, "arguments": ""}})
            }
        }
    }

    fn piece(self, index: usize, piece: &str) -> Value {
        match self {
            Format::Anthropic => json!({"type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta", "partial_json": piece}}),
            Format::OpenAiChat => json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": index, "id": null, "function": {"arguments": piece, "name": null}, "type": null}]},
                "finish_reason": null}]}),
            Format::OpenAiResponses => json!({"type": "response.function_call_arguments.delta",
                "item_id": format!("fc_{index}"), "output_index": index, "delta": piece}),
        }
    }

    /// The events that end the calls (`texts`: each call's whole text).
    fn end(self, texts: &[(usize, &str)]) -> Vec<Value> {
        match self {
            Format::Anthropic => texts
                .iter()
                .map(|(index, _)| json!({"type": "content_block_stop", "index": index}))
                .collect(),
            Format::OpenAiChat => {
                vec![json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})]
            }
            Format::OpenAiResponses => texts
                .iter()
                .flat_map(|(index, text)| {
                    [
                        json!({"type": "response.function_call_arguments.done", "item_id": format!("fc_{index}"),
                               "output_index": index, "arguments": text}),
                        json!({"type": "response.output_item.done", "output_index": index,
                               "item": {"type": "function_call", "id": format!("fc_{index}"),
                                        "call_id": format!("call_{index}"), "name": format!("tool_{index}"),
                                        "arguments": text}}),
                    ]
                })
                .collect(),
        }
    }
}

/// Streams calls (index, whole value, pieces) with their pieces in the
/// order `order` gives (indexes into `calls`, each call's pieces in turn),
/// checking every partial value and the finished calls.
fn stream_checked(
    format: Format,
    calls: &[(usize, &Value, &str, Vec<&str>)],
    order: &[usize],
) -> Result<(), TestCaseError> {
    let mut accumulator = format.accumulator();
    let mut finished = Vec::new();
    let mut shown: Vec<Option<Value>> = vec![None; calls.len()];
    let mut deltas = vec![String::new(); calls.len()];
    let mut next_piece = vec![0; calls.len()];
    let mut events: Vec<Value> = calls
        .iter()
        .map(|(index, ..)| format.start(*index))
        .collect();
    for &turn in order {
        let (index, _, _, pieces) = &calls[turn];
        if let Some(piece) = pieces.get(next_piece[turn]) {
            events.push(format.piece(*index, piece));
            next_piece[turn] += 1;
        }
    }
    for (turn, (index, _, _, pieces)) in calls.iter().enumerate() {
        for piece in &pieces[next_piece[turn]..] {
            events.push(format.piece(*index, piece));
        }
    }
    let texts: Vec<(usize, &str)> = calls
        .iter()
        .map(|(index, _, text, _)| (*index, *text))
        .collect();
    events.extend(format.end(&texts));

    for event in &events {
        let happened = accumulator
            .push(event)
            .map_err(|error| TestCaseError::fail(format!("{format:?}: {event}: {error}")))?;
        for (turn, (index, whole, ..)) in calls.iter().enumerate() {
            let mut grew = false;
            for happening in &happened {
                if let StreamEvent::ArgumentsGrew {
                    index: at,
                    delta,
                    shows_more,
                } = happening
                    && at == index
                {
                    prop_assert!(
                        !delta.is_empty(),
                        "{:?}: an empty delta at {}",
                        format,
                        event
                    );
                    deltas[turn].push_str(delta);
                    grew |= shows_more;
                }
            }
            let now = accumulator.partial(*index).cloned();
            if let Some(partial) = &now {
                consistent(partial, whole)
                    .map_err(|why| TestCaseError::fail(format!("{format:?} at {event}: {why}")))?;
            }
            let finishes = happened
                .iter()
                .any(|e| matches!(e, StreamEvent::Finished { index: i, .. } if i == index));
            if !finishes {
                prop_assert_eq!(
                    grew,
                    now != shown[turn],
                    "{:?}: `shows_more` at {}",
                    format,
                    event
                );
            }
            shown[turn] = now;
        }
        finished.extend(happened.into_iter().filter_map(|event| match event {
            StreamEvent::Finished { index, call } => Some((index, call)),
            _ => None,
        }));
    }
    prop_assert!(accumulator.finish().is_empty());
    prop_assert_eq!(finished.len(), calls.len());
    for (turn, (index, whole, text, _)) in calls.iter().enumerate() {
        prop_assert_eq!(
            &deltas[turn],
            text,
            "{:?}: the deltas of call {}",
            format,
            index
        );
        let Some((_, call)) = finished.iter().find(|(at, _)| at == index) else {
            return Err(TestCaseError::fail(format!(
                "{format:?}: call {index} never finished"
            )));
        };
        prop_assert_eq!(&call.id, &format!("call_{index}"));
        prop_assert_eq!(&call.name, &format!("tool_{index}"));
        prop_assert_eq!(&call.arguments, *whole, "{:?}", format);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(96))]

    /// One call, a character per event.
    #[test]
    fn any_arguments_a_character_per_event_through_each_format(value in arguments()) {
        for text in texts(&value) {
            for format in FORMATS {
                stream_checked(format, &[(0, &value, &text, pieces(&text, &[1]))], &[])?;
            }
        }
    }

}

proptest! {
    // Each case streams the call once per character of its text.
    #![proptest_config(config(40))]

    /// One call, cut in two at every boundary (the reader alone meets
    /// every way of writing cut anywhere, above).
    #[test]
    fn any_arguments_cut_anywhere_through_each_format(value in arguments()) {
        let [compact, _, escaped] = texts(&value);
        for (format, text) in FORMATS.into_iter().zip([&compact, &escaped, &compact]) {
            for halves in halves(text) {
                stream_checked(format, &[(3, &value, text, halves.to_vec())], &[])?;
            }
        }
    }

}

proptest! {
    #![proptest_config(config(96))]

    /// Two calls at once, their pieces interleaved at random.
    #[test]
    fn interleaved_calls_through_each_format(
        first in arguments(),
        second in arguments(),
        sizes in vec(1usize..6, 1..5),
        order in vec(0usize..2, 0..400),
    ) {
        let [first_text, _, _] = texts(&first);
        let [_, _, second_text] = texts(&second);
        for format in FORMATS {
            let calls = [
                (1, &first, first_text.as_str(), pieces(&first_text, &sizes)),
                (4, &second, second_text.as_str(), pieces(&second_text, &[1])),
            ];
            stream_checked(format, &calls, &order)?;
        }
    }

    /// Any event at all, after a call started: an answer or an error, no
    /// panic.
    #[test]
    fn any_event_is_answered_without_panicking(
        events in vec(prop_oneof![
            json_value(),
            (0usize..3, text()).prop_map(|(index, piece)| FORMATS[index % 3].piece(0, &piece)),
            (0usize..3, json_value(), prop::sample::select(vec![
                "/type", "/index", "/output_index", "/delta", "/delta/partial_json", "/item", "/item/type",
                "/choices", "/choices/0", "/choices/0/delta/tool_calls/0/index", "/content_block",
            ])).prop_map(|(index, replacement, pointer)| {
                let mut event = FORMATS[index % 3].start(0);
                if let Some(slot) = event.pointer_mut(pointer) {
                    *slot = replacement;
                }
                event
            }),
        ], 1..12),
    ) {
        for format in FORMATS {
            let mut accumulator = format.accumulator();
            accumulator.push(&format.start(0)).unwrap();
            for event in &events {
                let _ = accumulator.push(event);
                let _ = accumulator.partial(0);
            }
            accumulator.finish();
        }
    }
}
