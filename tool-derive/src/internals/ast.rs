//! The checked model of a `#[derive(ToolParams)]` input. Each node keeps its
//! syn node, so late checks can still point at the user's tokens.

use super::attr::{self, ContainerAttrs, FieldAttrs, Place, Repr};
use super::case::RenameRule;
use super::ctxt::Ctxt;
use super::doc;
use syn::{Data as SynData, DeriveInput, Fields, Ident, Member, Type};

pub(crate) struct Container<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    pub description: Option<String>,
    pub data: Data<'a>,
}

pub(crate) enum Data<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

pub(crate) struct Field<'a> {
    /// `self.<member>`: a name, or a position in a tuple variant.
    pub member: Member,
    pub ty: &'a Type,
    pub json_name: String,
    pub description: Option<String>,
    pub attrs: FieldAttrs,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Unit,
    /// One unnamed field: the data is that field's value.
    Newtype,
    /// Several unnamed fields: an array, one item per field.
    Tuple,
    /// Named fields: an object.
    Struct,
}

pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
    /// Other names parse reads the variant under, with their tokens.
    pub aliases: Vec<(proc_macro2::TokenStream, String)>,
    pub description: Option<String>,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

impl<'a> Container<'a> {
    /// The model, or `None` when the input's shape cannot be a tool
    /// parameter at all (the reason is in `cx`).
    pub(crate) fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let (attrs, data) = match &input.data {
            SynData::Struct(data) => {
                let attrs = attr::container(cx, &input.attrs, Place::Struct);
                let fields = struct_fields(cx, &data.fields, attrs.rename_all)?;
                (attrs, Data::Struct(fields))
            }
            SynData::Enum(data) => {
                let attrs = attr::container(cx, &input.attrs, Place::Enum);
                let variants = data
                    .variants
                    .iter()
                    .map(|variant| Variant::from_syn(cx, variant, &attrs))
                    .collect();
                if data.variants.is_empty() {
                    cx.syn_error(syn::Error::new(
                        input.ident.span(),
                        "an enum without variants cannot be a tool parameter: no value could be given",
                    ));
                    return None;
                }
                (attrs, Data::Enum(variants))
            }
            SynData::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "unions cannot be tool parameters: use a struct with named fields, or an enum",
                );
                return None;
            }
        };
        let container = Container {
            original: input,
            description: attrs
                .description
                .clone()
                .or_else(|| doc::description(&input.attrs)),
            attrs,
            data,
        };
        super::check::container(cx, &container);
        Some(container)
    }

    /// The enum's variants, when it is one.
    pub(crate) fn variants(&self) -> &[Variant<'a>] {
        match &self.data {
            Data::Enum(variants) => variants,
            Data::Struct(_) => &[],
        }
    }

    /// The one field a struct is the value of: a newtype's
    /// (`struct UserId(String)`), or a `#[param(transparent)]` struct's one
    /// field that is not skipped.
    pub(crate) fn transparent_field(&self) -> Option<&Field<'a>> {
        let Data::Struct(fields) = &self.data else {
            return None;
        };
        let newtype = matches!(&self.original.data, SynData::Struct(data) if matches!(data.fields, Fields::Unnamed(_)));
        if !newtype && self.attrs.transparent.is_none() {
            return None;
        }
        let mut kept = fields.iter().filter(|field| field.attrs.skip.is_none());
        match (kept.next(), kept.next()) {
            (Some(field), None) => Some(field),
            _ => None,
        }
    }

    /// An externally tagged enum of unit variants only: the string enum
    /// `{"type":"string","enum":[..]}`.
    pub(crate) fn is_string_enum(&self) -> bool {
        matches!(self.attrs.repr, Repr::External)
            && matches!(&self.data, Data::Enum(variants) if variants.iter().all(|v| v.style == Style::Unit))
    }
}

fn struct_fields<'a>(
    cx: &Ctxt,
    fields: &'a Fields,
    rename_all: Option<RenameRule>,
) -> Option<Vec<Field<'a>>> {
    match fields {
        Fields::Named(named) => Some(
            named
                .named
                .iter()
                .enumerate()
                .map(|(index, field)| Field::from_syn(cx, field, index, rename_all))
                .collect(),
        ),
        Fields::Unit => Some(Vec::new()),
        // A newtype is the value it wraps, as serde writes it.
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            Some(vec![Field::unnamed(cx, &unnamed.unnamed[0], 0)])
        }
        Fields::Unnamed(unnamed) => {
            cx.error_spanned_by(
                unnamed,
                "tuple structs of several fields cannot be tool parameters: name the fields (`struct Params { value: String }`); a tuple struct of one field (a newtype) is the value it wraps",
            );
            None
        }
    }
}

