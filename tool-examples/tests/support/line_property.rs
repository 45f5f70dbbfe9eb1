//! The properties of `call::classify(bytes, number)`, which reads one input
//! line of `tool-examples call`, shared by the property test
//! (`cli::line_properties`) and the `call_line` fuzz target
//! (fuzz/fuzz_targets/call_line.rs, which includes this file by path).
//!
//! For any bytes:
//! - `Blank` exactly when the bytes are UTF-8 and only whitespace;
//! - `Call(call, size)`: `size` is the line's length, and the call
//!   round-trips through serde (and `classify` of its serialization gives it
//!   back), floats exactly unless a drift is allowed;
//! - `Approval(line)`: a decision only from a line whose top-level `type`
//!   is `"approval"`, a close only from one whose `type` is
//!   `"approvalClose"`;
//! - `Answer(text)`: one line of valid JSON, either exactly
//!   `{"error": "line N: ...", "line": N}`, a `ToolResultMessage` with
//!   `isError: true` (when the line is a JSON object with a string `id`,
//!   the answer is that result, paired to that id), or, only for a line
//!   whose `type` is `"approval"` or `"approvalClose"`,
//!   `{"type":"approvalError","error": ...}` (with its `toolCallId` when
//!   the line gave one).
//!
//! That classify never panics is the caller's to check (the property test
//! catches the panic; libFuzzer reports it as a crash).

use serde_json::Value;
use tool_core::{ToolCall, ToolResultMessage};
use tool_examples::call::approval::ApprovalLine;
use tool_examples::call::{Line, classify};

/// Checks every property for one line; `Err` says which failed.
pub(crate) fn check_line(bytes: &[u8], number: usize, float_drift_ulps: u64) -> Result<(), String> {
    let line = classify(bytes, number);
    let blank = std::str::from_utf8(bytes).is_ok_and(|text| text.trim().is_empty());
    let ensure = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_owned()) };
    match line {
        Line::Blank => ensure(blank, "Blank for a line that is not blank"),
        Line::Call(call, size) => {
            ensure(!blank, "a call from a blank line")?;
            ensure(size == bytes.len(), "the size is not the line's length")?;
            let text = serde_json::to_string(&call).map_err(|e| e.to_string())?;
            let back: ToolCall = serde_json::from_str(&text)
                .map_err(|error| format!("the call does not read back: {error}: {text}"))?;
            ensure(
                same_call(&back, &call, float_drift_ulps),
                "the call reads back different",
            )?;
            match classify(text.as_bytes(), number) {
                Line::Call(again, _) => ensure(
                    same_call(&again, &call, float_drift_ulps),
                    "reclassified differently",
                ),
                other => Err(format!("a serialized call is not a call: {other:?}")),
            }
        }
        Line::Approval(line) => match *line {
            ApprovalLine::Decide(_) => ensure(
                sent_type(bytes).as_deref() == Some("approval"),
                "a decision from a line that does not say it is one",
            ),
            ApprovalLine::Close(_) => ensure(
                sent_type(bytes).as_deref() == Some("approvalClose"),
                "a close from a line that does not say it is one",
            ),
        },
        Line::Answer(answer) => {
            ensure(!blank, "an answer to a blank line")?;
            ensure(!answer.contains(['\n', '\r']), "the answer is not one line")?;
            let value: Value = serde_json::from_str(&answer)
                .map_err(|error| format!("the answer is not JSON: {error}: {answer}"))?;
            let sent_id = serde_json::from_slice::<Value>(bytes)
                .ok()
                .and_then(|line| line.get("id").and_then(Value::as_str).map(str::to_owned));
            if value.get("type").and_then(Value::as_str) == Some("approvalError") {
                ensure(
                    matches!(
                        sent_type(bytes).as_deref(),
                        Some("approval" | "approvalClose")
                    ),
                    "an approval error for a line that is no decision or close",
                )?;
                let object = value.as_object().ok_or("the approval error is no object")?;
                ensure(
                    object.get("error").is_some_and(Value::is_string),
                    "the approval error does not say why",
                )?;
                ensure(
                    object
                        .keys()
                        .all(|key| ["type", "toolCallId", "error"].contains(&key.as_str())),
                    "the approval error has other keys",
                )?;
                let sent_call_id = sent_line(bytes).and_then(|line| {
                    line.get("toolCallId")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                });
                ensure(
                    object.get("toolCallId").and_then(Value::as_str) == sent_call_id.as_deref(),
                    "the approval error names another call than the line's toolCallId",
                )
            } else if value.get("role").is_some() {
                let result: ToolResultMessage = serde_json::from_value(value)
                    .map_err(|error| format!("not a result: {error}: {answer}"))?;
                ensure(result.is_error, "a failure answer without isError")?;
                if let Some(id) = sent_id {
                    ensure(result.tool_call_id == id, "paired to another id")?;
                }
                Ok(())
            } else {
                ensure(sent_id.is_none(), "a line with an id answered unpaired")?;
                let object = value.as_object().ok_or("the answer is not an object")?;
                ensure(object.len() == 2, "the error answer has other keys")?;
                ensure(
                    object.get("line") == Some(&Value::from(number)),
                    "the error answer names another line",
                )?;
                let prefix = format!("line {number}: ");
                ensure(
                    object
                        .get("error")
                        .and_then(Value::as_str)
                        .is_some_and(|error| error.starts_with(&prefix)),
                    "the error does not start with its line number",
                )
            }
        }
    }
}

/// The same call, but that floats may differ by `ulps` units in the last
/// place (0: bit for bit).
pub(crate) fn same_call(a: &ToolCall, b: &ToolCall, ulps: u64) -> bool {
    a.id == b.id && a.name == b.name && same_json(&a.arguments, &b.arguments, ulps)
}

fn same_json(a: &Value, b: &Value, ulps: u64) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.is_sign_negative() == y.is_sign_negative()
                && x.to_bits().abs_diff(y.to_bits()) <= ulps
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y, ulps))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy, ulps))
        }
        _ => a == b,
    }
}

/// The line's top-level `type`, when it is a JSON object that has one
/// (read as `classify` reads lines: surrounding whitespace trimmed).
fn sent_type(bytes: &[u8]) -> Option<String> {
    let line = sent_line(bytes)?;
    line.get("type").and_then(Value::as_str).map(str::to_owned)
}

/// The line as JSON, when it is JSON (read as `classify` reads lines:
/// surrounding whitespace trimmed).
fn sent_line(bytes: &[u8]) -> Option<Value> {
    serde_json::from_str(std::str::from_utf8(bytes).ok()?.trim()).ok()
}
