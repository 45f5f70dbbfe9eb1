//! What OpenAI's two APIs share: the strict choice and the schema each
//! side of it sends, the name rule, how `arguments` text is read, and the
//! image types a result may carry.

mod one_of;
mod strict;

use super::diagnostic::Report;
use super::merge_root::{OPENAI, flatten_root, is_one_key_choice};
use crate::registry::ToolDefinition;
use one_of::one_of_as_any_of;
use serde_json::{Value, json};
use strict::strict_schema;

/// Whether a tool asks OpenAI's strict mode to hold the model's arguments
/// to its schema, which both OpenAI APIs offer (`"strict": true` on a
/// function tool).
///
/// Strict mode takes a subset of JSON Schema in which every object is
/// closed and lists every property as required
/// (<https://developers.openai.com/api/docs/guides/structured-outputs>):
/// with [`Strict::On`], an optional field is sent as nullable and
/// required (parse reads `null` as absent), and what the subset lacks is
/// dropped or rewritten, each said in a diagnostic. A tool whose schema
/// cannot be strict at all (a map, a value of any type) is sent with
/// `"strict": false`, and the diagnostics say why.
///
/// ```
/// use tool_core::providers::{openai_chat, Strict};
/// use tool_core::{ToolDefinition, ToolParams};
///
/// #[derive(ToolParams)]
/// struct Search {
///     query: String,
///     limit: Option<u32>,
/// }
///
/// let definitions = [ToolDefinition::new("search", "Search the docs", Search::json_schema())];
/// let strict = openai_chat::tools(&definitions, Strict::On);
/// assert_eq!(strict.value[0]["function"]["strict"], true);
/// assert_eq!(strict.value[0]["function"]["parameters"]["required"], serde_json::json!(["query", "limit"]));
/// let plain = openai_chat::tools(&definitions, Strict::Off);
/// assert_eq!(plain.value[0]["function"].get("strict"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strict {
    /// The schema as OpenAI takes it without strict mode: the model's
    /// arguments are not held to it (parse still is).
    Off,
    /// The strict form of the schema, and `"strict": true`.
    On,
}

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
    } else if let Some(strict) = strict_schema(&flat, report) {
        return (strict, true);
    }
    let parameters = one_of_as_any_of(&flat, NO_ONE_OF, report);
    let how = if parameters == definition.parameters {
        "its schema unchanged"
    } else {
        "its schema as non-strict OpenAI takes it"
    };
    report.push(
        "",
        format!(
            "sent with \"strict\": false and {how}: the schema cannot be strict (see the other diagnostics)"
        ),
    );
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
