//! Typed tool calling for LLM agents.
//!
//! A model asks for a tool call (`{"id":"call-1","name":"echo","arguments":{..}}`);
//! this crate checks the arguments, finds the tool in a [`ToolRegistry`], runs
//! it, and always answers with one [`ToolResultMessage`] paired to the call's
//! id. Tool authors write a plain struct or async function; the derive gives
//! both the runtime parser and the JSON Schema the model sees, from one
//! definition.
//!
//! ```
//! use tool_core::{execute_tool_call, Content, RunOptions, Tool, ToolCall, ToolContext, ToolError,
//!                 ToolOutput, ToolParams, ToolRegistry};
//! use serde_json::{json, Value};
//!
//! #[derive(ToolParams)]
//! struct EchoParams {
//!     value: String,
//! }
//!
//! struct Echo;
//!
//! impl Tool for Echo {
//!     type Params = EchoParams;
//!     type Details = Value;
//!     fn name(&self) -> &str { "echo" }
//!     fn description(&self) -> &str { "Echo one value" }
//!     async fn execute(&self, params: EchoParams, _ctx: ToolContext) -> Result<ToolOutput<Value>, ToolError> {
//!         Ok(ToolOutput::new(vec![Content::text(params.value)]).with_details(json!({"source": "echo"})))
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut tools = ToolRegistry::new();
//! tools.register(Echo)?;
//!
//! let call = ToolCall::new("call-1", "echo", json!({"value": "Pi", "ignored": "drop me"}));
//! let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
//! let mut wire = serde_json::to_value(&result)?;
//! wire.as_object_mut().unwrap().remove("timestamp");
//! assert_eq!(wire, json!({
//!     "role": "toolResult",
//!     "toolCallId": "call-1",
//!     "toolName": "echo",
//!     "content": [{"type": "text", "text": "Pi"}],
//!     "details": {"source": "echo"},
//!     "isError": false,
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
//!
//! The ways to write a tool, from least to most code:
//!
//! - [`#[tool]`](macro@tool) on an `async fn`;
//! - [`#[tools]`](macro@tools) on an impl block, for tools that share state
//!   (a [`Toolbox`], registered with [`ToolRegistry::register_all`]);
//! - [`Tool`] implemented by hand (as above), or [`DynamicTool`] when the
//!   schema is only known at run time.
//!
//! A tool answers with [`Content`] for the model (text, images, audio,
//! links) and details for the program; [`Json<T>`](struct@Json) makes the details a
//! typed structured result with an output schema. [`ToolAnnotations`] say
//! what a tool does to its world, for the program around the model.
//!
//! # The derive and the attributes
//!
//! Every attribute of `#[derive(ToolParams)]`, `#[tool]` and `#[tools]`,
//! and every field type with its schema and parse rule, are in one
//! reference: [`_derive`].
//!
//! # Features
//!
//! Pay for what you use: each piece that brings dependencies is a feature,
//! and the crates that need one turn it on (`scripts/tree-sizes.sh` keeps
//! the counts, tool-core itself included).
//!
//! | feature | gives | crates |
//! | --- | --- | --- |
//! | `derive` (default) | `#[derive(ToolParams)]`, and with `runtime` `#[tool]` and `#[tools]`, from `tool-core-macros`, re-exported so that `tool-core` is the one dependency | `derive` alone: 25 |
//! | `runtime` (default) | `Tool`, `ToolContext`, `ToolRegistry`, `Toolset`, `RunOptions`, `execute_tool_call(s)`, approvals asked inline, repair (tokio's timer, tokio-util's token, futures-util, SHA-256) | `derive` + `runtime`: 43 |
//! | `tracing` (default) | the executor's `execute_tool` span in OpenTelemetry's GenAI conventions and its events; without it they compile to nothing | the defaults: 46 |
//! | `approval-state` | approvals that outlive a request: `Approvals::suspend`, the sealed `Suspension`, `execute_batch`, `resume_batch`, the ledger of single use (XChaCha20-Poly1305, HMAC-SHA256, the system's randomness) | +12 |
//! | `schema-check` | arguments checked against a JSON Schema known only at run time (`SchemaCheck`): `DynamicTool::with_parameters`, imported MCP tools (the `jsonschema` validator) | +41 |
//! | `uuid`, `url`, `chrono` | `uuid::Uuid`, `url::Url`, `chrono::DateTime<Utc>` and `chrono::NaiveDate` as parameter types ([`ParamValue`](params::ParamValue) implementations) | |
//!
//! Without `runtime`, tool-core is the parser and schema of
//! `#[derive(ToolParams)]`, the wire model ([`model`]) and the provider
//! formats ([`providers`]): `default-features = false, features =
//! ["derive"]`.
//!
//! # Limits
//!
//! Parsing refuses nested parameter structs and enums deeper than
//! [`MAX_NESTING`](params::MAX_NESTING) and raw JSON values deeper than
//! [`MAX_JSON_DEPTH`](params::MAX_JSON_DEPTH) levels, tries at most
//! [`MAX_UNTAGGED_ATTEMPTS`](params::MAX_UNTAGGED_ATTEMPTS) variants of
//! untagged enums per call (and nests such tries at most
//! [`MAX_NESTING`](params::MAX_NESTING) deep), and keeps at most
//! [`MAX_PROBLEMS`](params::MAX_PROBLEMS) problems per error (the rest are
//! counted). Received values are echoed in messages up to
//! [`MAX_ECHO_CHARS`](params::MAX_ECHO_CHARS) characters.

