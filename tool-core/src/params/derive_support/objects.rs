//! Structs: the arguments object, its fields, and the fields a struct
//! lends to another (`#[param(flatten)]`, and the newtype variants of an
//! internally tagged enum, whose fields sit beside the tag).

use crate::params::describe::StrExcerpt;
use crate::params::suggest::{near_miss_of_any, near_miss_where};
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Map, Value};

/// Nested structs deeper than this are refused: a recursive parameter type
/// (`struct Node { children: Vec<Node> }`) fed a value nested a hundred
/// thousand levels deep would otherwise recurse off the stack.
pub const MAX_NESTING: usize = 128;

/// The JSON names of a struct's fields: its own, and those of the structs
/// it flattens. A tree, so it can be built in a `const` across crates.
#[derive(Debug)]
pub struct FieldNames {
    /// The struct's own fields.
    pub own: &'static [&'static str],
    /// The other names of its own fields (`#[param(alias = "..")]`): read
    /// as the field, never listed.
    pub aliases: &'static [&'static str],
    /// The fields of each flattened struct.
    pub flattened: &'static [&'static FieldNames],
}

impl FieldNames {
    /// No fields.
    pub const EMPTY: FieldNames = FieldNames {
        own: &[],
        aliases: &[],
        flattened: &[],
    };

    /// Whether `name` is one of the fields (or an alias of one), at any
    /// depth. A `const fn`, so the derive can refuse a flattened struct
    /// that repeats a name at compile time.
    pub const fn contains(&self, name: &str) -> bool {
        if any_eq(self.own, name) || any_eq(self.aliases, name) {
            return true;
        }
        let mut j = 0;
        while j < self.flattened.len() {
            if self.flattened[j].contains(name) {
                return true;
            }
            j += 1;
        }
        false
    }

    /// Whether any name (or alias) is in both.
    pub const fn overlaps(&self, other: &FieldNames) -> bool {
        let mut i = 0;
        while i < self.own.len() {
            if other.contains(self.own[i]) {
                return true;
            }
            i += 1;
        }
        let mut k = 0;
        while k < self.aliases.len() {
            if other.contains(self.aliases[k]) {
                return true;
            }
            k += 1;
        }
        let mut j = 0;
        while j < self.flattened.len() {
            if self.flattened[j].overlaps(other) {
                return true;
            }
            j += 1;
        }
        false
    }

    /// Every name: the struct's own, in declaration order, then each
    /// flattened struct's.
    pub fn all(&self) -> Vec<&'static str> {
        let mut names = self.own.to_vec();
        for flattened in self.flattened {
            names.extend(flattened.all());
        }
        names
    }
}

