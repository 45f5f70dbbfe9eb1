//! Tool definitions in each provider's shape, and each provider's tool calls
//! and results converted to and from ours.
//!
//! Every format is produced from the one derived schema. What a format
//! cannot express is not hidden: each conversion returns [`Diagnostic`]s
//! saying what was dropped or changed, where, and why, so a caller can log
//! them or refuse to go on. Local parsing keeps enforcing everything a
//! provider's schema lost (a dropped `maxLength` is still checked when the
//! call arrives).
//!
//! Results go the other way the same way: each adapter writes images (and
//! sounds, where a provider takes them) in the shape its provider accepts,
//! and what a provider has no place for becomes a short text note
//! ([`media_note`]: `[image: image/gif, 1234 bytes]`,
//! `[resource: notes.md <file:///notes.md>]`), so nothing vanishes without
//! the model knowing. A text-only result is written in the provider's
//! plain text shape. OpenAI Chat Completions tool messages take text only: their images
//! follow in a user message ([`openai_tool_messages`]).
//!
//! ```
//! use tool_core::providers::{self, ProviderFormat};
//! use tool_core::{ToolDefinition, ToolParams};
//!
//! #[derive(ToolParams)]
//! struct Search {
//!     #[param(max_length = 100)]
//!     query: String,
//!     limit: Option<u32>,
//! }
//!
//! let definitions = vec![ToolDefinition::new("search", "Search the docs", Search::json_schema())];
//! let strict = ProviderFormat::OpenAiStrict.definitions(&definitions);
//! let parameters = &strict.value[0]["function"]["parameters"];
//! assert_eq!(parameters["required"], serde_json::json!(["query", "limit"]));
//! assert!(parameters["properties"]["limit"]["anyOf"].is_array());
//! // maxLength is not accepted by OpenAI's strict mode: dropped, and said so.
//! assert_eq!(strict.diagnostics[0].path, "/properties/query/maxLength");
//! ```

mod anthropic;
mod common;
mod diagnostic;
mod gemini;
mod gemini_schema;
mod mcp;
mod media;
mod merge_root;
mod names;
mod one_of;
mod openai;
mod openai_results;
mod rewrite;
mod strict;

pub use anthropic::{anthropic_tool_result, anthropic_tool_use, anthropic_tools};
pub use diagnostic::{AdapterError, Converted, Diagnostic};
pub use gemini::{
    gemini_function_call, gemini_function_response, gemini_tools, gemini_tools_legacy,
};
pub use mcp::{mcp_call_tool_result, mcp_structured_content, mcp_tool_call, mcp_tools};
pub use media::{content_text, media_note};
pub use names::NameRule;
pub use openai::{
    openai_responses_function_call, openai_responses_tools, openai_tool_call, openai_tools,
    openai_tools_strict,
};
pub use openai_results::{
    openai_responses_function_call_output, openai_tool_message, openai_tool_messages,
};

use crate::registry::ToolDefinition;
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// The tool-definition formats this crate writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProviderFormat {
    /// Ours: `{"name","description","parameters"}`.
    Neutral,
    /// OpenAI Chat Completions: `{"type":"function","function":{..}}`.
    OpenAi,
    /// OpenAI Chat Completions with `"strict": true`.
    OpenAiStrict,
    /// OpenAI Responses: `{"type":"function","name",..,"strict":false}`.
    OpenAiResponses,
    /// OpenAI Responses with `"strict": true`.
    OpenAiResponsesStrict,
    /// Anthropic Messages: `{"name","description","input_schema"}`.
    Anthropic,
    /// Gemini: `{"functionDeclarations":[{..,"parametersJsonSchema"}]}`.
    Gemini,
    /// Gemini with `parameters` in its OpenAPI 3.0 subset.
    GeminiLegacy,
    /// MCP `tools/list`: `{"name","description","inputSchema"}`.
    Mcp,
}

impl ProviderFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [ProviderFormat; 9] = [
        ProviderFormat::Neutral,
        ProviderFormat::OpenAi,
        ProviderFormat::OpenAiStrict,
        ProviderFormat::OpenAiResponses,
        ProviderFormat::OpenAiResponsesStrict,
        ProviderFormat::Anthropic,
        ProviderFormat::Gemini,
        ProviderFormat::GeminiLegacy,
        ProviderFormat::Mcp,
    ];

    /// The format's name on the command line: `openai-strict`.
    pub fn name(self) -> &'static str {
        match self {
            ProviderFormat::Neutral => "neutral",
            ProviderFormat::OpenAi => "openai",
            ProviderFormat::OpenAiStrict => "openai-strict",
            ProviderFormat::OpenAiResponses => "openai-responses",
            ProviderFormat::OpenAiResponsesStrict => "openai-responses-strict",
            ProviderFormat::Anthropic => "anthropic",
            ProviderFormat::Gemini => "gemini",
            ProviderFormat::GeminiLegacy => "gemini-legacy",
            ProviderFormat::Mcp => "mcp",
        }
    }

    /// The definitions in this format, with what it could not express.
    ///
    /// A definition's `output_schema` and `annotations` are written by
    /// `Mcp` (MCP's `outputSchema` and `annotations`) and `Neutral` only,
    /// without a diagnostic elsewhere: OpenAI's and Anthropic's tools have
    /// no field for either; Gemini's `responseJsonSchema` would describe
    /// the `response` of a function response, which is `{"output": <text>}`
    /// here, not the details the output schema describes; and annotations
    /// are hints for the program around the model, which a provider never
    /// reads. Nothing the model would have read is lost.
    pub fn definitions(self, definitions: &[ToolDefinition]) -> Converted {
        match self {
            ProviderFormat::Neutral => neutral(definitions),
            ProviderFormat::OpenAi => openai_tools(definitions),
            ProviderFormat::OpenAiStrict => openai_tools_strict(definitions),
            ProviderFormat::OpenAiResponses => openai_responses_tools(definitions, false),
            ProviderFormat::OpenAiResponsesStrict => openai_responses_tools(definitions, true),
            ProviderFormat::Anthropic => anthropic_tools(definitions),
            ProviderFormat::Gemini => gemini_tools(definitions),
            ProviderFormat::GeminiLegacy => gemini_tools_legacy(definitions),
            ProviderFormat::Mcp => mcp_tools(definitions),
        }
    }
}

impl fmt::Display for ProviderFormat {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.name())
    }
}

impl FromStr for ProviderFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        ProviderFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = ProviderFormat::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown format '{name}'; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

/// Our own shape, checked against no provider's name rules.
fn neutral(definitions: &[ToolDefinition]) -> Converted {
    Converted {
        value: serde_json::to_value(definitions).unwrap_or(Value::Null),
        diagnostics: Vec::new(),
    }
}

/// What local parsing still does about a keyword a format dropped, for the
/// diagnostic (for a derived schema; a dynamic tool checks its own).
fn what_parse_keeps(keyword: &str) -> &'static str {
    match keyword {
        "default" => " (parse still fills the default in)",
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minimum" | "maximum"
        | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "pattern" | "format"
        | "uniqueItems" | "prefixItems" | "const" | "enum" | "minProperties" | "maxProperties" => {
            " (parse still enforces it)"
        }
        "examples" | "deprecated" => " (only a hint to the model, which parse does not need)",
        _ => "",
    }
}
