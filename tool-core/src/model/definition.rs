//! What a provider is told about one tool.

use super::Callers;
use super::ToolAnnotations;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a provider is told about a tool:
/// `{"name":"echo","description":"Echo one value","parameters":{..schema..}}`.
/// It holds no function.
///
/// `outputSchema`, `annotations`, `inputExamples` and `deferLoading` are
/// written only when the tool has them, so a definition without them is
/// exactly the three keys above.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The name the model calls the tool by.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The JSON Schema of the arguments.
    pub parameters: Value,
    /// The JSON Schema of the tool's structured result ([`Tool::output_schema`](crate::Tool::output_schema)).
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// Hints about the tool's effects ([`Tool::annotations`](crate::Tool::annotations)).
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// Example arguments ([`Tool::examples`](crate::Tool::examples)), each already parsed by the
    /// tool's parameters when it was registered.
    #[serde(
        rename = "inputExamples",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub input_examples: Vec<Value>,
    /// Whether the tool is left out of a turn's definitions until a search
    /// finds it ([`Toolset::deferred`](crate::toolset::Toolset::deferred)).
    /// A format with a native tool search writes it as its own flag
    /// (Anthropic's and OpenAI's `defer_loading`).
    #[serde(
        rename = "deferLoading",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub defer_loading: bool,
    /// Who may call the tool: the model (the default), code it writes, or
    /// both. A format with programmatic calling writes it as its
    /// `allowed_callers`.
    #[serde(
        rename = "allowedCallers",
        default,
        skip_serializing_if = "Callers::is_direct_only"
    )]
    pub allowed_callers: Callers,
}

impl ToolDefinition {
    /// A definition with no output schema, annotations or examples.
    ///
    /// ```
    /// use tool_core::ToolDefinition;
    /// use serde_json::json;
    ///
    /// let echo = ToolDefinition::new("echo", "Echo one value", json!({"type": "object"}));
    /// assert_eq!(
    ///     serde_json::to_string(&echo).unwrap(),
    ///     r#"{"name":"echo","description":"Echo one value","parameters":{"type":"object"}}"#,
    /// );
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            parameters,
            output_schema: None,
            annotations: ToolAnnotations::default(),
            input_examples: Vec::new(),
            defer_loading: false,
            allowed_callers: Callers::DIRECT,
        }
    }
}
