//! Rewrites of one schema node that formats lacking a keyword share: a
//! tuple (`prefixItems`) as a plain array, and `oneOf` as `anyOf`, each
//! with the wording of its diagnostic.

use serde_json::{Map, Value, json};

/// A tuple written as a plain array: what [`tuple_as_array`] made of one.
pub(crate) struct TupleAsArray {
    /// The array schema: `items` any of the positions' schemas, `maxItems`
    /// the number of positions when no other item may follow.
    pub(crate) schema: Map<String, Value>,
    /// How many positions the tuple had.
    positions: usize,
    /// Whether every item (positions and what may follow) had one schema,
    /// so the array accepts exactly the tuple's values.
    agree: bool,
}

/// `{"prefixItems":[A,B],"items":false,"minItems":2}` as
/// `{"items":<A, or anyOf [A,B]>,"minItems":2,"maxItems":2}`; `None` when
/// the node is no tuple, or one whose further items are not described
/// (`items` absent or `true`: nothing to write as `items`).
pub(crate) fn tuple_as_array(map: &Map<String, Value>) -> Option<TupleAsArray> {
    let positions = map.get("prefixItems")?.as_array()?;
    let rest = match map.get("items") {
        Some(Value::Bool(false)) => None,
        Some(rest @ Value::Object(_)) => Some(rest),
        _ => return None,
    };
    let mut distinct: Vec<&Value> = Vec::new();
    for schema in positions.iter().chain(rest) {
        if !distinct.contains(&schema) {
            distinct.push(schema);
        }
    }
    let items = match distinct[..] {
        [] => None,
        [one] => Some(one.clone()),
        _ => Some(json!({ "anyOf": distinct })),
    };
    let closed = rest.is_none();
    let mut schema = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "prefixItems" => {
                if let Some(items) = &items {
                    schema.insert("items".into(), items.clone());
                }
            }
            "items" => {}
            "maxItems" if closed => {
                let at_most = value.as_u64().map_or(positions.len() as u64, |max| {
                    max.min(positions.len() as u64)
                });
                schema.insert(key.clone(), json!(at_most));
            }
            _ => {
                schema.insert(key.clone(), value.clone());
            }
        }
    }
    if closed && !schema.contains_key("maxItems") {
        schema.insert("maxItems".into(), json!(positions.len()));
    }
    Some(TupleAsArray {
        schema,
        positions: positions.len(),
        agree: distinct.len() <= 1,
    })
}

impl TupleAsArray {
    /// The diagnostic: what the array accepts, and `why` the format needed
    /// it (`"strict mode does not accept `prefixItems`"`).
    pub(crate) fn message(&self, why: &str) -> String {
        let min = self.schema.get("minItems").and_then(Value::as_u64);
        let max = self.schema.get("maxItems").and_then(Value::as_u64);
        let length = match (min, max) {
            (Some(min), Some(max)) if min == max => format!("exactly {min}"),
            (Some(min), Some(max)) => format!("{min} to {max}"),
            (Some(min), None) => format!("at least {min}"),
            (None, Some(max)) => format!("at most {max}"),
            (None, None) => "any number of".to_owned(),
        };
        let positions = self.positions;
        if self.agree {
            format!(
                "changed: a tuple of {positions} items written as an array of {length} items of the one schema they share ({why}); the same values pass"
            )
        } else {
            format!(
                "changed: a tuple of {positions} items written as an array of {length} items, each any of the tuple's item schemas ({why}; parse still enforces each position's own)"
            )
        }
    }
}

/// The diagnostic of `oneOf` written as `anyOf`; `why` says who refuses
/// `oneOf`. The derive writes `oneOf` only for tagged enums, whose choices
/// no value matches twice (each has its own tag), so nothing loosens.
pub(crate) fn one_of_message(why: &str) -> String {
    format!(
        "changed: `oneOf` written as `anyOf`, the same values for a tagged enum (no value matches two of its choices): {why}"
    )
}

/// `type` moved into each choice of a node like `IpAddr`'s
/// `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`, for
/// a format that wants a type on every schema; `None` when some choice
/// has no room for it (not an object, a `$ref`, a type of its own that
/// differs) or none lacks it.
pub(crate) fn type_into_choices(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    let kind = map.get("type")?;
    let keyword = ["anyOf", "oneOf"]
        .into_iter()
        .find(|keyword| map.contains_key(*keyword))?;
    let choices = map.get(keyword)?.as_array()?;
    let fits = |choice: &Value| {
        choice.as_object().is_some_and(|choice| {
            !choice.contains_key("$ref") && choice.get("type").is_none_or(|own| own == kind)
        })
    };
    let lacking = |choice: &Value| choice.get("type").is_none();
    if !choices.iter().all(fits) || !choices.iter().any(lacking) {
        return None;
    }
    let typed: Vec<Value> = choices
        .iter()
        .map(|choice| {
            let mut typed = Map::new();
            typed.insert("type".into(), kind.clone());
            typed.extend(
                choice
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(key, _)| *key != "type")
                    .map(|(k, v)| (k.clone(), v.clone())),
            );
            Value::Object(typed)
        })
        .collect();
    let mut moved = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "type" => {}
            key if key == keyword => {
                moved.insert(key.to_owned(), Value::Array(typed.clone()));
            }
            _ => {
                moved.insert(key.clone(), value.clone());
            }
        }
    }
    Some(moved)
}
