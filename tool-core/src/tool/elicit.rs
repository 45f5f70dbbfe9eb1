//! A tool asking the person using the client a question while it runs
//! ([`ToolContext::elicit`](crate::ToolContext::elicit)): MCP's form
//! elicitation
//! (<https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation>),
//! the answer's shape a [`ToolParams`] type, so the form the client shows
//! and the value the tool gets come from one definition, as a tool's
//! parameters do.
//!
//! MCP asks with flat forms only: each field a string (maybe with a
//! `format`, lengths), a number or integer (maybe with bounds), a boolean,
//! a choice among strings (`enum`, SEP-1330) or a list of such choices
//! (SEP-1330's multi-select), each maybe with a `default` (SEP-1034). A type whose schema has anything else (a nested
//! object, a list) is refused before anything is asked, naming the field.

use crate::params::ToolParams;
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A question, as the asker sends it: the text the person reads, and the
/// form's schema (a flat object's JSON Schema).
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitationRequest {
    /// What the person is asked.
    pub message: String,
    /// The fields of the form.
    pub schema: Value,
}

impl ElicitationRequest {
    /// The form's defaults (SEP-1034), field by field: what a client
    /// pre-fills, and what it sends for the fields the person left alone.
    /// A field without a `default` is absent.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::ElicitationRequest;
    ///
    /// let question = ElicitationRequest {
    ///     message: "Who are you?".to_owned(),
    ///     schema: json!({"type": "object", "properties": {
    ///         "name": {"type": "string", "default": "John Doe"},
    ///         "age": {"type": "integer"},
    ///     }}),
    /// };
    /// assert_eq!(serde_json::Value::Object(question.defaults()), json!({"name": "John Doe"}));
    /// ```
    pub fn defaults(&self) -> serde_json::Map<String, Value> {
        let Some(properties) = self.schema.get("properties").and_then(Value::as_object) else {
            return serde_json::Map::new();
        };
        properties
            .iter()
            .filter_map(|(name, property)| Some((name.clone(), property.get("default")?.clone())))
            .collect()
    }
}

/// What the person did with the question
/// (<https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#response-actions>).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicited<T> {
    /// They answered: the form's values.
    Accept(T),
    /// They explicitly declined to answer.
    Decline,
    /// They dismissed the question without choosing.
    Cancel,
}

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElicitError {
    /// No one can be asked here: the tool runs outside MCP, or the client
    /// did not declare elicitation, or cannot bring an answer back; says
    /// which.
    Unavailable(String),
    /// The answer's type is not a form MCP can ask: names the field.
    Schema(String),
    /// The person's answer does not fit the type: what is wrong, where.
    Answer(String),
    /// Asking failed: no answer in time, the client went away, the call
    /// was cancelled.
    Failed(String),
}

impl fmt::Display for ElicitError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElicitError::Unavailable(why) => write!(out, "no one can be asked: {why}"),
            ElicitError::Schema(why) => {
                write!(out, "the question cannot be asked as a form: {why}")
            }
            ElicitError::Answer(why) => write!(out, "the answer does not fit: {why}"),
            ElicitError::Failed(why) => write!(out, "asking failed: {why}"),
        }
    }
}

impl std::error::Error for ElicitError {}

/// The future an asker answers with.
pub type ElicitFuture = Pin<Box<dyn Future<Output = Result<Elicited<Value>, ElicitError>> + Send>>;

/// Asks the person a question: what runs the tool gives it (tool-mcp over
/// MCP; [`RunOptions::with_elicitation`](crate::RunOptions::with_elicitation)
/// for an application's own way).
pub type ElicitFn = Arc<dyn Fn(ElicitationRequest) -> ElicitFuture + Send + Sync>;

/// Asks `message` with `T`'s form through `asker`, and reads the answer
/// into a `T`.
pub(crate) async fn elicit<T: ToolParams>(
    asker: Option<&ElicitFn>,
    message: String,
) -> Result<Elicited<T>, ElicitError> {
    let Some(asker) = asker else {
        return Err(ElicitError::Unavailable(
            "this call runs outside MCP, and its options give no asker \
             (RunOptions::with_elicitation)"
                .to_owned(),
        ));
    };
    let schema = T::json_schema();
    check_flat(&schema)?;
    let answer = asker(ElicitationRequest { message, schema }).await?;
    Ok(match answer {
        Elicited::Accept(values) => Elicited::Accept(
            T::parse(&values).map_err(|error| ElicitError::Answer(error.to_string()))?,
        ),
        Elicited::Decline => Elicited::Decline,
        Elicited::Cancel => Elicited::Cancel,
    })
}

/// Whether `schema` is a form MCP can ask: an object whose properties are
/// each a string, number, integer, boolean, or a choice among strings.
fn check_flat(schema: &Value) -> Result<(), ElicitError> {
    let not_flat = |why: String| Err(ElicitError::Schema(why));
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return not_flat("the answer's type is not a struct of named fields".to_owned());
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (name, property) in properties {
        let kind = property.get("type").and_then(Value::as_str);
        let choice = property.get("enum").is_some() || property.get("oneOf").is_some();
        match kind {
            Some("string" | "number" | "integer" | "boolean") => {}
            None if choice => {}
            // SEP-1330's multi-select: a list of choices among strings.
            Some("array") if is_choice_list(property) => {}
            Some(other) => {
                return not_flat(format!(
                    "field `{name}` has type {other}; a form's fields are strings, numbers, \
                     integers, booleans or a choice among strings"
                ));
            }
            None => {
                return not_flat(format!(
                    "field `{name}` has no simple type (an optional struct, a union?); a form's \
                     fields are strings, numbers, integers, booleans or a choice among strings"
                ));
            }
        }
    }
    Ok(())
}

/// `{"type": "array", "items": {"enum": [..]}}` or `items` of titled
/// choices (`anyOf` of `const`s): a multi-select field of SEP-1330.
fn is_choice_list(property: &Value) -> bool {
    property
        .get("items")
        .is_some_and(|items| items.get("enum").is_some() || items.get("anyOf").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flat_forms_pass_and_nested_ones_name_their_field() {
        let flat = json!({"type": "object", "properties": {
            "name": {"type": "string"}, "age": {"type": "integer", "minimum": 0},
            "ok": {"type": "boolean", "default": true},
            "unit": {"type": "string", "enum": ["c", "f"]},
        }});
        assert_eq!(check_flat(&flat), Ok(()));
        let nested = json!({"type": "object", "properties": {"address": {"type": "object"}}});
        let Err(ElicitError::Schema(why)) = check_flat(&nested) else {
            panic!("refused");
        };
        assert!(why.contains("field `address` has type object"), "{why}");
        let list = json!({"type": "object", "properties": {"tags": {"type": "array"}}});
        assert!(check_flat(&list).is_err());
        let choices = json!({"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
        }});
        assert_eq!(check_flat(&choices), Ok(()));
    }
}
