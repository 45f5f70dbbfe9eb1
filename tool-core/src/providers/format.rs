//! The definition formats as one value: what the command line's
//! `--format` chooses among.

use super::diagnostic::Converted;
use super::gemini::Dialect;
use super::names::NameRule;
use super::strict::Strict;
use super::{anthropic, gemini, mcp, openai_chat, openai_responses};
use crate::model::ToolDefinition;
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// A tool-definition format: an API's `tools`, with the API's own choice
/// where it has one, or ours.
///
/// Each variant writes what its module's `tools` writes; this enum is for
/// choosing a format at run time (a command line's `--format`, a
/// configuration file), by [`name`](ProviderFormat::name) or
/// [`FromStr`].
///
/// ```
/// use tool_core::providers::{ProviderFormat, Strict};
/// use tool_core::{ToolDefinition, ToolParams};
///
/// #[derive(ToolParams)]
/// struct Search {
///     #[param(max_length = 100)]
///     query: String,
///     limit: Option<u32>,
/// }
///
/// let definitions = vec![ToolDefinition::new("search", "Search the docs", Search::json_schema())];
/// let format: ProviderFormat = "openai-strict".parse().unwrap();
/// assert_eq!(format, ProviderFormat::OpenAiChat(Strict::On));
/// let strict = format.definitions(&definitions);
/// let parameters = &strict.value[0]["function"]["parameters"];
/// assert_eq!(parameters["required"], serde_json::json!(["query", "limit"]));
/// assert!(parameters["properties"]["limit"]["anyOf"].is_array());
/// // maxLength is not accepted by OpenAI's strict mode: dropped, and said so.
/// assert_eq!(strict.diagnostics[0].path, "/properties/query/maxLength");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProviderFormat {
    /// Ours: `{"name","description","parameters"}`, checked against no
    /// provider's rules.
    Neutral,
    /// [`openai_chat::tools`]: `{"type":"function","function":{..}}`.
    OpenAiChat(Strict),
    /// [`openai_responses::tools`]: `{"type":"function","name",..,"strict"}`.
    OpenAiResponses(Strict),
    /// [`anthropic::tools`]: `{"name","description","input_schema","strict"?}`.
    Anthropic(Strict),
    /// [`gemini::tools`]: `{"functionDeclarations":[..]}`.
    Gemini(Dialect),
    /// [`mcp::tools`]: `{"name","description","inputSchema",..}`.
    Mcp,
}

impl ProviderFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [ProviderFormat; 10] = [
        ProviderFormat::Neutral,
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiChat(Strict::On),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::On),
        ProviderFormat::Anthropic(Strict::Off),
        ProviderFormat::Anthropic(Strict::On),
        ProviderFormat::Gemini(Dialect::JsonSchema),
        ProviderFormat::Gemini(Dialect::OpenApi),
        ProviderFormat::Mcp,
    ];

    /// The format's name on the command line: `openai-strict`.
    pub fn name(self) -> &'static str {
        match self {
            ProviderFormat::Neutral => "neutral",
            ProviderFormat::OpenAiChat(Strict::Off) => "openai",
            ProviderFormat::OpenAiChat(Strict::On) => "openai-strict",
            ProviderFormat::OpenAiResponses(Strict::Off) => "openai-responses",
            ProviderFormat::OpenAiResponses(Strict::On) => "openai-responses-strict",
            ProviderFormat::Anthropic(Strict::Off) => "anthropic",
            ProviderFormat::Anthropic(Strict::On) => "anthropic-strict",
            ProviderFormat::Gemini(Dialect::JsonSchema) => "gemini",
            ProviderFormat::Gemini(Dialect::OpenApi) => "gemini-legacy",
            ProviderFormat::Mcp => "mcp",
        }
    }

    /// The tool-name rule of the format's provider; `Neutral` has none.
    pub fn name_rule(self) -> Option<NameRule> {
        match self {
            ProviderFormat::Neutral => None,
            ProviderFormat::OpenAiChat(_) | ProviderFormat::OpenAiResponses(_) => {
                Some(NameRule::OPENAI)
            }
            ProviderFormat::Anthropic(_) => Some(NameRule::ANTHROPIC),
            ProviderFormat::Gemini(_) => Some(NameRule::GEMINI),
            ProviderFormat::Mcp => Some(NameRule::MCP),
        }
    }

    /// Whether the provider searches deferred tools itself: send it
    /// [`ToolRegistry::definitions_for_native_search`](crate::ToolRegistry::definitions_for_native_search);
    /// the others get [`ToolRegistry::definitions_for`](crate::ToolRegistry::definitions_for),
    /// with the built-in `tool_search`.
    pub fn searches_natively(self) -> bool {
        matches!(
            self,
            ProviderFormat::Anthropic(_) | ProviderFormat::OpenAiResponses(_)
        )
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
            ProviderFormat::OpenAiChat(strict) => openai_chat::tools(definitions, strict),
            ProviderFormat::OpenAiResponses(strict) => openai_responses::tools(definitions, strict),
            ProviderFormat::Anthropic(strict) => anthropic::tools(definitions, strict),
            ProviderFormat::Gemini(dialect) => gemini::tools(definitions, dialect),
            ProviderFormat::Mcp => mcp::tools(definitions),
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
