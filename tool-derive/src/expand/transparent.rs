//! A newtype (`struct UserId(String)`) or a `#[param(transparent)]`
//! struct: the value of its one field, as serde writes it. Its schema is
//! the field's, with the field's attributes applied and the struct's
//! description; its parse is the field's, constraints checked; the other
//! fields are skipped and take their defaults.

use super::constraints::Statics;
use super::fields::Fields;
use super::{optional_str, param_value, scoped};
use crate::internals::ast::{Container, Field};
use crate::internals::attr::DefaultValue;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub(super) fn expand(model: &Container, fields: &[Field], value: &Field) -> TokenStream {
    let ident = &model.original.ident;
    let generics = super::bounds::generics(model);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let statics = Statics::default();
    let code = Fields::new(fields, &statics);
    let index = fields
        .iter()
        .position(|field| std::ptr::eq(field, value))
        .unwrap_or_default();
    let inner = value.ty;
    let inner_value = param_value(inner);
    let described = |schema: TokenStream| match &model.description {
        Some(description) => quote! {{
            let mut __schema = #schema;
            ::tool_core::__private::describe_if_undescribed(&mut __schema, #description);
            __schema
        }},
        None => schema,
    };
    let schema = described(code.value_schema(index));
    let parse = code.value_parse(index, quote!(__value), quote!(*__path));
    let construct = construct(fields, index);
    let member = &value.member;
    let description = optional_str(model.description.as_deref());
    let tool_params = tool_params(model, &generics, inner, &description);
    let kinds = kinds(model, &generics, inner);
    let statics = statics.into_tokens();
    scoped(quote! {
        #statics

        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
            const OPTIONAL: bool = #inner_value::OPTIONAL;

            fn schema() -> ::tool_core::__private::Value {
                #schema
            }

            #[inline]
            fn parse_value(
                __value: &::tool_core::__private::Value,
                __path: &::tool_core::__private::ParamPath<'_>,
                __errors: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                #parse.map(|__inner| #construct)
            }

            fn when_missing() -> ::core::option::Option<Self> {
                #inner_value::when_missing().map(|__inner| #construct)
            }

            fn to_json(&self) -> ::tool_core::__private::Value {
                #inner_value::to_json(&self.#member)
            }
        }

        #tool_params
        #kinds
    })
}

/// `Self { value: __inner, skipped: Default::default(), .. }`.
fn construct(fields: &[Field], index: usize) -> TokenStream {
    let members = fields.iter().enumerate().map(|(i, field)| {
        let member = &field.member;
        if i == index {
            return quote!(#member: __inner);
        }
        let ty = field.ty;
        let value = match &field.attrs.default {
            Some(DefaultValue::Expr(expr)) => {
                quote_spanned!(expr.span()=> { let __default: #ty = #expr; __default })
            }
            Some(DefaultValue::Json(text, _)) => {
                let field_name = field.rust_name();
                quote!({
                    static __DEFAULT: ::std::sync::OnceLock<::tool_core::__private::Value> =
                        ::std::sync::OnceLock::new();
                    ::tool_core::__private::default_from_json::<#ty>(#field_name, #text, &__DEFAULT)
                })
            }
            _ => quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default()),
        };
        quote!(#member: #value)
    });
    quote!(Self { #(#members,)* })
}

/// `ToolParams` when the inner value is a tool's arguments (a bound that
/// leaves the impl out when it is not).
fn tool_params(
    model: &Container,
    generics: &syn::Generics,
    inner: &syn::Type,
    description: &TokenStream,
) -> TokenStream {
    let ident = &model.original.ident;
    let mut generics = generics.clone();
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote!(for<'__tool> #inner: ::tool_core::__private::ToolParams));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {
            fn json_schema() -> ::tool_core::__private::Value {
                let mut __schema = <#inner as ::tool_core::__private::ToolParams>::json_schema();
                if let ::core::option::Option::Some(__description) = #description {
                    ::tool_core::__private::describe_if_undescribed(&mut __schema, __description);
                }
                __schema
            }
        }
    }
}

/// The attribute kinds of the inner value (`min` on a newtype of a number,
/// `pattern` on a newtype of a string), each under a bound that leaves the
/// impl out when the inner value is not of that kind.
fn kinds(model: &Container, generics: &syn::Generics, inner: &syn::Type) -> TokenStream {
    let ident = &model.original.ident;
    let with = |bound: TokenStream| {
        let mut generics = generics.clone();
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(for<'__tool> #inner: #bound));
        generics
    };
    let numeric = with(quote!(::tool_core::__private::Numeric));
    let float = with(quote!(::tool_core::__private::FloatLike));
    let length = with(quote!(::tool_core::__private::HasLength));
    let string = with(quote!(::tool_core::__private::StringLike));
    let items = with(quote!(::tool_core::__private::HasItems));
    let split = |generics: &syn::Generics| {
        let (i, _, w) = generics.split_for_impl();
        (quote!(#i), quote!(#w))
    };
    let (_, ty_generics, _) = generics.split_for_impl();
    let (numeric_impl, numeric_where) = split(&numeric);
    let (float_impl, float_where) = split(&float);
    let (length_impl, length_where) = split(&length);
    let (string_impl, string_where) = split(&string);
    let (items_impl, items_where) = split(&items);
    quote! {
        #[automatically_derived]
        impl #numeric_impl ::tool_core::__private::Numeric for #ident #ty_generics #numeric_where {
            const INTEGER: bool = <#inner as ::tool_core::__private::Numeric>::INTEGER;
        }
        #[automatically_derived]
        impl #float_impl ::tool_core::__private::FloatLike for #ident #ty_generics #float_where {}
        #[automatically_derived]
        impl #length_impl ::tool_core::__private::HasLength for #ident #ty_generics #length_where {
            const LENGTH_OF: ::tool_core::__private::LengthOf = <#inner as ::tool_core::__private::HasLength>::LENGTH_OF;
        }
        #[automatically_derived]
        impl #string_impl ::tool_core::__private::StringLike for #ident #ty_generics #string_where {}
        #[automatically_derived]
        impl #items_impl ::tool_core::__private::HasItems for #ident #ty_generics #items_where {
            type Item = <#inner as ::tool_core::__private::HasItems>::Item;
        }
    }
}
