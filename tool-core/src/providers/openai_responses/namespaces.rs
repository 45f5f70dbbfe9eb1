//! OpenAI Responses namespaces: deferred functions grouped under a name
//! and a description, which the hosted tool search looks through first:
//! "we recommend using namespaces or MCP servers when possible. Our models
//! have primarily been trained to search those surfaces", and "For
//! namespaces, `defer_loading` applies to the functions inside the
//! namespace, not to the namespace object itself"; "aim to keep each
//! namespace to fewer than 10 functions"
//! (<https://developers.openai.com/api/docs/guides/tools-tool-search>;
//! `NamespaceToolParam` in openai/openai-python 3.3.1; checked 2026-12-07).
//!
//! The functions keep their registered names inside a namespace, so a
//! call that comes back (`{"name":..,"namespace":..}`) is read by
//! [`read_call`](super::read_call) as any other: its name alone is the tool.

use super::tools;
use crate::model::ToolDefinition;
use crate::providers::diagnostic::{Converted, Diagnostic};
use crate::providers::strict::Strict;
use serde_json::{Value, json};

/// Most functions a namespace should hold, as the guide advises.
const ADVISED_MOST: usize = 9;

/// A namespace: the name the model searches by, and what its functions
/// are for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Namespace {
    /// The namespace's name (`crm`, `github`).
    pub name: String,
    /// What its functions are for, for the model.
    pub description: String,
}

impl Namespace {
    /// A namespace named `name` described by `description`.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Namespace {
            name: name.into(),
            description: description.into(),
        }
    }
}

/// [`tools`], with each deferred function that `namespace_of` places in a
/// namespace written inside it: `{"type":"namespace","name","description",
/// "tools":[..]}`, in the order of their first function, after the
/// functions that are in none and before the hosted `tool_search`.
/// Functions that are not deferred stay at the top level. A namespace of
/// more than 9 functions is reported (the guide advises fewer than 10).
///
/// ```
/// use tool_core::providers::openai_responses::{self, Namespace};
/// use tool_core::providers::Strict;
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let mut orders = ToolDefinition::new("crm_list_open_orders", "List a customer's open orders", json!({"type": "object"}));
/// orders.defer_loading = true;
/// let echo = ToolDefinition::new("echo", "Echo a value", json!({"type": "object"}));
/// let definitions = [echo, orders];
/// let written = openai_responses::tools_in_namespaces(&definitions, Strict::Off, |definition| {
///     definition.name.starts_with("crm_").then(|| Namespace::new("crm", "The customer database"))
/// });
/// assert_eq!(written.value[0]["name"], "echo");
/// assert_eq!(written.value[1]["type"], "namespace");
/// assert_eq!(written.value[1]["tools"][0]["name"], "crm_list_open_orders");
/// assert_eq!(written.value[1]["tools"][0]["defer_loading"], true);
/// assert_eq!(written.value[2], json!({"type": "tool_search"}));
/// ```
pub fn tools_in_namespaces(
    definitions: &[ToolDefinition],
    strict: Strict,
    namespace_of: impl Fn(&ToolDefinition) -> Option<Namespace>,
) -> Converted {
    let Converted {
        value,
        mut diagnostics,
    } = tools(definitions, strict);
    let Value::Array(written) = value else {
        return Converted { value, diagnostics };
    };
    let mut top = Vec::new();
    let mut groups: Vec<(Namespace, Vec<Value>)> = Vec::new();
    let mut extra = written.into_iter();
    for definition in definitions {
        let Some(function) = extra.next() else { break };
        let placed = definition
            .defer_loading
            .then(|| namespace_of(definition))
            .flatten();
        match placed {
            Some(namespace) => match groups
                .iter_mut()
                .find(|(known, _)| known.name == namespace.name)
            {
                Some((_, members)) => members.push(function),
                None => groups.push((namespace, vec![function])),
            },
            None => top.push(function),
        }
    }
    for (namespace, members) in &groups {
        if members.len() > ADVISED_MOST {
            diagnostics.push(Diagnostic {
                tool: namespace.name.clone(),
                path: String::new(),
                message: format!(
                    "namespace {} holds {} functions: OpenAI's guide advises fewer than 10 a namespace",
                    namespace.name,
                    members.len()
                ),
            });
        }
    }
    top.extend(groups.into_iter().map(|(namespace, members)| {
        json!({"type": "namespace", "name": namespace.name, "description": namespace.description, "tools": members})
    }));
    // The hosted search and the programmatic tool, written after the tools.
    top.extend(extra);
    Converted {
        value: Value::Array(top),
        diagnostics,
    }
}
