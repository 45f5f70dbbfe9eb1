//! Expands `#[derive(ToolParams)]`: for a struct, `ParamValue` + `ToolParams`
//! (an object parser and its schema); for a unit-only enum, `ParamValue` (a
//! string enum).

use crate::internals::ast::{Enum, Field, Input, Struct};
use crate::internals::attr::{DefaultValue, Number};
use crate::internals::ctxt::Ctxt;
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Generics, parse_quote};

pub fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::new();
    let model = Input::from_syn(&cx, input);
    if let Err(errors) = cx.check() {
        let mut output = errors.into_compile_error();
        output.extend(stub(input));
        return Ok(output);
    }
    Ok(match model.expect("no errors, so the model was built") {
        Input::Struct(model) => expand_struct(&model),
        Input::Enum(model) => expand_enum(&model),
    })
}

/// Impls with unreachable bodies, emitted next to the errors so code that
/// uses the type still compiles and the user sees only the real mistake.
fn stub(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let tool_params = matches!(input.data, syn::Data::Struct(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {}
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
                _: &mut ::tool_core::__private::ParamError,
            ) -> ::core::option::Option<Self> {
                ::core::unreachable!()
            }
            fn to_json(&self) -> ::tool_core::__private::Value {
                ::core::unreachable!()
            }
        }
        #tool_params
    }
}

/// The input's generics with `T: ParamValue` added for each type parameter.
fn bounded_generics(generics: &Generics) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<_> = generics
        .type_params()
        .map(|param| param.ident.clone())
        .collect();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause
            .predicates
            .push(parse_quote!(#param: ::tool_core::__private::ParamValue));
    }
    generics
}

fn optional_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn expand_struct(model: &Struct) -> TokenStream {
    let ident = &model.original.ident;
    let generics = bounded_generics(&model.original.generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let description = optional_str(model.description.as_deref());
    let names: Vec<&str> = model.fields.iter().map(|f| f.json_name.as_str()).collect();
    let slots: Vec<_> = (0..model.fields.len())
        .map(|i| format_ident!("__slot_{}", i))
        .collect();
    let values: Vec<_> = (0..model.fields.len())
        .map(|i| format_ident!("__field_{}", i))
        .collect();
    let members: Vec<_> = model.fields.iter().map(|f| f.member).collect();

    let schema_fields = model.fields.iter().map(field_schema);
    let parse_fields = model
        .fields
        .iter()
        .zip(&slots)
        .zip(&values)
        .map(|((field, slot), value)| field_parse(field, slot, value));
    let json_fields = model.fields.iter().map(field_json);

    let collect_slots = if model.fields.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            #(let mut #slots: ::core::option::Option<&::tool_core::__private::Value> = ::core::option::Option::None;)*
            for (__key, __item) in __object {
                match __key.as_str() {
                    #(#names => #slots = ::core::option::Option::Some(__item),)*
                    _ => {}
                }
            }
        }
    };
    let has_checks = model.attrs.deny_unknown_fields
        || model.fields.iter().any(|field| {
            let attrs = &field.attrs;
            attrs.min.is_some()
                || attrs.max.is_some()
                || attrs.min_length.is_some()
                || attrs.max_length.is_some()
        });
    let failed_binding = if has_checks {
        quote!(mut __failed)
    } else {
        quote!(__failed)
    };
    let deny_unknown = model.attrs.deny_unknown_fields.then(|| {
        quote!(__failed |= ::tool_core::__private::deny_unknown_fields(__object, __FIELDS, __path, __errors);)
    });

    quote! {
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
                fn schema() -> ::tool_core::__private::Value {
                    ::tool_core::__private::recursion_safe_schema::<Self>(|| {
                        let mut __schema = ::tool_core::__private::ObjectSchema::new();
                        #(#schema_fields)*
                        __schema.finish(#description)
                    })
                }

                fn parse_value(
                    __value: &::tool_core::__private::Value,
                    __path: &::tool_core::__private::ParamPath<'_>,
                    __errors: &mut ::tool_core::__private::ParamError,
                ) -> ::core::option::Option<Self> {
                    const __FIELDS: &[&str] = &[#(#names),*];
                    let __object = ::tool_core::__private::expect_object(__value, __path, __errors)?;
                    // Set by the bounds and unknown-key checks; a field that
                    // did not parse is `None`, which ends the literal below.
                    let #failed_binding = false;
                    #collect_slots
                    #(#parse_fields)*
                    #deny_unknown
                    if __failed {
                        return ::core::option::Option::None;
                    }
                    ::core::option::Option::Some(Self { #(#members: #values?,)* })
                }

                fn to_json(&self) -> ::tool_core::__private::Value {
                    let mut __json = ::tool_core::__private::ObjectJson::new();
                    #(#json_fields)*
                    __json.finish()
                }
            }

            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {}
        };
    }
}

// Every use of a field's type below is a direct `<Ty as Trait>::item` spanned
// at the type (or at the attribute that needs the trait). An unsupported
// type then gives identical diagnostics at one span, which rustc reports
// once: one mistake, one error, carrying `ParamValue`'s explanation.

/// `<Ty as ParamValue>`, spanned at the field's type.
fn param_value(ty: &syn::Type) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamValue>)
}

