//! Gemini's `parametersJsonSchema`: JSON Schema, of which Gemini documents
//! a list of keywords for its JSON Schema fields
//! (`GenerationConfig.responseJsonSchema`,
//! <https://ai.google.dev/api/generate-content#generationconfig>: "only the
//! following properties are supported: `$id`, `$defs`, `$ref`, `$anchor`,
//! `type`, `format`, `title`, `description`, `enum` (for strings and
//! numbers), `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`,
//! `maximum`, `anyOf`, `oneOf` (interpreted the same as `anyOf`),
//! `properties`, `additionalProperties`, `required`";
//! `FunctionDeclaration.parametersJsonSchema`,
//! <https://ai.google.dev/api/caching#FunctionDeclaration>, names no list
//! of its own). What is not on the list Gemini does not hold the model to,
//! and parse enforces; `const`, which a tagged enum's tag is, has an exact
//! equivalent on it: a one-value `enum`.

use crate::providers::diagnostic::Report;
use crate::providers::walk::rewrite_keywords;
use serde_json::{Value, json};

/// `schema` with each `const` a one-value `enum` where that is the same
/// (a string or a number, with no `enum` beside it); another `const` is
/// dropped, as Gemini would ignore it. Each is reported.
pub(super) fn const_as_enum(schema: &Value, report: &mut Report<'_>) -> Value {
    rewrite_keywords(schema, "", report, &mut |map, key, value, at, report| {
        if key != "const" {
            return Some((key.to_owned(), value.clone()));
        }
        if !map.contains_key("enum") && (value.is_string() || value.is_number()) {
            report.push(
                at,
                "changed: `const` written as a one-value `enum` (Gemini's JSON Schema has no `const`)",
            );
            return Some(("enum".to_owned(), json!([value])));
        }
        report.push(
            at,
            "dropped: Gemini's JSON Schema has no `const`, and its `enum` takes only strings and numbers (parse still enforces it)",
        );
        None
    })
}
