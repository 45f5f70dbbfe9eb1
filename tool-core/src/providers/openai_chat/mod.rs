//! OpenAI Chat Completions: the request's `tools`, the assistant message's
//! `tool_calls`, the `tool` messages answering them, and the
//! `chat.completion.chunk`s they stream in.
//!
//! A call's `arguments` arrive as JSON *text*; a tool message holds text
//! only, so the media of a turn's results follow in one user message
//! ([`write_results`]).
//!
//! ```
//! use tool_core::providers::{openai_chat, Strict};
//! use tool_core::{ToolDefinition, ToolParams, ToolResultMessage, Content};
//! use serde_json::json;
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     query: String,
//! }
//!
//! let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let tools = openai_chat::tools(&definitions, Strict::On);
//! assert_eq!(tools.value[0]["function"]["name"], "search");
//!
//! // One entry of the assistant message's `tool_calls` ...
//! let call = openai_chat::read_call(&json!({"id": "call_1", "type": "function",
//!     "function": {"name": "search", "arguments": "{\"query\": \"rust\"}"}}))?;
//! assert_eq!(call.arguments, json!({"query": "rust"}));
//!
//! // ... and the messages answering the turn's calls, once they ran.
//! let mut result = ToolResultMessage::new(&call, vec![Content::text("3 pages found")]);
//! result.timestamp = 0;
//! assert_eq!(
//!     openai_chat::write_results(&[result]),
//!     [json!({"role": "tool", "tool_call_id": "call_1", "content": "3 pages found"})],
//! );
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

mod call;
mod definitions;
mod result;
mod stream;
mod turn;

pub use call::read_call;
pub use definitions::tools;
pub use result::{write_result, write_results};
pub use stream::StreamAccumulator;
pub use turn::{next_messages, read_calls};
