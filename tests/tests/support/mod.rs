//! What the test binaries of this package share. Each binary's `main.rs`
//! declares it the same way, `#[path = "../support/mod.rs"] mod support;`,
//! and reaches it as `crate::support`.
//!
//! - [`bounded`]: the executor under a hang ceiling.
//! - [`child_process`]: a test's body in a child process of its own.
//! - [`generators`]: numbers, strings and proptest settings for the
//!   property tests.
//! - [`mcp`]: the MCP scenarios every transport runs, and their client.
//! - [`adapter_notes`]: the diagnostics the provider formats write.
//! - [`schema_walk`]: every schema inside a schema.
//! - here: small helpers more than one test file uses.

// Each binary uses its own part.
#![allow(dead_code, unused_imports, unused_macros)]

pub(crate) mod adapter_notes;
pub(crate) mod bounded;
pub(crate) mod child_process;
pub(crate) mod generators;
pub(crate) mod mcp;
pub(crate) mod schema_walk;

use serde_json::Value;
use tool_core::approval::Suspension;
use tool_core::{BatchOutcome, Tool, ToolParams, ToolRegistry, ToolResultMessage};

/// The suspension a batch returned, which must have suspended.
pub(crate) fn suspended(outcome: BatchOutcome) -> Suspension {
    match outcome {
        BatchOutcome::Suspended(suspension) => suspension,
        BatchOutcome::Complete(results) => panic!("expected a suspension, got {results:?}"),
    }
}

/// The results of a batch, which must be complete.
pub(crate) fn complete(outcome: BatchOutcome) -> Vec<ToolResultMessage> {
    match outcome {
        BatchOutcome::Complete(results) => results,
        BatchOutcome::Suspended(suspension) => {
            panic!("expected every call answered, got {suspension:?}")
        }
    }
}

/// The error `T::parse` gives for `value`, which it must refuse, as text.
pub(crate) fn errors<T: ToolParams + std::fmt::Debug>(value: Value) -> String {
    T::parse(&value).unwrap_err().to_string()
}

/// A registry of `tool` alone.
pub(crate) fn registry_of(tool: impl Tool) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(tool).unwrap();
    tools
}

/// The text of a result's first content item.
pub(crate) fn text_of(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().expect("a text item")
}

/// A draft 2020-12 validator of `schema` that checks formats too (the
/// `jsonschema` crate only annotates them by default).
pub(crate) fn validator_for(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the schema compiles")
}
