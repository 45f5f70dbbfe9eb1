//! Code mode: the model writes one JavaScript program that calls your
//! tools, instead of one tool call per turn.
//!
//! "Check the expenses of 20 employees and list who is over budget" is 20
//! round trips and every result in the model's context when each lookup is
//! a tool call. As a program it is one call: the loop, the filter and the
//! join run here, and only what the program prints and returns reaches the
//! model. [`CodeMode`] adds the built-in tool `run_code` to a registry; its
//! description carries the registry's tools as a typed TypeScript API
//! (`tools.<name>(args): Promise<...>`), written from the same definitions
//! the model would otherwise get.
//!
//! ```
//! use tool_code::CodeMode;
//! use tool_core::{tool, execute_tool_call, RunOptions, ToolCall, ToolRegistry};
//!
//! /// Look up an employee's expenses this month, in euros
//! #[tool(read_only)]
//! async fn expenses(employee: u32) -> String {
//!     (employee * 100).to_string()
//! }
//!
//! # tokio::runtime::Builder::new_multi_thread().enable_time().build().unwrap().block_on(async {
//! let mut tools = ToolRegistry::new();
//! tools.register(ExpensesTool).unwrap();
//! let tools = CodeMode::new().registry(tools).unwrap();
//!
//! let script = r#"
//!     const spent = await Promise.all([1, 2, 3].map((employee) => tools.expenses({ employee })));
//!     return spent.map(Number).filter((euros) => euros > 150).length;
//! "#;
//! let call = ToolCall::new("c1", "run_code", serde_json::json!({ "code": script }));
//! let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
//! assert_eq!(result.content[0].as_text(), Some("[returned] 2\n"));
//! # });
//! ```
//!
//! # What a script sees
//!
//! - `tools.<name>(args)`: each tool the call's options enable, as an
//!   async function. Each call goes through the executor as a call of its
//!   own (id `<run_code's id>.<n>`), with the caller's options: hooks,
//!   repair, retry budget, the OAuth caller's scopes, approvals; its span is
//!   a child of the run's. A tool with an output schema (`Json<T>`) gives
//!   its structured value, any other its text; a failed call throws an
//!   `Error` with the tool's message, which the script may catch.
//! - `console.log` (and `info`, `warn`, `error`, `debug`): the lines the
//!   model reads.
//! - No clock (`Date` throws), no randomness but a fixed sequence
//!   (`Math.random`), no file system, network, process or module loader:
//!   QuickJS without its libc. A run's calls depend only on the script and
//!   the tools' answers.
//!
//! # Limits
//!
//! Each is a clear error to the model, naming the limit ([`CodeLimits`]):
//! wall time (the interpreter is interrupted, even in `while (true) {}`),
//! memory (QuickJS's allocator refuses past it), stack depth (deep
//! recursion), tool calls per run, and output bytes (what is printed past
//! it is cut, and the cut said). The script runs on a thread of its own:
//! a run that hangs holds no caller's task, and the run's cancellation
//! ends it. Its calls are polled on that thread, in the caller's tokio
//! runtime and span, so a call that answers at once costs no thread hop
//! (`run_code` must run inside a tokio runtime).
//!
//! The guarantees hold in one process: the interpreter and the calls it
//! makes are this process's.
//!
//! # Approvals inside code
//!
//! A call that needs a person's approval is asked as any call is: an
//! inline asker ([`Approvals::ask`](tool_core::approval::Approvals::ask))
//! is asked from inside the script. With suspending approvals
//! ([`Approvals::suspend`](tool_core::approval::Approvals::suspend)), in
//! [`execute_batch`](tool_core::execute_batch), the script stops at that
//! call and the whole `run_code` call suspends: the batch's
//! [`Suspension`](tool_core::approval::Suspension) lists the inner call
//! (its tool, its arguments, its id `<run_code's id>.<n>`) for the person
//! to decide, and seals the journal of the calls the script made before
//! it, with their results. On [`resume_batch`](tool_core::resume_batch)
//! the script runs again from the start; each call it makes is matched in
//! order against the journal (the same tool, the same arguments) and gets
//! its recorded result without running, in the order the results first
//! came. The decided call then runs (or is rejected in the script, when
//! denied), and the calls after it run as any call, and may suspend the
//! run again. A script that makes another call at a recorded place, or
//! ends before making the call that waited, is refused with an error
//! naming the place, the recorded call and the new one, and nothing of
//! that run runs. When a call waits, the calls made before it finish and
//! are recorded; those made after it wait for the resume. See
//! `docs/code-mode.md` for a worked example.

