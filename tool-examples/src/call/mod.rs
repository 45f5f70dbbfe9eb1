//! `tool-examples call`: tool calls as JSON lines in, one result line per
//! call out, in input order.
//!
//! Three stages, so that a queued input keeps every core busy while
//! answers stay in order:
//!
//! 1. **Read** (one task): input is split into chunks of whole
//!    lines, as many as have already arrived (up to 128 lines or 256 KiB),
//!    so a burst is handed on in chunks and a single line at once. Each
//!    chunk takes its share of the in-flight budget first (1024 calls,
//!    64 MiB of input): a fast producer waits for earlier answers to be
//!    written, never fills memory.
//! 2. **Answer**: each chunk is a task of its own, on any of the runtime's
//!    threads: its lines are parsed, its calls run, its answers serialized
//!    into one buffer. In parallel mode chunks run side by side, and a call
//!    that has to wait (a slow tool) becomes a task of its own so the
//!    chunk's other calls go on. In sequential mode a chunk is parsed at
//!    once but runs its calls only when every earlier call has finished,
//!    one after another, and serializes its answers while the next chunk's
//!    calls run: calls in turn, the JSON work on both cores.
//! 3. **Write** (the caller's task): chunks are written in input order, each
//!    as soon as every earlier one is; output is flushed whenever nothing
//!    more is ready, and before waiting on a slow call.
//!
//! What limits it: the single reader (splitting lines is a byte scan, far
//! cheaper than parsing them), the single writer (copying bytes), and the
//! order (a slow call holds back the answers after it, not their work).

mod answers;
pub mod approval;
mod chunks;
pub mod progress;

pub use answers::{Line, classify};
pub use progress::Progress;

use answers::{too_long, write_answer, write_result};
use chunks::{Chunk, ChunkReader, MAX_CHUNK_LINES};
use futures_util::FutureExt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::JoinHandle;
use tool_core::approval::{ResumeError, SealedSuspension, Suspension};
use tool_core::{
    BatchOutcome, ExecutionMode, RunOptions, ToolCall, ToolRegistry, ToolResultMessage,
    execute_batch, execute_tool_call, resume_batch,
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
    ctx: RunOptions,
    /// The names of the tools a call of which may need approval under
    /// suspending approvals, sorted (none without such approvals): a call
    /// of any other tool is run straight away.
    may_suspend: Box<[String]>,
}

/// What a line asks for: a call, or a decision on (or the close of) one
/// that waits.
enum Work {
    Call(ToolCall),
    Approval(Box<approval::ApprovalLine>),
}

/// What a line is answered with: a result, or a line of another kind (an
/// approval request; a decision refused).
enum Reply {
    Result(ToolResultMessage),
    Line { text: String, is_error: bool },
}

impl Runner {
    fn new(registry: Arc<ToolRegistry>, ctx: RunOptions) -> Self {
        let mut may_suspend: Vec<String> = match ctx.approvals().filter(|a| a.suspends()) {
            Some(approvals) => registry
                .iter()
                .filter(|tool| approvals.may_require(tool))
                .map(|tool| tool.name().to_owned())
                .collect(),
            None => Vec::new(),
        };
        may_suspend.sort_unstable();
        Runner {
            registry,
            ctx,
            may_suspend: may_suspend.into_boxed_slice(),
        }
    }

    /// The common path is `execute_tool_call` with the options borrowed;
    /// the rare ones are boxed, so that the future of every call (moved
    /// into its own allocation, and copied there) does not carry the state
    /// of a suspended batch or a resume.
    async fn run(&self, work: &Work) -> Reply {
        match work {
            Work::Call(call) if self.may_suspend(call) => Box::pin(self.run_or_suspend(call)).await,
            Work::Call(call) => {
                Reply::Result(execute_tool_call(call, &self.registry, &self.ctx).await)
            }
            Work::Approval(line) => match line.as_ref() {
                approval::ApprovalLine::Decide(line) => Box::pin(self.decide(line)).await,
                approval::ApprovalLine::Close(line) => Box::pin(self.close(line)).await,
            },
        }
    }

    /// Whether `call` may need approval under suspending approvals (the
    /// rare path: the common one stays `execute_tool_call`). A search of
    /// the few names known at the start: no hashing of the name a second
    /// time (`execute_tool_call` looks the tool up).
    fn may_suspend(&self, call: &ToolCall) -> bool {
        !self.may_suspend.is_empty()
            && self
                .may_suspend
                .binary_search_by(|name| name.as_str().cmp(&call.name))
                .is_ok()
    }

