//! MCP: `tools/list` entries, `tools/call` params and `CallToolResult`s.
//!
//! MCP keeps the whole schema and every content item as it is; a call's id
//! is its JSON-RPC request's, and a result's details are its
//! `structuredContent` ([`structured_content`]). Calls are not streamed.
//!
//! ```
//! use tool_core::providers::mcp;
//! use tool_core::{ToolDefinition, ToolParams, ToolResultMessage, Content};
//! use serde_json::json;
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     query: String,
//! }
//!
//! let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let tools = mcp::tools(&definitions);
//! assert_eq!(tools.value[0]["inputSchema"], Search::json_schema());
//!
//! let call = mcp::read_call("7", &json!({"name": "search", "arguments": {"query": "rust"}}))?;
//!
//! let mut result = ToolResultMessage::new(&call, vec![Content::text("3 pages found")]);
//! result.details = Some(json!(["a.md", "b.md", "c.md"]));
//! result.timestamp = 0;
//! assert_eq!(mcp::write_result(&result), json!({
//!     "content": [{"type": "text", "text": "3 pages found"}],
//!     "structuredContent": {"value": ["a.md", "b.md", "c.md"]},
//!     "isError": false,
//! }));
//! # Ok::<(), tool_core::providers::AdapterError>(())
//! ```

mod call;
mod definitions;
mod result;

pub use call::read_call;
pub use definitions::tools;
pub use result::{structured_content, write_result};
