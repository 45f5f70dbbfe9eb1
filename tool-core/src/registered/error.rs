//! Why a tool could not be registered: each refusal names the tool and
//! what to do about it, at registration, not as a provider's 400 later.

use crate::params::{ParamError, SchemaError};
use std::fmt;

/// Why a tool could not be registered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// A tool of this name is already registered. Replacing it silently would
    /// run a different function than the definition a model has already seen.
    NameTaken {
        /// The name both tools have.
        name: String,
        /// Where the registered tool came from (its toolset's label).
        registered: String,
        /// Where the refused tool came from.
        incoming: String,
    },
    /// The tool's parameters schema does not compile ([`Tool::check_schema`](crate::Tool::check_schema)):
    /// its calls could not be checked against it.
    InvalidSchema {
        /// The tool's name.
        tool: String,
        /// What is wrong with the schema, and where.
        error: SchemaError,
    },
    /// One of the tool's examples ([`Tool::examples`](crate::Tool::examples))
    /// does not parse with its parameters: shown to a model, it would
    /// teach a call that fails.
    InvalidExample {
        /// The tool's name.
        tool: String,
        /// The example's position among the tool's examples, from 0.
        index: usize,
        /// Why it does not parse.
        error: ParamError,
    },
    /// The name breaks the tool-name rule of a format the registry was
    /// made for ([`ToolRegistry::for_formats`](crate::ToolRegistry::for_formats)):
    /// the provider would refuse every request that carries it.
    NameRefused {
        /// The tool's name.
        name: String,
        /// The provider whose rule it breaks.
        provider: &'static str,
        /// What about the name breaks the rule.
        problem: String,
        /// A name every rule in use accepts.
        suggestion: String,
    },
    /// A toolset was built wrong: a rename of a name it does not have,
    /// or a core tool that is not in it.
    Toolset {
        /// The toolset's label.
        toolset: String,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::NameTaken {
                name,
                registered,
                incoming,
            } => write!(
                out,
                "Tool already exists: {name} (registered from {registered}; the new one is from \
                 {incoming}); give one side a prefix (Toolset::prefixed) or rename it \
                 (Toolset::renamed)"
            ),
            RegistryError::InvalidSchema { tool, error } => {
                write!(out, "Tool {tool} has a parameters schema that is {error}")
            }
            RegistryError::InvalidExample { tool, index, error } => {
                let problem = error.to_string().replace('\n', "; ");
                write!(
                    out,
                    "Tool {tool}'s example {index} does not parse with its parameters: {problem}"
                )
            }
            RegistryError::NameRefused {
                name,
                provider,
                problem,
                suggestion,
            } => write!(
                out,
                "Tool name {name:?} is refused by {provider}: {problem}; rename it, for example \
                 to {suggestion:?} (Toolset::renamed)"
            ),
            RegistryError::Toolset { toolset, problem } => {
                write!(out, "Toolset {toolset}: {problem}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}
