//! `oneOf` written as `anyOf` at every depth of a schema, the rest kept as
//! it is: OpenAI's non-strict tools. The Responses API refuses `oneOf`
//! even without strict mode ("'oneOf' is not permitted", reported in
//! openai/openai-node#2602), and a tagged enum's choices never overlap, so
//! `anyOf` accepts the same values.

use crate::providers::diagnostic::Report;
use crate::providers::rewrite::one_of_message;
use crate::providers::walk::rewrite_keywords;
use serde_json::Value;

/// `schema` with every `oneOf` an `anyOf`, each reported with `why` the
/// provider needs it (`"OpenAI refuses `oneOf`"`).
pub(crate) fn one_of_as_any_of(schema: &Value, why: &str, report: &mut Report<'_>) -> Value {
    rewrite_keywords(schema, "", report, &mut |map, key, value, at, report| {
        if key == "oneOf" && !map.contains_key("anyOf") {
            report.push(at, one_of_message(why));
            return Some(("anyOf".to_owned(), value.clone()));
        }
        Some((key.to_owned(), value.clone()))
    })
}
