//! `tool-examples call`: tool calls as JSON lines in, one result line per
//! call out, in input order. Calls run in parallel while results stream out
//! in order; input is read as it comes, never whole, and a bounded number of
//! calls is in flight at once so a fast producer cannot fill memory.

use serde_json::{Value, json};
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tool_core::{
    CallContext, ExecutionMode, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call,
};

/// Calls running at once, at most; reading waits for the oldest to be written.
pub const MAX_IN_FLIGHT: usize = 1024;

/// What one input line becomes.
enum Line {
    /// Nothing: a blank line.
    Blank,
    /// A call to run.
    Call(ToolCall),
    /// An answer known without running anything (a line that is no call).
    Answer(String),
}

/// One output line, in input order.
enum Pending {
    /// Known already.
    Ready(String),
    /// Running on its own task (parallel mode).
    Running(JoinHandle<String>),
    /// To run when its turn comes (sequential mode).
    Queued(ToolCall),
}

/// Reads calls from `input` until it ends, writing one line per call to
/// `output`. In [`ExecutionMode::Parallel`] calls run concurrently on the
/// runtime's threads; results keep input order either way.
pub async fn run_calls<R, W>(
    input: R,
    mut output: W,
    registry: Arc<ToolRegistry>,
    mode: ExecutionMode,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let (sender, mut receiver) = mpsc::channel::<Pending>(MAX_IN_FLIGHT);
    let reader_registry = Arc::clone(&registry);
    let reader = tokio::spawn(async move {
        let mut lines = LineReader::new(input);
        while let Some(line) = lines.next().await? {
            let pending = match line {
                Line::Blank => continue,
                Line::Answer(answer) => Pending::Ready(answer),
                Line::Call(call) if mode == ExecutionMode::Sequential => Pending::Queued(call),
                Line::Call(call) => {
                    let registry = Arc::clone(&reader_registry);
                    Pending::Running(tokio::spawn(async move { run_one(&call, &registry).await }))
                }
            };
            if sender.send(pending).await.is_err() {
                break;
            }
        }
        std::io::Result::Ok(())
    });
    while let Some(pending) = receiver.recv().await {
        let answer = match pending {
            Pending::Ready(answer) => answer,
            Pending::Queued(call) => run_one(&call, &registry).await,
            Pending::Running(task) => task.await.unwrap_or_else(|error| {
                json!({"error": format!("a call's task failed: {error}")}).to_string()
            }),
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

async fn run_one(call: &ToolCall, registry: &ToolRegistry) -> String {
    let result = execute_tool_call(call, registry, CallContext::default()).await;
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

    async fn next(&mut self) -> std::io::Result<Option<Line>> {
        self.buffer.clear();
        if self.input.read_until(b'\n', &mut self.buffer).await? == 0 {
            return Ok(None);
        }
        self.number += 1;
        Ok(Some(classify(&self.buffer, self.number)))
    }
}

fn classify(bytes: &[u8], number: usize) -> Line {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Line::Answer(line_error(number, "the line is not valid UTF-8"));
    };
    let text = text.trim();
    if text.is_empty() {
        return Line::Blank;
    }
    match serde_json::from_str::<ToolCall>(text) {
        Ok(call) => Line::Call(call),
        Err(call_error) => Line::Answer(not_a_call(text, number, &call_error)),
    }
}

/// The answer to a line that is not a valid call: a paired failure when the
/// line is a JSON object with a string `id`, else an error naming the line.
fn not_a_call(text: &str, number: usize, call_error: &serde_json::Error) -> String {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(json_error) => return line_error(number, &format!("invalid JSON: {json_error}")),
    };
    match value.get("id").and_then(Value::as_str) {
        Some(id) => {
            let name = value.get("name").and_then(Value::as_str).unwrap_or("");
            let call = ToolCall::new(id, name, Value::Null);
            let mut result =
                ToolResultMessage::failure(&call, &format!("invalid tool call: {call_error}"));
            if name.is_empty() {
                result.content = vec![tool_core::text(format!(
                    "Tool call failed: invalid tool call: {call_error}"
                ))];
            }
            to_line(&result)
        }
        None => line_error(number, &format!("not a tool call: {call_error}")),
    }
}

fn line_error(number: usize, message: &str) -> String {
    json!({"error": format!("line {number}: {message}"), "line": number}).to_string()
}
