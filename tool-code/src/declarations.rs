//! The typed API a script is written against: TypeScript declarations of
//! `tools`, generated from the same definitions the model would otherwise
//! get (each tool's description and each parameter's as doc comments, the
//! parameters' JSON Schema as an argument type, a `Json<T>` output schema
//! as the resolved type), so the model writes calls that parse.
//!
//! A schema keyword TypeScript has no word for (bounds, lengths, patterns,
//! formats) goes into the property's doc comment, as the model still needs
//! to know it; a construct past the depth limit, or one this does not
//! know, is `unknown`, never a wrong type.

use serde_json::{Map, Value};
use std::fmt::Write;
use tool_core::ToolDefinition;

/// How deep nested object types are written out before `unknown`.
const MAX_DEPTH: usize = 6;

/// The declarations of `tools` for `definitions`, in their order.
pub(crate) fn declarations(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("declare const tools: {\n");
    for definition in definitions {
        let context = Schemas::of(&definition.parameters);
        doc_comment(&mut out, 1, &definition.description);
        let arguments = context.type_of(&definition.parameters, 1);
        let returns = match &definition.output_schema {
            Some(schema) => Schemas::of(schema).type_of(schema, 1),
            None => "string".to_owned(),
        };
        let _ = writeln!(
            out,
            "  {}(args: {arguments}): Promise<{returns}>;",
            property_name(&definition.name)
        );
    }
    out.push_str("};\n");
    out
}

/// A schema and its `$defs`, for `$ref`s inside it.
struct Schemas<'a> {
    defs: Option<&'a Map<String, Value>>,
    /// `$ref`s followed so far: a cycle of references without nesting
    /// (`A` is `B`, `B` is `A`) ends as `unknown`.
    hops: std::cell::Cell<usize>,
}

/// How many `$ref`s one declaration follows before `unknown`.
const MAX_HOPS: usize = 64;

impl<'a> Schemas<'a> {
    fn of(root: &'a Value) -> Self {
        let defs = root
            .get("$defs")
            .or_else(|| root.get("definitions"))
            .and_then(Value::as_object);
        Schemas {
            defs,
            hops: std::cell::Cell::new(0),
        }
    }

    /// The TypeScript type `schema` admits, written at `depth`.
    fn type_of(&self, schema: &Value, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "unknown".to_owned();
        }
        let Some(object) = schema.as_object() else {
            // `true` admits anything, `false` nothing.
            return if schema == &Value::Bool(false) {
                "never"
            } else {
                "unknown"
            }
            .to_owned();
        };
        if let Some(target) = object.get("$ref").and_then(Value::as_str) {
            return self.referenced(target, depth);
        }
        if let Some(constant) = object.get("const") {
            return literal(constant);
        }
        if let Some(choices) = object.get("enum").and_then(Value::as_array) {
            return union(choices.iter().map(literal));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(choices) = object.get(key).and_then(Value::as_array) {
                return union(choices.iter().map(|choice| self.type_of(choice, depth)));
            }
        }
        match object.get("type") {
            Some(Value::String(kind)) => self.of_kind(kind, object, depth),
            Some(Value::Array(kinds)) => union(
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|kind| self.of_kind(kind, object, depth)),
            ),
            _ if object.contains_key("properties") => self.of_kind("object", object, depth),
            _ => "unknown".to_owned(),
        }
    }

    fn of_kind(&self, kind: &str, object: &Map<String, Value>, depth: usize) -> String {
        match kind {
            "string" => "string".to_owned(),
            "integer" | "number" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "null" => "null".to_owned(),
            "array" => match object.get("items") {
                Some(Value::Array(tuple)) => format!(
                    "[{}]",
                    tuple
                        .iter()
                        .map(|item| self.type_of(item, depth + 1))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(items) => format!("Array<{}>", self.type_of(items, depth + 1)),
                None => "unknown[]".to_owned(),
            },
            "object" => self.object_type(object, depth),
            _ => "unknown".to_owned(),
        }
    }

    fn object_type(&self, object: &Map<String, Value>, depth: usize) -> String {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = object.get("properties").and_then(Value::as_object);
        let extra = match object.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(schema @ Value::Object(_)) => Some(self.type_of(schema, depth + 1)),
            _ if properties.is_none() => Some("unknown".to_owned()),
            _ => None,
        };
        let mut out = String::from("{\n");
        for (name, schema) in properties.into_iter().flatten() {
            let notes = notes(schema);
            if !notes.is_empty() {
                doc_comment(&mut out, depth + 1, &notes);
            }
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            let _ = writeln!(
                out,
                "{}{}{optional}: {};",
                indent(depth + 1),
                property_name(name),
                self.type_of(schema, depth + 1)
            );
        }
        if let Some(extra) = extra {
            let _ = writeln!(out, "{}[key: string]: {extra};", indent(depth + 1));
        }
        let _ = write!(out, "{}}}", indent(depth));
        out
    }

    fn referenced(&self, target: &str, depth: usize) -> String {
        let name = target
            .strip_prefix("#/$defs/")
            .or_else(|| target.strip_prefix("#/definitions/"));
        self.hops.set(self.hops.get() + 1);
        if self.hops.get() > MAX_HOPS {
            return "unknown".to_owned();
        }
        match name.and_then(|name| self.defs?.get(name)) {
            Some(schema) => self.type_of(schema, depth),
            None => "unknown".to_owned(),
        }
    }
}

