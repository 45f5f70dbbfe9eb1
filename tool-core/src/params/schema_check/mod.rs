//! Arguments checked against a JSON Schema known only at run time (a
//! [`DynamicTool`](crate::DynamicTool)'s, an MCP server's), reported as a
//! derived type's parse reports them: every problem at its path, in the
//! same words (`limit: expected integer, got string "5"`).
//!
//! A derived type's parse is its schema's check; a tool whose parameter
//! type accepts any object (`Map<String, Value>`) has no such parse, so
//! this check stands in for it ([`Tool::check_arguments`](crate::Tool::check_arguments)).
//! The validator is the `jsonschema` crate, the one tool-core's own
//! agreement tests judge the derived parsers with, compiled once per schema.

#[cfg(feature = "schema-check")]
mod words;

#[cfg(feature = "schema-check")]
use super::ParamError;
#[cfg(feature = "schema-check")]
use serde_json::Value;
use std::fmt;
#[cfg(feature = "schema-check")]
use std::sync::Arc;

#[cfg(feature = "schema-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema-check")))]
/// A JSON Schema compiled once, to check arguments against on every call.
/// Cloning it is cheap (the compiled schema is shared).
///
/// The draft is the schema's `$schema` (2020-12 when it names none, the
/// default MCP fixes for a tool's `inputSchema`:
/// <https://modelcontextprotocol.io/community/seps/1613-establish-json-schema-2020-12-as-default-dialect-f>);
/// `format` is an annotation, not checked, as that draft's format-annotation
/// vocabulary says by default
/// (<https://json-schema.org/draft/2020-12/json-schema-validation.html#section-7>);
/// `$ref` resolves inside the schema only (nothing is fetched from a
/// network or a file).
///
/// ```
/// use serde_json::json;
/// use tool_core::params::SchemaCheck;
///
/// let check = SchemaCheck::new(&json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer", "minimum": 1}},
///     "required": ["n"],
/// }))
/// .unwrap();
/// assert!(check.check(&json!({"n": 2})).is_ok());
/// assert_eq!(
///     check.check(&json!({"n": "2"})).unwrap_err().to_string(),
///     "n: expected integer, got string \"2\""
/// );
/// assert_eq!(
///     check.check(&json!({})).unwrap_err().to_string(),
///     "n: missing required field"
/// );
///
/// let broken = SchemaCheck::new(&json!({"type": 12})).unwrap_err();
/// assert!(broken.to_string().starts_with("not valid JSON Schema: "), "{broken}");
/// ```
#[derive(Clone)]
pub struct SchemaCheck {
    validator: Arc<jsonschema::Validator>,
}

#[cfg(feature = "schema-check")]
impl SchemaCheck {
    /// Compiles `schema`; a schema that is not valid JSON Schema (or has a
    /// `$ref` that does not resolve inside it) is a [`SchemaError`].
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Ok(SchemaCheck {
                validator: Arc::new(validator),
            }),
            Err(error) => Err(SchemaError::from_compile(&error)),
        }
    }

    /// `Ok` when `arguments` is valid; else every problem, each at its path
    /// (at most [`MAX_PROBLEMS`](super::MAX_PROBLEMS) listed, the rest
    /// counted), values echoed in excerpts.
    pub fn check(&self, arguments: &Value) -> Result<(), ParamError> {
        // The common case, valid arguments, stops at the first keyword
        // that decides; errors are only collected when there are some.
        if self.validator.is_valid(arguments) {
            return Ok(());
        }
        words::problems(&self.validator, arguments)
    }
}

#[cfg(feature = "schema-check")]
impl fmt::Debug for SchemaCheck {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("SchemaCheck")
            .field("draft", &self.validator.draft())
            .finish_non_exhaustive()
    }
}

/// A schema that could not be compiled: not valid JSON Schema, or a
/// `$ref` that does not resolve inside it.
///
/// It displays as `not valid JSON Schema: <what is wrong> (at <where in
/// the schema>)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    message: String,
    /// No validator in this build: the schema may be fine.
    unchecked: bool,
}

/// At most this many characters of the validator's own message are kept:
/// it may quote the schema, which a remote server chose.
#[cfg(feature = "schema-check")]
const MAX_MESSAGE_CHARS: usize = 300;

impl SchemaError {
    #[cfg(feature = "schema-check")]
    fn from_compile(error: &jsonschema::ValidationError<'_>) -> Self {
        let mut message: String = error.to_string();
        if let Some((cut, _)) = message.char_indices().nth(MAX_MESSAGE_CHARS) {
            message.truncate(cut);
            message.push('…');
        }
        let place = error.instance_path().to_string();
        if !place.is_empty() {
            message.push_str(&format!(" (at {place})"));
        }
        SchemaError {
            message,
            unchecked: false,
        }
    }

    /// The refusal of a schema this build cannot check arguments against
    /// (tool-core without its feature `schema-check`): a tool whose
    /// arguments would go unchecked is refused at registration.
    #[cfg_attr(
        any(feature = "schema-check", not(feature = "runtime")),
        allow(dead_code)
    )]
    pub(crate) fn unchecked() -> Self {
        SchemaError {
            message: "not checkable in this build: tool-core's feature `schema-check` (which \
                      checks arguments against a JSON Schema known only at run time) is off"
                .to_owned(),
            unchecked: true,
        }
    }

    /// What is wrong, in the validator's words, with where in the schema.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unchecked {
            return out.write_str(&self.message);
        }
        write!(out, "not valid JSON Schema: {}", self.message)
    }
}

impl std::error::Error for SchemaError {}

#[cfg(all(test, feature = "schema-check"))]
mod tests;
