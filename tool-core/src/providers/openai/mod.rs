//! What OpenAI's two APIs share: the schema each side of the strict
//! choice sends, the name rule, how `arguments` text is read, and the
//! image types a result may carry.

mod one_of;
mod strict;

use super::diagnostic::Report;
use super::merge_root::{OPENAI, flatten_root, is_one_key_choice};
use super::strict::{NO_STRICT_FORM, Strict, report_not_strict, strict_schema};
use crate::model::ToolDefinition;
use one_of::one_of_as_any_of;
use serde_json::{Value, json};

/// Why `oneOf` is rewritten for OpenAI, strict or not.
const NO_ONE_OF: &str = "OpenAI refuses `oneOf` (\"'oneOf' is not permitted\")";

/// The image types OpenAI takes: PNG, JPEG, WEBP and non-animated GIF
/// ("Image input requirements",
/// <https://developers.openai.com/api/docs/guides/images-vision>).
pub(super) const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/webp", "image/gif"];

/// A definition's `parameters`, and the `strict` flag that goes with them.
pub(super) fn parameters(
    definition: &ToolDefinition,
    strict: Strict,
    report: &mut Report<'_>,
) -> (Value, bool) {
    match strict {
        Strict::Off => (non_strict(&definition.parameters, report), false),
        Strict::On => strict_or_not(definition, report),
    }
}

/// The schema as OpenAI takes it without strict mode: an enum as the whole
/// parameters is written as one object (the root must be an object), and
/// `oneOf` as `anyOf`.
fn non_strict(schema: &Value, report: &mut Report<'_>) -> Value {
    let flat = flatten_root(schema, &OPENAI, report);
    one_of_as_any_of(&flat, NO_ONE_OF, report)
}

fn strict_or_not(definition: &ToolDefinition, report: &mut Report<'_>) -> (Value, bool) {
    let flat = flatten_root(&definition.parameters, &OPENAI, report);
    if is_one_key_choice(&definition.parameters) {
        report.push(
            "/oneOf",
            "an externally tagged enum cannot be strict: strict mode would require every variant's key (null when unused), and parse takes exactly one key",
        );
    } else if let Some(strict) = strict_schema(&flat, &strict::RULES, report) {
        return (strict, true);
    }
    let parameters = one_of_as_any_of(&flat, NO_ONE_OF, report);
    let unchanged = parameters == definition.parameters;
    let sent = "with \"strict\": false";
    report_not_strict(report, sent, unchanged, "OpenAI", NO_STRICT_FORM);
    (parameters, false)
}

/// `arguments` as OpenAI sends them: JSON text, decoded, or the text itself
/// when it is not JSON (the executor reports where it breaks); absent,
/// `null` or blank text is `{}`; an object as it is (some OpenAI-compatible
/// servers send the object itself).
pub(super) fn decode_arguments(arguments: Option<&Value>) -> Value {
    match arguments {
        None | Some(Value::Null) => json!({}),
        Some(Value::String(text)) if text.trim().is_empty() => json!({}),
        Some(Value::String(text)) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
        }
        Some(object) => object.clone(),
    }
}
