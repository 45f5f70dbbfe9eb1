//! What the walk reads from a schema node: the JSON kinds it admits, its
//! value lists, its alternatives, its tags, the schema of each part.

use serde_json::{Map, Value};

/// A set of JSON kinds, as `type` names them (`"integer"` apart from
/// `"number"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kinds(u8);

impl Kinds {
    pub(super) const NULL: Kinds = Kinds(1);
    pub(super) const BOOLEAN: Kinds = Kinds(2);
    pub(super) const INTEGER: Kinds = Kinds(4);
    pub(super) const NUMBER: Kinds = Kinds(8);
    pub(super) const STRING: Kinds = Kinds(16);
    pub(super) const ARRAY: Kinds = Kinds(32);
    pub(super) const OBJECT: Kinds = Kinds(64);

    const NONE: Kinds = Kinds(0);

    fn named(name: &str) -> Option<Kinds> {
        Some(match name {
            "null" => Kinds::NULL,
            "boolean" => Kinds::BOOLEAN,
            "integer" => Kinds::INTEGER,
            "number" => Kinds::NUMBER,
            "string" => Kinds::STRING,
            "array" => Kinds::ARRAY,
            "object" => Kinds::OBJECT,
            _ => return None,
        })
    }

    /// The kind of `value` (a number as `NUMBER`, and `INTEGER` too when
    /// it is integral).
    fn of(value: &Value) -> Kinds {
        match value {
            Value::Null => Kinds::NULL,
            Value::Bool(_) => Kinds::BOOLEAN,
            Value::Number(_) if is_integral(value) => Kinds(Kinds::NUMBER.0 | Kinds::INTEGER.0),
            Value::Number(_) => Kinds::NUMBER,
            Value::String(_) => Kinds::STRING,
            Value::Array(_) => Kinds::ARRAY,
            Value::Object(_) => Kinds::OBJECT,
        }
    }

    /// Whether the set holds any of `other`.
    pub(super) fn has(self, other: Kinds) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether a value of `value`'s kind is in the set.
    pub(super) fn admit(self, value: &Value) -> bool {
        self.has(Kinds::of(value))
    }

    fn with(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }
}

/// Whether `value` is a number with no fractional part (`2`, `2.0`).
fn is_integral(value: &Value) -> bool {
    match value {
        Value::Number(number) => {
            number.is_i64()
                || number.is_u64()
                || number
                    .as_f64()
                    .is_some_and(|x| x.is_finite() && x.fract() == 0.0)
        }
        _ => false,
    }
}

/// The kinds a schema node admits by its own keywords: its `type`, else
/// the kinds of its `enum` or `const` values; `None` when it does not say
/// (or says it in a form not understood), which admits anything.
pub(super) fn own_kinds(node: &Map<String, Value>) -> Option<Kinds> {
    match node.get("type") {
        Some(Value::String(name)) => Kinds::named(name),
        Some(Value::Array(names)) => names.iter().try_fold(Kinds::NONE, |kinds, name| {
            Some(kinds.with(Kinds::named(name.as_str()?)?))
        }),
        Some(_) => None,
        None => listed(node).map(|values| {
            values
                .iter()
                .fold(Kinds::NONE, |kinds, value| kinds.with(Kinds::of(value)))
        }),
    }
}

/// The values an `enum` or a `const` allows, if the node lists any.
fn listed(node: &Map<String, Value>) -> Option<Vec<&Value>> {
    match (node.get("enum"), node.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.iter().collect()),
        (_, Some(constant)) => Some(vec![constant]),
        _ => None,
    }
}

/// The strings an `enum` or a `const` allows.
pub(super) fn listed_strings(node: &Map<String, Value>) -> Vec<&str> {
    listed(node)
        .unwrap_or_default()
        .into_iter()
        .filter_map(Value::as_str)
        .collect()
}

/// Whether `value` has a kind the node admits and is one of the values its
/// `enum` or `const` lists (numbers compared as numbers: `1.0` is `1`).
pub(super) fn fits_here(node: &Map<String, Value>, value: &Value) -> bool {
    own_kinds(node).is_none_or(|kinds| kinds.admit(value))
        && listed(node).is_none_or(|values| values.iter().any(|v| same_json(v, value)))
}

/// JSON equality with numbers compared by value.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        _ => a == b,
    }
}

/// The alternatives of an `anyOf` (else of a `oneOf`).
pub(super) fn branches(node: &Map<String, Value>) -> Option<&Vec<Value>> {
    node.get("anyOf")
        .or_else(|| node.get("oneOf"))
        .and_then(Value::as_array)
}

/// The schema of the object member `key`: its entry in `properties`, else
/// a schema-valued `additionalProperties`.
pub(super) fn member_schema<'s>(node: &'s Map<String, Value>, key: &str) -> Option<&'s Value> {
    node.get("properties")
        .and_then(Value::as_object)
        .and_then(|properties| properties.get(key))
        .or_else(|| node.get("additionalProperties").filter(|s| s.is_object()))
}

/// The keys an object must have (`required`).
pub(super) fn required(node: &Map<String, Value>) -> impl Iterator<Item = &str> {
    node.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The schema of the array item at `index`: its `prefixItems` position,
/// else `items` (when it is a schema).
pub(super) fn item_schema(node: &Map<String, Value>, index: usize) -> Option<&Value> {
    let positions = node.get("prefixItems").and_then(Value::as_array);
    match positions.and_then(|positions| positions.get(index)) {
        Some(position) => Some(position),
        None => node
            .get("items")
            .filter(|items| items.is_object() || items.is_boolean()),
    }
}

/// Whether an array of one item is not ruled out by `minItems`/`maxItems`.
pub(super) fn allows_one_item(node: &Map<String, Value>) -> bool {
    let bound = |keyword| node.get(keyword).and_then(Value::as_f64);
    bound("minItems").is_none_or(|min| min <= 1.0) && bound("maxItems").is_none_or(|max| max >= 1.0)
}

/// The tags of an object alternative: its properties whose schema is a
/// string `const` (`"action": {"const": "click"}`).
pub(super) fn tags(node: &Map<String, Value>) -> Vec<(&str, &str)> {
    node.get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(key, property)| Some((key.as_str(), property.get("const")?.as_str()?)))
        .collect()
}
