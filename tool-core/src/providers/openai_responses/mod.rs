//! OpenAI Responses: the request's `tools`, the `function_call` output
//! items, the `function_call_output` input items answering them, and the
//! `response.*` events they stream in.
//!
//! A call's id is its item's `call_id`, and its `arguments` arrive as JSON
//! *text*; an answer's `output` may hold images.
//!
//! ```
//! use tool_core::providers::{openai_responses, Strict};
//! use tool_core::{ToolDefinition, ToolParams, ToolResultMessage, Content};
//! use serde_json::json;
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     query: String,
//! }
//!
//! let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let tools = openai_responses::tools(&definitions, Strict::Off);
//! assert_eq!(tools.value[0]["strict"], false);
//!
//! let call = openai_responses::read_call(&json!({"type": "function_call", "id": "fc_1",
//!     "call_id": "call_1", "name": "search", "arguments": "{\"query\": \"rust\"}"}))?;
//! assert_eq!(call.id, "call_1");
//!
//! let mut result = ToolResultMessage::new(&call, vec![Content::text("3 pages found")]);
//! result.timestamp = 0;
//! assert_eq!(
//!     openai_responses::write_result(&result),
//!     json!({"type": "function_call_output", "call_id": "call_1", "output": "3 pages found"}),
//! );
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

mod call;
mod definitions;
mod namespaces;
mod programmatic;
mod result;
mod stream;
mod turn;

pub use call::read_call;
pub use definitions::tools;
pub use namespaces::{Namespace, tools_in_namespaces};
pub use result::write_result;
pub use stream::StreamAccumulator;
pub use turn::{next_input, read_calls};
