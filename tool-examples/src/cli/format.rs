//! `--format`'s values: tool-core's [`ProviderFormat`]s, under their own
//! names, each with a line of help. The list is tool-core's own
//! (`ProviderFormat::ALL`), so a format added there is offered here.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{ProviderFormat, Strict};

/// A [`ProviderFormat`] as a command-line value. tool-core has no clap
/// dependency (nor should it), so the `ValueEnum` is this wrapper's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format(pub ProviderFormat);

const ALL: [Format; ProviderFormat::ALL.len()] = {
    let mut all = [Format(ProviderFormat::Neutral); ProviderFormat::ALL.len()];
    let mut index = 0;
    while index < all.len() {
        all[index] = Format(ProviderFormat::ALL[index]);
        index += 1;
    }
    all
};

impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(description(self.0)))
    }
}

impl From<Format> for ProviderFormat {
    fn from(format: Format) -> Self {
        format.0
    }
}

/// What `--help` says of a format: whose, and the shape's telltale.
fn description(format: ProviderFormat) -> &'static str {
    match format {
        ProviderFormat::Neutral => "ours: {\"name\",\"description\",\"parameters\"}",
        ProviderFormat::OpenAiChat(Strict::Off) => "OpenAI Chat Completions",
        ProviderFormat::OpenAiChat(Strict::On) => "OpenAI Chat Completions, strict mode",
        ProviderFormat::OpenAiResponses(Strict::Off) => "OpenAI Responses",
        ProviderFormat::OpenAiResponses(Strict::On) => "OpenAI Responses, strict mode",
        ProviderFormat::Anthropic(Strict::Off) => "Anthropic Messages",
        ProviderFormat::Anthropic(Strict::On) => "Anthropic Messages, strict tool use",
        ProviderFormat::Gemini(Dialect::JsonSchema) => "Gemini, with parametersJsonSchema",
        ProviderFormat::Gemini(Dialect::OpenApi) => {
            "Gemini, with parameters in its OpenAPI 3.0 subset"
        }
        ProviderFormat::Mcp => "MCP tools/list",
    }
}
