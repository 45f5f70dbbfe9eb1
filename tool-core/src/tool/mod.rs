//! What a tool is: a name and a description the model reads, typed
//! parameters, and an async function that turns them into output.

mod context;
mod dynamic;
mod elicit;
mod erased;
mod failure;
mod json;
mod log;
mod output;
mod sample;
pub(crate) mod tool_fn_support;

pub use context::{ProgressFn, ToolContext};
pub use dynamic::DynamicTool;
pub use elicit::{ElicitError, ElicitFn, ElicitFuture, ElicitationRequest, Elicited};
pub(crate) use erased::{ErasedCall, ErasedTool};
pub use failure::ToolFailure;
pub use json::Json;
pub use log::{LogEvent, LogFn, LogLevel, UnknownLogLevel};
pub use output::ToolOutput;
pub use sample::{
    SampleError, SampleFn, SampleFuture, Sampled, SamplingMessage, SamplingRequest, SamplingRole,
};

use crate::model::{ToolAnnotations, ToolDefinition};
use crate::params::{ParamError, SchemaError, ToolParams};
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::time::Duration;

/// Any error a tool returns. Its message (`Display`) becomes the paired
/// result's text: `Tool echo failed: <message>`. `?` converts any
/// `std::error::Error + Send + Sync` into it, and so does `.into()` on a
/// `String` or `&str`.
pub type ToolError = Box<dyn std::error::Error + Send + Sync>;