    /// A one-call batch: its result, or its approval request.
    async fn run_or_suspend(&self, call: &ToolCall) -> Reply {
        let batch = std::slice::from_ref(call);
        match execute_batch(
            batch,
            &self.registry,
            self.ctx.clone(),
            ExecutionMode::Parallel,
        )
        .await
        {
            BatchOutcome::Complete(results) => one_result(results, call),
            BatchOutcome::Suspended(suspension) => match suspension.pending().next() {
                Some(request) => Reply::Line {
                    text: serde_json::to_string(&approval::RequestLine::new(request, &suspension))
                        .unwrap_or_default(),
                    is_error: false,
                },
                None => Reply::Result(ToolResultMessage::failure(call, "not run")),
            },
        }
    }

    /// Resumes the call `line` decides; a decision that cannot be applied
    /// is answered with why (the call still waits).
    async fn decide(&self, line: &approval::DecisionLine) -> Reply {
        let call = ToolCall::new(&line.tool_call_id, "", serde_json::Value::Null);
        let decision = [(line.tool_call_id.clone(), line.decision.clone())];
        let resumed = match self.open(&line.suspension) {
            Ok(suspension) => {
                resume_batch(
                    &suspension,
                    decision,
                    &self.registry,
                    self.ctx.clone(),
                    ExecutionMode::Parallel,
                )
                .await
            }
            Err(problem) => Err(problem),
        };
        match resumed {
            Ok(BatchOutcome::Complete(results)) => one_result(results, &call),
            // A one-call batch is complete once its call is decided.
            Ok(BatchOutcome::Suspended(_)) => {
                Reply::Result(ToolResultMessage::failure(&call, "not run"))
            }
            Err(problem) => refused(Some(&line.tool_call_id), &problem),
        }
    }

    /// Answers the call still waiting in `line`'s state without running it.
    async fn close(&self, line: &approval::CloseLine) -> Reply {
        let closed = match (self.open(&line.suspension), self.ctx.approvals()) {
            (Ok(suspension), Some(approvals)) => suspension.close(approvals, &line.reason).await,
            (Err(problem), _) => Err(problem),
            (Ok(_), None) => Err(ResumeError::NoKey),
        };
        match closed {
            Ok(results) => {
                let call = ToolCall::new("", "", serde_json::Value::Null);
                one_result(results, &call)
            }
            Err(problem) => refused(None, &problem),
        }
    }

    /// The state of a sealed suspension this process's key made.
    fn open(&self, sealed: &SealedSuspension) -> Result<Suspension, ResumeError> {
        self.ctx.approvals().ok_or(ResumeError::NoKey)?.open(sealed)
    }
}

/// The answer to an approval line that could not be applied.
fn refused(call_id: Option<&str>, problem: &ResumeError) -> Reply {
    Reply::Line {
        text: approval::refused_line(call_id, &problem.to_string()),
        is_error: true,
    }
}

/// The one result of a one-call batch.
fn one_result(results: Vec<ToolResultMessage>, call: &ToolCall) -> Reply {
    let result = results
        .into_iter()
        .next()
        .unwrap_or_else(|| ToolResultMessage::failure(call, "not run"));
    Reply::Result(result)
}

/// A chunk on its way to the writer: answered on a task of its own,
/// holding its share of the budget until its answers are written.
struct InFlight {
    answering: JoinHandle<ChunkAnswers>,
    _budget: (OwnedSemaphorePermit, OwnedSemaphorePermit),
}

/// A chunk's answers, in order, and how many of those already written
/// there are (and are errors), for the progress bar.
#[derive(Default)]
struct ChunkAnswers {
    parts: Vec<Answers>,
    written: u64,
    errors: u64,
    /// Answers serialized since the last part, to become a written part.
    pending: Vec<u8>,
}

/// Part of a chunk's answers.
enum Answers {
    /// Serialized, newline after each.
    Written(Vec<u8>),
    /// A call that had to wait, running on its own task.
    Waiting(JoinHandle<Reply>),
    /// Sequential mode: a call that had to wait, then the rest of the
    /// chunk's calls, in turn, on a task of their own (always the last part).
    Rest(JoinHandle<ChunkAnswers>),
}

/// A call's future, boxed so it can move to a task of its own if it waits.
type Running = Pin<Box<dyn Future<Output = Reply> + Send>>;

