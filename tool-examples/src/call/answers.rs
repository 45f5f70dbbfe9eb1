//! What each input line becomes: a call to run, nothing, or an answer
//! known without running anything (a line that is no call gets a paired
//! failure when its id can be read, else an error naming the line), and
//! how results are written as lines.

use super::approval::{ApprovalLine, CloseLine, DecisionLine, refused_line};
use serde_json::{Value, json};
use tool_core::{ToolCall, ToolResultMessage};

/// What one input line becomes.
#[derive(Debug)]
pub enum Line {
    /// Nothing: a blank line.
    Blank,
    /// A call to run, and the size of its line.
    Call(ToolCall, usize),
    /// A person's decision on a call that waits for approval, or the close
    /// of one that never will be decided.
    Approval(Box<ApprovalLine>),
    /// An answer known without running anything (a line that is no call).
    Answer(String),
}

/// Appends `result` and a newline to `out`.
pub(super) fn write_result(out: &mut Vec<u8>, result: &ToolResultMessage) {
    // A result is strings, numbers and JSON values: it always serializes,
    // and writing to a Vec cannot fail. `write_json` writes the bytes serde
    // would, without escaping the constant keys again on every line.
    if result.write_json(out).is_ok() {
        out.push(b'\n');
    }
}

/// Appends a known answer and a newline to `out`.
pub(super) fn write_answer(out: &mut Vec<u8>, answer: &str) {
    out.extend_from_slice(answer.as_bytes());
    out.push(b'\n');
}

/// The answer to line `number`, longer than the limit: only its start
/// (`prefix`) was read, which may still show its id.
pub(super) fn too_long(prefix: &[u8], number: usize) -> String {
    let message = format!(
        "the line is longer than {} MiB, so it was not read",
        super::MAX_LINE_BYTES >> 20
    );
    unreadable_line(&String::from_utf8_lossy(prefix), number, &message)
}

fn to_line(result: &ToolResultMessage) -> String {
    serde_json::to_string(result).unwrap_or_default()
}

/// Reads one input line (without its limit on length, which the reader
/// applies): a call to run, nothing (blank), or the answer to a line that is
/// no call: a paired failure when its id can be read, else an error object
/// naming line `number`. Never panics, whatever the bytes.
pub fn classify(bytes: &[u8], number: usize) -> Line {
    let Ok(text) = std::str::from_utf8(bytes) else {
        // Its id may still be readable: then the answer can be paired.
        let lossy = String::from_utf8_lossy(bytes);
        return Line::Answer(unreadable_line(
            &lossy,
            number,
            "the line is not valid UTF-8",
        ));
    };
    let text = text.trim();
    if text.is_empty() {
        return Line::Blank;
    }
    match serde_json::from_str::<ToolCall>(text) {
        Ok(call) => Line::Call(call, bytes.len()),
        Err(call_error) => match approval_type(text) {
            Some(kind) => approval(text, &kind, number, &call_error),
            None => Line::Answer(not_a_call(text, number, &call_error)),
        },
    }
}

/// The line's `type` when it is an approval line (`"approval"` or
/// `"approvalClose"` at its top level); the cheap test on the text first,
/// as calls never get here unless they are broken.
fn approval_type(text: &str) -> Option<String> {
    if !text.contains(r#""approval"#) {
        return None;
    }
    let kind = top_level_strings(text, &["type"]).into_iter().next()??;
    matches!(kind.as_str(), "approval" | "approvalClose").then_some(kind)
}

