//! What `#[param(...)]` attributes add to a field's type: bounds, lengths,
//! a value list, a pattern, a format, and the same for each item of a list.
//! Each is one [`Constraints`] value that both writes its schema keywords
//! and checks the JSON the model sent, so the two cannot disagree.
//!
//! Which field types take which attribute is decided by the marker traits
//! in [`kinds`]; the derive asserts them at the attribute's span, so `min`
//! on a `String` is a compile error that says why.

mod bounds;
mod kinds;
mod lengths;
mod one_of;
mod pattern;
mod shown;

pub use bounds::Bound;
pub use kinds::{FloatLike, HasItems, HasLength, LengthOf, Numeric, StringLike};
pub use one_of::Literal;
pub use pattern::Pattern;
pub use shown::{assert_listed, assert_shown};

use super::describe::Excerpt;
use super::formats::Format;
use super::{ParamPath, ParseContext};
use serde_json::{Map, Value};

/// Every constraint one value carries, as the derive writes it.
///
/// The checks read the JSON the model sent, not the parsed value: that is
/// what the schema's keywords judge, so parse and schema agree even where
/// parsing rounds (an `f32`). They run only on values that parsed, and pass
/// over `null` (an absent option).
#[derive(Clone, Copy, Debug)]
pub struct Constraints {
    /// `minimum`.
    pub min: Option<Bound>,
    /// `maximum`.
    pub max: Option<Bound>,
    /// Whether the bounded number is an integer, which messages say.
    pub integer: bool,
    /// `minLength` / `minItems`.
    pub min_length: Option<usize>,
    /// `maxLength` / `maxItems`.
    pub max_length: Option<usize>,
    /// What the lengths count.
    pub length_of: LengthOf,
    /// `pattern`, compiled once per process.
    pub pattern: Option<&'static Pattern>,
    /// `format`, asserted.
    pub format: Option<Format>,
    /// `enum`: the only values allowed; empty for no list.
    pub one_of: &'static [Literal],
}

impl Constraints {
    /// No constraint at all; the derive sets the fields an attribute names.
    pub const NONE: Constraints = Constraints {
        min: None,
        max: None,
        integer: false,
        min_length: None,
        max_length: None,
        length_of: LengthOf::Characters,
        pattern: None,
        format: None,
        one_of: &[],
    };

    /// Writes the keywords into `schema` (into `T` of an `Option<T>` item's
    /// `anyOf [T, null]`, so `null` stays allowed).
    pub fn apply(&self, schema: &mut Value) {
        let Some(schema) = non_null_branch(schema) else {
            return;
        };
        if let Some(min) = self.min {
            bounds::tighten(schema, "minimum", min, std::cmp::Ordering::Greater);
        }
        if let Some(max) = self.max {
            bounds::tighten(schema, "maximum", max, std::cmp::Ordering::Less);
        }
        let (for_min, for_max) = lengths::keywords(schema);
        if let Some(min) = self.min_length {
            schema.insert(for_min.into(), Value::from(min));
        }
        if let Some(max) = self.max_length {
            schema.insert(for_max.into(), Value::from(max));
        }
        if let Some(pattern) = self.pattern {
            schema.insert("pattern".into(), pattern.source().into());
        }
        if let Some(format) = self.format {
            schema.insert("format".into(), format.name().into());
        }
        if !self.one_of.is_empty() {
            schema.insert(
                "enum".into(),
                self.one_of
                    .iter()
                    .map(|literal| literal.to_json())
                    .collect(),
            );
        }
    }

    /// Reports every constraint `value` breaks; true if it broke one.
    pub fn check(&self, value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> bool {
        let mut broken = false;
        if let Some(min) = self.min {
            broken |= bounds::check(value, min, bounds::Side::Min, self.integer, path, errors);
        }
        if let Some(max) = self.max {
            broken |= bounds::check(value, max, bounds::Side::Max, self.integer, path, errors);
        }
        if let Some(min) = self.min_length {
            broken |= lengths::check_min(value, min, self.length_of, path, errors);
        }
        if let Some(max) = self.max_length {
            broken |= lengths::check_max(value, max, self.length_of, path, errors);
        }
        if let (Some(pattern), Value::String(text)) = (self.pattern, value) {
            broken |= pattern.check(text, value, path, errors);
        }
        if let (Some(format), Value::String(text)) = (self.format, value) {
            broken |= check_format(format, text, value, path, errors);
        }
        if !self.one_of.is_empty() && !value.is_null() {
            broken |= one_of::check(self.one_of, value, path, errors);
        }
        broken
    }
}

/// Checks `text` against `format`, reporting it as `value` when it fails.
pub(crate) fn check_format(
    format: Format,
    text: &str,
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    let broken = !format.is_valid(text);
    if broken {
        report_format(format, value, path, errors);
    }
    broken
}

/// Reports `value` as not a string in `format`.
#[cold]
pub(crate) fn report_format(
    format: Format,
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    errors.push(
        path,
        format_args!(
            "expected {} string such as \"{}\", got {}",
            format.name(),
            format.example(),
            Excerpt(value)
        ),
    );
}

/// `description` and [`Constraints`] for each item of a list field
/// (`#[param(items(...))]`).
#[derive(Clone, Copy, Debug)]
pub struct ItemConstraints {
    /// The items' description.
    pub description: Option<&'static str>,
    /// What each item must satisfy.
    pub each: Constraints,
}

impl ItemConstraints {
    /// Writes the keywords into the array schema's `items`.
    pub fn apply(&self, schema: &mut Value) {
        let Some(items) = non_null_branch(schema).and_then(|array| array.get_mut("items")) else {
            return;
        };
        self.each.apply(items);
        if let Some(description) = self.description {
            super::derive_support::describe(items, description);
        }
    }

    /// Checks each item of the array `value`, at `path[i]`; true if one broke
    /// a constraint.
    pub fn check(&self, value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> bool {
        let Value::Array(items) = value else {
            return false;
        };
        let mut broken = false;
        for (index, item) in items.iter().enumerate() {
            broken |= self.each.check(item, &path.index(index), errors);
        }
        broken
    }
}

/// The object a keyword goes into: the schema itself, or `T` of an
/// `{"anyOf":[T,{"type":"null"}]}` (an `Option<T>` where null is allowed).
fn non_null_branch(schema: &mut Value) -> Option<&mut Map<String, Value>> {
    let is_nullable = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| {
            branches.len() == 2 && branches[1] == serde_json::json!({"type": "null"})
        });
    if is_nullable {
        return schema
            .get_mut("anyOf")
            .and_then(|branches| branches.get_mut(0))
            .and_then(Value::as_object_mut);
    }
    schema.as_object_mut()
}