/// Reads calls from `input` until it ends, writing one line per call to
/// `output`. In [`ExecutionMode::Parallel`] calls run concurrently on the
/// runtime's threads; results keep input order either way. Every call runs
/// with `ctx` (repair, hooks, a retry budget: whatever the caller set).
pub async fn run_calls<R, W>(
    input: R,
    output: W,
    registry: Arc<ToolRegistry>,
    mode: ExecutionMode,
    ctx: RunOptions,
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
    ctx: RunOptions,
    progress: Option<Arc<Progress>>,
) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let runner = Arc::new(Runner::new(registry, ctx));
    let (sender, mut receiver) = mpsc::channel::<InFlight>(MAX_IN_FLIGHT / MAX_CHUNK_LINES);
    let reader = tokio::spawn(read_chunks(
        input,
        sender,
        Arc::clone(&runner),
        mode,
        progress.clone(),
    ));
    while let Some(in_flight) = receiver.recv().await {
        let answers = in_flight
            .answering
            .await
            .unwrap_or_else(|error| ChunkAnswers::task_failed(&error).finished());
        let (answered, errors) = write_answers(&mut output, answers).await?;
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

/// Stage 1: chunks, each with its budget, each answered on a task of its
/// own (in sequential mode, chained so that its calls wait for the earlier
/// chunk's), handed to the writer in order.
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
    // Sequential mode: the signal that every call of the chunk before has
    // finished, which the next chunk's calls wait for.
    let mut turn: Option<oneshot::Receiver<()>> = None;
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
        let runner = Arc::clone(&runner);
        let answering = match mode {
            ExecutionMode::Parallel => tokio::spawn(answer_chunk(chunk, runner)),
            ExecutionMode::Sequential => {
                let (done, next_turn) = oneshot::channel();
                let previous = turn.replace(next_turn);
                tokio::spawn(answer_chunk_in_turn(chunk, runner, previous, done))
            }
        };
        let in_flight = InFlight {
            answering,
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
    let mut answers = ChunkAnswers::with_capacity(chunk.bytes.len() * 2);
    for line in &chunk.lines {
        let Some(call) = answers.call_of(parse_line(&chunk, line)) else {
            continue;
        };
        let mut running = start(&runner, call);
        match running.as_mut().now_or_never() {
            Some(result) => answers.add(&result),
            None => answers.push(Answers::Waiting(tokio::spawn(running))),
        }
    }
    answers.finished()
}

/// Stage 3: a chunk's answers in order, flushing what is written before
/// waiting on a slow call. Counts the answers and errors.
async fn write_answers<W: AsyncWrite + Unpin>(
    output: &mut W,
    answers: ChunkAnswers,
) -> std::io::Result<(u64, u64)> {
    let (mut answered, mut errors) = (0, 0);
    let mut next = Some(answers);
    while let Some(answers) = next.take() {
        answered += answers.written;
        errors += answers.errors;
        for answer in answers.parts {
            match answer {
                Answers::Written(bytes) => output.write_all(&bytes).await?,
                Answers::Waiting(task) => {
                    let one = match finished(output, task).await? {
                        Ok(result) => {
                            let mut one = ChunkAnswers::default();
                            one.add(&result);
                            one
                        }
                        Err(error) => ChunkAnswers::task_failed(&error),
                    };
                    answered += one.written;
                    errors += one.errors;
                    output.write_all(&one.pending).await?;
                }
                Answers::Rest(task) => {
                    next = Some(
                        finished(output, task)
                            .await?
                            .unwrap_or_else(|error| ChunkAnswers::task_failed(&error).finished()),
                    );
                }
            }
        }
    }
    Ok((answered, errors))
}

/// What `task` gives, flushing the output first if it is still running (so
/// the answers before it are seen while it works).
async fn finished<W: AsyncWrite + Unpin, T>(
    output: &mut W,
    mut task: JoinHandle<T>,
) -> std::io::Result<Result<T, tokio::task::JoinError>> {
    if let Some(done) = (&mut task).now_or_never() {
        return Ok(done);
    }
    output.flush().await?;
    Ok(task.await)
}

/// Stage 2, sequential mode: the chunk is parsed at once (while earlier
/// chunks' calls run), its calls run one after another once every earlier
/// call has finished (`previous`), then `done` lets the next chunk's calls
/// start while this one's answers are serialized.
async fn answer_chunk_in_turn(
    chunk: Chunk,
    runner: Arc<Runner>,
    previous: Option<oneshot::Receiver<()>>,
    done: oneshot::Sender<()>,
) -> ChunkAnswers {
    let lines = parse_chunk(&chunk);
    let answer_bytes = chunk.bytes.len() * 2;
    drop(chunk);
    if let Some(previous) = previous {
        // An error means the earlier chunk's task is gone (it cannot be
        // running calls any more): go on.
        let _ = previous.await;
    }
    run_in_turn(lines.into_iter(), runner, done, answer_bytes).await
}

/// Runs `lines`' calls in order. A call that has to wait takes the rest of
/// the lines to a task of its own (the answers before it are written in the
/// meantime); `done` is sent when the last call has finished. The replies
/// are serialized after `done`, while the next chunk's calls run: only the
/// calls themselves wait for one another. `answer_bytes` is room for
/// the answers' bytes (a guess: twice the lines').
fn run_in_turn(
    mut lines: std::vec::IntoIter<Line>,
    runner: Arc<Runner>,
    done: oneshot::Sender<()>,
    answer_bytes: usize,
) -> Pin<Box<dyn Future<Output = ChunkAnswers> + Send>> {
    Box::pin(async move {
        let mut in_turn = Vec::with_capacity(lines.len());
        while let Some(line) = lines.next() {
            let work = match work_of(line) {
                Ok(work) => work,
                Err(answer) => {
                    in_turn.push(InTurn::Answer(answer));
                    continue;
                }
            };
            let mut running = start(&runner, work);
            if let Some(reply) = running.as_mut().now_or_never() {
                in_turn.push(InTurn::Reply(reply));
                continue;
            }
            let rest = async move {
                let mut answers = ChunkAnswers::default();
                answers.add(&running.await);
                answers.append(run_in_turn(lines, runner, done, answer_bytes).await);
                answers.finished()
            };
            let mut answers = ChunkAnswers::serialized(in_turn, answer_bytes);
            answers.push(Answers::Rest(tokio::spawn(rest)));
            return answers.finished();
        }
        let _ = done.send(());
        ChunkAnswers::serialized(in_turn, answer_bytes).finished()
    })
}

/// A line of a chunk in sequential mode, its calls run, not yet serialized.
enum InTurn {
    /// Not a call: the answer to write (none to a blank line).
    Answer(Option<String>),
    /// A call's reply.
    Reply(Reply),
}

/// The work `line` asks for, or, when it asks for none, its answer (none
/// to a blank line).
fn work_of(line: Line) -> Result<Work, Option<String>> {
    match line {
        Line::Call(call, _) => Ok(Work::Call(call)),
        Line::Approval(line) => Ok(Work::Approval(line)),
        Line::Answer(answer) => Err(Some(answer)),
        Line::Blank => Err(None),
    }
}

/// `work`, started: owned and boxed, so a call that has to wait can move to
/// a task of its own after its first poll.
fn start(runner: &Arc<Runner>, work: Work) -> Running {
    let runner = Arc::clone(runner);
    Box::pin(async move { runner.run(&work).await })
}

impl ChunkAnswers {
    fn with_capacity(bytes: usize) -> Self {
        ChunkAnswers {
            pending: Vec::with_capacity(bytes),
            ..ChunkAnswers::default()
        }
    }

    /// The work on `line`; a line that is neither a call nor a decision is
    /// answered here.
    fn call_of(&mut self, line: Line) -> Option<Work> {
        work_of(line).map_err(|answer| self.add_answer(answer)).ok()
    }

    /// Serializes the answer to a line that is no call (none to a blank).
    fn add_answer(&mut self, answer: Option<String>) {
        if let Some(answer) = answer {
            write_answer(&mut self.pending, &answer);
            self.count(true);
        }
    }

    /// `in_turn`, serialized in order, in room for `bytes`.
    fn serialized(in_turn: Vec<InTurn>, bytes: usize) -> Self {
        let mut answers = ChunkAnswers::with_capacity(bytes);
        for done in in_turn {
            match done {
                InTurn::Answer(answer) => answers.add_answer(answer),
                InTurn::Reply(reply) => answers.add(&reply),
            }
        }
        answers
    }

    /// Serializes `reply` after the answers so far, and counts it.
    fn add(&mut self, reply: &Reply) {
        match reply {
            Reply::Result(result) => {
                write_result(&mut self.pending, result);
                self.count(result.is_error);
            }
            Reply::Line { text, is_error } => {
                write_answer(&mut self.pending, text);
                self.count(*is_error);
            }
        }
    }

    fn count(&mut self, is_error: bool) {
        self.written += 1;
        self.errors += u64::from(is_error);
    }

    /// `part` after the answers so far.
    fn push(&mut self, part: Answers) {
        self.close_pending();
        self.parts.push(part);
    }

    /// `later`'s answers after these.
    fn append(&mut self, later: ChunkAnswers) {
        self.close_pending();
        self.parts.extend(later.parts);
        self.written += later.written;
        self.errors += later.errors;
    }

    /// Done: the answers serialized last become a part too.
    fn finished(mut self) -> Self {
        self.close_pending();
        self
    }

    /// The answer in place of a call's or a chunk's task that failed (an
    /// error, counted as one), not yet made a part.
    fn task_failed(error: &tokio::task::JoinError) -> Self {
        let mut answers = ChunkAnswers::default();
        let message = format!("a call's task failed: {error}");
        answers.call_of(Line::Answer(
            serde_json::json!({ "error": message }).to_string(),
        ));
        answers
    }

    fn close_pending(&mut self) {
        if !self.pending.is_empty() {
            let bytes = std::mem::take(&mut self.pending);
            self.parts.push(Answers::Written(bytes));
        }
    }
}
