//! The checked model of a `#[derive(ToolParams)]` input. Each node keeps its
//! syn node, so late checks can still point at the user's tokens.

use super::attr::{self, ContainerAttrs, FieldAttrs, Place};
use super::ctxt::Ctxt;
use super::doc;
use syn::{Data, DeriveInput, Fields, Ident, Type};

pub enum Input<'a> {
    Struct(Struct<'a>),
    Enum(Enum<'a>),
}

pub struct Struct<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    pub description: Option<String>,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: &'a Ident,
    pub ty: &'a Type,
    pub json_name: String,
    pub description: Option<String>,
    pub attrs: FieldAttrs,
}

pub struct Enum<'a> {
    pub original: &'a DeriveInput,
    pub description: Option<String>,
    pub variants: Vec<Variant<'a>>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
}

impl<'a> Input<'a> {
    /// The model, or `None` when the input's shape cannot be a tool
    /// parameter at all (the reason is in `cx`).
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        match &input.data {
            Data::Struct(data) => Struct::from_syn(cx, input, &data.fields).map(Input::Struct),
            Data::Enum(data) => Enum::from_syn(cx, input, data).map(Input::Enum),
            Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "unions cannot be tool parameters: use a struct with named fields, or a unit-only enum",
                );
                None
            }
        }
    }
}

impl<'a> Struct<'a> {
    fn from_syn(cx: &Ctxt, input: &'a DeriveInput, fields: &'a Fields) -> Option<Self> {
        let attrs = attr::container(cx, &input.attrs, Place::Struct);
        let fields = match fields {
            Fields::Named(named) => named
                .named
                .iter()
                .map(|field| Field::from_syn(cx, field, &attrs))
                .collect(),
            Fields::Unit => Vec::new(),
            Fields::Unnamed(unnamed) => {
                cx.error_spanned_by(
                    unnamed,
                    "tuple structs cannot be tool parameters: a tool's arguments are a JSON object, so each field needs a name (`struct Params { value: String }`)",
                );
                return None;
            }
        };
        let model = Struct {
            original: input,
            description: attrs
                .description
                .clone()
                .or_else(|| doc::description(&input.attrs)),
            attrs,
            fields,
        };
        model.check_unique_names(cx);
        Some(model)
    }

    fn check_unique_names(&self, cx: &Ctxt) {
        for (index, field) in self.fields.iter().enumerate() {
            if let Some(first) = self.fields[..index]
                .iter()
                .find(|earlier| earlier.json_name == field.json_name)
            {
                cx.error_spanned_by(
                    field.member,
                    format!(
                        "fields `{}` and `{}` both have the JSON name \"{}\"; give one a different `#[param(rename = \"...\")]`",
                        first.member, field.member, field.json_name
                    ),
                );
            }
        }
    }
}

impl<'a> Field<'a> {
    fn from_syn(cx: &Ctxt, field: &'a syn::Field, container: &ContainerAttrs) -> Self {
        let member = field.ident.as_ref().expect("named fields have identifiers");
        let attrs = attr::field(cx, &field.attrs);
        let rust_name = unraw(member);
        let json_name = match (&attrs.rename, container.rename_all) {
            (Some(rename), _) => rename.clone(),
            (None, Some(rule)) => rule.apply_to_field(&rust_name),
            (None, None) => rust_name,
        };
        check_bounds(cx, &attrs);
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
}

fn check_bounds(cx: &Ctxt, attrs: &FieldAttrs) {
    if let (Some((_, min)), Some((max_tokens, max))) = (&attrs.min, &attrs.max)
        && min.as_f64() > max.as_f64()
    {
        cx.error_spanned_by(
            max_tokens,
            "`max` is below `min`: no value could satisfy both",
        );
    }
    if let (Some((_, min)), Some((max_tokens, max))) = (&attrs.min_length, &attrs.max_length)
        && min > max
    {
        cx.error_spanned_by(
            max_tokens,
            "`max_length` is below `min_length`: no value could satisfy both",
        );
    }
}

impl<'a> Enum<'a> {
    fn from_syn(cx: &Ctxt, input: &'a DeriveInput, data: &'a syn::DataEnum) -> Option<Self> {
        let attrs = attr::container(cx, &input.attrs, Place::Enum);
        let mut variants = Vec::new();
        let mut shape_ok = true;
        for variant in &data.variants {
            let variant_attrs = attr::variant(cx, &variant.attrs);
            if !matches!(variant.fields, Fields::Unit) {
                cx.error_spanned_by(
                    &variant.fields,
                    format!(
                        "variant `{}` carries data, but a tool parameter enum is a JSON string: use unit variants only",
                        variant.ident
                    ),
                );
                shape_ok = false;
                continue;
            }
            let rust_name = unraw(&variant.ident);
            let json_name = match (variant_attrs.rename, attrs.rename_all) {
                (Some(rename), _) => rename,
                (None, Some(rule)) => rule.apply_to_variant(&rust_name),
                (None, None) => rust_name,
            };
            if let Some(first) = variants
                .iter()
                .find(|earlier: &&Variant| earlier.json_name == json_name)
            {
                cx.error_spanned_by(
                    &variant.ident,
                    format!(
                        "variants `{}` and `{}` both have the JSON name \"{json_name}\"",
                        first.ident, variant.ident
                    ),
                );
            }
            variants.push(Variant {
                ident: &variant.ident,
                json_name,
            });
        }
        if data.variants.is_empty() {
            cx.syn_error(syn::Error::new(
                input.ident.span(),
                "an enum without variants cannot be a tool parameter: no value could be given",
            ));
            shape_ok = false;
        }
        shape_ok.then(|| Enum {
            original: input,
            description: attrs.description.or_else(|| doc::description(&input.attrs)),
            variants,
        })
    }
}

/// `r#type` is the JSON name `type`.
pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#")
        .map_or_else(|| name.clone(), str::to_owned)
}
