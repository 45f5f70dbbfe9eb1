//! The where clause of the generated impls: for every field whose type
//! mentions a type parameter, the traits its attributes need of it
//! (`Vec<T>: ParamValue`, `T: Default` for a skipped `T`, ...). Bounds on
//! the field types, not on `T` itself, so `struct Page<T> { items: Vec<T> }`
//! asks exactly what it uses, as serde's derive does.

use crate::internals::ast::{Container, Data, Field, Style};
use crate::internals::attr::{DefaultValue, OneOf, Repr, ValueAttrs};
use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use std::collections::BTreeSet;
use syn::{Generics, Type, WherePredicate, parse_quote};

pub(super) fn generics(model: &Container) -> Generics {
    let mut generics = model.original.generics.clone();
    let params: BTreeSet<String> = generics
        .type_params()
        .map(|param| param.ident.to_string())
        .collect();
    if params.is_empty() {
        return generics;
    }
    // An internally tagged newtype variant lends its struct's fields to
    // the tagged object: its type must be a `ParamObject`, as a flattened
    // field's must.
    let internal = matches!(model.attrs.repr, Repr::Internal { .. });
    let fields: Vec<(&Field, bool)> = match &model.data {
        Data::Struct(fields) => fields
            .iter()
            .map(|f| (f, f.attrs.flatten.is_some()))
            .collect(),
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| {
                let lends = internal && v.style == Style::Newtype;
                v.fields
                    .iter()
                    .map(move |f| (f, lends || f.attrs.flatten.is_some()))
            })
            .collect(),
    };
    // Compared as text: syn's types implement `PartialEq` only with a
    // feature this crate does without.
    let mut seen = BTreeSet::new();
    let mut predicates: Vec<WherePredicate> = Vec::new();
    for (field, lends_fields) in fields {
        if !mentions(field.ty, &params) {
            continue;
        }
        for predicate in field_bounds(field, lends_fields) {
            if seen.insert(quote!(#predicate).to_string()) {
                predicates.push(predicate);
            }
        }
    }
    generics.make_where_clause().predicates.extend(predicates);
    generics
}

/// Whether the type names one of the type parameters anywhere.
fn mentions(ty: &Type, params: &BTreeSet<String>) -> bool {
    fn walk(tokens: TokenStream, params: &BTreeSet<String>) -> bool {
        tokens.into_iter().any(|token| match token {
            TokenTree::Ident(ident) => params.contains(&ident.to_string()),
            TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    walk(quote!(#ty), params)
}

fn field_bounds(field: &Field, lends_fields: bool) -> Vec<WherePredicate> {
    let ty = field.ty;
    let attrs = &field.attrs;
    let mut bounds: Vec<WherePredicate> = Vec::new();
    let default_trait = match &attrs.default {
        Some(DefaultValue::Trait) => true,
        None => attrs.skip.is_some(),
        Some(DefaultValue::Expr(_) | DefaultValue::Json(..)) => false,
    };
    if default_trait {
        bounds.push(parse_quote!(#ty: ::core::default::Default));
    }
    if attrs.skip.is_some() {
        return bounds;
    }
    if lends_fields {
        bounds.push(parse_quote!(#ty: ::tool_core::__private::ParamObject));
        return bounds;
    }
    bounds.push(parse_quote!(#ty: ::tool_core::__private::ParamValue));
    bounds.extend(value_bounds(&quote!(#ty), &attrs.value));
    if let Some((_, _, items)) = &attrs.items {
        bounds.push(parse_quote!(#ty: ::tool_core::__private::HasItems));
        let item = quote!(<#ty as ::tool_core::__private::HasItems>::Item);
        bounds.extend(value_bounds(&item, items));
    }
    bounds
}

fn value_bounds(ty: &TokenStream, value: &ValueAttrs) -> Vec<WherePredicate> {
    let mut bounds: Vec<WherePredicate> = Vec::new();
    if value.min.is_some() || value.max.is_some() {
        bounds.push(parse_quote!(#ty: ::tool_core::__private::Numeric));
    }
    if value.min_length.is_some() || value.max_length.is_some() {
        bounds.push(parse_quote!(#ty: ::tool_core::__private::HasLength));
    }
    let strings = matches!(value.one_of, Some((_, OneOf::Strings(_))));
    if value.pattern.is_some() || value.format.is_some() || strings {
        bounds.push(parse_quote!(#ty: ::tool_core::__private::StringLike));
    }
    match &value.one_of {
        Some((_, list @ OneOf::Numbers(_))) if list.has_float() => {
            bounds.push(parse_quote!(#ty: ::tool_core::__private::FloatLike));
        }
        Some((_, OneOf::Numbers(_))) => {
            bounds.push(parse_quote!(#ty: ::tool_core::__private::Numeric));
        }
        _ => {}
    }
    bounds
}
