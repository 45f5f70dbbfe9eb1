//! Strict mode, OpenAI's and Anthropic's: the one converter from a derived
//! schema to the subset of JSON Schema a provider's strict mode takes,
//! driven by each provider's [`Rules`] (OpenAI's in
//! `openai/strict.rs`, Anthropic's in `anthropic/strict.rs`).
//!
//! Both modes compile the schema into a grammar the model's sampling is
//! held to, so both take a subset: every object closed, a type on every
//! schema, `anyOf` but no `oneOf`, a list of formats, no map and no value
//! of any type. Where they differ (which keywords, whether every property
//! must be required, recursion, what `minItems` may be, which patterns) is
//! the rule table. What a subset lacks is dropped or rewritten, each said
//! in a diagnostic; what cannot be strict at all makes the tool
//! non-strict, and only the reasons are reported.

mod convert;
mod recursion;

use super::diagnostic::Report;
use serde_json::Value;

/// Whether a tool asks the provider's strict mode to hold the model's
/// arguments to its schema: OpenAI's (`"strict": true` on a function tool,
/// both APIs) and Anthropic's (`"strict": true` on a tool definition).
///
/// Strict mode takes a subset of JSON Schema, different for each provider:
///
/// - OpenAI: every object closed and every property required
///   (<https://developers.openai.com/api/docs/guides/structured-outputs>):
///   with [`Strict::On`], an optional field is sent as nullable and
///   required (parse reads `null` as absent);
/// - Anthropic: every object closed, optional properties allowed, no
///   recursion, no number, string-length or array-length constraints but
///   `minItems` 0 or 1
///   (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations>),
///   and at most 20 strict tools, 24 optional parameters and 16 union-typed
///   parameters in a request: a tool past those is sent non-strict.
///
/// What the subset lacks is dropped or rewritten, each said in a
/// diagnostic. A tool whose schema cannot be strict at all (a map, a value
/// of any type; for Anthropic, a recursive type) is sent non-strict
/// (OpenAI: `"strict": false`; Anthropic: without `strict`), and the
/// diagnostics say why.
///
/// ```
/// use tool_core::providers::{anthropic, openai_chat, Strict};
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
///
/// // Anthropic's strict mode takes optional properties as they are.
/// let strict = anthropic::tools(&definitions, Strict::On);
/// assert_eq!(strict.value[0]["strict"], true);
/// assert_eq!(strict.value[0]["input_schema"]["required"], serde_json::json!(["query"]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strict {
    /// The schema as the provider takes it without strict mode: the
    /// model's arguments are not held to it (parse still is).
    Off,
    /// The strict form of the schema, and `"strict": true`.
    On,
}

/// What one provider's strict mode takes, and its words for what it
/// refuses.
pub(crate) struct Rules {
    /// Keywords taken as they are (`pattern` and `minItems` among them
    /// only where they are taken at all; [`Rules::pattern`] and
    /// [`Rules::min_items_at_most`] then say which values).
    pub(crate) kept: &'static [&'static str],
    /// The string formats taken; any other is dropped.
    pub(crate) formats: &'static [&'static str],
    /// Whether every property must be listed in `required` (OpenAI): an
    /// optional one is then made nullable and required.
    pub(crate) every_property_required: bool,
    /// The largest `minItems` taken (Anthropic: 1); a larger one is
    /// written as this. `None`: any.
    pub(crate) min_items_at_most: Option<u64>,
    /// Whether a type may refer to itself through `$ref`.
    pub(crate) recursion: bool,
    /// Why `$ref` must stand alone, where it must (OpenAI): the keywords
    /// beside it are then written around an `anyOf` of it.
    pub(crate) ref_alone: Option<&'static str>,
    /// Why every schema needs a type, for the diagnostic of `type` written
    /// into each choice of an `IpAddr`-like choice of formats.
    pub(crate) typed: &'static str,
    /// The features of a `pattern` that strict mode refuses, by name
    /// (empty: the pattern is taken).
    pub(crate) pattern: fn(&str) -> Vec<&'static str>,
}

/// The strict form of `schema` under `rules`, or `None` when it cannot be
/// strict. Then only the reasons are left reported: what the strict form
/// would have dropped or changed is not what is sent.
pub(crate) fn strict_schema(
    schema: &Value,
    rules: &Rules,
    report: &mut Report<'_>,
) -> Option<Value> {
    let reported_before = report.diagnostics.len();
    let mut strict = Strictness::default();
    if !rules.recursion
        && let Some(path) = recursion::recursive_definition(schema)
    {
        strict.refuse(
            report,
            &path,
            "a recursive type cannot be strict: strict mode does not accept recursive schemas",
        );
    }
    let converted = convert::convert(schema, "", rules, report, &mut strict);
    if strict.reasons.is_empty() {
        return Some(converted);
    }
    let mut index = 0;
    report.diagnostics.retain(|_| {
        index += 1;
        index <= reported_before || strict.reasons.contains(&(index - 1))
    });
    None
}

/// Why a tool goes non-strict when its schema has no strict form.
pub(crate) const NO_STRICT_FORM: &str = "the schema cannot be strict (see the other diagnostics)";

/// Reports that a tool goes non-strict, how it is sent, and `why`: `sent`
/// says how the flag is written (`with "strict": false`), `unchanged`
/// whether the schema is the derived one as it is, `provider` whose
/// non-strict form it is otherwise.
pub(crate) fn report_not_strict(
    report: &mut Report<'_>,
    sent: &str,
    unchanged: bool,
    provider: &str,
    why: &str,
) {
    let how = if unchanged {
        "its schema unchanged".to_owned()
    } else {
        format!("its schema as non-strict {provider} takes it")
    };
    report.push("", format!("sent {sent} and {how}: {why}"));
}

/// The reasons a schema cannot be strict, as indices of their diagnostics.
#[derive(Default)]
struct Strictness {
    reasons: Vec<usize>,
}

impl Strictness {
    /// Reports why the schema cannot be strict.
    fn refuse(&mut self, report: &mut Report<'_>, path: &str, why: &str) {
        self.reasons.push(report.diagnostics.len());
        report.push(path, why);
    }
}
