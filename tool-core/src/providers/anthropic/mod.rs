//! Anthropic Messages: the request's `tools`, the `tool_use` content
//! blocks, the `tool_result` blocks answering them, and the stream's
//! `content_block_*` events.
//!
//! A call's `input` is the arguments object itself; an answer's content is
//! blocks, images among them. Definitions may ask for strict tool use
//! ([`Strict`](crate::providers::Strict)), Anthropic's own subset of JSON
//! Schema.
//!
//! ```
//! use tool_core::providers::{anthropic, Strict};
//! use tool_core::{ToolDefinition, ToolParams, ToolResultMessage, Content};
//! use serde_json::json;
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     query: String,
//! }
//!
//! let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let tools = anthropic::tools(&definitions, Strict::Off);
//! assert_eq!(tools.value[0]["input_schema"], Search::json_schema());
//!
//! let call = anthropic::read_call(&json!({"type": "tool_use", "id": "toolu_01",
//!     "name": "search", "input": {"query": "rust"}}))?;
//!
//! let mut result = ToolResultMessage::new(&call, vec![Content::text("3 pages found")]);
//! result.timestamp = 0;
//! assert_eq!(anthropic::write_result(&result), json!({
//!     "type": "tool_result",
//!     "tool_use_id": "toolu_01",
//!     "content": [{"type": "text", "text": "3 pages found"}],
//!     "is_error": false,
//! }));
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

mod call;
mod definitions;
mod limits;
mod programmatic;
mod result;
mod stream;
mod strict;
mod turn;

pub use call::read_call;
pub use definitions::{ToolSearch, tools, tools_with_search};
pub use result::{write_result, write_result_referencing};
pub use stream::StreamAccumulator;
pub use turn::{next_messages, read_calls};
