//! Raw JSON: `serde_json::Value` (any value) and `serde_json::Map` (any
//! object, the parameters of a dynamic tool).

use crate::params::{ParamPath, ParamValue, ParseContext, ToolParams};
use serde_json::{Map, Value, json};

/// Deepest nesting a raw JSON parameter may have, as serde_json's own parser
/// allows. Copying a deeper value built in memory would recurse past the
/// stack; this keeps the copy bounded and reports the problem instead.
pub const MAX_JSON_DEPTH: usize = 128;

/// Copies `value` unless it nests deeper than [`MAX_JSON_DEPTH`].
fn clone_bounded(value: &Value, depth: usize) -> Option<Value> {
    if depth > MAX_JSON_DEPTH {
        return None;
    }
    Some(match value {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| clone_bounded(item, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Value::Object(entries) => Value::Object(clone_entries(entries, depth)?),
        scalar => scalar.clone(),
    })
}

fn clone_entries(entries: &Map<String, Value>, depth: usize) -> Option<Map<String, Value>> {
    entries
        .iter()
        .map(|(key, item)| Some((key.clone(), clone_bounded(item, depth + 1)?)))
        .collect()
}

fn too_deep(path: &ParamPath<'_>, errors: &mut ParseContext) {
    errors.push(
        path,
        format_args!("value nests deeper than {MAX_JSON_DEPTH} levels"),
    );
}

impl ParamValue for Value {
    fn schema() -> Value {
        json!({})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let copy = clone_bounded(value, 0);
        if copy.is_none() {
            too_deep(path, errors);
        }
        copy
    }

    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl ParamValue for Map<String, Value> {
    fn schema() -> Value {
        json!({"type": "object"})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let Value::Object(entries) = value else {
            errors.expected(path, "object", value);
            return None;
        };
        let copy = clone_entries(entries, 0);
        if copy.is_none() {
            too_deep(path, errors);
        }
        copy
    }

    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

/// Any JSON object, unchecked: the parameters of a tool whose schema is only
/// known at run time.
impl ToolParams for Map<String, Value> {}
