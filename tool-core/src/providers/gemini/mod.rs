//! Gemini: the request's `functionDeclarations`, the `functionCall` parts
//! of a response, and the `functionResponse` parts answering them.
//!
//! The parameters are written in either of Gemini's schema fields
//! ([`Dialect`]); a call may come without an id, and gets one made up.
//! There is no stream accumulator: each chunk of `streamGenerateContent`
//! is a whole `GenerateContentResponse`
//! (<https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent>),
//! whose `functionCall` parts [`read_call`] reads as they come.
//!
//! ```
//! use tool_core::providers::gemini::{self, Dialect};
//! use tool_core::{ToolDefinition, ToolParams, ToolResultMessage, Content};
//! use serde_json::json;
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     query: String,
//! }
//!
//! let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let tools = gemini::tools(&definitions, Dialect::JsonSchema);
//! assert_eq!(tools.value["functionDeclarations"][0]["parametersJsonSchema"], Search::json_schema());
//!
//! let part = json!({"functionCall": {"name": "search", "args": {"query": "rust"}}});
//! let call = gemini::read_call(&part, 0)?;
//!
//! let mut result = ToolResultMessage::new(&call, vec![Content::text("3 pages found")]);
//! result.timestamp = 0;
//! // The call had no id, so neither has its answer.
//! assert_eq!(gemini::write_result(&result), json!({"functionResponse": {
//!     "name": "search",
//!     "response": {"output": "3 pages found"},
//! }}));
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

mod call;
mod definitions;
mod json_schema;
mod openapi;
mod result;
mod turn;

pub use call::read_call;
pub use definitions::{Dialect, tools};
pub use result::write_result;
pub use turn::{next_contents, read_calls};

/// Ids made up for calls Gemini sent without one start with this; a
/// response to such a call leaves the id out again.
const GENERATED_ID_PREFIX: &str = "gemini-call-";
