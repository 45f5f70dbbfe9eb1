//! `tool-examples call`: tool calls as JSON lines in, one result line per
//! call out, in input order.
//!
//! Three stages, so that a queued input keeps every core busy while
//! answers stay in order:
//!
//! 1. **Read** (one task): input is split into [chunks](chunks) of whole
//!    lines, as many as have already arrived (up to 128 lines or 256 KiB),
//!    so a burst is handed on in chunks and a single line at once. Each
//!    chunk takes its share of the in-flight budget first (1024 calls,
//!    64 MiB of input): a fast producer waits for earlier answers to be
//!    written, never fills memory.
//! 2. **Answer**: in parallel mode each chunk is a task of its own, on any
//!    of the runtime's threads: its lines are parsed, its calls run, its
//!    answers serialized into one buffer. A call that has to wait (a slow
//!    tool) becomes a task of its own, so the chunk's other calls go on. In
//!    sequential mode the reader parses, and the writer runs the calls one
//!    after another.
//! 3. **Write** (the caller's task): chunks are written in input order, each
//!    as soon as every earlier one is; output is flushed whenever nothing
//!    more is ready, and before waiting on a slow call.
//!
//! What limits it: the single reader (splitting lines is a byte scan, far
//! cheaper than parsing them), the single writer (copying bytes), and the
//! order (a slow call holds back the answers after it, not their work).

mod answers;
mod chunks;
pub mod progress;

pub use answers::{Line, classify};
pub use progress::Progress;

use answers::{too_long, write_answer, write_result};
use chunks::{Chunk, ChunkReader, MAX_CHUNK_LINES};
use futures_util::FutureExt;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinHandle;
use tool_core::{
    CallContext, ExecutionMode, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call,
};

/// Calls in flight at once, at most; reading waits for the oldest to be
/// written.
pub const MAX_IN_FLIGHT: usize = 1024;

/// A longer line is not read into memory: it is answered with an error
/// naming its number, and skipped.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The input lines of the calls in flight take at most this much memory
/// together; reading waits for earlier calls to be answered.
pub const MAX_IN_FLIGHT_BYTES: usize = 64 * 1024 * 1024;

/// A good size for the buffers of the binary's stdin and stdout.
pub const IO_BUFFER_BYTES: usize = 256 * 1024;

/// Of a line too long to read, this much is kept to find its id.
const PREFIX_BYTES: usize = 64 * 1024;

/// The byte budget counts in KiB, so one permit is one KiB of input.
const BUDGET_UNIT: usize = 1024;

/// What the tools run with, shared by every chunk.
struct Runner {
    registry: Arc<ToolRegistry>,
    ctx: CallContext,
}

impl Runner {
    async fn run(&self, call: &ToolCall) -> ToolResultMessage {
        execute_tool_call(call, &self.registry, self.ctx.clone()).await
    }
}

/// A chunk on its way to the writer, holding its share of the budget
/// until its answers are written.
struct InFlight {
    work: Work,
    _budget: (OwnedSemaphorePermit, OwnedSemaphorePermit),
}

enum Work {
    /// Parallel mode: answered on a task of its own.
    Answering(JoinHandle<ChunkAnswers>),
    /// Sequential mode: parsed, its calls to run by the writer in turn.
    Parsed(Vec<Line>),
}

/// A chunk's answers, in order, and how many of those already written
/// there are (and are errors), for the progress bar.
#[derive(Default)]
struct ChunkAnswers {
    parts: Vec<Answers>,
    written: u64,
    errors: u64,
}

/// Part of a chunk's answers.
enum Answers {
    /// Serialized, newline after each.
    Written(Vec<u8>),
    /// A call that had to wait, running on its own task.
    Waiting(JoinHandle<ToolResultMessage>),
}

