//! The registry the MCP approval tests serve (`tests/mcp/approval.rs`):
//! in process over HTTP, and from the `mcp_fixture` binary over stdio
//! (`mcp_fixture approval`).
//!
//! - `erase`: needs a person's approval; erases a note by name, that is,
//!   records the name, so a test sees exactly which calls ran.
//! - `erased`: the names erased so far, one per line (needs no approval).
//! - `echo`: [`mcp_fixture`](crate::mcp_fixture)'s, needs no approval.

use crate::mcp_fixture::EchoTool;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tool_core::{
    Tool, ToolAnnotations, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry,
};

/// The note to erase
#[derive(ToolParams, Debug)]
pub struct EraseParams {
    /// The note's name
    pub name: String,
}

/// Erases a note for good: a call needs a person's approval.
#[derive(Clone, Debug, Default)]
pub struct EraseTool {
    erased: Arc<Mutex<Vec<String>>>,
}

impl Tool for EraseTool {
    type Params = EraseParams;
    type Details = Value;

    fn name(&self) -> &str {
        "erase"
    }

    fn description(&self) -> &str {
        "Erase one note for good.\n\nThe note cannot be brought back."
    }

    fn needs_approval(&self) -> bool {
        true
    }

    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::new()
            .with_title("Erase note")
            .destructive(true)
    }

    async fn execute(
        &self,
        params: EraseParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        self.erased
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(params.name.clone());
        Ok(ToolOutput::text(format!("erased {}", params.name))
            .with_details(json!({"erased": params.name})))
    }
}

// `erased` takes no parameters (and so no doc comment: it would become the
// schema's description).
#[derive(ToolParams, Debug)]
#[allow(missing_docs)]
pub struct ErasedParams {}

/// Lists what `erase` erased.
#[derive(Clone, Debug)]
pub struct ErasedTool {
    erased: Arc<Mutex<Vec<String>>>,
}

impl Tool for ErasedTool {
    type Params = ErasedParams;
    type Details = Value;

    fn name(&self) -> &str {
        "erased"
    }

    fn description(&self) -> &str {
        "The notes erased so far, one per line"
    }

    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::new().read_only()
    }

    async fn execute(
        &self,
        _params: ErasedParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let erased = self
            .erased
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        Ok(ToolOutput::text(erased.join("\n")).with_details(json!({"erased": erased})))
    }
}

/// `erase`, `erased` and `echo`, with a list of erased names of their own.
pub fn approval_registry() -> ToolRegistry {
    let erase = EraseTool::default();
    let erased = ErasedTool {
        erased: Arc::clone(&erase.erased),
    };
    let mut tools = ToolRegistry::new();
    tools.register(erase).expect("erase registers");
    tools.register(erased).expect("erased registers");
    tools.register(EchoTool).expect("echo registers");
    tools
}
