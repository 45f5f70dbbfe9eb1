//! The runtime half of `#[derive(ToolParams)]`. Generated code stays small
//! (it is compiled in every user crate) by calling these functions for
//! everything that does not depend on the user's types.

#[cfg(doc)]
use crate::ParamValue;
use crate::params::describe::{Excerpt, StrExcerpt};
use crate::params::suggest::near_miss;
use crate::{ParamError, ParamPath};
use serde_json::{Map, Value};

/// Nested structs deeper than this are refused: a recursive parameter type
/// (`struct Node { children: Vec<Node> }`) fed a value nested a hundred
/// thousand levels deep would otherwise recurse off the stack.
pub const MAX_NESTING: usize = 128;

/// The object a struct's fields are read from, or a reported problem.
#[inline]
pub fn expect_object<'v>(
    value: &'v Value,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(object) if path.depth() <= MAX_NESTING => Some(object),
        other => not_an_object(other, path, errors),
    }
}

#[cold]
fn not_an_object<'v>(
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> Option<&'v Map<String, Value>> {
    if path.depth() > MAX_NESTING {
        errors.push(
            path,
            format_args!("arguments nest deeper than {MAX_NESTING} levels"),
        );
    } else {
        errors.expected(path, "object", value);
    }
    None
}

/// The value of a field absent from `object`: `when_missing` (the type's
/// [`ParamValue::when_missing`]) when it has one, otherwise a "missing required field" problem, with the near-miss key the
/// model probably meant.
pub fn missing<T>(
    when_missing: Option<T>,
    object: &Map<String, Value>,
    name: &str,
    declared: &[&str],
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> Option<T> {
    if when_missing.is_some() {
        return when_missing;
    }
    let field = path.field(name);
    match near_miss(name, object.keys().map(String::as_str), declared) {
        Some(key) => errors.push(
            &field,
            format_args!(
                "missing required field (got {}: did you mean \"{name}\"?)",
                StrExcerpt(key)
            ),
        ),
        None => errors.push(&field, "missing required field"),
    }
    None
}

/// Reports every key of `object` that the struct does not declare, for
/// `#[param(deny_unknown_fields)]`; true if there was one.
pub fn deny_unknown_fields(
    object: &Map<String, Value>,
    declared: &[&str],
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) -> bool {
    let mut found = false;
    for key in object.keys() {
        if declared.contains(&key.as_str()) {
            continue;
        }
        found = true;
        let unknown = path.key(key);
        match near_miss_of_any(key, declared) {
            Some(meant) => errors.push(
                &unknown,
                format_args!("unknown field (did you mean \"{meant}\"?)"),
            ),
            None if declared.is_empty() => {
                errors.push(&unknown, "unknown field (this tool takes no arguments)")
            }
            None => errors.push(
                &unknown,
                format_args!("unknown field (expected one of: {})", declared.join(", ")),
            ),
        }
    }
    found
}

fn near_miss_of_any<'d>(key: &str, declared: &[&'d str]) -> Option<&'d str> {
    declared
        .iter()
        .copied()
        .find(|name| near_miss(name, std::iter::once(key), &[]).is_some())
}

/// Builds a struct's object schema field by field, in declaration order.
pub struct ObjectSchema {
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl ObjectSchema {
    /// An object schema with no fields yet.
    pub fn new() -> Self {
        ObjectSchema {
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds a field with its finished schema.
    pub fn field(&mut self, name: &str, schema: Value, required: bool) {
        self.properties.insert(name.to_owned(), schema);
        if required {
            self.required.push(Value::from(name));
        }
    }

    /// The schema: `{"type":"object","properties":{..},"required":[..],
    /// "additionalProperties":false}`, `required` left out when empty.
    pub fn finish(self, description: Option<&str>) -> Value {
        let mut schema = Map::new();
        if let Some(description) = description {
            schema.insert("description".into(), description.into());
        }
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), Value::Object(self.properties));
        if !self.required.is_empty() {
            schema.insert("required".into(), Value::Array(self.required));
        }
        schema.insert("additionalProperties".into(), false.into());
        Value::Object(schema)
    }
}

impl Default for ObjectSchema {
    fn default() -> Self {
        ObjectSchema::new()
    }
}

/// Puts `"description"` first in a field's schema.
pub fn describe(schema: &mut Value, description: &str) {
    if let Some(schema) = schema.as_object_mut() {
        schema.shift_insert(0, "description".into(), description.into());
    }
}

/// Records a field's default value in its schema.
pub fn set_default(schema: &mut Value, default: Value) {
    if let Some(schema) = schema.as_object_mut() {
        schema.insert("default".into(), default);
    }
}

/// The schema of a unit-only enum: `{"type":"string","enum":[..]}`.
pub fn enum_schema(description: Option<&str>, names: &[&str]) -> Value {
    let mut schema = Map::new();
    if let Some(description) = description {
        schema.insert("description".into(), description.into());
    }
    schema.insert("type".into(), "string".into());
    schema.insert(
        "enum".into(),
        names.iter().map(|name| Value::from(*name)).collect(),
    );
    Value::Object(schema)
}

/// Reports a value that is none of a unit-only enum's names.
pub fn expected_one_of(
    value: &Value,
    names: &[&str],
    path: &ParamPath<'_>,
    errors: &mut ParamError,
) {
    let expected = names
        .iter()
        .map(|name| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ");
    match value {
        Value::String(_) => errors.push(
            path,
            format_args!("expected one of {expected}, got {}", Excerpt(value)),
        ),
        other => errors.expected(path, &format!("one of {expected}"), other),
    }
}

/// Builds the JSON form of a parsed struct, leaving out absent options.
pub struct ObjectJson(Map<String, Value>);

impl ObjectJson {
    /// An empty object.
    pub fn new() -> Self {
        ObjectJson(Map::new())
    }

    /// Adds a field unless it is an absent option (`optional` and null).
    pub fn field(&mut self, name: &str, optional: bool, json: Value) {
        if !(optional && json.is_null()) {
            self.0.insert(name.to_owned(), json);
        }
    }

    /// The object.
    pub fn finish(self) -> Value {
        Value::Object(self.0)
    }
}

impl Default for ObjectJson {
    fn default() -> Self {
        ObjectJson::new()
    }
}