/// The keys of `#[param(...)]` an unnamed field takes: what describes or
/// constrains its value.
pub(crate) const UNNAMED_KEYS: &[&str] = &[
    "description",
    "min",
    "max",
    "min_length",
    "max_length",
    "one_of",
    "pattern",
    "format",
    "items",
    "example",
];

impl<'a> Field<'a> {
    fn from_syn(
        cx: &Ctxt,
        field: &'a syn::Field,
        index: usize,
        rename_all: Option<RenameRule>,
    ) -> Self {
        let mut attrs = attr::field(cx, &field.attrs);
        attrs.deprecated |= field.attrs.iter().any(|a| a.path().is_ident("deprecated"));
        let (member, rust_name) = match &field.ident {
            Some(ident) => (Member::Named(ident.clone()), unraw(ident)),
            None => (Member::Unnamed(index.into()), index.to_string()),
        };
        let json_name = match (&attrs.rename, rename_all) {
            (Some(rename), _) => rename.clone(),
            (None, Some(rule)) => rule.apply_to_field(&rust_name),
            (None, None) => rust_name,
        };
        Field {
            member,
            ty: &field.ty,
            json_name,
            description: attrs
                .description
                .clone()
                .or_else(|| doc::description(&field.attrs)),
            attrs,
        }
    }

    /// A field of a tuple or newtype variant (or a newtype struct): a
    /// position, which the value's description and constraints describe,
    /// but which has no name to rename, default or flatten.
    pub(crate) fn unnamed(cx: &Ctxt, field: &'a syn::Field, index: usize) -> Self {
        let attrs = attr::field(cx, &field.attrs);
        keyless(
            cx,
            &attrs,
            "an unnamed field (a position in an array, or the value a newtype wraps)",
        );
        Field {
            member: Member::Unnamed(index.into()),
            ty: &field.ty,
            json_name: index.to_string(),
            description: attrs
                .description
                .clone()
                .or_else(|| doc::description(&field.attrs)),
            attrs,
        }
    }

    /// The field's name in Rust, as messages say it (`limit`, or `0` for a
    /// position).
    pub(crate) fn rust_name(&self) -> String {
        match &self.member {
            Member::Named(ident) => ident.to_string(),
            Member::Unnamed(index) => index.index.to_string(),
        }
    }

    /// Shown to the model and read from the arguments under its own name
    /// (neither skipped nor flattened).
    pub(crate) fn is_named_in_json(&self) -> bool {
        self.attrs.skip.is_none() && self.attrs.flatten.is_none()
    }
}

impl<'a> Variant<'a> {
    fn from_syn(cx: &Ctxt, variant: &'a syn::Variant, container: &ContainerAttrs) -> Self {
        let attrs = attr::variant(cx, &variant.attrs);
        let rust_name = unraw(&variant.ident);
        let json_name = match (attrs.rename.clone(), container.rename_all) {
            (Some(rename), _) => rename,
            (None, Some(rule)) => rule.apply_to_variant(&rust_name),
            (None, None) => rust_name,
        };
        let fields_rule = attrs.rename_all.or(container.rename_all_fields);
        let (style, fields) = match &variant.fields {
            Fields::Unit => (Style::Unit, Vec::new()),
            Fields::Named(named) => (
                Style::Struct,
                named
                    .named
                    .iter()
                    .enumerate()
                    .map(|(index, field)| Field::from_syn(cx, field, index, fields_rule))
                    .collect(),
            ),
            Fields::Unnamed(unnamed) => {
                let style = if unnamed.unnamed.len() == 1 {
                    Style::Newtype
                } else {
                    Style::Tuple
                };
                let fields = unnamed
                    .unnamed
                    .iter()
                    .enumerate()
                    .map(|(index, field)| Field::unnamed(cx, field, index))
                    .collect();
                (style, fields)
            }
        };
        Variant {
            ident: &variant.ident,
            json_name,
            aliases: attrs.aliases,
            description: attrs
                .description
                .or_else(|| doc::description(&variant.attrs)),
            style,
            fields,
        }
    }
}

/// `r#type` is the JSON name `type`.
pub(crate) fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#")
        .map_or_else(|| name.clone(), str::to_owned)
}

/// Refuses the keys that name, default or place a field, on a field that
/// has no key of its own (`what` says which); it takes [`UNNAMED_KEYS`].
pub(crate) fn keyless(cx: &Ctxt, attrs: &FieldAttrs, what: &str) {
    for (key, tokens) in &attrs.keys {
        if UNNAMED_KEYS.contains(&key.as_str()) {
            continue;
        }
        cx.error_spanned_by(
            tokens,
            format!(
                "`{key}` does not apply to {what}, which has no key of its own; it takes {}",
                UNNAMED_KEYS
                    .iter()
                    .map(|key| format!("`{key}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}