const fn any_eq(names: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < names.len() {
        if str_eq(names[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A struct with named fields, or a tagged enum, that derives
/// `ToolParams`: its fields can be read from, and written into, an object
/// that also holds other keys. `#[param(flatten)]` and internally tagged
/// newtype variants rely on it. A tagged enum's fields are a choice of
/// shapes (see [`ObjectSchema::choose`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a struct with named fields or a tagged enum that derives `ToolParams`",
    label = "its fields cannot be merged into the surrounding object",
    note = "`#[param(flatten)]` takes a struct with named fields, or an internally or adjacently tagged enum (`#[param(tag = \"...\")]`), that derives `ToolParams`; the newtype variants of an internally tagged enum take such a struct"
)]
pub trait ParamObject: ParamValue {
    /// The JSON names of the fields, flattened ones included.
    const FIELDS: FieldNames;
    /// `#[param(deny_unknown_fields)]`.
    const DENY_UNKNOWN_FIELDS: bool;
    /// Adds each field's schema to an object schema being built.
    fn add_fields(schema: &mut ObjectSchema);
    /// Reads the fields from `object`, which may hold other keys.
    fn parse_fields(
        object: &Map<String, Value>,
        path: &ParamPath<'_>,
        errors: &mut ParseContext,
    ) -> Option<Self>;
    /// Writes the fields into an object being built.
    fn write_fields(&self, json: &mut ObjectJson);
}

/// Compile-time checks of a generic container (a flattened struct that
/// repeats a JSON name, once its type arguments are known): one constant,
/// named by both the schema and the parse, so one mistake is one error.
///
/// The error comes when the generic code is instantiated, so only a build
/// that generates code reports it (`cargo check` does not): this is why it
/// is a doctest, built as a program, and not one of the compile tests,
/// which trybuild only checks.
///
/// ```compile_fail,E0080
/// use tool_core::ToolParams;
///
/// #[derive(ToolParams)]
/// struct Paging {
///     page: u32,
///     query: String,
/// }
///
/// #[derive(ToolParams)]
/// struct Request<T> {
///     query: String,
///     #[param(flatten)]
///     extra: T,
/// }
///
/// // the flattened field `extra: T` has a field with the JSON name
/// // "query", as does field `query` beside it: rename one
/// let _ = Request::<Paging>::json_schema();
/// ```
///
/// With a name of its own the same code builds:
///
/// ```
/// # use tool_core::ToolParams;
/// # #[derive(ToolParams)]
/// # struct Paging {
/// #     page: u32,
/// #     cursor: String,
/// # }
/// # #[derive(ToolParams)]
/// # struct Request<T> {
/// #     query: String,
/// #     #[param(flatten)]
/// #     extra: T,
/// # }
/// let _ = Request::<Paging>::json_schema();
/// ```
pub trait Checked {
    /// Panics at compile time when a check fails.
    const CHECKS: ();
}

/// The object a struct's fields are read from, or a reported problem.
#[inline]
pub fn expect_object<'v>(
    value: &'v Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
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
    errors: &mut ParseContext,
) -> Option<&'v Map<String, Value>> {
    if !too_deep(path, errors) {
        errors.expected(path, "object", value);
    }
    None
}

/// Reports a value nested deeper than [`MAX_NESTING`]: every parse that
/// descends into its own type (a struct, an enum, a tuple) checks this, so
/// a recursive parameter type cannot recurse off the stack.
#[inline]
pub(crate) fn too_deep(path: &ParamPath<'_>, errors: &mut ParseContext) -> bool {
    let deep = path.depth() > MAX_NESTING;
    if deep {
        report_too_deep(path, errors);
    }
    deep
}

#[cold]
fn report_too_deep(path: &ParamPath<'_>, errors: &mut ParseContext) {
    errors.push(
        path,
        format_args!("arguments nest deeper than {MAX_NESTING} levels"),
    );
}

