//! Enums in serde's four representations: the schema of each alternative,
//! reading which variant a value names, and the errors a model can act on
//! when it names none (`action: expected one of "click", "type", got
//! "clik": did you mean "click"?`).

use super::objects::{FieldNames, missing, too_deep};
use crate::params::describe::{Excerpt, Received, json_type, quoted};
use crate::params::suggest::did_you_mean;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Map, Value};

/// The schema of a unit-only enum: `{"type":"string","enum":[..]}`.
pub fn enum_schema(description: Option<&str>, names: &[&str]) -> Value {
    let mut schema = described(description);
    schema.insert("type".into(), "string".into());
    schema.insert(
        "enum".into(),
        names.iter().map(|name| Value::from(*name)).collect(),
    );
    Value::Object(schema)
}

/// `{"type":"string","const":name}`: a tag's schema, or an externally
/// tagged unit variant among data-carrying ones.
pub fn const_string(name: &str, description: Option<&str>) -> Value {
    let mut schema = described(description);
    schema.insert("type".into(), "string".into());
    schema.insert("const".into(), name.into());
    Value::Object(schema)
}

/// `{"oneOf":[..]}`: exactly one alternative matches (a tagged enum, whose
/// tags tell the alternatives apart).
pub fn one_of(description: Option<&str>, branches: Vec<Value>) -> Value {
    let mut schema = described(description);
    schema.insert("oneOf".into(), Value::Array(branches));
    Value::Object(schema)
}

/// `{"anyOf":[..]}`: an untagged enum, whose alternatives may overlap (parse
/// takes the first that fits).
pub fn any_of(description: Option<&str>, branches: Vec<Value>) -> Value {
    let mut schema = described(description);
    schema.insert("anyOf".into(), Value::Array(branches));
    Value::Object(schema)
}

/// `{"type":"null"}`: an untagged unit variant.
pub fn null_schema() -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "null".into());
    Value::Object(schema)
}

/// An externally tagged variant with data: an object whose one key is the
/// variant's name: `{"type":"object","properties":{name: content},
/// "required":[name],"maxProperties":1}`.
pub fn external_branch(name: &str, description: Option<&str>, content: Value) -> Value {
    let mut schema = described(description);
    schema.insert("type".into(), "object".into());
    let mut properties = Map::new();
    properties.insert(name.to_owned(), content);
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(vec![name.into()]));
    schema.insert("maxProperties".into(), 1.into());
    Value::Object(schema)
}

/// An enum as a tool's whole arguments: every alternative is an object, so
/// the root says so too (`"type":"object"` beside the `oneOf`), which MCP
/// requires of an `inputSchema`.
pub fn root_enum_schema(schema: Value) -> Value {
    match schema {
        Value::Object(mut map) => {
            let at = usize::from(map.contains_key("description"));
            map.shift_insert(at, "type".into(), "object".into());
            Value::Object(map)
        }
        other => other,
    }
}

fn described(description: Option<&str>) -> Map<String, Value> {
    let mut schema = Map::new();
    if let Some(description) = description {
        schema.insert("description".into(), description.into());
    }
    schema
}

/// An enum's variant names, as parse reads them: each variant's name, and
/// the aliases that name it too (`#[param(alias = "..")]`). Messages list
/// the names alone.
#[derive(Clone, Copy, Debug)]
pub struct VariantNames {
    /// Each variant's JSON name, in declaration order.
    pub names: &'static [&'static str],
    /// Other names, each with the index of the variant it names.
    pub aliases: &'static [(&'static str, usize)],
}

impl VariantNames {
    /// The index of the variant `name` names.
    #[inline]
    pub fn position(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|known| *known == name)
            .or_else(|| self.alias_position(name))
    }

    #[cold]
    fn alias_position(&self, name: &str) -> Option<usize> {
        self.aliases
            .iter()
            .find_map(|(alias, index)| (*alias == name).then_some(*index))
    }
}

/// Whether a variant carries data, which decides its external form: a
/// string for a unit variant, `{"name": data}` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantKind {
    /// No data: `"name"`.
    Unit,
    /// Data: `{"name": ...}`.
    Data,
}

