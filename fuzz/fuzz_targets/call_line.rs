//! The JSON-line handling of `tool-examples call`: `classify(bytes, 1)`, which
//! turns one input line into a call to run, nothing, or the answer written
//! for a line that is no call.
//!
//! The properties, for any bytes:
//!
//! - classify never panics (libFuzzer reports a panic as a crash);
//! - `Blank` exactly when the bytes are UTF-8 and only whitespace;
//! - `Call(call, size)`: `size` is the line's length, and the call
//!   round-trips through serde (`to_string` then `from_str` gives it back,
//!   and `classify` of that text gives the same call), floats exactly (the
//!   workspace builds serde_json with `float_roundtrip`, since the finding
//!   in fuzz/README.md; `--features lenient-floats` allows 4 ULPs of drift
//!   for a build without it);
//! - `Answer(text)`: one line (no `\n` or `\r`) of valid JSON that is either
//!   `{"error": "line 1: ...", "line": 1}` (nothing else) or a
//!   `ToolResultMessage` with `isError: true`; when the line is a JSON object
//!   with a string `id`, the answer is that result, paired to that id.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_core::{ToolCall, ToolResultMessage};
use tool_examples::call::{Line, classify};

/// Units in the last place a float may move when a call is written and read
/// again: none since serde_json is built with `float_roundtrip`; the
/// `lenient-floats` feature allows 4, for fuzzing a build without it.
const FLOAT_DRIFT_ULPS: u64 = if cfg!(feature = "lenient-floats") {
    4
} else {
    0
};

fn same_call(a: &ToolCall, b: &ToolCall) -> bool {
    a.id == b.id && a.name == b.name && same_json(&a.arguments, &b.arguments)
}

/// Equal JSON, but that floats may differ by [`FLOAT_DRIFT_ULPS`].
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.is_sign_negative() == y.is_sign_negative()
                && x.to_bits().abs_diff(y.to_bits()) <= FLOAT_DRIFT_ULPS
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    let blank = std::str::from_utf8(data).is_ok_and(|text| text.trim().is_empty());
    match classify(data, 1) {
        Line::Blank => assert!(blank, "Blank for a line that is not blank"),
        Line::Call(call, size) => {
            assert!(!blank, "a call from a blank line");
            assert_eq!(size, data.len(), "the size is not the line's length");
            let text = serde_json::to_string(&call).expect("a call serializes");
            let back: ToolCall = serde_json::from_str(&text)
                .unwrap_or_else(|error| panic!("the call does not read back: {error}\n{text}"));
            assert!(
                same_call(&back, &call),
                "the call reads back different: {text}"
            );
            match classify(text.as_bytes(), 1) {
                Line::Call(again, _) => assert!(same_call(&again, &call), "{text}"),
                other => panic!("a serialized call is not a call: {other:?}"),
            }
        }
        Line::Answer(answer) => {
            assert!(!blank, "an answer to a blank line");
            assert!(
                !answer.contains(['\n', '\r']),
                "the answer is not one line: {answer:?}"
            );
            let value: Value = serde_json::from_str(&answer)
                .unwrap_or_else(|error| panic!("the answer is not JSON: {error}\n{answer}"));
            let sent_id = serde_json::from_slice::<Value>(data)
                .ok()
                .and_then(|line| line.get("id").and_then(Value::as_str).map(str::to_owned));
            if value.get("role").is_some() {
                let result: ToolResultMessage = serde_json::from_value(value)
                    .unwrap_or_else(|error| panic!("not a result: {error}\n{answer}"));
                assert!(
                    result.is_error,
                    "a failure answer without isError: {answer}"
                );
                if let Some(id) = sent_id {
                    assert_eq!(result.tool_call_id, id, "paired to another id");
                }
            } else {
                assert_eq!(
                    sent_id, None,
                    "a line with an id answered unpaired: {answer}"
                );
                let object = value.as_object().expect("the answer is an object");
                assert_eq!(object.len(), 2, "extra keys: {answer}");
                assert_eq!(object.get("line"), Some(&Value::from(1)), "{answer}");
                let error = object.get("error").and_then(Value::as_str);
                assert!(
                    error.is_some_and(|error| error.starts_with("line 1: ")),
                    "no error naming line 1: {answer}"
                );
            }
        }
    }
});
