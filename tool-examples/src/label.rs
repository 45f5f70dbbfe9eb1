//! `label`: a value with a label and tags, the shape of the benchmarks'
//! medium parameter struct (a string, two optional fields, a list). It is
//! the second workload of the throughput measurements (`scripts/throughput.sh`),
//! where the floors answer it with the same result.

use serde::Serialize;
use std::num::NonZeroU32;
use tool_core::{Content, ToolError, ToolOutput, tool};

/// What `label` tells the program besides the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelDetails {
    /// The label, when the call gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The tags, at most `limit` of them.
    pub tags: Vec<String>,
}

/// Label a value and keep at most `limit` of its tags
#[tool(read_only, idempotent, open_world = false)]
pub async fn label(
    /// The value to label
    value: String,
    /// A label for it
    label: Option<String>,
    /// How many tags to keep (all when left out)
    limit: Option<NonZeroU32>,
    /// Tags for the value
    tags: Vec<String>,
) -> Result<ToolOutput<LabelDetails>, ToolError> {
    let mut tags = tags;
    if let Some(limit) = limit {
        tags.truncate(usize::try_from(limit.get()).unwrap_or(usize::MAX));
    }
    Ok(ToolOutput::new(vec![Content::text(value)]).with_details(LabelDetails { label, tags }))
}