/// The field's type with every token moved to `span`, so a trait error about
/// the type is reported at an attribute (`min` on a `String` points at `min`).
pub(crate) fn respanned(ty: &syn::Type, span: Span) -> TokenStream {
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
    respan(quote!(#ty), span)
}

pub(crate) fn first_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

fn bound(number: Number) -> TokenStream {
    match number {
        Number::Int(int) => quote!(::tool_core::__private::Bound::Int(#int)),
        Number::Float(float) => quote!(::tool_core::__private::Bound::Float(#float)),
    }
}

fn default_expr(field: &Field, default: &DefaultValue) -> TokenStream {
    let ty = field.ty;
    match default {
        DefaultValue::Trait => {
            quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
        }
        // A string literal default fills a `String` field: `default = "en"`.
        DefaultValue::Expr(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        })) => quote_spanned!(text.span()=> ::core::convert::Into::<#ty>::into(#text)),
        DefaultValue::Expr(expr) => {
            quote_spanned!(expr.span()=> { let __default: #ty = #expr; __default })
        }
    }
}

fn field_schema(field: &Field) -> TokenStream {
    let value_trait = param_value(field.ty);
    let name = &field.json_name;
    let attrs = &field.attrs;
    let mut adjust = TokenStream::new();
    if let Some((_, min)) = attrs.min {
        let min = bound(min);
        adjust.extend(quote!(::tool_core::__private::apply_min(&mut __field, #min);));
    }
    if let Some((_, max)) = attrs.max {
        let max = bound(max);
        adjust.extend(quote!(::tool_core::__private::apply_max(&mut __field, #max);));
    }
    if let Some((_, min)) = attrs.min_length {
        adjust.extend(quote!(::tool_core::__private::apply_min_length(&mut __field, #min);));
    }
    if let Some((_, max)) = attrs.max_length {
        adjust.extend(quote!(::tool_core::__private::apply_max_length(&mut __field, #max);));
    }
    if let Some(default) = &attrs.default {
        let value = default_expr(field, default);
        adjust.extend(quote! {
            ::tool_core::__private::set_default(&mut __field, #value_trait::to_json(&#value));
        });
    }
    if let Some(description) = &field.description {
        adjust.extend(quote!(::tool_core::__private::describe(&mut __field, #description);));
    }
    let required = if attrs.default.is_some() {
        quote!(false)
    } else {
        quote!(!#value_trait::OPTIONAL)
    };
    quote! {
        {
            let mut __field = #value_trait::field_schema();
            #adjust
            __schema.field(#name, __field, #required);
        }
    }
}

fn field_parse(field: &Field, slot: &syn::Ident, value: &syn::Ident) -> TokenStream {
    let ty = field.ty;
    let value_trait = param_value(ty);
    let name = &field.json_name;
    let attrs = &field.attrs;
    let when_missing = match &attrs.default {
        Some(default) => {
            let value = default_expr(field, default);
            quote!(::core::option::Option::Some(#value))
        }
        None => quote! {
            ::tool_core::__private::missing(
                #value_trait::when_missing(),
                __object,
                #name,
                __FIELDS,
                __path,
                __errors,
            )
        },
    };
    // The traits are named at the attribute, so `min` on a `String` is an
    // error there; the checks themselves read the JSON the model sent.
    let integer = |tokens: &TokenStream| {
        let ty = respanned(ty, first_span(tokens));
        quote!(<#ty as ::tool_core::__private::Numeric>::INTEGER)
    };
    let length_of = |tokens: &TokenStream| {
        let ty = respanned(ty, first_span(tokens));
        quote!(<#ty as ::tool_core::__private::HasLength>::LENGTH_OF)
    };
    let mut checks = TokenStream::new();
    if let Some((tokens, min)) = &attrs.min {
        let (integer, min) = (integer(tokens), bound(*min));
        checks.extend(quote!(__failed |= ::tool_core::__private::check_min(__item, #min, #integer, &__field_path, __errors);));
    }
    if let Some((tokens, max)) = &attrs.max {
        let (integer, max) = (integer(tokens), bound(*max));
        checks.extend(quote!(__failed |= ::tool_core::__private::check_max(__item, #max, #integer, &__field_path, __errors);));
    }
    if let Some((tokens, min)) = &attrs.min_length {
        let of = length_of(tokens);
        checks.extend(quote!(__failed |= ::tool_core::__private::check_min_length(__item, #min, #of, &__field_path, __errors);));
    }
    if let Some((tokens, max)) = &attrs.max_length {
        let of = length_of(tokens);
        checks.extend(quote!(__failed |= ::tool_core::__private::check_max_length(__item, #max, #of, &__field_path, __errors);));
    }
    // Bounds check what the model sent; a default is the author's choice.
    let checks = (!checks.is_empty()).then(|| {
        quote! {
            if __parsed.is_some() {
                #checks
            }
        }
    });
    // With a default, `null` is absence, as it is for an `Option`: providers
    // that list every field (OpenAI's strict mode) send `null` for the ones
    // the model leaves out.
    let present = if attrs.default.is_some() {
        quote!(::core::option::Option::Some(__item) if !__item.is_null())
    } else {
        quote!(::core::option::Option::Some(__item))
    };
    quote! {
        let #value: ::core::option::Option<#ty> = match #slot {
            #present => {
                let __field_path = __path.field(#name);
                let __parsed = #value_trait::parse_value(__item, &__field_path, __errors);
                #checks
                __parsed
            }
            _ => #when_missing,
        };
    }
}

fn field_json(field: &Field) -> TokenStream {
    let value_trait = param_value(field.ty);
    let name = &field.json_name;
    let member = field.member;
    quote! {
        __json.field(#name, #value_trait::OPTIONAL, #value_trait::to_json(&self.#member));
    }
}

fn expand_enum(model: &Enum) -> TokenStream {
    let ident = &model.original.ident;
    let (impl_generics, ty_generics, where_clause) = model.original.generics.split_for_impl();
    let description = optional_str(model.description.as_deref());
    let names: Vec<&str> = model
        .variants
        .iter()
        .map(|v| v.json_name.as_str())
        .collect();
    let variants: Vec<_> = model.variants.iter().map(|v| v.ident).collect();
    let span = Span::call_site();
    quote_spanned! {span=>
        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
                fn schema() -> ::tool_core::__private::Value {
                    ::tool_core::__private::enum_schema(#description, &[#(#names),*])
                }

                fn parse_value(
                    __value: &::tool_core::__private::Value,
                    __path: &::tool_core::__private::ParamPath<'_>,
                    __errors: &mut ::tool_core::__private::ParamError,
                ) -> ::core::option::Option<Self> {
                    match __value.as_str() {
                        #(::core::option::Option::Some(#names) => ::core::option::Option::Some(Self::#variants),)*
                        _ => {
                            ::tool_core::__private::expected_one_of(__value, &[#(#names),*], __path, __errors);
                            ::core::option::Option::None
                        }
                    }
                }

                fn to_json(&self) -> ::tool_core::__private::Value {
                    ::tool_core::__private::Value::String(::core::convert::From::from(match self {
                        #(Self::#variants => #names,)*
                    }))
                }
            }
        };
    }
}