/// The value of a field absent from `object`: `when_missing` (the type's
/// [`ParamValue::when_missing`]) when it has one, otherwise a "missing
/// required field" problem, with the near-miss key the model probably meant
/// (never one of `declared`).
pub fn missing<T>(
    when_missing: Option<T>,
    object: &Map<String, Value>,
    name: &str,
    declared: &FieldNames,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<T> {
    if when_missing.is_some() {
        return when_missing;
    }
    report_missing(object, name, declared, path, errors);
    None
}

#[cold]
fn report_missing(
    object: &Map<String, Value>,
    name: &str,
    declared: &FieldNames,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    let field = path.field(name);
    match near_miss_where(name, object.keys().map(String::as_str), |key| {
        declared.contains(key)
    }) {
        Some(key) => errors.push_missing(
            &field,
            format_args!(
                "missing required field (got {}: did you mean \"{name}\"?)",
                StrExcerpt(key)
            ),
        ),
        None => errors.push_missing(&field, "missing required field"),
    }
}

/// Whether the object being parsed refuses keys it does not declare: its
/// type says `#[param(deny_unknown_fields)]` (`deny`), or an untagged enum
/// is looking for the variant whose closed schema takes the value as sent.
#[inline]
pub fn denies_unknown(deny: bool, errors: &ParseContext) -> bool {
    deny || errors.objects_closed()
}

/// Reports a field sent under two of its names (`key`, and another of
/// `name`'s aliases or `name` itself): which one was meant is a guess.
#[cold]
pub fn sent_twice(key: &str, name: &str, path: &ParamPath<'_>, errors: &mut ParseContext) {
    errors.push(
        &path.key(key),
        format_args!("names the field \"{name}\", which was already sent under another of its names: send it once"),
    );
}

/// Reports every key of `object` that is neither one of `declared` nor one
/// of `also_allowed` (an enum's tag), for `#[param(deny_unknown_fields)]`;
/// true if there was one.
///
/// A key of `null_if_absent` (the fields of an enum's other variants) is
/// taken when its value is `null`: a provider that writes an enum at the
/// root as one object (OpenAI's strict mode lists every variant's fields,
/// each required and nullable) makes the model send `null` for every field
/// of the variants it did not choose, and `null` is how parse reads an
/// absent field anyway.
pub fn deny_unknown_fields(
    object: &Map<String, Value>,
    declared: &FieldNames,
    also_allowed: &[&str],
    null_if_absent: &FieldNames,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let mut found = false;
    for (key, value) in object {
        if declared.contains(key)
            || also_allowed.contains(&key.as_str())
            || (value.is_null() && null_if_absent.contains(key))
        {
            continue;
        }
        found = true;
        report_unknown(key, declared, also_allowed, path, errors);
    }
    found
}

#[cold]
fn report_unknown(
    key: &str,
    declared: &FieldNames,
    also_allowed: &[&str],
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    errors.saw_undeclared_key();
    let mut names = also_allowed.to_vec();
    names.extend(declared.all());
    let unknown = path.key(key);
    match near_miss_of_any(key, &names) {
        Some(meant) => errors.push(
            &unknown,
            format_args!("unknown field (did you mean \"{meant}\"?)"),
        ),
        None if names.is_empty() => {
            errors.push(&unknown, "unknown field (this tool takes no arguments)")
        }
        None => errors.push(
            &unknown,
            format_args!("unknown field (expected one of: {})", names.join(", ")),
        ),
    }
}

/// Builds a struct's object schema field by field, in declaration order.
///
/// A flattened tagged enum adds a choice instead of fields
/// ([`choose`](Self::choose)): the object is then one of several shapes,
/// each the struct's own fields beside one variant's, and the schema a
/// `oneOf` of them, which every provider format handles as it handles an
/// enum at the root.
#[derive(Clone, Debug)]
pub struct ObjectSchema {
    properties: Map<String, Value>,
    required: Vec<Value>,
    choices: Vec<Vec<Branch>>,
}

/// One shape of a flattened tagged enum: its variant's fields (the tag
/// among them) and the variant's description.
#[derive(Clone, Debug)]
pub struct Branch {
    fields: ObjectSchema,
    description: Option<&'static str>,
}

impl Branch {
    /// A variant's fields, as an object schema of their own.
    pub fn new(fields: ObjectSchema, description: Option<&'static str>) -> Self {
        Branch {
            fields,
            description,
        }
    }

    /// The variant's object schema, described.
    pub fn finish(self) -> Value {
        self.fields.finish(self.description)
    }
}

impl ObjectSchema {
    /// An object schema with no fields yet.
    pub fn new() -> Self {
        ObjectSchema {
            properties: Map::new(),
            required: Vec::new(),
            choices: Vec::new(),
        }
    }

    /// Adds a field with its finished schema.
    pub fn field(&mut self, name: &str, schema: Value, required: bool) {
        self.properties.insert(name.to_owned(), schema);
        if required {
            self.required.push(Value::from(name));
        }
    }

    /// Adds a choice of shapes (a flattened tagged enum's variants): the
    /// object has these fields and exactly one branch's.
    pub fn choose(&mut self, branches: Vec<Branch>) {
        self.choices.push(branches);
    }

    /// The schema: `{"type":"object","properties":{..},"required":[..],
    /// "additionalProperties":false}`, `required` left out when empty; with
    /// choices, `{"type":"object","oneOf":[..]}`, a closed object of this
    /// kind for each combination of branches.
    pub fn finish(self, description: Option<&str>) -> Value {
        let mut schema = Map::new();
        if let Some(description) = description {
            schema.insert("description".into(), description.into());
        }
        schema.insert("type".into(), "object".into());
        if self.choices.is_empty() {
            schema.insert("properties".into(), Value::Object(self.properties));
            if !self.required.is_empty() {
                schema.insert("required".into(), Value::Array(self.required));
            }
            schema.insert("additionalProperties".into(), false.into());
        } else {
            let shapes = self
                .shapes()
                .into_iter()
                .map(|(shape, description)| shape.finish(description))
                .collect();
            schema.insert("oneOf".into(), Value::Array(shapes));
        }
        Value::Object(schema)
    }

    /// Every combination of one branch per choice, merged with the fields
    /// beside them, each with the description of its (last described)
    /// variant; none of them has choices left.
    fn shapes(self) -> Vec<(ObjectSchema, Option<&'static str>)> {
        let own = ObjectSchema {
            properties: self.properties,
            required: self.required,
            choices: Vec::new(),
        };
        let mut shapes = vec![(own, None)];
        for choice in self.choices {
            let mut next = Vec::new();
            for (shape, described) in &shapes {
                for branch in &choice {
                    for (inner, inner_described) in branch.fields.clone().shapes() {
                        let mut merged = shape.clone();
                        merged.properties.extend(inner.properties);
                        merged.required.extend(inner.required);
                        let description = branch.description.or(inner_described).or(*described);
                        next.push((merged, description));
                    }
                }
            }
            shapes = next;
        }
        shapes
    }
}

impl Default for ObjectSchema {
    fn default() -> Self {
        ObjectSchema::new()
    }
}

/// Reports each key of `object` that only another variant declares (in
/// `siblings`, not in `own`) and that is not `null`: for a flattened
/// tagged enum that denies unknown fields, where the keys beside the
/// variant's are the surrounding struct's business. True if there was one.
pub fn other_variants_fields(
    object: &Map<String, Value>,
    own: &FieldNames,
    also_allowed: &[&str],
    siblings: &FieldNames,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let mut found = false;
    for (key, value) in object {
        if value.is_null()
            || !siblings.contains(key)
            || own.contains(key)
            || also_allowed.contains(&key.as_str())
        {
            continue;
        }
        found = true;
        report_unknown(key, own, also_allowed, path, errors);
    }
    found
}

/// Builds the JSON form of a parsed struct, leaving out absent options.
#[derive(Debug)]
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

#[cfg(test)]
mod tests {
    use super::*;

    const INNER: FieldNames = FieldNames {
        own: &["b", "c"],
        aliases: &["see"],
        flattened: &[],
    };
    const OUTER: FieldNames = FieldNames {
        own: &["a"],
        aliases: &[],
        flattened: &[&INNER],
    };

    #[test]
    fn names_include_flattened_ones() {
        assert!(OUTER.contains("a") && OUTER.contains("c") && OUTER.contains("see"));
        assert!(!OUTER.contains("d") && !OUTER.contains(""));
        // Aliases are read, never listed.
        assert_eq!(OUTER.all(), ["a", "b", "c"]);
        const OTHER: FieldNames = FieldNames {
            own: &["x", "b"],
            aliases: &[],
            flattened: &[],
        };
        assert!(OUTER.overlaps(&OTHER) && OTHER.overlaps(&INNER));
        assert!(!INNER.overlaps(&FieldNames::EMPTY));
        const { assert!(OUTER.contains("b")) };
    }
}
