//! An enum as a tool's whole parameters (`{"type":"object","oneOf":[..]}`,
//! or `anyOf` for an untagged one) written as ONE object, for the
//! providers that refuse a choice at the root:
//!
//! - OpenAI: "Root objects must not be anyOf and must be an object"
//!   (<https://developers.openai.com/api/docs/guides/structured-outputs>),
//!   and `oneOf` is refused anywhere ("'oneOf' is not permitted",
//!   openai/openai-node#2602);
//! - Anthropic: "input_schema does not support oneOf, allOf, or anyOf at
//!   the top level" (a 400 from the Messages API,
//!   <https://platform.claude.com/docs/en/api/messages>);
//! - Gemini: "The schema must describe an object where the properties are
//!   the parameters" (<https://ai.google.dev/api/caching#FunctionDeclaration>).
//!
//! The object lists every choice's properties; the tag (a string `const`
//! every choice has and requires) becomes an `enum` of the choices, whose
//! description tells what each one is; only the properties every choice
//! requires stay required. It accepts every value the choice accepted, and
//! more: parse still holds each call to its own choice's fields.
//!
//! The format's own conversion runs on the object afterwards, so the paths
//! of its diagnostics point into the object, not into the original choice.

use super::common::required_names;
use super::diagnostic::Report;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// A provider that wants an object at the root, for the diagnostic of a
/// root that cannot be written as one, and whether its schema can say
/// "exactly one of these keys" for an externally tagged enum.
pub(crate) struct RootRule {
    /// The provider's name.
    provider: &'static str,
    /// Its documentation's (or its error's) own words about the root.
    says: &'static str,
    /// Why its schema has no `minProperties`/`maxProperties`, where it has
    /// none; `None` where it takes them.
    no_key_count: Option<&'static str>,
}

/// OpenAI, strict or not. Without strict mode a function's parameters are
/// any JSON Schema object, `minProperties`/`maxProperties` included; strict
/// mode has neither, and sends an externally tagged root non-strict.
pub(crate) const OPENAI: RootRule = RootRule {
    provider: "OpenAI",
    says: "Root objects must not be anyOf and must be an object",
    no_key_count: None,
};
/// Anthropic's `input_schema`: JSON Schema as it is (strict mode drops
/// what it lacks, and says so).
pub(crate) const ANTHROPIC: RootRule = RootRule {
    provider: "Anthropic",
    says: "input_schema does not support oneOf, allOf, or anyOf at the top level",
    no_key_count: None,
};
/// Gemini's `parametersJsonSchema`, whose documented keywords
/// (`GenerationConfig.responseJsonSchema`,
/// <https://ai.google.dev/api/generate-content#generationconfig>: "only the
/// following properties are supported") have no `minProperties` or
/// `maxProperties`.
pub(crate) const GEMINI_JSON_SCHEMA: RootRule = RootRule {
    provider: "Gemini",
    says: GEMINI_SAYS,
    no_key_count: Some("Gemini's parametersJsonSchema has no `minProperties`/`maxProperties`"),
};
/// Gemini's legacy `parameters`, whose `Schema` has `minProperties` and
/// `maxProperties` (<https://ai.google.dev/api/caching#Schema>).
pub(crate) const GEMINI_OPENAPI: RootRule = RootRule {
    provider: "Gemini",
    says: GEMINI_SAYS,
    no_key_count: None,
};
/// Gemini's words about the root, either field
/// (<https://ai.google.dev/api/caching#FunctionDeclaration>).
const GEMINI_SAYS: &str =
    "The schema must describe an object where the properties are the parameters";

