//! `echo`: the walkthrough's tool, the smallest whole one. Returns its
//! value as text, with details saying where the text came from.

use serde::Serialize;
use tool_core::{Content, ToolError, ToolOutput, tool};

/// What `echo` tells the program besides the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EchoDetails {
    /// Always `"echo"`.
    pub source: &'static str,
}

/// Echo one value
#[tool]
pub async fn echo(value: String) -> Result<ToolOutput<EchoDetails>, ToolError> {
    Ok(ToolOutput::new(vec![Content::text(value)]).with_details(EchoDetails { source: "echo" }))
}
