//! `Constraints` and `ItemConstraints` values for a field's attributes,
//! with the trait each attribute needs named at the attribute's span, and
//! the `static` each pattern is compiled in once.

use super::{first_span, respanned};
use crate::internals::attr::{Number, OneOf, ValueAttrs};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::cell::RefCell;
use syn::{Ident, Type};

/// The `static` items generated code needs (compiled patterns), declared
/// once beside the impls.
#[derive(Default)]
pub(super) struct Statics {
    items: RefCell<Vec<TokenStream>>,
}

impl Statics {
    /// A `static Pattern` for `pattern`, as written and translated; its
    /// name.
    fn pattern(&self, pattern: &syn::LitStr) -> Ident {
        let mut items = self.items.borrow_mut();
        let name = format_ident!("__PATTERN_{}", items.len());
        // The attribute was refused if the pattern does not translate, so
        // the error branch is only a guard.
        let translated = match crate::internals::pattern::translate(&pattern.value()) {
            Ok(translated) => quote!(#translated),
            Err(reason) => quote_spanned!(pattern.span()=> ::core::compile_error!(#reason)),
        };
        items.push(quote! {
            static #name: ::tool_core::__private::Pattern = ::tool_core::__private::Pattern::new(#pattern, #translated);
        });
        name
    }

    pub(super) fn into_tokens(self) -> TokenStream {
        self.items.into_inner().into_iter().collect()
    }
}

/// A kind of field type an attribute needs, named by its marker trait.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    String,
    Float,
    Items,
}

/// A statement naming the marker trait's constant of `ty` (spanned where
/// the error should point): a field type without the trait is an error
/// there, with the trait's own explanation.
pub(super) fn assert_kind(ty: &TokenStream, kind: Kind) -> TokenStream {
    let (name, constant) = match kind {
        Kind::String => ("StringLike", "STRING_LIKE"),
        Kind::Float => ("FloatLike", "FLOAT_LIKE"),
        Kind::Items => ("HasItems", "HAS_ITEMS"),
    };
    let name = Ident::new(name, Span::call_site());
    let constant = Ident::new(constant, Span::call_site());
    quote!(let () = <#ty as ::tool_core::__private::#name>::#constant;)
}

/// A statement naming `Numeric::INTEGER` of `ty`.
pub(super) fn assert_numeric(ty: &TokenStream) -> TokenStream {
    quote!(let _ = <#ty as ::tool_core::__private::Numeric>::INTEGER;)
}

pub(super) fn bound(number: Number) -> TokenStream {
    match number {
        Number::Int(int) => quote!(::tool_core::__private::Bound::Int(#int)),
        Number::Float(float) => quote!(::tool_core::__private::Bound::Float(#float)),
    }
}

/// The `Constraints` expression for `value`, where `ty_at(span)` is the
/// constrained type's tokens moved to `span`; `None` without constraints.
pub(super) fn constraints(
    value: &ValueAttrs,
    ty_at: &dyn Fn(Span) -> TokenStream,
    statics: &Statics,
) -> Option<TokenStream> {
    if value.is_empty() {
        return None;
    }
    let mut fields = TokenStream::new();
    let mut asserts = TokenStream::new();
    let numeric = |tokens: &TokenStream| {
        let ty = ty_at(first_span(tokens));
        quote!(<#ty as ::tool_core::__private::Numeric>::INTEGER)
    };
    if let Some((tokens, min)) = &value.min {
        let (integer, min) = (numeric(tokens), bound(*min));
        fields.extend(quote!(min: ::core::option::Option::Some(#min), integer: #integer,));
    }
    if let Some((tokens, max)) = &value.max {
        let (integer, max) = (numeric(tokens), bound(*max));
        let integer = if value.min.is_some() {
            TokenStream::new()
        } else {
            quote!(integer: #integer,)
        };
        fields.extend(quote!(max: ::core::option::Option::Some(#max), #integer));
    }
    let length_of = |tokens: &TokenStream| {
        let ty = ty_at(first_span(tokens));
        quote!(<#ty as ::tool_core::__private::HasLength>::LENGTH_OF)
    };
    if let Some((tokens, min)) = &value.min_length {
        let of = length_of(tokens);
        fields.extend(quote!(min_length: ::core::option::Option::Some(#min), length_of: #of,));
    }
    if let Some((tokens, max)) = &value.max_length {
        let of = if value.min_length.is_some() {
            TokenStream::new()
        } else {
            let of = length_of(tokens);
            quote!(length_of: #of,)
        };
        fields.extend(quote!(max_length: ::core::option::Option::Some(#max), #of));
    }
    let string_like = |tokens: &TokenStream| {
        let ty = ty_at(first_span(tokens));
        assert_kind(&ty, Kind::String)
    };
    if let Some((tokens, pattern)) = &value.pattern {
        asserts.extend(string_like(tokens));
        let name = statics.pattern(pattern);
        fields.extend(quote!(pattern: ::core::option::Option::Some(&#name),));
    }
    if let Some((tokens, variant)) = &value.format {
        asserts.extend(string_like(tokens));
        let variant = Ident::new(variant, first_span(tokens));
        fields.extend(
            quote!(format: ::core::option::Option::Some(::tool_core::__private::Format::#variant),),
        );
    }
    if let Some((tokens, list)) = &value.one_of {
        let ty = ty_at(first_span(tokens));
        let literals = match list {
            OneOf::Numbers(numbers) => {
                asserts.extend(if list.has_float() {
                    assert_kind(&ty, Kind::Float)
                } else {
                    assert_numeric(&ty)
                });
                numbers
                    .iter()
                    .map(|number| {
                        let number = bound(*number);
                        quote!(::tool_core::__private::Literal::Number(#number))
                    })
                    .collect::<Vec<_>>()
            }
            OneOf::Strings(strings) => {
                asserts.extend(string_like(tokens));
                strings
                    .iter()
                    .map(|text| quote!(::tool_core::__private::Literal::Str(#text)))
                    .collect()
            }
        };
        fields.extend(quote!(one_of: &[#(#literals),*],));
    }
    Some(quote! {
        {
            #asserts
            ::tool_core::__private::Constraints {
                #fields
                ..::tool_core::__private::Constraints::NONE
            }
        }
    })
}

/// The `ItemConstraints` expression of a field's `items(...)`, or `None`.
pub(super) fn items(
    items: &Option<(TokenStream, Option<String>, ValueAttrs)>,
    ty: &Type,
    statics: &Statics,
) -> Option<TokenStream> {
    let (items_tokens, description, value) = items.as_ref()?;
    // Every trait about the items is named at the inner key that needs it,
    // so a field that is no list is one error there, not one per key.
    let item_at = |span: Span| {
        let ty = respanned(ty, span);
        respanned(
            &quote!(<#ty as ::tool_core::__private::HasItems>::Item),
            span,
        )
    };
    let each = constraints(value, &item_at, statics)
        .unwrap_or_else(|| quote!(::tool_core::__private::Constraints::NONE));
    let assert = value.is_empty().then(|| {
        let ty = respanned(ty, first_span(items_tokens));
        assert_kind(&ty, Kind::Items)
    });
    let description = super::optional_str(description.as_deref());
    Some(quote! {
        {
            #assert
            ::tool_core::__private::ItemConstraints {
                description: #description,
                each: #each,
            }
        }
    })
}