/// `schema` with a root choice of objects written as one object (and said
/// so); as it is when its root is no choice, or a choice of other shapes
/// (said too: `rule`'s provider will likely refuse it).
pub(crate) fn flatten_root<'a>(
    schema: &'a Value,
    rule: &RootRule,
    report: &mut Report<'_>,
) -> Cow<'a, Value> {
    let Some(root) = schema.as_object() else {
        return Cow::Borrowed(schema);
    };
    let keyword = match (root.contains_key("oneOf"), root.contains_key("anyOf")) {
        (false, false) => return Cow::Borrowed(schema),
        (true, true) => {
            refuse(report, "/oneOf", rule, "it has both `oneOf` and `anyOf`");
            return Cow::Borrowed(schema);
        }
        (true, false) => "oneOf",
        (false, true) => "anyOf",
    };
    let path = format!("/{keyword}");
    let choices: Option<Vec<&Map<String, Value>>> = root[keyword]
        .as_array()
        .filter(|choices| !choices.is_empty())
        .and_then(|choices| choices.iter().map(object_choice).collect());
    let Some(choices) = choices else {
        refuse(
            report,
            &path,
            rule,
            "its choices are not all objects with properties",
        );
        return Cow::Borrowed(schema);
    };
    if root.contains_key("properties") {
        refuse(
            report,
            &path,
            rule,
            "it has properties of its own beside the choice",
        );
        return Cow::Borrowed(schema);
    }
    let merged = Merged::of(&choices);
    // An externally tagged enum: each choice one key, so the object takes
    // exactly one of its properties, where the provider can say so.
    let one_key = (keyword == "oneOf" && is_one_key_choice(schema)).then_some(rule.no_key_count);
    report.push(&path, merged.message(choices.len(), one_key));
    let mut out = Map::new();
    for (key, value) in root {
        match key.as_str() {
            "type" => {}
            key if key == keyword => {
                out.insert("type".into(), json!("object"));
                out.insert(
                    "properties".into(),
                    Value::Object(merged.properties.clone()),
                );
                if !merged.required.is_empty() {
                    out.insert("required".into(), json!(merged.required));
                }
                out.insert("additionalProperties".into(), Value::Bool(false));
                if one_key == Some(None) {
                    out.insert("minProperties".into(), json!(1));
                    out.insert("maxProperties".into(), json!(1));
                }
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Cow::Owned(Value::Object(out))
}

/// Whether `schema`'s root is an externally tagged enum's choice: each
/// choice an object of exactly one key (`maxProperties: 1`). Written as one
/// object it cannot be strict: strict mode requires every key (`null` when
/// unused), and such an enum takes exactly one.
pub(crate) fn is_one_key_choice(schema: &Value) -> bool {
    let choices = schema.get("oneOf").and_then(Value::as_array);
    choices.is_some_and(|choices| {
        !choices.is_empty()
            && choices.iter().all(|choice| {
                object_choice(choice).is_some_and(|choice| {
                    choice.get("maxProperties") == Some(&json!(1))
                        && required_names(choice).len() == 1
                })
            })
    })
}

fn refuse(report: &mut Report<'_>, path: &str, rule: &RootRule, why: &str) {
    report.push(
        path,
        format!(
            "left as it is: this choice cannot be written as one object ({why}); {} will likely refuse it (\"{}\")",
            rule.provider, rule.says
        ),
    );
}

/// A choice that is an object schema with `properties`.
fn object_choice(choice: &Value) -> Option<&Map<String, Value>> {
    let choice = choice.as_object()?;
    let is_object = choice.get("type").is_none_or(|kind| kind == "object");
    (is_object && choice.get("properties").is_some_and(Value::is_object)).then_some(choice)
}

/// One property over every choice.
struct Field<'a> {
    name: &'a str,
    /// Its distinct schemas, in choice order.
    schemas: Vec<Value>,
    /// The choices that have it (indices).
    choices: Vec<usize>,
    /// How many choices require it.
    required_by: usize,
}

/// The choices' properties as one object's, and what that changed.
struct Merged {
    properties: Map<String, Value>,
    required: Vec<String>,
    tag: Option<String>,
    /// Whether some property is missing from some choice.
    partial: bool,
    /// Whether some property every choice has is not required by all.
    loosened: bool,
    /// Whether some property's schema differs between choices.
    differing: bool,
}

impl Merged {
    fn of(choices: &[&Map<String, Value>]) -> Merged {
        let fields = collect(choices);
        let all = choices.len();
        let tags: Vec<&Field> = fields
            .iter()
            .filter(|field| field.required_by == all && is_tag(field, choices))
            .collect();
        let tag = tags.first().map(|field| field.name);
        let tag_values: Vec<Option<&str>> = choices
            .iter()
            .map(|choice| tag.and_then(|tag| tag_value(&choice["properties"][tag])))
            .collect();
        let mut merged = Merged {
            properties: Map::new(),
            required: Vec::new(),
            tag: tag.map(str::to_owned),
            partial: false,
            loosened: false,
            differing: false,
        };
        for field in &fields {
            if field.required_by == all {
                merged.required.push(field.name.to_owned());
            } else if field.choices.len() == all {
                merged.loosened = true;
            }
            let schema = if tags.iter().any(|tag| tag.name == field.name) {
                tag_schema(field, choices)
            } else {
                merged.partial |= field.choices.len() < all;
                merged.differing |= field.schemas.len() > 1;
                let mut schema = match &field.schemas[..] {
                    [one] => one.clone(),
                    many => json!({ "anyOf": many }),
                };
                if let (Some(tag), true) = (tag, field.choices.len() < all) {
                    let values: Vec<String> = field
                        .choices
                        .iter()
                        .filter_map(|&i| tag_values[i])
                        .map(quote)
                        .collect();
                    let note = format!("(only with {tag} {})", values.join(", "));
                    describe(&mut schema, &note);
                } else if tag.is_none()
                    && let [only] = field.choices[..]
                    && choices[only]["properties"].as_object().map(Map::len) == Some(1)
                    && let Some(description) = choices[only].get("description")
                    && schema.get("description").is_none()
                    && let Value::Object(map) = &mut schema
                {
                    // An external enum's variant: the choice's description
                    // is the description of its one property.
                    let mut described = Map::new();
                    described.insert("description".into(), description.clone());
                    described.extend(std::mem::take(map));
                    *map = described;
                }
                schema
            };
            merged.properties.insert(field.name.to_owned(), schema);
        }
        merged
    }

    /// The diagnostic: how many choices, and what the one object costs;
    /// `one_key` for an externally tagged enum, with why the provider
    /// cannot count keys where it cannot.
    fn message(&self, choices: usize, one_key: Option<Option<&str>>) -> String {
        let mut costs = Vec::new();
        if let Some(tag) = &self.tag {
            costs.push(format!("{} lists the choices", quote(tag)));
        }
        if self.partial {
            costs.push("the fields only some choices have are optional".to_owned());
        } else if self.loosened {
            costs.push("the fields only some choices require are optional".to_owned());
        }
        match one_key {
            Some(None) => costs.push(
                "`minProperties`/`maxProperties` of 1 ask for exactly one of them".to_owned(),
            ),
            Some(Some(why)) => costs.push(format!(
                "only parse holds a call to exactly one of them ({why})"
            )),
            None => {}
        }
        if self.differing {
            costs.push(
                "a field the choices describe differently takes what any of them takes".to_owned(),
            );
        }
        let costs = match costs.len() {
            0 => String::new(),
            1 => format!(": {}", costs[0]),
            _ => {
                let last = costs.pop().unwrap_or_default();
                format!(": {}, and {last}", costs.join(", "))
            }
        };
        format!(
            "changed: a choice of {choices} object shapes written as one object{costs} (parse still enforces each choice's own fields)"
        )
    }
}

/// Every property of every choice, in order of first appearance.
fn collect<'a>(choices: &[&'a Map<String, Value>]) -> Vec<Field<'a>> {
    let mut fields: Vec<Field<'a>> = Vec::new();
    for (i, choice) in choices.iter().enumerate() {
        let required = required_names(choice);
        for (name, schema) in choice["properties"].as_object().into_iter().flatten() {
            let index = match fields.iter().position(|field| field.name == name) {
                Some(index) => index,
                None => {
                    fields.push(Field {
                        name,
                        schemas: Vec::new(),
                        choices: Vec::new(),
                        required_by: 0,
                    });
                    fields.len() - 1
                }
            };
            let field = &mut fields[index];
            if !field.schemas.contains(schema) {
                field.schemas.push(schema.clone());
            }
            field.choices.push(i);
            field.required_by += usize::from(required.contains(&name.as_str()));
        }
    }
    fields
}

