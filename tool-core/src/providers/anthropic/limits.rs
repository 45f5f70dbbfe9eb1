//! The limits Anthropic puts on the strict schemas of one request
//! ("Schema complexity limits", "Explicit limits",
//! <https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits>):
//! 20 tools with `strict: true`; 24 optional parameters ("Each parameter
//! not listed in `required` counts toward this limit"); 16 parameters with
//! union types ("`anyOf` or type arrays"), all counted "across all strict
//! schemas" of the request. A request past one is refused, so the tools
//! are taken in order while they fit, and a tool that would pass a limit is
//! sent non-strict, said so.

use crate::providers::common::required_names;
use crate::providers::walk::each_schema;
use serde_json::Value;

/// Strict tools a request may have.
const TOOLS: usize = 20;
/// Optional parameters over every strict schema of a request.
const OPTIONAL: usize = 24;
/// Parameters with union types over every strict schema of a request.
const UNIONS: usize = 16;

/// What the strict tools taken so far cost.
#[derive(Default)]
pub(super) struct Budget {
    tools: usize,
    optional: usize,
    unions: usize,
}

impl Budget {
    /// Takes one more strict tool whose strict schema is `schema`, or says
    /// which limit it would pass (and takes nothing).
    pub(super) fn take(&mut self, schema: &Value) -> Result<(), String> {
        let (optional, unions) = cost(schema);
        if self.tools + 1 > TOOLS {
            return Err(format!(
                "the request has {TOOLS} strict tools before this one, Anthropic's limit"
            ));
        }
        if self.optional + optional > OPTIONAL {
            return Err(format!(
                "its {optional} optional parameters would bring the request's strict tools to {}, past Anthropic's limit of {OPTIONAL}",
                self.optional + optional
            ));
        }
        if self.unions + unions > UNIONS {
            return Err(format!(
                "its {unions} parameters with union types (`anyOf`, type arrays) would bring the request's strict tools to {}, past Anthropic's limit of {UNIONS}",
                self.unions + unions
            ));
        }
        self.tools += 1;
        self.optional += optional;
        self.unions += unions;
        Ok(())
    }
}

/// A strict schema's optional parameters (properties not `required`, in
/// every object) and its schemas with union types (`anyOf` or a type
/// array: every one is counted, a property's or not, which errs on the
/// side of the limit).
fn cost(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    each_schema(schema, "", &mut |node, _| {
        let Value::Object(map) = node else { return };
        if map.contains_key("anyOf") || map.get("type").is_some_and(Value::is_array) {
            unions += 1;
        }
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            let required = required_names(map);
            optional += properties
                .keys()
                .filter(|name| !required.contains(&name.as_str()))
                .count();
        }
    });
    (optional, unions)
}
