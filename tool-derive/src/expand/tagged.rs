//! The two tagged representations, whose values are objects that hold the
//! tag: `tag = "t"` (`{"t": "variant", ...fields}`) and `tag = "t",
//! content = "c"` (`{"t": "variant", "c": data}`). Each is also a
//! `ParamObject`, so a struct can flatten one (`#[param(flatten)] action:
//! Action`): its variants become the shapes of a choice in the struct's
//! schema, and parse reads the variant from the struct's own object.

use super::enums::{Methods, field_names, variant_names};
use super::variants::VariantCode;
use crate::internals::ast::Style;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// Where a tagged enum's object is read from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Its own value: every key is the enum's.
    Whole,
    /// A struct's object it is flattened into: keys no variant declares
    /// are the struct's business.
    Flattened,
}

/// `tag = "t"`: `{"t": "variant", ...fields}`.
pub(super) fn internal(
    variants: &[VariantCode],
    description: &TokenStream,
    deny: bool,
    tag: &str,
) -> Methods {
    let mut checks = TokenStream::new();
    let branches: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let (name, variant_description) = (v.name(), v.description());
            let fields = match v.variant.style {
                Style::Struct => v.fields.schema(),
                Style::Newtype => {
                    let ty = v.variant.fields[0].ty;
                    quote!(<#ty as ::tool_core::__private::ParamObject>::add_fields(__schema);)
                }
                Style::Unit | Style::Tuple => TokenStream::new(),
            };
            branch(tag, name, &variant_description, fields)
        })
        .collect();
    for v in variants {
        match v.variant.style {
            Style::Struct => checks.extend(v.fields.duplicate_checks(Some(tag))),
            Style::Newtype => {
                let ty = v.variant.fields[0].ty;
                let object =
                    quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamObject>);
                let message = format!(
                    "variant `{}` wraps `{}`, which has a field with the JSON name \"{tag}\", the enum's tag: rename the field or the tag",
                    v.variant.ident,
                    quote!(#ty).to_string().replace(' ', "")
                );
                checks.extend(quote_spanned! {ty.span()=>
                    if #object::FIELDS.contains(#tag) { ::core::panic!(#message) }
                });
            }
            Style::Unit | Style::Tuple => {}
        }
    }
    let names = variant_names(variants);
    let read = |reading| {
        let arms = variants
            .iter()
            .enumerate()
            .map(|(index, v)| internal_arm(v, index, deny, tag, reading));
        quote! {
            #names
            let __siblings: &::tool_core::__private::FieldNames =
                &<Self as ::tool_core::__private::ParamObject>::FIELDS;
            match ::tool_core::__private::read_tag(__object, #tag, &__NAMES, __path, __errors)? {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    };
    let (whole, flattened) = (read(Reading::Whole), read(Reading::Flattened));
    let write_arms = variants.iter().map(|v| {
        let (pattern, name) = (v.pattern(), v.name());
        let fields = match v.variant.style {
            Style::Struct => v.fields_json(),
            Style::Newtype => {
                let ty = v.variant.fields[0].ty;
                quote!(<#ty as ::tool_core::__private::ParamObject>::write_fields(__binding_0, __json);)
            }
            Style::Unit | Style::Tuple => TokenStream::new(),
        };
        quote! {
            #pattern => {
                __json.field(#tag, false, ::tool_core::__private::Value::from(#name));
                #fields
            }
        }
    });
    let fields = field_names(variants, &[tag], true);
    tagged_methods(
        description,
        &branches,
        whole,
        flattened,
        quote!(match self { #(#write_arms)* }),
        fields,
        deny,
        checks,
    )
}

/// One variant of an internally tagged enum, read from `__object`.
fn internal_arm(
    v: &VariantCode,
    index: usize,
    deny: bool,
    tag: &str,
    reading: Reading,
) -> TokenStream {
    let path = v.path();
    // Whole, every key must be the variant's, the tag, or another
    // variant's `null`; flattened, only another variant's value is
    // refused (the struct around it checks the rest).
    let refuse = |declared: TokenStream, deny: TokenStream| {
        let check = match reading {
            Reading::Whole => quote!(deny_unknown_fields),
            Reading::Flattened => quote!(other_variants_fields),
        };
        quote! {
            if ::tool_core::__private::denies_unknown(#deny, __errors)
                && ::tool_core::__private::#check(__object, #declared, &[#tag], __siblings, __path, __errors)
            {
                return ::core::option::Option::None;
            }
        }
    };
    let body = match v.variant.style {
        Style::Unit => {
            let refuse = refuse(
                quote!(&::tool_core::__private::FieldNames::EMPTY),
                quote!(#deny),
            );
            quote!({
                #refuse
                ::core::option::Option::Some(#path)
            })
        }
        Style::Struct => {
            let names = v.fields.names();
            let (statements, finish) = v.fields.parse(path);
            let refuse = refuse(quote!(__names), quote!(#deny));
            quote!({
                let __names: &::tool_core::__private::FieldNames = &#names;
                #statements
                #refuse
                #finish
            })
        }
        Style::Newtype => {
            let ty = v.variant.fields[0].ty;
            let object = quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamObject>);
            let refuse = refuse(
                quote!(&#object::FIELDS),
                quote!(#deny || #object::DENY_UNKNOWN_FIELDS),
            );
            quote!({
                let __parsed = #object::parse_fields(__object, __path, __errors);
                #refuse
                __parsed.map(#path)
            })
        }
        Style::Tuple => unreachable!("refused by the checks"),
    };
    quote!(#index => #body)
}

/// `tag = "t", content = "c"`: `{"t": "variant", "c": content}`.
pub(super) fn adjacent(
    variants: &[VariantCode],
    description: &TokenStream,
    deny: bool,
    tag: &str,
    content: &str,
) -> Methods {
    let branches: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let (name, variant_description) = (v.name(), v.description());
            let content_field = (!v.is_unit()).then(|| {
                let schema = v.content_schema(None);
                quote!(__schema.field(#content, #schema, true);)
            });
            branch(tag, name, &variant_description, quote!(#content_field))
        })
        .collect();
    let arms: Vec<TokenStream> = variants
        .iter()
        .enumerate()
        .map(|(index, v)| {
            let (path, name) = (v.path(), v.name());
            if v.is_unit() {
                return quote! {
                    #index => ::tool_core::__private::no_content(__object, #content, #name, __path, __errors)
                        .then_some(#path),
                };
            }
            let parse = v.content_parse(
                deny,
                &quote!(&::tool_core::__private::FieldNames::EMPTY),
            );
            quote! {
                #index => {
                    let ::core::option::Option::Some(__content) = __object.get(#content) else {
                        return ::tool_core::__private::missing(
                            ::core::option::Option::None,
                            __object,
                            #content,
                            &::tool_core::__private::FieldNames::EMPTY,
                            __path,
                            __errors,
                        );
                    };
                    let __content_path = __path.field(#content);
                    #parse
                }
            }
        })
        .collect();
    let names = variant_names(variants);
    let read = |reading| {
        // Whole, no key but the tag and the content; flattened, the keys
        // beside them are the struct's.
        let refuse_unknown = (reading == Reading::Whole).then(|| {
            quote! {
                let __unknown = ::tool_core::__private::denies_unknown(#deny, __errors)
                    && ::tool_core::__private::deny_unknown_fields(
                        __object,
                        &::tool_core::__private::FieldNames::EMPTY,
                        &[#tag, #content],
                        &::tool_core::__private::FieldNames::EMPTY,
                        __path,
                        __errors,
                    );
            }
        });
        let stop = (reading == Reading::Whole).then(|| {
            quote! {
                if __unknown {
                    return ::core::option::Option::None;
                }
            }
        });
        quote! {
            #names
            let __index = ::tool_core::__private::read_tag(__object, #tag, &__NAMES, __path, __errors);
            #refuse_unknown
            let __index = __index?;
            #stop
            match __index {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    };
    let (whole, flattened) = (read(Reading::Whole), read(Reading::Flattened));
    let write_arms = variants.iter().map(|v| {
        let (pattern, name) = (v.pattern(), v.name());
        let data = (!v.is_unit()).then(|| {
            let json = v.content_json();
            quote!(__json.field(#content, false, #json);)
        });
        quote! {
            #pattern => {
                __json.field(#tag, false, ::tool_core::__private::Value::from(#name));
                #data
            }
        }
    });
    let fields = quote! {
        ::tool_core::__private::FieldNames { own: &[#tag, #content], aliases: &[], flattened: &[] }
    };
    tagged_methods(
        description,
        &branches,
        whole,
        flattened,
        quote!(match self { #(#write_arms)* }),
        fields,
        deny,
        TokenStream::new(),
    )
}

/// A variant's object schema, as a `Branch`: the tag, then `fields`
/// (statements adding to `__schema`).
fn branch(
    tag: &str,
    name: &str,
    variant_description: &TokenStream,
    fields: TokenStream,
) -> TokenStream {
    quote! {{
        let mut __object_schema = ::tool_core::__private::ObjectSchema::new();
        {
            let __schema = &mut __object_schema;
            __schema.field(#tag, ::tool_core::__private::const_string(#name, ::core::option::Option::None), true);
            #fields
        }
        ::tool_core::__private::Branch::new(__object_schema, #variant_description)
    }}
}

/// The methods of a tagged enum from its pieces: `whole` and `flattened`
/// read the variant from `__object`, `write` writes it into `__json`.
#[allow(clippy::too_many_arguments)]
fn tagged_methods(
    description: &TokenStream,
    branches: &[TokenStream],
    whole: TokenStream,
    flattened: TokenStream,
    write: TokenStream,
    fields: TokenStream,
    deny: bool,
    checks: TokenStream,
) -> Methods {
    Methods {
        schema: quote! {
            ::tool_core::__private::one_of(#description, ::std::vec![#(#branches.finish()),*])
        },
        parse: quote! {
            let __object = ::tool_core::__private::expect_object(__value, __path, __errors)?;
            #whole
        },
        to_json: quote! {
            let mut __object_json = ::tool_core::__private::ObjectJson::new();
            <Self as ::tool_core::__private::ParamObject>::write_fields(self, &mut __object_json);
            __object_json.finish()
        },
        checks,
        object: Some(quote! {
            const FIELDS: ::tool_core::__private::FieldNames = #fields;
            const DENY_UNKNOWN_FIELDS: bool = #deny;

            fn add_fields(__schema: &mut ::tool_core::__private::ObjectSchema) {
                __schema.choose(::std::vec![#(#branches),*]);
            }

            fn parse_fields(
                __object: &::tool_core::__private::Map<::std::string::String, ::tool_core::__private::Value>,
                __path: &::tool_core::__private::ParamPath<'_>,
                __errors: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                #flattened
            }

            fn write_fields(&self, __json: &mut ::tool_core::__private::ObjectJson) {
                #write
            }
        }),
    }
}