mod declarations;
mod engine;
mod journal;
mod run_code;
mod serve;

pub use run_code::{RunCode, RunCodeArgs, RunCodeDetails};

use std::sync::Arc;
use std::time::Duration;
use tool_core::ToolRegistry;
use tool_core::registry::RegistryError;

/// The name of the built-in tool, unless [`CodeMode::with_name`] says
/// otherwise.
pub const RUN_CODE_TOOL_NAME: &str = "run_code";

/// What one run may use. The defaults suit a script of a few dozen calls
/// over tools that answer in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodeLimits {
    /// Wall time of the whole run, its tool calls included (default 30 s).
    pub time: Duration,
    /// Memory of the interpreter's heap (default 64 MiB).
    pub memory: usize,
    /// Stack the interpreter may use (default 512 KiB: recursion some
    /// thousands deep).
    pub stack: usize,
    /// Tool calls per run (default 100).
    pub calls: usize,
    /// Bytes of printed output kept (default 16 KiB); the returned value is
    /// bounded the same.
    pub output: usize,
}

impl Default for CodeLimits {
    fn default() -> Self {
        CodeLimits {
            time: Duration::from_secs(30),
            memory: 64 * 1024 * 1024,
            stack: 512 * 1024,
            calls: 100,
            output: 16 * 1024,
        }
    }
}

impl CodeLimits {
    /// The limits with `time` as the wall time.
    pub fn with_time(mut self, time: Duration) -> Self {
        self.time = time;
        self
    }

    /// The limits with `bytes` of memory.
    pub fn with_memory(mut self, bytes: usize) -> Self {
        self.memory = bytes;
        self
    }

    /// The limits with `bytes` of stack.
    pub fn with_stack(mut self, bytes: usize) -> Self {
        self.stack = bytes;
        self
    }

    /// The limits with `calls` tool calls per run.
    pub fn with_calls(mut self, calls: usize) -> Self {
        self.calls = calls;
        self
    }

    /// The limits with `bytes` of output.
    pub fn with_output(mut self, bytes: usize) -> Self {
        self.output = bytes;
        self
    }
}

/// Builds the `run_code` tool over a registry's tools.
#[derive(Clone, Debug)]
pub struct CodeMode {
    name: String,
    limits: CodeLimits,
}

impl Default for CodeMode {
    fn default() -> Self {
        CodeMode::new()
    }
}

impl CodeMode {
    /// `run_code` with the default limits.
    pub fn new() -> Self {
        CodeMode {
            name: RUN_CODE_TOOL_NAME.to_owned(),
            limits: CodeLimits::default(),
        }
    }

    /// Names the tool `name` instead of `run_code`.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Runs scripts within `limits`.
    pub fn with_limits(mut self, limits: CodeLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The tool alone, its scripts calling `tools` (which it is not in: a
    /// script cannot start another run). Register it where the model sees
    /// it, beside `tools`' own tools or instead of them.
    pub fn tool(self, tools: Arc<ToolRegistry>) -> RunCode {
        RunCode::new(self.name, tools, self.limits)
    }

    /// `tools` with `run_code` added, its scripts calling `tools`' tools.
    /// Fails as registering any tool does (the name taken, say).
    pub fn registry(self, tools: ToolRegistry) -> Result<ToolRegistry, RegistryError> {
        let mut with_code = tools.clone();
        with_code.register(self.tool(Arc::new(tools)))?;
        Ok(with_code)
    }
}
