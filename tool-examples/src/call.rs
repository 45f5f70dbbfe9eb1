//! `tool-examples call`: tool calls as JSON lines in, one result line per
//! call out, in input order. Calls run in parallel while results stream out
//! in order; input is read as it comes, never whole, and a bounded number of
//! calls is in flight at once so a fast producer cannot fill memory.

use futures_util::FutureExt;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinHandle;
use tool_core::{
    CallContext, ExecutionMode, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call,
};

/// Calls running at once, at most; reading waits for the oldest to be written.
pub const MAX_IN_FLIGHT: usize = 1024;

/// A longer line is not read into memory: it is answered with an error
/// naming its number, and skipped.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The input lines of the calls in flight take at most this much memory
/// together; reading waits for earlier calls to be answered.
pub const MAX_IN_FLIGHT_BYTES: usize = 64 * 1024 * 1024;

/// Of a line too long to read, this much is kept to find its id.
const PREFIX_BYTES: usize = 64 * 1024;

/// The budget counts in KiB, so one permit is one KiB of input.
const BUDGET_UNIT: usize = 1024;

/// What one input line becomes.
#[derive(Debug)]
pub enum Line {
    /// Nothing: a blank line.
    Blank,
    /// A call to run, and the size of its line.
    Call(ToolCall, usize),
    /// An answer known without running anything (a line that is no call).
    Answer(String),
}

/// One output line, in input order. A call holds its share of the memory
/// budget until its answer is written.
enum Pending {
    /// Known already.
    Ready(String),
    /// Running on its own task (parallel mode).
    Running(JoinHandle<String>, OwnedSemaphorePermit),
    /// To run when its turn comes (sequential mode).
    Queued(ToolCall, OwnedSemaphorePermit),
}

/// Reads calls from `input` until it ends, writing one line per call to
/// `output`. In [`ExecutionMode::Parallel`] calls run concurrently on the
/// runtime's threads; results keep input order either way. Every call runs
/// with `ctx` (repair, hooks, a retry budget: whatever the caller set).
pub async fn run_calls<R, W>(
    input: R,
    mut output: W,
    registry: Arc<ToolRegistry>,
    mode: ExecutionMode,
    ctx: CallContext,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let (sender, mut receiver) = mpsc::channel::<Pending>(MAX_IN_FLIGHT);
    let reader_registry = Arc::clone(&registry);
    let ctx = Arc::new(ctx);
    let reader_ctx = Arc::clone(&ctx);
    let budget = Arc::new(Semaphore::new(MAX_IN_FLIGHT_BYTES / BUDGET_UNIT));
    let reader = tokio::spawn(async move {
        let mut lines = LineReader::new(input);
        while let Some(line) = lines.next().await? {
            let (call, size) = match line {
                Line::Blank => continue,
                Line::Answer(answer) => {
                    if sender.send(Pending::Ready(answer)).await.is_err() {
                        break;
                    }
                    continue;
                }
                Line::Call(call, size) => (call, size),
            };
            let units = u32::try_from(size / BUDGET_UNIT + 1).unwrap_or(u32::MAX);
            let pending = if mode == ExecutionMode::Sequential {
                let Ok(permit) = Arc::clone(&budget).acquire_many_owned(units).await else {
                    break;
                };
                Pending::Queued(call, permit)
            } else {
                // A call that needs no waiting (most do not) is answered
                // right here; only one that waits gets a task of its own.
                let registry = Arc::clone(&reader_registry);
                let ctx = Arc::clone(&reader_ctx);
                let mut running = Box::pin(async move { run_one(&call, &registry, &ctx).await });
                match running.as_mut().now_or_never() {
                    Some(answer) => Pending::Ready(answer),
                    None => {
                        let Ok(permit) = Arc::clone(&budget).acquire_many_owned(units).await else {
                            break;
                        };
                        Pending::Running(tokio::spawn(running), permit)
                    }
                }
            };
            if sender.send(pending).await.is_err() {
                break;
            }
        }
        std::io::Result::Ok(())
    });
    while let Some(pending) = receiver.recv().await {
        // The permit (a share of the memory budget) lives until the answer
        // is written.
        let (answer, _permit) = match pending {
            Pending::Ready(answer) => (answer, None),
            Pending::Queued(call, permit) => (run_one(&call, &registry, &ctx).await, Some(permit)),
            Pending::Running(task, permit) => {
                let answer = task.await.unwrap_or_else(|error| {
                    json!({"error": format!("a call's task failed: {error}")}).to_string()
                });
                (answer, Some(permit))
            }
        };
        write_line(&mut output, &answer).await?;
        // Flush when nothing else has arrived yet, so answers stream out
        // promptly without a write per line under load.
        if receiver.is_empty() {
            output.flush().await?;
        }
    }
    output.flush().await?;
    reader
        .await
        .map_err(|error| std::io::Error::other(format!("the input reader failed: {error}")))?
}

async fn run_one(call: &ToolCall, registry: &ToolRegistry, ctx: &CallContext) -> String {
    let result = execute_tool_call(call, registry, ctx.clone()).await;
    to_line(&result)
}

fn to_line(result: &ToolResultMessage) -> String {
    // A result is strings, numbers and JSON values: it always serializes.
    serde_json::to_string(result).unwrap_or_default()
}

async fn write_line<W: AsyncWrite + Unpin>(output: &mut W, line: &str) -> std::io::Result<()> {
    output.write_all(line.as_bytes()).await?;
    output.write_all(b"\n").await
}

/// Splits input into lines (as bytes: a line that is not UTF-8 is answered,
/// not fatal) and numbers them.
struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
    number: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    fn new(input: R) -> Self {
        LineReader {
            input,
            buffer: Vec::new(),
            number: 0,
        }
    }

    /// The next line, read without ever holding more than
    /// [`MAX_LINE_BYTES`] of it.
    async fn next(&mut self) -> std::io::Result<Option<Line>> {
        self.buffer.clear();
        let mut seen = false;
        let mut too_long = false;
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                break;
            }
            seen = true;
            let (length, ends) = match available.iter().position(|byte| *byte == b'\n') {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            if !too_long {
                if self.buffer.len() + length > MAX_LINE_BYTES {
                    // Keep the start: the id usually comes before the
                    // arguments, and the answer can then be paired.
                    too_long = true;
                    self.buffer.truncate(PREFIX_BYTES);
                    self.buffer.shrink_to_fit();
                } else {
                    self.buffer.extend_from_slice(&available[..length]);
                }
            }
            self.input.consume(length);
            if ends {
                break;
            }
        }
        if !seen {
            return Ok(None);
        }
        self.number += 1;
        if too_long {
            let message = format!(
                "the line is longer than {} MiB, so it was not read",
                MAX_LINE_BYTES >> 20
            );
            let prefix = String::from_utf8_lossy(&self.buffer);
            return Ok(Some(Line::Answer(unreadable_line(
                &prefix,
                self.number,
                &message,
            ))));
        }
        Ok(Some(classify(&self.buffer, self.number)))
    }
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
        Err(call_error) => Line::Answer(not_a_call(text, number, &call_error)),
    }
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
        result.content = vec![tool_core::text(format!("Tool call failed: {message}"))];
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