/// An approval line of `kind`, or the answer to one that is not valid: an
/// approval error (naming its call when the line has a `toolCallId`), or,
/// for a line that is not JSON at all, what any line that is no call gets.
fn approval(text: &str, kind: &str, number: usize, call_error: &serde_json::Error) -> Line {
    let read = if kind == "approval" {
        serde_json::from_str::<DecisionLine>(text).map(ApprovalLine::Decide)
    } else {
        serde_json::from_str::<CloseLine>(text).map(ApprovalLine::Close)
    };
    let error = match read {
        Ok(line) => return Line::Approval(Box::new(line)),
        Err(error) => error,
    };
    let Ok(line) = serde_json::from_str::<Value>(text) else {
        return Line::Answer(not_a_call(text, number, call_error));
    };
    let call_id = line.get("toolCallId").and_then(Value::as_str);
    Line::Answer(refused_line(
        call_id,
        &format!("invalid {kind} line: {error}"),
    ))
}

/// The answer to a line that is not a valid call: a paired failure when the
/// line is a JSON object with a string `id`, else an error naming the line.
fn not_a_call(text: &str, number: usize, call_error: &serde_json::Error) -> String {
    let (id, name) = match serde_json::from_str::<Value>(text) {
        Ok(value) => (
            value.get("id").and_then(Value::as_str).map(str::to_owned),
            value.get("name").and_then(Value::as_str).map(str::to_owned),
        ),
        // Too deep, a number out of range, broken further on: the id may
        // still be readable at the top level.
        Err(json_error) => match top_level_strings(text, &["id", "name"]).as_slice() {
            [Some(id), name] => (Some(id.clone()), name.clone()),
            _ => return line_error(number, &format!("invalid JSON: {json_error}")),
        },
    };
    match id {
        Some(id) => paired_failure(
            &id,
            name.as_deref().unwrap_or(""),
            &format!("invalid tool call: {call_error}"),
        ),
        None => line_error(number, &format!("not a tool call: {call_error}")),
    }
}

/// The answer to line `number`, which cannot be parsed (too long, not
/// UTF-8): paired when its id can still be read at the top level of `text`.
fn unreadable_line(text: &str, number: usize, message: &str) -> String {
    match top_level_strings(text, &["id", "name"]).as_slice() {
        [Some(id), name] => paired_failure(id, name.as_deref().unwrap_or(""), message),
        _ => line_error(number, message),
    }
}

/// A failure result for a line that is no valid call but names its id.
fn paired_failure(id: &str, name: &str, message: &str) -> String {
    let call = ToolCall::new(id, name, Value::Null);
    let mut result = ToolResultMessage::failure(&call, message);
    if name.is_empty() {
        result.content = vec![tool_core::Content::text(format!(
            "Tool call failed: {message}"
        ))];
    }
    to_line(&result)
}

/// The string values of `keys` in the top-level object of `text`, found
/// without parsing the rest (which may be what is broken): nested values are
/// skipped by bracket depth, strings by their quotes.
fn top_level_strings(text: &str, keys: &[&str]) -> Vec<Option<String>> {
    let mut found = vec![None; keys.len()];
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut index = 0;
    let mut last_string: Option<(usize, usize)> = None;
    let mut expecting_value_of: Option<usize> = None;
    while index < bytes.len() {
        match bytes[index] {
            b'"' => {
                let start = index;
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' {
                    index += if bytes[index] == b'\\' { 2 } else { 1 };
                }
                let end = (index + 1).min(bytes.len());
                if depth == 1 {
                    let quoted = &text[start..end];
                    match expecting_value_of.take() {
                        Some(key) => found[key] = serde_json::from_str(quoted).ok(),
                        None => last_string = Some((start, end)),
                    }
                }
            }
            b':' if depth == 1 => {
                expecting_value_of = last_string.take().and_then(|(start, end)| {
                    let key: String = serde_json::from_str(&text[start..end]).ok()?;
                    keys.iter().position(|wanted| *wanted == key)
                });
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > 1 {
                    expecting_value_of = None;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => {
                last_string = None;
                expecting_value_of = None;
            }
            _ => {}
        }
        index += 1;
    }
    found
}

fn line_error(number: usize, message: &str) -> String {
    json!({"error": format!("line {number}: {message}"), "line": number}).to_string()
}