#![forbid(unsafe_code)]
// docs.rs (nightly, `--cfg docsrs`) marks each feature-gated item with its
// feature; stable builds never see the unstable feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Generated code names `::tool_core::…`; this lets the crate's own tests and
// doctests use the derives too.
extern crate self as tool_core;

#[macro_use]
mod macros;

// The layers, bottom first (ARCHITECTURE.md, "Layers"): arguments (parse
// and describe), the wire model, the provider formats; with the runtime,
// repair, a turn's state, tools, the registry and toolsets, approvals,
// the executor.
pub mod model;
pub mod params;
pub mod providers;
cfg_feature!("runtime" =>
    mod trace;
    pub mod repair;
    pub mod turn;
    mod tool;
    mod registered;
    pub mod toolset;
    mod name_map;
    pub mod registry;
    pub mod approval;
    pub mod executor;
);

#[doc(hidden)]
pub mod __private;
#[cfg(all(feature = "derive", feature = "runtime"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "derive", feature = "runtime"))))]
pub mod _derive;

pub use model::{
    CallOrigin, Callers, Content, EmbeddedResource, FailureKind, ToolAnnotations, ToolCall,
    ToolDefinition, ToolResultMessage,
};
pub use params::{ParamError, ToolParams};
cfg_feature!("runtime" =>
    pub use executor::{ExecutionMode, RunOptions, execute_tool_call, execute_tool_calls};
    pub use registered::Toolbox;
    pub use registry::ToolRegistry;
    /// tokio-util's cancellation token, the type of [`ToolContext::signal`]
    /// and [`RunOptions::with_signal`]: re-exported so that a tool author
    /// names the exact type tool-core was built with (tokio-util is before
    /// 1.0, and two of its versions' tokens are two types), without adding
    /// tokio-util to their own dependencies.
    pub use tokio_util::sync::CancellationToken;
    pub use tool::{
        DynamicTool, ElicitError, ElicitFn, ElicitFuture, Elicited, ElicitationRequest, Json,
        LogEvent, LogFn, LogLevel, SampleError, SampleFn, SampleFuture, Sampled, SamplingMessage,
        SamplingRequest, SamplingRole, Tool, ToolContext, ToolError, ToolFailure, ToolOutput,
        UnknownLogLevel,
    };
    pub use turn::Turn;
);
cfg_feature!("approval-state" =>
    pub use executor::{BatchOutcome, execute_batch, resume_batch};
);

