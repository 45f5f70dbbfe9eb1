//! Expands `#[derive(ToolParams)]`: a struct gets `ParamObject` (its fields,
//! which other objects can take in), `ParamValue` and `ToolParams`; an enum
//! gets `ParamValue` in its representation, and `ToolParams` when every
//! value of it is an object.

mod bounds;
mod constraints;
mod enums;
mod fields;
mod structs;
mod tagged;
mod transparent;
mod variants;

use crate::internals::ast::{Container, Data};
use crate::internals::ctxt::Ctxt;
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::new();
    let model = Container::from_syn(&cx, input);
    if let Err(errors) = cx.check() {
        let mut output = errors.into_compile_error();
        output.extend(stub(input));
        return Ok(output);
    }
    let model = model.expect("no errors, so the model was built");
    Ok(match &model.data {
        Data::Struct(fields) => match model.transparent_field() {
            Some(field) => transparent::expand(&model, fields, field),
            None => structs::expand(&model, fields),
        },
        Data::Enum(_) => enums::expand(&model),
    })
}

/// Impls with unreachable bodies, emitted next to the errors so code that
/// uses the type still compiles and the user sees only the real mistake.
fn stub(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let tool_params = quote! {
        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {}
    };
    let param_object = matches!(input.data, syn::Data::Struct(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ParamObject for #ident #ty_generics #where_clause {
                const FIELDS: ::tool_core::__private::FieldNames = ::tool_core::__private::FieldNames::EMPTY;
                const DENY_UNKNOWN_FIELDS: bool = false;
                fn add_fields(_: &mut ::tool_core::__private::ObjectSchema) {
                    ::core::unreachable!()
                }
                fn parse_fields(
                    _: &::tool_core::__private::Map<::std::string::String, ::tool_core::__private::Value>,
                    _: &::tool_core::__private::ParamPath<'_>,
                    _: &mut ::tool_core::__private::ParseContext,
                ) -> ::core::option::Option<Self> {
                    ::core::unreachable!()
                }
                fn write_fields(&self, _: &mut ::tool_core::__private::ObjectJson) {
                    ::core::unreachable!()
                }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
            fn schema() -> ::tool_core::__private::Value {
                ::core::unreachable!()
            }
            fn parse_value(
                _: &::tool_core::__private::Value,
                _: &::tool_core::__private::ParamPath<'_>,
                _: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                ::core::unreachable!()
            }
            fn to_json(&self) -> ::tool_core::__private::Value {
                ::core::unreachable!()
            }
        }
        #tool_params
        #param_object
    }
}

fn optional_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// `<Ty as ParamValue>`, spanned at the type.
// Every use of a field's type is a direct `<Ty as Trait>::item` spanned at
// the type (or at the attribute that needs the trait). An unsupported type
// then gives identical diagnostics at one span, which rustc reports once:
// one mistake, one error, carrying `ParamValue`'s explanation.
fn param_value(ty: &syn::Type) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamValue>)
}

/// The tokens with every token moved to `span`, so a trait error about a
/// type is reported at an attribute (`min` on a `String` points at `min`).
pub(crate) fn respanned(tokens: &impl quote::ToTokens, span: Span) -> TokenStream {
    fn respan(tokens: TokenStream, span: Span) -> TokenStream {
        tokens
            .into_iter()
            .map(|token| match token {
                TokenTree::Group(group) => {
                    let mut moved = Group::new(group.delimiter(), respan(group.stream(), span));
                    moved.set_span(span);
                    TokenTree::Group(moved)
                }
                mut other => {
                    other.set_span(span);
                    other
                }
            })
            .collect()
    }
    respan(quote!(#tokens), span)
}

pub(crate) fn first_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// Checks that must fail the build (a flattened struct repeating a JSON
/// name): a free `const` for a container without generics, evaluated at
/// once; for a generic one, the constant of a `Checked` impl, which the
/// schema and the parse both name, evaluated when the container is used
/// with its type arguments. One constant either way, so one mistake is one
/// error. Gives (items beside the impls, statement for their bodies).
fn const_checks(
    model: &Container,
    generics: &syn::Generics,
    checks: TokenStream,
) -> (TokenStream, TokenStream) {
    if checks.is_empty() {
        return (TokenStream::new(), TokenStream::new());
    }
    if model.original.generics.params.is_empty() {
        return (quote!(const _: () = { #checks };), TokenStream::new());
    }
    let ident = &model.original.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let item = quote! {
        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::Checked for #ident #ty_generics #where_clause {
            const CHECKS: () = { #checks };
        }
    };
    (
        item,
        quote!(let () = <Self as ::tool_core::__private::Checked>::CHECKS;),
    )
}

/// The statements of an `impl`'s items for this container, wrapped so
/// nothing leaks into the user's namespace: `const _: () = { ... };`.
fn scoped(items: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(deprecated, non_upper_case_globals)]
        const _: () = {
            #items
        };
    }
}
