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
//! use tool_core::{execute_tool_call, text, CallContext, Tool, ToolCall, ToolContext, ToolError,
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
//!         Ok(ToolOutput::new(vec![text(params.value)]).with_details(json!({"source": "echo"})))
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut tools = ToolRegistry::new();
//! tools.register(Echo)?;
//!
//! let call = ToolCall::new("call-1", "echo", json!({"value": "Pi", "ignored": "drop me"}));
//! let result = execute_tool_call(&call, &tools, CallContext::default()).await;
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
//! # Field types
//!
//! | Rust | schema | parse |
//! | --- | --- | --- |
//! | `String` | `{"type":"string"}` | JSON string |
//! | `bool` | `{"type":"boolean"}` | JSON bool |
//! | `i8`..`i64`, `u8`..`u64`, `isize`, `usize` | `{"type":"integer"}` with the type's bounds | integral number in range; `2.0` is `2` |
//! | `NonZeroU8`..`NonZeroU64`, `NonZeroUsize` | `{"type":"integer","minimum":1}` (+max) | integer >= 1 |
//! | `f32`, `f64` | `{"type":"number"}` (`f32` with its range) | any JSON number in range |
//! | `Option<T>` | T's schema, field not required | missing or null -> None |
//! | `Vec<T>` | `{"type":"array","items":T}` | each item, path `name[i]` |
//! | `BTreeMap<String,T>`, `HashMap<String,T>` | `{"type":"object","additionalProperties":T}` | each value, path `name.key` |
//! | `serde_json::Value` | `{}` | anything (nested at most 128 deep) |
//! | `Box<T>` | T | T |
//! | a struct deriving `ToolParams` | its object schema, inline | nested, path `outer.inner` |
//! | a unit-only enum deriving `ToolParams` | `{"type":"string","enum":[...]}` | one of the names |
//!
//! Add your own by implementing [`ParamValue`].
//!
//! # Limits
//!
//! Parsing refuses nested parameter structs deeper than
//! [`MAX_NESTING`] and raw JSON values deeper than
//! [`MAX_JSON_DEPTH`] levels, and keeps at most
//! [`MAX_PROBLEMS`] problems per error (the rest are counted). Received values are
//! echoed in messages up to [`MAX_ECHO_CHARS`] characters.

#![warn(missing_docs)]

// Generated code names `::tool_core::…`; this lets the crate's own tests and
// doctests use the derives too.
extern crate self as tool_core;

mod catch_unwind;
mod constraints;
mod context;
mod derive_support;
mod describe;
mod dynamic;
mod erased;
mod error;
mod executor;
mod impls;
mod message;
mod params;
mod path;
mod registry;
mod suggest;
mod tool;

#[doc(hidden)]
pub mod __private;

pub use constraints::{Bound, HasLength, LengthOf, Numeric};
pub use context::{CallContext, ProgressFn, ToolContext};
pub use derive_support::MAX_NESTING;
pub use describe::MAX_ECHO_CHARS;
pub use dynamic::DynamicTool;
pub use error::{MAX_PROBLEMS, ParamError, ParamProblem};
pub use executor::{ExecutionMode, execute_tool_call, execute_tool_calls};
pub use impls::MAX_JSON_DEPTH;
pub use message::{ToolCall, ToolResultMessage};
pub use params::{ParamValue, ToolParams};
pub use path::ParamPath;
pub use registry::{PreparedCall, RegisteredTool, RegistryError, ToolDefinition, ToolRegistry};
pub use tokio_util::sync::CancellationToken;
pub use tool::{Content, Tool, ToolError, ToolOutput, text};

#[cfg(feature = "derive")]
pub use tool_derive::ToolParams;