/// Whether `field` is a string `const` in every choice.
fn is_tag(field: &Field<'_>, choices: &[&Map<String, Value>]) -> bool {
    choices
        .iter()
        .all(|choice| tag_value(&choice["properties"][field.name]).is_some())
}

/// The value of a tag's schema: `{"type":"string","const":"click"}`.
fn tag_value(schema: &Value) -> Option<&str> {
    let is_string = schema.get("type").is_none_or(|kind| kind == "string");
    schema.get("const")?.as_str().filter(|_| is_string)
}

/// The tag as an `enum` of every choice's value, described by what each
/// choice is (`"click": Click at a point; "type": Type some text`).
fn tag_schema(field: &Field<'_>, choices: &[&Map<String, Value>]) -> Value {
    let mut values: Vec<&str> = Vec::new();
    let mut described = Vec::new();
    for choice in choices {
        let Some(value) = tag_value(&choice["properties"][field.name]) else {
            continue;
        };
        if values.contains(&value) {
            continue;
        }
        values.push(value);
        if let Some(description) = choice.get("description").and_then(Value::as_str) {
            described.push(format!("{}: {description}", quote(value)));
        }
    }
    let mut schema = Map::new();
    if !described.is_empty() {
        schema.insert("description".into(), json!(described.join("; ")));
    }
    schema.insert("type".into(), json!("string"));
    schema.insert("enum".into(), json!(values));
    Value::Object(schema)
}

/// Appends `note` to the description of `schema` (or makes it one).
fn describe(schema: &mut Value, note: &str) {
    let Value::Object(map) = schema else { return };
    let description = match map.get("description").and_then(Value::as_str) {
        Some(description) => format!("{description} {note}"),
        None => note.to_owned(),
    };
    let mut described = Map::new();
    described.insert("description".into(), json!(description));
    described.extend(
        std::mem::take(map)
            .into_iter()
            .filter(|(key, _)| key != "description"),
    );
    *map = described;
}

/// `text` as a JSON string: `"click"`.
fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}
