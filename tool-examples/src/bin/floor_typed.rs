//! The typed floor of `tool-examples call`: the fastest honest program a Rust
//! user would write by hand with serde to answer the same JSON-lines calls
//! (`echo` and `label`) with the same result lines, byte for byte apart from
//! the timestamp. `scripts/throughput.sh` divides our runner's time by this
//! program's: the ratio is what the library costs over doing it by hand.
//!
//! It is shaped to do the least work that still does the job properly:
//! single-threaded (there is nothing to wait for), one reused line buffer,
//! no `serde_json::Value` anywhere, and nothing copied that can be borrowed:
//!
//! - the line is read into a reused `Vec<u8>` and checked as UTF-8 once;
//! - the envelope is deserialized into a struct borrowing from the line:
//!   `id` and `name` are `Cow<str>` (borrowed unless they hold escapes) and
//!   `arguments` is a `&RawValue`, so they are not parsed into a tree;
//! - the arguments are then deserialized into the tool's own struct, its
//!   strings borrowed likewise. serde borrows a `Cow<str>` only when it is
//!   the field's whole type, so `Option<Cow<str>>` and `Vec<Cow<str>>` would
//!   allocate every string: they are `Option<Text>` and `Vec<Text>` here,
//!   `Text` a transparent newtype over a borrowing `Cow<str>`;
//! - the result is a `#[derive(Serialize)]` struct borrowing those strings,
//!   serialized straight into a buffered stdout.
//!
//! Arguments are checked as strictly as by the typed tools (types, `limit`
//! a non-zero `u32`); unknown argument keys are ignored, as there. An unknown
//! tool or a line that is no valid call gets a one-line error object (its
//! shape is not the runner's and is not measured).
//!
//! Run: `target/release/floor_typed < calls.jsonl`.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::io::Write;

mod floor_lines;
use std::num::NonZeroU32;
use std::time::{SystemTime, UNIX_EPOCH};

/// The same allocator as `tool-examples` (see its `main.rs`), so that the
/// ratios compare the JSON work, not two allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One input line: a tool call, borrowing from the line.
#[derive(Deserialize)]
struct Call<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    arguments: &'a RawValue,
}

/// A string borrowed from the input when it holds no escapes: a newtype so
/// that it borrows inside an `Option` or a `Vec` too.
#[derive(Deserialize, Serialize)]
#[serde(transparent)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

/// `echo`'s parameters.
#[derive(Deserialize)]
struct EchoArgs<'a> {
    #[serde(borrow)]
    value: Cow<'a, str>,
}

/// `label`'s parameters.
#[derive(Deserialize)]
struct LabelArgs<'a> {
    #[serde(borrow)]
    value: Cow<'a, str>,
    #[serde(borrow)]
    label: Option<Text<'a>>,
    limit: Option<NonZeroU32>,
    #[serde(borrow)]
    tags: Vec<Text<'a>>,
}

/// One result line, in the runner's key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLine<'a, D> {
    role: &'static str,
    tool_call_id: &'a str,
    tool_name: &'a str,
    content: [TextContent<'a>; 1],
    details: D,
    is_error: bool,
    timestamp: u64,
}

#[derive(Serialize)]
struct TextContent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
struct EchoDetails {
    source: &'static str,
}

#[derive(Serialize)]
struct LabelDetails<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a Text<'a>>,
    tags: &'a [Text<'a>],
}

/// A line that is no valid call, or names no tool of ours.
#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a str,
    line: u64,
}

fn main() -> std::io::Result<()> {
    floor_lines::for_each_line(|line, number, output| {
        if let Err(message) = answer(line, &mut *output)? {
            let error = ErrorLine {
                error: &message,
                line: number,
            };
            serde_json::to_writer(output, &error)?;
        }
        Ok(())
    })
}

/// Writes the result of the call on `line` (without the newline), or
/// returns why there is none: the outer error is the output's, the inner one
/// the call's.
fn answer(line: &[u8], output: &mut impl Write) -> std::io::Result<Result<(), String>> {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(error) => return Ok(Err(format!("the line is not UTF-8: {error}"))),
    };
    let call: Call = match serde_json::from_str(text) {
        Ok(call) => call,
        Err(error) => return Ok(Err(format!("not a tool call: {error}"))),
    };
    let arguments = call.arguments.get();
    let written = match &*call.name {
        "echo" => match serde_json::from_str::<EchoArgs>(arguments) {
            Ok(args) => write_result(output, &call, &args.value, EchoDetails { source: "echo" }),
            Err(error) => return Ok(Err(format!("echo: invalid arguments: {error}"))),
        },
        "label" => match serde_json::from_str::<LabelArgs>(arguments) {
            Ok(args) => {
                let keep = args.limit.map_or(usize::MAX, |limit| {
                    usize::try_from(limit.get()).unwrap_or(usize::MAX)
                });
                let details = LabelDetails {
                    label: args.label.as_ref(),
                    tags: &args.tags[..args.tags.len().min(keep)],
                };
                write_result(output, &call, &args.value, details)
            }
            Err(error) => return Ok(Err(format!("label: invalid arguments: {error}"))),
        },
        other => return Ok(Err(format!("unknown tool: {other}"))),
    };
    written.map(Ok)
}

fn write_result<D: Serialize>(
    output: &mut impl Write,
    call: &Call,
    text: &str,
    details: D,
) -> std::io::Result<()> {
    let result = ResultLine {
        role: "toolResult",
        tool_call_id: &call.id,
        tool_name: &call.name,
        content: [TextContent { kind: "text", text }],
        details,
        is_error: false,
        timestamp: now_ms(),
    };
    serde_json::to_writer(output, &result).map_err(std::io::Error::from)
}

/// Milliseconds since the Unix epoch, read per call as the runner does.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
        })
}
