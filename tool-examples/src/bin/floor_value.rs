//! The `Value` floor of `tool-examples call`: the program a Rust user would
//! write first with serde_json to answer the same JSON-lines calls (`echo`
//! and `label`) with the same result lines, byte for byte apart from the
//! timestamp. `scripts/throughput.sh` divides our runner's time by this
//! program's, and by the typed floor's (`floor_typed`, no tree, borrowed
//! strings): together they bracket what answering by hand costs.
//!
//! It is shaped as the plain untyped way, done without waste:
//! single-threaded, one reused line buffer, each line parsed into a
//! `serde_json::Value`, the arguments checked by hand against the tool's
//! parameters (the same checks the typed tools make: types, `limit` a
//! non-zero `u32`; unknown keys ignored), the strings moved (not cloned) out
//! of the parsed tree into a result `Value` built with `json!`, and that
//! written with serde_json to a buffered stdout. With `preserve_order` (on in
//! this workspace) `json!` keeps the keys in the order written, the runner's.
//!
//! An unknown tool or a line that is no valid call gets a one-line error
//! object (its shape is not the runner's and is not measured).
//!
//! Run: `target/release/floor_value < calls.jsonl`.

use serde_json::{Value, json};
mod floor_lines;
use std::time::{SystemTime, UNIX_EPOCH};

/// The same allocator as `tool-examples` (see its `main.rs`), so that the
/// ratios compare the JSON work, not two allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::io::Result<()> {
    floor_lines::for_each_line(|line, number, output| {
        let result =
            answer(line).unwrap_or_else(|message| json!({"error": message, "line": number}));
        serde_json::to_writer(output, &result)?;
        Ok(())
    })
}

/// The result of the call on `line`, or why there is none.
fn answer(line: &[u8]) -> Result<Value, String> {
    let mut call: Value =
        serde_json::from_slice(line).map_err(|error| format!("not a tool call: {error}"))?;
    let id = take_string(&mut call, "id").ok_or("not a tool call: no string id")?;
    let name = take_string(&mut call, "name").ok_or("not a tool call: no string name")?;
    let mut arguments = call
        .get_mut("arguments")
        .filter(|arguments| arguments.is_object())
        .ok_or("not a tool call: no arguments object")?
        .take();
    let (text, details) = match name.as_str() {
        Some("echo") => {
            let value = take_string(&mut arguments, "value").ok_or("echo: no string value")?;
            (value, json!({"source": "echo"}))
        }
        Some("label") => label(&mut arguments)?,
        _ => return Err(format!("unknown tool: {name}")),
    };
    Ok(json!({
        "role": "toolResult",
        "toolCallId": id,
        "toolName": name,
        "content": [{"type": "text", "text": text}],
        "details": details,
        "isError": false,
        "timestamp": now_ms(),
    }))
}

/// `label`'s text and details, from its arguments.
fn label(arguments: &mut Value) -> Result<(Value, Value), String> {
    let value = take_string(arguments, "value").ok_or("label: no string value")?;
    let label = match arguments.get_mut("label").map(Value::take) {
        None | Some(Value::Null) => None,
        Some(label @ Value::String(_)) => Some(label),
        Some(_) => return Err("label: label is not a string".to_owned()),
    };
    let limit = match arguments.get("limit") {
        None | Some(Value::Null) => usize::MAX,
        Some(limit) => limit
            .as_u64()
            .filter(|limit| (1..=u64::from(u32::MAX)).contains(limit))
            .and_then(|limit| usize::try_from(limit).ok())
            .ok_or("label: limit is not a non-zero u32")?,
    };
    let mut tags = match arguments.get_mut("tags").map(Value::take) {
        Some(Value::Array(tags)) if tags.iter().all(Value::is_string) => tags,
        _ => return Err("label: tags is not a list of strings".to_owned()),
    };
    tags.truncate(limit);
    let details = match label {
        Some(label) => json!({"label": label, "tags": tags}),
        None => json!({"tags": tags}),
    };
    Ok((value, details))
}

/// The string at `key` of the object `value`, moved out of it.
fn take_string(value: &mut Value, key: &str) -> Option<Value> {
    value
        .get_mut(key)
        .filter(|found| found.is_string())
        .map(Value::take)
}

/// Milliseconds since the Unix epoch, read per call as the runner does.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
        })
}
