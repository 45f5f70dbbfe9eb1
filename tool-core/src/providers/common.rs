//! What every provider's functions share: converting each definition with
//! its name checked against the provider's rule, and reading the fields of
//! a provider's payload with errors that say which field of what was wrong.

use super::diagnostic::{AdapterError, Converted, Report};
use super::names::NameRule;
use crate::registry::ToolDefinition;
use serde_json::Value;

/// Converts each definition in order, reporting names that `rule` refuses,
/// into a JSON array and the diagnostics of every tool.
pub(crate) fn convert_each(
    definitions: &[ToolDefinition],
    rule: &NameRule,
    mut convert: impl FnMut(&ToolDefinition, &mut Report<'_>) -> Value,
) -> Converted {
    let mut diagnostics = Vec::new();
    let value = definitions
        .iter()
        .map(|definition| {
            let mut report = Report {
                tool: &definition.name,
                diagnostics: &mut diagnostics,
            };
            rule.report(&definition.name, &mut report);
            convert(definition, &mut report)
        })
        .collect();
    Converted {
        value: Value::Array(value),
        diagnostics,
    }
}

/// The string at `key` of `value`; `what` names the payload in the error.
pub(crate) fn string_field(value: &Value, key: &str, what: &str) -> Result<String, AdapterError> {
    match value.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(AdapterError::new(format!(
            "{what}: `{key}` must be a string, not {}",
            crate::describe::json_type(other)
        ))),
        None => Err(AdapterError::new(format!("{what}: `{key}` is missing"))),
    }
}

/// Refuses a payload whose `type` says it is something else than `expected`
/// (`noun`: "block", "item"); a payload without a `type` is taken as is.
pub(crate) fn check_type(value: &Value, expected: &str, noun: &str) -> Result<(), AdapterError> {
    match value.get("type").and_then(Value::as_str) {
        Some(kind) if kind != expected => Err(AdapterError::new(format!(
            "expected a `{expected}` {noun}, got a `{kind}` {noun}"
        ))),
        _ => Ok(()),
    }
}