/// Reads calls from `input` until it ends, writing one line per call to
/// `output`. In [`ExecutionMode::Parallel`] calls run concurrently on the
/// runtime's threads; results keep input order either way. Every call runs
/// with `ctx` (repair, hooks, a retry budget: whatever the caller set).
pub async fn run_calls<R, W>(
    input: R,
    output: W,
    registry: Arc<ToolRegistry>,
    mode: ExecutionMode,
    ctx: CallContext,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    run_calls_with_progress(input, output, registry, mode, ctx, None).await
}

/// [`run_calls`], telling `progress` (when given) what was read and
/// answered as it goes, once per chunk.
pub async fn run_calls_with_progress<R, W>(
    input: R,
    mut output: W,
    registry: Arc<ToolRegistry>,
    mode: ExecutionMode,
    ctx: CallContext,
    progress: Option<Arc<Progress>>,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let runner = Arc::new(Runner { registry, ctx });
    let (sender, mut receiver) = mpsc::channel::<InFlight>(MAX_IN_FLIGHT / MAX_CHUNK_LINES);
    let reader = tokio::spawn(read_chunks(
        input,
        sender,
        Arc::clone(&runner),
        mode,
        progress.clone(),
    ));
    let mut buffer = Vec::new();
    while let Some(in_flight) = receiver.recv().await {
        let (answered, errors) = match in_flight.work {
            Work::Answering(task) => {
                let answers = task.await.unwrap_or_else(|error| {
                    let mut line = Vec::new();
                    write_answer(&mut line, &task_failed(&error));
                    ChunkAnswers {
                        parts: vec![Answers::Written(line)],
                        written: 1,
                        errors: 1,
                    }
                });
                write_answers(&mut output, answers).await?
            }
            Work::Parsed(lines) => run_in_turn(&mut output, &mut buffer, lines, &runner).await?,
        };
        if let Some(progress) = &progress {
            progress.answered(answered, errors);
        }
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

/// Stage 1: chunks, each with its budget, handed to the answering stage
/// (parallel mode) or parsed here (sequential mode), in order.
async fn read_chunks<R: AsyncBufRead + Unpin>(
    input: R,
    sender: mpsc::Sender<InFlight>,
    runner: Arc<Runner>,
    mode: ExecutionMode,
    progress: Option<Arc<Progress>>,
) -> std::io::Result<()> {
    let calls = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let bytes = Arc::new(Semaphore::new(MAX_IN_FLIGHT_BYTES / BUDGET_UNIT));
    let mut chunks = ChunkReader::new(input);
    let mut reported = 0;
    while let Some(chunk) = chunks.next_chunk().await? {
        if let Some(progress) = &progress {
            progress.read(chunks.consumed - reported);
            reported = chunks.consumed;
        }
        let lines = u32::try_from(chunk.lines.len()).unwrap_or(u32::MAX);
        let (Ok(call_permits), Ok(byte_permits)) = (
            Arc::clone(&calls).acquire_many_owned(lines).await,
            Arc::clone(&bytes)
                .acquire_many_owned(chunk.budget_units())
                .await,
        ) else {
            break;
        };
        let work = match mode {
            ExecutionMode::Parallel => {
                Work::Answering(tokio::spawn(answer_chunk(chunk, Arc::clone(&runner))))
            }
            ExecutionMode::Sequential => Work::Parsed(parse_chunk(&chunk)),
        };
        let in_flight = InFlight {
            work,
            _budget: (call_permits, byte_permits),
        };
        if sender.send(in_flight).await.is_err() {
            break;
        }
    }
    Ok(())
}

/// What each line of `chunk` is (a too-long line is answered here).
fn parse_chunk(chunk: &Chunk) -> Vec<Line> {
    chunk
        .lines
        .iter()
        .map(|line| parse_line(chunk, line))
        .collect()
}

fn parse_line(chunk: &Chunk, line: &chunks::ChunkLine) -> Line {
    let bytes = &chunk.bytes[line.range.clone()];
    if line.too_long {
        Line::Answer(too_long(bytes, line.number))
    } else {
        classify(bytes, line.number)
    }
}

/// Stage 2, parallel mode: every line of the chunk parsed and run, the
/// answers serialized into one buffer; a call that has to wait goes on on
/// a task of its own, so the ones after it are not held up.
async fn answer_chunk(chunk: Chunk, runner: Arc<Runner>) -> ChunkAnswers {
    let mut answers = ChunkAnswers::default();
    let mut written = Vec::with_capacity(chunk.bytes.len() * 2);
    for line in &chunk.lines {
        let call = match parse_line(&chunk, line) {
            Line::Blank => continue,
            Line::Answer(answer) => {
                write_answer(&mut written, &answer);
                answers.written += 1;
                answers.errors += 1;
                continue;
            }
            Line::Call(call, _) => call,
        };
        let runner = Arc::clone(&runner);
        let mut running = Box::pin(async move { runner.run(&call).await });
        match running.as_mut().now_or_never() {
            Some(result) => {
                write_result(&mut written, &result);
                answers.written += 1;
                answers.errors += u64::from(result.is_error);
            }
            None => {
                if !written.is_empty() {
                    let bytes = std::mem::take(&mut written);
                    answers.parts.push(Answers::Written(bytes));
                }
                answers.parts.push(Answers::Waiting(tokio::spawn(running)));
            }
        }
    }
    if !written.is_empty() {
        answers.parts.push(Answers::Written(written));
    }
    answers
}

/// Stage 3, parallel mode: a chunk's answers in order, flushing what is
/// written before waiting on a slow call. Counts the answers and errors.
async fn write_answers<W: AsyncWrite + Unpin>(
    output: &mut W,
    answers: ChunkAnswers,
) -> std::io::Result<(u64, u64)> {
    let (mut answered, mut errors) = (answers.written, answers.errors);
    let mut line = Vec::new();
    for answer in answers.parts {
        match answer {
            Answers::Written(bytes) => output.write_all(&bytes).await?,
            Answers::Waiting(mut task) => {
                let result = match (&mut task).now_or_never() {
                    Some(result) => result,
                    None => {
                        output.flush().await?;
                        task.await
                    }
                };
                line.clear();
                answered += 1;
                match result {
                    Ok(result) => {
                        errors += u64::from(result.is_error);
                        write_result(&mut line, &result);
                    }
                    Err(error) => {
                        errors += 1;
                        write_answer(&mut line, &task_failed(&error));
                    }
                }
                output.write_all(&line).await?;
            }
        }
    }
    Ok((answered, errors))
}

/// Stages 2 and 3, sequential mode: each call run when the one before it is
/// answered, answers gathered in `buffer` and written before a call that
/// has to wait (and at the chunk's end). Counts the answers and errors.
async fn run_in_turn<W: AsyncWrite + Unpin>(
    output: &mut W,
    buffer: &mut Vec<u8>,
    lines: Vec<Line>,
    runner: &Runner,
) -> std::io::Result<(u64, u64)> {
    let (mut answered, mut errors) = (0, 0);
    buffer.clear();
    for line in lines {
        match line {
            Line::Blank => continue,
            Line::Answer(answer) => {
                errors += 1;
                write_answer(buffer, &answer);
            }
            Line::Call(call, _) => {
                let mut running = std::pin::pin!(runner.run(&call));
                let result = match running.as_mut().now_or_never() {
                    Some(result) => result,
                    None => {
                        output.write_all(buffer).await?;
                        output.flush().await?;
                        buffer.clear();
                        running.await
                    }
                };
                errors += u64::from(result.is_error);
                write_result(buffer, &result);
            }
        }
        answered += 1;
    }
    output.write_all(buffer).await?;
    Ok((answered, errors))
}

fn task_failed(error: &tokio::task::JoinError) -> String {
    serde_json::json!({"error": format!("a call's task failed: {error}")}).to_string()
}
