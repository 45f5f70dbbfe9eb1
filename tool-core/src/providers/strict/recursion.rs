//! Whether a schema refers to itself: a `$defs` entry that reaches itself
//! through `$ref`s, or a `$ref` to the whole schema (`#`). The derive
//! writes `$defs` and `$ref` for recursive types only, but a hand-written
//! schema may use them for sharing too, which is not recursion.

use crate::providers::common::escape;
use crate::providers::walk::each_schema;
use serde_json::Value;
use std::collections::BTreeMap;

/// The JSON Pointer of the first `$defs` entry on a cycle (or of a `$ref`
/// to the whole schema), `None` when nothing recurs.
pub(super) fn recursive_definition(schema: &Value) -> Option<String> {
    let mut whole = None;
    each_schema(schema, "", &mut |node, path| {
        if whole.is_none() && node.get("$ref").and_then(Value::as_str) == Some("#") {
            whole = Some(path.to_owned());
        }
    });
    if whole.is_some() {
        return whole;
    }
    let defs = schema.get("$defs")?.as_object()?;
    let edges: BTreeMap<&str, Vec<&str>> = defs
        .iter()
        .map(|(name, def)| (name.as_str(), references(def)))
        .collect();
    defs.keys()
        .find(|name| reaches(&edges, name, name))
        .map(|name| format!("/$defs/{}", escape(name)))
}

/// The `$defs` names `schema` refers to (`#/$defs/<name>`), at any depth.
fn references(schema: &Value) -> Vec<&str> {
    let mut names = Vec::new();
    collect(schema, &mut names);
    names
}

fn collect<'a>(schema: &'a Value, names: &mut Vec<&'a str>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|target| target.strip_prefix("#/$defs/"))
            {
                names.push(name);
            }
            map.values().for_each(|value| collect(value, names));
        }
        Value::Array(values) => values.iter().for_each(|value| collect(value, names)),
        _ => {}
    }
}

/// Whether `target` is reachable from `from` in one step or more.
fn reaches(edges: &BTreeMap<&str, Vec<&str>>, from: &str, target: &str) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    let mut stack: Vec<&str> = edges.get(from).cloned().unwrap_or_default();
    while let Some(name) = stack.pop() {
        if name == target {
            return true;
        }
        if !seen.contains(&name) {
            seen.push(name);
            stack.extend(edges.get(name).into_iter().flatten());
        }
    }
    false
}
