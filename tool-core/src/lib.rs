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
//! - `derive` (default): `#[derive(ToolParams)]`, `#[tool]` and
//!   `#[tools]`, from the `tool-core-macros` crate, re-exported so that
//!   `tool-core` is the one dependency.
//! - `uuid`, `url`, `chrono`: `uuid::Uuid`, `url::Url`,
//!   `chrono::DateTime<Utc>` and `chrono::NaiveDate` as parameter types
//!   ([`ParamValue`](params::ParamValue) implementations).
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

// The pipeline, in the order a call meets it: arguments (parse and
// describe), tools, the registry, the executor; then the wire messages and
// the provider formats.
pub mod approval;
pub mod executor;
pub mod model;
mod name_map;
pub mod params;
pub mod providers;
mod registered;
pub mod registry;
pub mod repair;
mod tool;
pub mod toolset;
pub mod turn;

#[doc(hidden)]
pub mod __private;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub mod _derive;

pub use executor::{
    BatchOutcome, ExecutionMode, RunOptions, execute_batch, execute_tool_call, execute_tool_calls,
    resume_batch,
};
pub use model::{
    Content, FailureKind, ToolAnnotations, ToolCall, ToolDefinition, ToolResultMessage,
};
pub use params::{ParamError, ToolParams};
pub use registered::Toolbox;
pub use registry::ToolRegistry;
pub use tokio_util::sync::CancellationToken;
pub use tool::{DynamicTool, Json, Tool, ToolContext, ToolError, ToolFailure, ToolOutput};
pub use turn::Turn;

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
/// assert_eq!(error.to_string(), "value: expected string, got number\nlimit: expected integer >= 1, got 0");
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
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
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
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tool_core_macros::tools;
