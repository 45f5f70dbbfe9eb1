//! The wire model, the bottom layer: a call, its paired result, what a
//! result holds (content, a failure's kind, the repairs made to its
//! arguments), a tool's definition and its annotations. Everything above
//! (tools, the registry, toolsets, approvals, the executor, the provider
//! formats) speaks in these types; they import nothing above them.

mod annotations;
mod call_wire;
mod callers;
mod content;
mod definition;
mod excerpt;
mod failure;
mod message;
mod repair;
mod result_wire;

/// The built-in search tool's name, which the provider formats (below the
/// toolsets) recognize in a result: `toolset::SEARCH_TOOL_NAME` is it.
pub(crate) const SEARCH_TOOL: &str = "tool_search";

pub use annotations::ToolAnnotations;
pub use callers::{CallOrigin, Callers};
pub use content::{Content, EmbeddedResource};
pub use definition::ToolDefinition;
pub use excerpt::MAX_REPAIR_VALUE_BYTES;
#[cfg(feature = "runtime")]
pub(crate) use excerpt::{cut_short, json_head};
pub use failure::FailureKind;
#[cfg(feature = "runtime")]
pub(crate) use message::now_millis;
pub use message::{ToolCall, ToolResultMessage};
pub use repair::{Repair, RepairRule};
