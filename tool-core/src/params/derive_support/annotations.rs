//! Keywords that say something about a field to the model without changing
//! what parse accepts: its description, default, examples, deprecation.

use serde_json::Value;

/// Puts `"description"` first in a field's schema.
pub fn describe(schema: &mut Value, description: &str) {
    if let Some(schema) = schema.as_object_mut() {
        schema.shift_insert(0, "description".into(), description.into());
    }
}

/// Describes a schema that has no description of its own: a newtype's
/// doc comment, under the description of the value it wraps.
pub fn describe_if_undescribed(schema: &mut Value, description: &str) {
    if schema.get("description").is_none() {
        describe(schema, description);
    }
}

/// Records a field's default value in its schema.
pub fn set_default(schema: &mut Value, default: Value) {
    if let Some(schema) = schema.as_object_mut() {
        schema.insert("default".into(), default);
    }
}

/// Records example values (`#[param(example = ..)]`) as `"examples"`.
pub fn set_examples(schema: &mut Value, examples: Vec<Value>) {
    if let Some(schema) = schema.as_object_mut() {
        schema.insert("examples".into(), Value::Array(examples));
    }
}

/// Marks a field `"deprecated": true` (`#[param(deprecated)]` or Rust's
/// `#[deprecated]`): the model is told to avoid it; parse still reads it.
pub fn set_deprecated(schema: &mut Value) {
    if let Some(schema) = schema.as_object_mut() {
        schema.insert("deprecated".into(), Value::Bool(true));
    }
}