/// What a property's doc comment says: its description, then what its
/// schema requires that its type cannot say.
fn notes(schema: &Value) -> String {
    let mut notes: Vec<String> = Vec::new();
    if let Some(description) = schema.get("description").and_then(Value::as_str) {
        notes.push(description.to_owned());
    }
    let keyword = |name: &str| schema.get(name).filter(|value| !value.is_null());
    let mut also = Vec::new();
    for (name, word) in [
        ("minimum", ">="),
        ("exclusiveMinimum", ">"),
        ("maximum", "<="),
        ("exclusiveMaximum", "<"),
    ] {
        // A bound at an integer type's own range (a `u32`'s 4294967295)
        // says nothing a model would break: left out.
        if let Some(bound) = keyword(name).filter(|bound| !is_type_range(bound)) {
            also.push(format!("{word} {bound}"));
        }
    }
    for (name, word) in [
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
    ] {
        if let Some(count) = keyword(name) {
            also.push(word.replace("{}", &count.to_string()));
        }
    }
    if let Some(pattern) = keyword("pattern").and_then(Value::as_str) {
        also.push(format!("matches /{pattern}/"));
    }
    if let Some(format) = keyword("format").and_then(Value::as_str) {
        also.push(format!("format: {format}"));
    }
    if let Some(default) = keyword("default") {
        also.push(format!("default: {default}"));
    }
    if !also.is_empty() {
        notes.push(format!("({})", also.join("; ")));
    }
    notes.join(" ")
}

/// Whether `bound` is as large as an `i32`'s range or more: the range of
/// the integer type that wrote it, not a limit of the tool's.
fn is_type_range(bound: &Value) -> bool {
    bound
        .as_f64()
        .is_some_and(|bound| bound.abs() >= f64::from(i32::MAX))
}

fn doc_comment(out: &mut String, depth: usize, text: &str) {
    let text = text.replace("*/", "* /");
    let mut lines = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .peekable();
    if lines.peek().is_none() {
        return;
    }
    let _ = writeln!(out, "{}/**", indent(depth));
    for line in lines {
        let _ = writeln!(out, "{} * {}", indent(depth), line.trim_end());
    }
    let _ = writeln!(out, "{} */", indent(depth));
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// A name as a property: bare when it is an identifier, else quoted.
fn property_name(name: &str) -> String {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        name.to_owned()
    } else {
        Value::String(name.to_owned()).to_string()
    }
}

fn literal(value: &Value) -> String {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => value.to_string(),
        _ => "unknown".to_owned(),
    }
}

fn union(types: impl Iterator<Item = String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for kind in types {
        if !seen.contains(&kind) {
            seen.push(kind);
        }
    }
    match seen.len() {
        0 => "never".to_owned(),
        1 => seen.remove(0),
        _ => seen.join(" | "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn definition(name: &str, parameters: Value, output: Option<Value>) -> ToolDefinition {
        let mut definition: ToolDefinition = serde_json::from_value(json!({
            "name": name, "description": "Get the weather\nfor a city", "parameters": parameters,
        }))
        .unwrap();
        definition.output_schema = output;
        definition
    }

    #[test]
    fn a_tool_becomes_a_typed_async_function_with_its_docs() {
        let parameters = json!({"type": "object", "properties": {
            "city": {"type": "string", "description": "The city"},
            "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        }, "required": ["city"], "additionalProperties": false});
        let output = json!({"type": "object", "properties": {"high": {"type": "number"}}, "required": ["high"]});
        let written = declarations(&[
            definition("weather", parameters, Some(output)),
            definition("get-time", json!({"type": "object"}), None),
        ]);
        assert_eq!(
            written,
            "declare const tools: {
  /**
   * Get the weather
   * for a city
   */
  weather(args: {
    /**
     * The city
     */
    city: string;
    /**
     * (>= 1; <= 7; default: 3)
     */
    days?: number;
    unit?: \"c\" | \"f\";
    tags?: Array<string>;
  }): Promise<{
    high: number;
  }>;
  /**
   * Get the weather
   * for a city
   */
  \"get-time\"(args: {
    [key: string]: unknown;
  }): Promise<string>;
};
"
        );
    }

    #[test]
    fn refs_unions_and_depth_end_in_types_never_guesses() {
        let schema = json!({
            "type": "object",
            "properties": {
                "step": {"$ref": "#/$defs/Step"},
                "maybe": {"type": ["string", "null"]},
                "either": {"anyOf": [{"type": "integer"}, {"const": "all"}]},
                "ghost": {"$ref": "#/$defs/Missing"},
            },
            "$defs": {"Step": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
        });
        let written = Schemas::of(&schema).type_of(&schema, 0);
        assert!(
            written.contains("step?: {\n    x: number;\n  };"),
            "{written}"
        );
        assert!(written.contains("maybe?: string | null;"), "{written}");
        assert!(written.contains("either?: number | \"all\";"), "{written}");
        assert!(written.contains("ghost?: unknown;"), "{written}");
        let mut deep = json!({"type": "string"});
        for _ in 0..20 {
            deep = json!({"type": "object", "properties": {"inner": deep}});
        }
        assert!(
            Schemas::of(&deep)
                .type_of(&deep, 0)
                .contains("inner?: unknown;")
        );
    }
}