/// Derives [`ToolParams`](trait@ToolParams) for a struct with named fields
/// or an enum (and [`ParamValue`](params::ParamValue) for any of them): the parser and the JSON
/// Schema from one definition, so what parse accepts and what the model is
/// shown cannot drift apart.
///
/// Its attributes (container, variant, field), the four enum
/// representations and the field types are in the reference, [`_derive`].
///
/// ```
/// use tool_core::ToolParams;
/// use serde_json::json;
///
/// #[derive(ToolParams, Debug)]
/// struct Request {
///     /// The text to echo
///     value: String,
///     #[param(min = 1)]
///     limit: Option<u32>,
/// }
///
/// let request = Request::parse(&json!({"value": "Pi", "ignored": "drop me"})).unwrap();
/// assert_eq!((request.value.as_str(), request.limit), ("Pi", None));
/// assert_eq!(Request::json_schema()["required"], json!(["value"]));
/// let error = Request::parse(&json!({"value": 1, "limit": 0})).unwrap_err();
/// assert_eq!(error.to_string(), "value: expected string, got number 1\nlimit: expected integer >= 1, got 0");
/// ```
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tool_core_macros::ToolParams;

/// Turns a documented `async fn` into a tool, so a tool is written as the
/// function it is and stays callable as one.
///
/// It generates `<Name>Params` (the function's parameters as a
/// [`ToolParams`](trait@ToolParams) struct) and the unit struct `<Name>Tool`
/// implementing [`Tool`], where `<Name>` is the function's name in
/// UpperCamelCase (`read_file` gives `ReadFileTool`). Its options, where
/// descriptions come from, the context parameter and the return types it
/// takes are in the reference, [`_derive`](_derive#tool-on-an-async-fn).
///
/// ```
/// use tool_core::{execute_tool_call, tool, RunOptions, ToolCall, ToolRegistry};
/// use serde_json::json;
///
/// /// Echo one value
/// #[tool]
/// async fn echo(value: String) -> String {
///     value
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(EchoTool).unwrap();
/// let call = ToolCall::new("call-1", "echo", json!({"value": "Pi"}));
/// let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
/// assert_eq!(result.content[0].as_text(), Some("Pi"));
/// # });
/// ```
///
/// Tools with state (configuration, a root directory, a client) are methods
/// of a type with [`#[tools]`](macro@tools) on its impl block.
#[cfg(all(feature = "derive", feature = "runtime"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "derive", feature = "runtime"))))]
pub use tool_core_macros::tool;

/// Makes the `#[tool]` methods of an impl block the tools of the type's
/// [`Toolbox`]: tools with state, shared through one `Arc` instead of
/// cloned per call.
///
/// For a method `read` of `Files`, it generates `FilesReadParams` and
/// `FilesReadTool` (which holds the `Arc<Files>`), and `Files` implements
/// [`Toolbox`]; [`ToolRegistry::register_all`] registers every tool of the
/// box. What a tool method may be, and the options it takes, are in the
/// reference, [`_derive`](_derive#tools-on-an-impl-block).
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use tool_core::{execute_tool_call, tools, RunOptions, ToolCall, ToolRegistry};
/// use serde_json::json;
///
/// struct Counter {
///     count: AtomicU64,
/// }
///
/// #[tools]
/// impl Counter {
///     /// Count one more
///     #[tool]
///     async fn bump(&self) -> String {
///         (self.count.fetch_add(1, Ordering::Relaxed) + 1).to_string()
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register_all(Counter { count: AtomicU64::new(0) }).unwrap();
/// let call = ToolCall::new("call-1", "bump", json!({}));
/// execute_tool_call(&call, &tools, RunOptions::default()).await;
/// let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
/// assert_eq!(result.content[0].as_text(), Some("2"));
/// # });
/// ```
#[cfg(all(feature = "derive", feature = "runtime"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "derive", feature = "runtime"))))]
pub use tool_core_macros::tools;