/// A tool a model can call.
///
/// Write `async fn execute` in the impl; the executor parses the arguments
/// into [`Params`](Tool::Params) before `execute` runs, so a tool never sees
/// arguments its schema rejects.
///
/// ```
/// use tool_core::{Tool, ToolContext, ToolError, ToolOutput, ToolParams, Content};
///
/// #[derive(ToolParams)]
/// struct EchoParams {
///     value: String,
/// }
///
/// #[derive(serde::Serialize)]
/// struct EchoDetails {
///     source: &'static str,
/// }
///
/// struct Echo;
///
/// impl Tool for Echo {
///     type Params = EchoParams;
///     type Details = EchoDetails;
///
///     fn name(&self) -> &str {
///         "echo"
///     }
///
///     fn description(&self) -> &str {
///         "Echo one value"
///     }
///
///     async fn execute(
///         &self,
///         params: EchoParams,
///         _ctx: ToolContext,
///     ) -> Result<ToolOutput<EchoDetails>, ToolError> {
///         Ok(ToolOutput::new(vec![Content::text(params.value)]).with_details(EchoDetails { source: "echo" }))
///     }
/// }
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The parsed arguments.
    type Params: ToolParams + Send;
    /// Structured data for the program (UI, logs), next to the content the
    /// model reads. Use `()` when there is none.
    type Details: Serialize + Send;

    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// Runs the tool. `ctx.call_id` is always the call's own id.
    fn execute(
        &self,
        params: Self::Params,
        ctx: ToolContext,
    ) -> impl Future<Output = Result<ToolOutput<Self::Details>, ToolError>> + Send;

    /// The JSON Schema of the arguments shown to the model. Defaults to the
    /// parameter type's schema; a tool whose schema is only known at run time
    /// overrides it (see [`DynamicTool`](crate::DynamicTool)).
    fn parameters(&self) -> Value {
        Self::Params::json_schema()
    }

    /// How long a call may run before it is dropped, its signal cancelled,
    /// and it is answered `timed out after N ms`. `None` (the default): no
    /// limit of its own. [`RunOptions::timeout`](crate::RunOptions) overrides it.
    fn timeout(&self) -> Option<Duration> {
        None
    }

    /// How many consecutive retry failures the model may have with this
    /// tool before its next failure is fatal, when the run counts them (a
    /// [`RetryBudget`](crate::executor::RetryBudget) in its
    /// [`RunOptions`](crate::RunOptions::with_retry_budget)): a tool the
    /// model often gets wrong but can learn may get more, a costly one
    /// fewer. `None` (the default): the budget's own limit.
    /// `#[tool(retries = N)]` sets it.
    ///
    /// ```
    /// use tool_core::{tool, Tool};
    ///
    /// /// Run a query
    /// #[tool(retries = 5)]
    /// async fn query(sql: String) -> String {
    ///     sql
    /// }
    ///
    /// assert_eq!(QueryTool.retries(), Some(5));
    /// ```
    fn retries(&self) -> Option<u32> {
        None
    }

    /// True when a call of this tool must run alone: in a parallel batch it
    /// waits for the calls before it to finish, and the calls after it wait
    /// for it (a tool that changes what others read, say).
    fn exclusive(&self) -> bool {
        false
    }

    /// The JSON Schema of the tool's structured result (its details), when
    /// it has one: MCP's `outputSchema`. `None` (the default) leaves it out
    /// of the definition. A `#[tool]` returning [`Json<T>`](struct@crate::Json)
    /// gives `T`'s derived schema; a hand-written tool whose details are a
    /// type deriving `ToolParams` returns `Some(Details::json_schema())`.
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// Example arguments, shown to the model where a provider has a place
    /// for them (Anthropic's `input_examples`), as `#[tool(example =
    /// json!({..}))]` gives them (repeatable). A registry parses each with
    /// the tool's own parameters and refuses the tool when one does not
    /// parse ([`RegistryError::InvalidExample`](crate::registry::RegistryError::InvalidExample)),
    /// so an example can never teach the model a call that fails.
    fn examples(&self) -> Vec<Value> {
        Vec::new()
    }

    /// Who may call the tool: the model (the default), code the model
    /// writes and the provider runs (Anthropic's programmatic tool calling,
    /// OpenAI's programmatic callers), or both. `#[tool(callers(code))]`
    /// or `callers(direct, code)` sets it; a format with programmatic
    /// calling writes it as its `allowed_callers`.
    fn callers(&self) -> crate::Callers {
        crate::Callers::DIRECT
    }

    /// True for a tool that runs other tools of the same run (a code
    /// mode, an agent as a tool): the executor gives it the call's options
    /// ([`ToolContext::run_options`]), so each call it makes goes through
    /// the executor with the caller's hooks, scopes, repair and retry
    /// budget. False by default: other tools never see the options.
    fn runs_tools(&self) -> bool {
        false
    }

    /// True when a person must approve each call before it runs
    /// (`#[tool(needs_approval)]`). The executor then never runs it
    /// unasked: with [`Approvals`](crate::approval::Approvals) on the run
    /// options it asks (or suspends the batch, see
    /// [`execute_batch`](crate::execute_batch)); without them the call is
    /// answered `denied`. A policy can require approval of other tools too
    /// ([`ApprovalPolicy`](crate::approval::ApprovalPolicy)).
    fn needs_approval(&self) -> bool {
        false
    }

    /// Hints about the tool's effects (read-only, destructive, ...) for
    /// the program around the model, such as a before hook that asks a
    /// person first. None by default; `#[tool(read_only, ...)]` sets them.
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::default()
    }

    /// Whether [`annotations`](Tool::annotations) are the word of whoever
    /// registers the tool (true, the default: its own author) or a peer's
    /// that may not be (false: an MCP server's tools imported by
    /// `tool-mcp`, whose annotations MCP calls "untrusted hints"). Untrusted
    /// hints are shown to clients but never decide anything: the tool is
    /// taken as possibly destructive and not read-only
    /// ([`RegisteredTool::may_destroy`](crate::registry::RegisteredTool::may_destroy),
    /// [`RegisteredTool::is_read_only`](crate::registry::RegisteredTool::is_read_only)),
    /// so an approval policy asks about it and an OAuth server asks its
    /// write scope.
    fn hints_trusted(&self) -> bool {
        true
    }

    /// Checks the arguments as sent against what the tool accepts beyond
    /// its parameter type, on every call, right after [`Params`](Tool::Params)
    /// parsed them (so within [`MAX_JSON_DEPTH`](crate::params::MAX_JSON_DEPTH)
    /// where the type bounds depth, as `Map<String, Value>` does) and
    /// before anything runs. A problem here is a failed parse: the executor
    /// repairs when the caller allows it and parses again, else answers
    /// with every problem at its path, as for a derived type.
    ///
    /// Nothing by default: a derived type's parse already accepts exactly
    /// what its schema admits. A tool whose parameters are any object and
    /// whose schema is only known at run time checks that schema here
    /// ([`DynamicTool`](crate::DynamicTool), tools imported from an MCP
    /// server), with a [`SchemaCheck`](crate::params::SchemaCheck) compiled
    /// once.
    fn check_arguments(&self, arguments: &Value) -> Result<(), ParamError> {
        let _ = arguments;
        Ok(())
    }

    /// Whether the tool's [`parameters`](Tool::parameters) schema can be
    /// used; asked once, when the tool is registered, which refuses a tool
    /// whose schema does not compile
    /// ([`RegistryError::InvalidSchema`](crate::registry::RegistryError::InvalidSchema)).
    /// `Ok` by default (a derived schema always compiles).
    fn check_schema(&self) -> Result<(), SchemaError> {
        Ok(())
    }
}

impl ToolDefinition {
    /// The definition of `tool`, as a registry builds it.
    pub fn of<T: Tool>(tool: &T) -> Self {
        ToolDefinition {
            name: tool.name().to_owned(),
            description: tool.description().to_owned(),
            parameters: tool.parameters(),
            output_schema: tool.output_schema(),
            annotations: tool.annotations(),
            input_examples: tool.examples(),
            defer_loading: false,
            allowed_callers: tool.callers(),
        }
    }
}
