//! What every provider's functions share: converting each definition with
//! its name checked against the provider's rule, walking the parts of a
//! schema the conversions rewrite (and saying what parse still does about
//! what they drop), and reading the fields of a provider's payload with
//! errors that say which field of what was wrong.

use super::diagnostic::{AdapterError, AdapterErrorKind, Converted, Report};
use super::names::NameRule;
use crate::model::ToolDefinition;
use serde_json::{Map, Value};

/// What a provider's tool list has room for, beside the conversion of
/// each schema.
pub(crate) struct Api {
    /// The provider's rule for tool names.
    pub(crate) rule: NameRule,
    /// The key of a tool's example inputs, where the provider has one.
    pub(crate) examples: Option<&'static str>,
    /// The provider's own search tool, written after the tools when some
    /// are deferred (each then marked `defer_loading`); `None` when the
    /// provider has no tool search.
    pub(crate) search_tool: Option<fn() -> Value>,
    /// The most tools a request may carry, and where that is said, when
    /// the provider has a limit: a longer list is reported on the first
    /// tool past it, since the request would be refused whole.
    pub(crate) max_tools: Option<(usize, &'static str)>,
}

impl Api {
    /// A provider with no place for examples, no tool search and no limit
    /// on the number of tools.
    pub(crate) const fn plain(rule: NameRule) -> Api {
        Api {
            rule,
            examples: None,
            search_tool: None,
            max_tools: None,
        }
    }

    /// The same API, with at most `count` tools a request (`source`: where
    /// the limit is said or seen).
    pub(crate) const fn with_max_tools(mut self, count: usize, source: &'static str) -> Api {
        self.max_tools = Some((count, source));
        self
    }
}

/// Converts each definition in order, reporting names that the API's rule
/// refuses, into a JSON array and the diagnostics of every tool; then
/// writes the examples and deferral where the API has a place for them,
/// and says so where it has none.
pub(crate) fn convert_each(
    definitions: &[ToolDefinition],
    api: &Api,
    mut convert: impl FnMut(&ToolDefinition, &mut Report<'_>) -> Value,
) -> Converted {
    let mut diagnostics = Vec::new();
    let mut value: Vec<Value> = definitions
        .iter()
        .enumerate()
        .map(|(index, definition)| {
            let mut report = Report {
                tool: &definition.name,
                diagnostics: &mut diagnostics,
            };
            api.rule.report(&definition.name, &mut report);
            if let Some((limit, source)) = api.max_tools.filter(|(limit, _)| index == *limit) {
                report.push(
                    "",
                    format!(
                        "the request has {} tools, and {} refuses more than {limit} ({source}):                          defer the others behind tool_search (Toolset::deferred) or send fewer",
                        definitions.len(),
                        api.rule.provider
                    ),
                );
            }
            let mut tool = convert(definition, &mut report);
            write_extras(definition, api, &mut tool, &mut report);
            tool
        })
        .collect();
    let deferred = definitions
        .iter()
        .any(|definition| definition.defer_loading);
    if let (true, Some(search_tool)) = (deferred, api.search_tool) {
        value.push(search_tool());
    }
    Converted {
        value: Value::Array(value),
        diagnostics,
    }
}

/// A definition's examples and deferral, in the API's words or reported.
fn write_extras(definition: &ToolDefinition, api: &Api, tool: &mut Value, report: &mut Report<'_>) {
    let provider = api.rule.provider;
    if !definition.input_examples.is_empty() {
        match (api.examples, tool.as_object_mut()) {
            (Some(key), Some(tool)) => {
                tool.insert(key.into(), Value::Array(definition.input_examples.clone()));
            }
            _ => report.push(
                "",
                format!(
                    "input examples dropped: {provider} tool definitions have no place for them"
                ),
            ),
        }
    }
    if definition.defer_loading {
        match (api.search_tool, tool.as_object_mut()) {
            (Some(_), Some(tool)) => {
                tool.insert("defer_loading".into(), Value::Bool(true));
            }
            _ => report.push(
                "",
                format!(
                    "deferred loading: {provider} has no tool search of its own, so the tool is \
                     sent in full; send ToolRegistry::definitions_for instead, which offers \
                     tool_search in its place"
                ),
            ),
        }
    }
}

/// The string at `key` of `value`; `what` names the payload in the error.
pub(crate) fn string_field(value: &Value, key: &str, what: &str) -> Result<String, AdapterError> {
    match value.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(AdapterError::new(
            AdapterErrorKind::WrongShape,
            format!(
                "{what}: `{key}` must be a string, not {}",
                crate::params::describe::json_type(other)
            ),
        )),
        None => Err(AdapterError::new(
            AdapterErrorKind::Missing,
            format!("{what}: `{key}` is missing"),
        )),
    }
}

/// Refuses a payload whose `type` says it is something else than `expected`
/// (`noun`: "block", "item"); a payload without a `type` is taken as is.
pub(crate) fn check_type(value: &Value, expected: &str, noun: &str) -> Result<(), AdapterError> {
    match value.get("type").and_then(Value::as_str) {
        Some(kind) if kind != expected => Err(AdapterError::new(
            AdapterErrorKind::WrongShape,
            format!("expected a `{expected}` {noun}, got a `{kind}` {noun}"),
        )),
        _ => Ok(()),
    }
}

/// The names an object schema lists under `required`.
pub(crate) fn required_names(schema: &Map<String, Value>) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Each branch of an `anyOf` at `path` (`<path>/<index>`) through `convert`.
pub(crate) fn convert_branches(
    branches: &Value,
    path: &str,
    mut convert: impl FnMut(&Value, &str) -> Value,
) -> Value {
    let branches = branches.as_array().map_or_else(Vec::new, |branches| {
        branches
            .iter()
            .enumerate()
            .map(|(i, branch)| convert(branch, &format!("{path}/{i}")))
            .collect()
    });
    Value::Array(branches)
}

/// A property name as a JSON Pointer segment.
pub(crate) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// What local parsing still does about a keyword a format dropped, for the
/// diagnostic (for a derived schema; a dynamic tool checks its own).
pub(crate) fn what_parse_keeps(keyword: &str) -> &'static str {
    match keyword {
        "default" => " (parse still fills the default in)",
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minimum" | "maximum"
        | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "pattern" | "format"
        | "uniqueItems" | "prefixItems" | "const" | "enum" | "minProperties" | "maxProperties"
        | "propertyNames" => " (parse still enforces it)",
        "examples" | "deprecated" => " (only a hint to the model, which parse does not need)",
        _ => "",
    }
}

/// A tool's `allowed_callers` in a provider's words (`code`: what it
/// calls a program: Anthropic's code execution version, OpenAI's
/// `programmatic`), or `None` for the model alone, the default left out.
pub(crate) fn allowed_callers(callers: crate::model::Callers, code: &'static str) -> Option<Value> {
    if callers.is_direct_only() {
        return None;
    }
    let allowed: Vec<&str> = [(callers.direct, "direct"), (callers.code, code)]
        .into_iter()
        .filter_map(|(allowed, word)| allowed.then_some(word))
        .collect();
    Some(Value::from(allowed))
}
