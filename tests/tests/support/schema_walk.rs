//! Every schema inside a schema, for the tests that check a provider's
//! output keyword by keyword (a strict mode's subset).

use serde_json::{Map, Value};

/// A schema as `each_subschema` gives it: its keywords, or `None` when it
/// is not an object.
pub(crate) type Schema<'a> = Option<&'a Map<String, Value>>;

/// Visits `schema` and every schema below it (through `properties`,
/// `$defs`, `items` and `anyOf`), each with its JSON-pointer path (`""`
/// for the root); a schema that is not an object is given as `None`.
pub(crate) fn each_subschema(schema: &Value, path: &str, visit: &mut dyn FnMut(Schema<'_>, &str)) {
    let Some(map) = schema.as_object() else {
        visit(None, path);
        return;
    };
    visit(Some(map), path);
    for keyword in ["properties", "$defs"] {
        for (name, child) in map
            .get(keyword)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            each_subschema(child, &format!("{path}/{keyword}/{name}"), visit);
        }
    }
    if let Some(items) = map.get("items") {
        each_subschema(items, &format!("{path}/items"), visit);
    }
    for (i, choice) in map
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        each_subschema(choice, &format!("{path}/anyOf/{i}"), visit);
    }
}