/// The variant an internally or adjacently tagged object names in its
/// `tag` key: its index in `names`, or a reported problem at the tag.
///
/// Inlined, so the name search compiles to comparisons with the constant
/// names; the tag is found by scanning the keys, not by hashing it (a
/// tool's arguments have few keys, and the variant's fields scan them
/// anyway): together a third of an enum-heavy parse's instructions.
#[inline]
pub fn read_tag(
    object: &Map<String, Value>,
    tag: &str,
    variants: &VariantNames,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<usize> {
    let names = variants.names;
    let Some(value) = object
        .iter()
        .find_map(|(key, value)| (key == tag).then_some(value))
    else {
        return missing(None, object, tag, &FieldNames::EMPTY, path, errors);
    };
    let found = value.as_str().and_then(|name| variants.position(name));
    if found.is_none() {
        expected_one_of(value, names, &path.field(tag), errors);
    }
    found
}

/// The variant an externally tagged value names: `"name"` for a unit
/// variant, `{"name": content}` for one with data. Gives the variant's
/// index in `names` and, for data, the content.
pub fn read_external<'v>(
    value: &'v Value,
    variants: &VariantNames,
    kinds: &[VariantKind],
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<(usize, Option<&'v Value>)> {
    if too_deep(path, errors) {
        return None;
    }
    let names = variants.names;
    let position = |name: &str| variants.position(name);
    match value {
        Value::String(name) => match position(name) {
            Some(index) if kinds[index] == VariantKind::Unit => Some((index, None)),
            Some(_) => {
                errors.push(
                    path,
                    format_args!(
                        "expected an object {{\"{name}\": ...}} (the variant carries data), got {}",
                        Received(value)
                    ),
                );
                None
            }
            None => {
                expected_one_of(value, names, path, errors);
                None
            }
        },
        Value::Object(object) if object.len() == 1 => {
            let (name, content) = object.iter().next()?;
            match position(name) {
                Some(index) if kinds[index] == VariantKind::Data => Some((index, Some(content))),
                Some(_) => {
                    errors.push(
                        path,
                        format_args!(
                            "expected the string \"{name}\" (the variant carries no data), got {}",
                            Received(value)
                        ),
                    );
                    None
                }
                None => {
                    errors.push(
                        path,
                        format_args!(
                            "expected the only key to be one of {}, got {}{}",
                            quoted(names),
                            Excerpt(&Value::from(name.as_str())),
                            did_you_mean(name, names)
                        ),
                    );
                    None
                }
            }
        }
        Value::Object(object) => {
            errors.push(
                path,
                format_args!(
                    "expected an object with exactly one key, the variant's name (one of {}), got {} keys",
                    quoted(names),
                    object.len()
                ),
            );
            None
        }
        other => {
            let what = if kinds.contains(&VariantKind::Unit) {
                "string or object"
            } else {
                "object"
            };
            errors.expected(path, what, other);
            None
        }
    }
}

/// Reports a value that is none of `names`, with the name it most likely
/// misspells.
#[cold]
pub fn expected_one_of(
    value: &Value,
    names: &[&str],
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    let expected = quoted(names);
    match value {
        Value::String(sent) => errors.push(
            path,
            format_args!(
                "expected one of {expected}, got {}{}",
                Excerpt(value),
                did_you_mean(sent, names)
            ),
        ),
        other => errors.push(
            path,
            format_args!("expected one of {expected}, got {}", Received(other)),
        ),
    }
}

/// Whether an adjacently tagged unit variant's object is free of content,
/// as its schema (the tag alone) and serde say; `null` counts as absent,
/// as a provider that merged the variants into one object sends it.
/// Reports the content otherwise.
#[inline]
pub fn no_content(
    object: &Map<String, Value>,
    content: &str,
    name: &str,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    match object.get(content) {
        None | Some(Value::Null) => true,
        Some(sent) => {
            report_content(sent, content, name, path, errors);
            false
        }
    }
}

#[cold]
fn report_content(
    sent: &Value,
    content: &str,
    name: &str,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    errors.push(
        &path.field(content),
        format_args!(
            "unexpected {}: \"{name}\" carries no data, so leave \"{content}\" out",
            json_type(sent)
        ),
    );
}

/// `{name: content}`: an externally tagged variant with data, as JSON.
pub fn external_json(name: &str, content: Value) -> Value {
    let mut object = Map::new();
    object.insert(name.to_owned(), content);
    Value::Object(object)
}

/// `{tag: name, content_key: content}`: an adjacently tagged variant as
/// JSON (without `content_key` for a unit variant).
pub fn adjacent_json(tag: &str, name: &str, content: Option<(&str, Value)>) -> Value {
    let mut object = Map::new();
    object.insert(tag.to_owned(), name.into());
    if let Some((key, content)) = content {
        object.insert(key.to_owned(), content);
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(run: impl FnOnce(&ParamPath<'_>, &mut ParseContext)) -> String {
        let mut errors = ParseContext::new();
        run(&ParamPath::root(), &mut errors);
        errors.into_error().to_string()
    }

    #[test]
    fn a_tag_missing_unknown_or_misspelled_is_reported_at_the_tag() {
        let names = VariantNames {
            names: &["click", "type"],
            aliases: &[("press", 0)],
        };
        let object = |value: Value| value.as_object().unwrap().clone();
        assert_eq!(
            problems(|path, errors| {
                read_tag(&object(json!({"x": 1})), "action", &names, path, errors);
            }),
            "action: missing required field"
        );
        assert_eq!(
            problems(|path, errors| {
                read_tag(
                    &object(json!({"action": "clik"})),
                    "action",
                    &names,
                    path,
                    errors,
                );
            }),
            "action: expected one of \"click\", \"type\", got \"clik\": did you mean \"click\"?"
        );
        assert_eq!(
            problems(|path, errors| {
                read_tag(
                    &object(json!({"action": 3})),
                    "action",
                    &names,
                    path,
                    errors,
                );
            }),
            "action: expected one of \"click\", \"type\", got number 3"
        );
        let found = read_tag(
            &object(json!({"action": "type"})),
            "action",
            &names,
            &ParamPath::root(),
            &mut ParseContext::new(),
        );
        assert_eq!(found, Some(1));
        let by_alias = read_tag(
            &object(json!({"action": "press"})),
            "action",
            &names,
            &ParamPath::root(),
            &mut ParseContext::new(),
        );
        assert_eq!(by_alias, Some(0));
    }

    #[test]
    fn external_values_name_their_variant_by_string_or_single_key() {
        use VariantKind::{Data, Unit};
        let names = VariantNames {
            names: &["stop", "go"],
            aliases: &[],
        };
        let kinds = [Unit, Data];
        let read = |value: Value| {
            let mut errors = ParseContext::new();
            let found = read_external(&value, &names, &kinds, &ParamPath::root(), &mut errors)
                .map(|(index, content)| (index, content.cloned()));
            (found, errors.into_error().to_string())
        };
        assert_eq!(read(json!("stop")), (Some((0, None)), String::new()));
        assert_eq!(
            read(json!({"go": 3})),
            (Some((1, Some(json!(3)))), String::new())
        );
        assert_eq!(
            read(json!("go")).1,
            "arguments: expected an object {\"go\": ...} (the variant carries data), got string \"go\""
        );
        assert_eq!(
            read(json!({"stop": null})).1,
            "arguments: expected the string \"stop\" (the variant carries no data), got object {\"stop\":null}"
        );
        assert_eq!(
            read(json!({"og": 1})).1,
            "arguments: expected the only key to be one of \"stop\", \"go\", got \"og\""
        );
        assert_eq!(
            read(json!({"go": 1, "stop": 2})).1,
            "arguments: expected an object with exactly one key, the variant's name (one of \"stop\", \"go\"), got 2 keys"
        );
        assert_eq!(
            read(json!(1)).1,
            "arguments: expected string or object, got number 1"
        );
    }
}
