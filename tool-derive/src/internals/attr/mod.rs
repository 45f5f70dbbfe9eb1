//! `#[param(...)]` on containers, fields and variants, and `#[tool(...)]`.
//! Every key is checked for place, duplicates and literal type; each
//! problem is recorded in the `Ctxt` and parsing goes on, so one build
//! shows every mistake.

mod container;
mod field;
mod json_tokens;
mod tool;
mod values;

pub(crate) use container::{ContainerAttrs, Repr, container, variant};
pub(crate) use field::{DefaultValue, Example, FieldAttrs, OneOf, ValueAttrs, field};
pub(crate) use tool::{ToolAttrs, tool};
pub(crate) use values::{Literal, Number, literal, ungroup};

use super::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::Attribute;
use syn::meta::ParseNestedMeta;

/// Where an attribute sits; decides which keys it may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Struct,
    Enum,
    Field,
    Variant,
}

const STRUCT_KEYS: &[&str] = &[
    "rename_all",
    "deny_unknown_fields",
    "description",
    "transparent",
];
const ENUM_KEYS: &[&str] = &[
    "rename_all",
    "rename_all_fields",
    "deny_unknown_fields",
    "description",
    "tag",
    "content",
    "untagged",
];
/// The keys of a field that are not constraints on its value.
const FIELD_KEYS: &[&str] = &[
    "description",
    "rename",
    "default",
    "alias",
    "flatten",
    "skip",
    "example",
    "deprecated",
    "items",
];
/// The constraint keys, which a field and `items(...)` both take.
const VALUE_KEYS: &[&str] = &[
    "min",
    "max",
    "min_length",
    "max_length",
    "one_of",
    "pattern",
    "format",
];
const VARIANT_KEYS: &[&str] = &["rename", "alias", "rename_all", "description"];

impl Place {
    fn keys(self) -> Vec<&'static str> {
        match self {
            Place::Struct => STRUCT_KEYS.to_vec(),
            Place::Enum => ENUM_KEYS.to_vec(),
            Place::Field => {
                // As messages list them: name, description, default and
                // alias, then the constraints, then the rest.
                let mut keys = FIELD_KEYS[..4].to_vec();
                keys.extend(VALUE_KEYS);
                keys.extend(&FIELD_KEYS[4..]);
                keys
            }
            Place::Variant => VARIANT_KEYS.to_vec(),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Place::Struct => "a struct",
            Place::Enum => "an enum",
            Place::Field => "a field",
            Place::Variant => "a variant",
        }
    }
}

/// One attribute value, set at most once.
pub(crate) struct Attr<'c, T> {
    cx: &'c Ctxt,
    attribute: &'static str,
    name: &'static str,
    value: Option<(TokenStream, T)>,
}

impl<'c, T> Attr<'c, T> {
    pub(crate) fn none(cx: &'c Ctxt, attribute: &'static str, name: &'static str) -> Self {
        Attr {
            cx,
            attribute,
            name,
            value: None,
        }
    }

    /// Sets the value; a second setting is reported at its own tokens.
    pub(crate) fn set<A: ToTokens>(&mut self, tokens: A, value: T) {
        let tokens = tokens.into_token_stream();
        if self.value.is_some() {
            self.cx.error_spanned_by(
                tokens,
                format!("duplicate {} attribute `{}`", self.attribute, self.name),
            );
        } else {
            self.value = Some((tokens, value));
        }
    }

    pub(crate) fn get(self) -> Option<T> {
        self.value.map(|(_, value)| value)
    }

    pub(crate) fn get_with_tokens(self) -> Option<(TokenStream, T)> {
        self.value
    }
}

/// Calls `handle` for each key of each `#[param(...)]` that is allowed at
/// `place`; reports the others, naming what is allowed.
fn for_each_param(
    cx: &Ctxt,
    attrs: &[Attribute],
    place: Place,
    mut handle: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        if !attr.path().is_ident("param") {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            if place.keys().contains(&key.as_str()) {
                return handle(&key, &meta);
            }
            values::skip_value(&meta)?;
            cx.error_spanned_by(&meta.path, unknown_key_message(&meta.path, &key, place));
            Ok(())
        });
        if let Err(error) = parsed {
            cx.syn_error(error);
        }
    }
}

/// The key of one `key = value` or `key(...)`, empty for a path like `a::b`.
fn key_of(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn unknown_key_message(path: &syn::Path, key: &str, place: Place) -> String {
    let shown = if key.is_empty() {
        path.to_token_stream().to_string().replace(' ', "")
    } else {
        key.to_owned()
    };
    let elsewhere = [Place::Struct, Place::Enum, Place::Field, Place::Variant]
        .into_iter()
        .find(|other| *other != place && other.keys().contains(&key));
    let allowed = place
        .keys()
        .iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match elsewhere {
        Some(other) => format!(
            "`{shown}` belongs on {}, not on {}; here the param attributes are {allowed}",
            other.noun(),
            place.noun()
        ),
        None => format!("unknown param attribute `{shown}`; expected one of {allowed}"),
    }
}
