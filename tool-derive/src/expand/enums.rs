//! Enums: a unit-only enum is a string enum; the others take serde's four
//! representations. Each builds its schema, parse and JSON
//! from the variants' code (`variants.rs`).

use super::constraints::Statics;
use super::variants::VariantCode;
use super::{optional_str, scoped};
use crate::internals::ast::{Container, Style};
use crate::internals::attr::Repr;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The three method bodies of `ParamValue`, and the compile-time checks
/// that go with them.
pub(super) struct Methods {
    pub(super) schema: TokenStream,
    pub(super) parse: TokenStream,
    pub(super) to_json: TokenStream,
    /// Checks run at compile time (a newtype variant's fields against the tag).
    pub(super) checks: TokenStream,
    /// `ParamObject`'s items, for a tagged enum whose object can be
    /// flattened into a struct's.
    pub(super) object: Option<TokenStream>,
}

pub(super) fn expand(model: &Container) -> TokenStream {
    let ident = &model.original.ident;
    let generics = super::bounds::generics(model);
    let statics = Statics::default();
    let variants: Vec<VariantCode> = model
        .variants()
        .iter()
        .map(|variant| VariantCode::new(variant, &statics))
        .collect();
    let description = optional_str(model.description.as_deref());
    let deny = model.attrs.deny_unknown_fields;
    let methods = if model.is_string_enum() {
        string_enum(&variants, &description)
    } else {
        match &model.attrs.repr {
            Repr::External => external(&variants, &description, deny),
            Repr::Internal { tag, .. } => {
                super::tagged::internal(&variants, &description, deny, tag)
            }
            Repr::Adjacent { tag, content } => {
                super::tagged::adjacent(&variants, &description, deny, tag, content)
            }
            Repr::Untagged => untagged(&variants, &description, deny),
        }
    };
    let Methods {
        schema,
        parse,
        to_json,
        mut checks,
        object,
    } = methods;
    if !matches!(model.attrs.repr, Repr::Internal { .. }) {
        for v in variants.iter().filter(|v| v.variant.style == Style::Struct) {
            checks.extend(v.fields.duplicate_checks(None));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let (early_check, inline_check) = super::const_checks(model, &generics, checks);
    let tool_params = root_tool_params(model, &generics);
    // A string enum is a string: `one_of`, `pattern` and string examples
    // apply to its fields as to a `String`'s.
    let string_like = model.is_string_enum().then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::StringLike for #ident #ty_generics #where_clause {}
        }
    });
    let param_object = object.map(|items| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::tool_core::__private::ParamObject for #ident #ty_generics #where_clause {
                #items
            }
        }
    });
    let statics = statics.into_tokens();
    scoped(quote! {
        #statics
        #early_check
        #param_object

        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
            fn schema() -> ::tool_core::__private::Value {
                #inline_check
                ::tool_core::__private::recursion_safe_schema::<Self>(|| { #schema })
            }

            fn parse_value(
                __value: &::tool_core::__private::Value,
                __path: &::tool_core::__private::ParamPath<'_>,
                __errors: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                #inline_check
                #parse
            }

            fn to_json(&self) -> ::tool_core::__private::Value {
                #to_json
            }
        }

        #tool_params
        #string_like
    })
}

/// `ToolParams` when every value is an object: tagged enums, external ones
/// without unit variants, untagged ones whose variants are structs or
/// wrap a `ToolParams` type (a bound that only holds when it does).
fn root_tool_params(model: &Container, generics: &syn::Generics) -> TokenStream {
    let variants = model.variants();
    let extra: Vec<TokenStream> = match &model.attrs.repr {
        Repr::Internal { .. } | Repr::Adjacent { .. } => Vec::new(),
        Repr::External if variants.iter().all(|v| v.style != Style::Unit) => Vec::new(),
        Repr::Untagged
            if variants
                .iter()
                .all(|v| matches!(v.style, Style::Struct | Style::Newtype)) =>
        {
            variants
                .iter()
                .filter(|v| v.style == Style::Newtype)
                .map(|v| {
                    let ty = v.fields[0].ty;
                    // `for<'__tool>`: a bound on a concrete type that does not
                    // hold would be an error; this one just leaves the impl out.
                    quote!(for<'__tool> #ty: ::tool_core::__private::ToolParams)
                })
                .collect()
        }
        _ => return TokenStream::new(),
    };
    let ident = &model.original.ident;
    let mut generics = generics.clone();
    let where_clause = generics.make_where_clause();
    for predicate in extra {
        where_clause.predicates.push(syn::parse_quote!(#predicate));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {
            fn json_schema() -> ::tool_core::__private::Value {
                ::tool_core::__private::root_enum_schema(<Self as ::tool_core::__private::ParamValue>::schema())
            }
        }
    }
}

pub(super) fn names(variants: &[VariantCode]) -> Vec<String> {
    variants.iter().map(|v| v.name().to_owned()).collect()
}

/// `const __NAMES: VariantNames`: each variant's name, and its aliases.
pub(super) fn variant_names(variants: &[VariantCode]) -> TokenStream {
    let names = names(variants);
    let aliases = variants.iter().enumerate().flat_map(|(index, v)| {
        v.variant
            .aliases
            .iter()
            .map(move |(_, alias)| quote!((#alias, #index)))
    });
    quote! {
        const __NAMES: ::tool_core::__private::VariantNames = ::tool_core::__private::VariantNames {
            names: &[#(#names),*],
            aliases: &[#(#aliases),*],
        };
    }
}

/// Unit variants only: `{"type":"string","enum":[..]}`, the plain string
/// enum JSON Schema writes.
fn string_enum(variants: &[VariantCode], description: &TokenStream) -> Methods {
    let names = names(variants);
    let paths: Vec<_> = variants.iter().map(VariantCode::path).collect();
    let accepted = variants.iter().map(|v| {
        let aliases = v.variant.aliases.iter().map(|(_, alias)| alias);
        let name = v.name();
        quote!(#name #(| #aliases)*)
    });
    Methods {
        schema: quote!(::tool_core::__private::enum_schema(#description, &[#(#names),*])),
        parse: quote! {
            match __value.as_str() {
                #(::core::option::Option::Some(#accepted) => ::core::option::Option::Some(#paths),)*
                _ => {
                    ::tool_core::__private::expected_one_of(__value, &[#(#names),*], __path, __errors);
                    ::core::option::Option::None
                }
            }
        },
        to_json: quote! {
            ::tool_core::__private::Value::String(::core::convert::From::from(match self {
                #(#paths => #names,)*
            }))
        },
        checks: TokenStream::new(),
        object: None,
    }
}

/// No attribute: `"unit"`, or `{"variant": content}`.
fn external(variants: &[VariantCode], description: &TokenStream, deny: bool) -> Methods {
    let variant_names = variant_names(variants);
    let branches = variants.iter().map(|v| {
        let (name, variant_description) = (v.name(), v.description());
        if v.is_unit() {
            quote!(::tool_core::__private::const_string(#name, #variant_description))
        } else {
            let content = v.content_schema(None);
            quote!(::tool_core::__private::external_branch(#name, #variant_description, #content))
        }
    });
    let kinds = variants.iter().map(|v| {
        if v.is_unit() {
            quote!(::tool_core::__private::VariantKind::Unit)
        } else {
            quote!(::tool_core::__private::VariantKind::Data)
        }
    });
    let arms = variants.iter().enumerate().map(|(index, v)| {
        let path = v.path();
        let name = v.name();
        if v.is_unit() {
            quote!((#index, _) => ::core::option::Option::Some(#path),)
        } else {
            let parse = v.content_parse(deny, &quote!(&::tool_core::__private::FieldNames::EMPTY));
            quote! {
                (#index, ::core::option::Option::Some(__content)) => {
                    let __content_path = __path.field(#name);
                    #parse
                }
            }
        }
    });
    let json_arms = variants.iter().map(|v| {
        let (pattern, name) = (v.pattern(), v.name());
        if v.is_unit() {
            quote!(#pattern => ::tool_core::__private::Value::from(#name),)
        } else {
            let content = v.content_json();
            quote!(#pattern => ::tool_core::__private::external_json(#name, #content),)
        }
    });
    Methods {
        schema: quote!(::tool_core::__private::one_of(#description, ::std::vec![#(#branches),*])),
        parse: quote! {
            #variant_names
            const __KINDS: &[::tool_core::__private::VariantKind] = &[#(#kinds),*];
            let (__index, __content) =
                ::tool_core::__private::read_external(__value, &__NAMES, __KINDS, __path, __errors)?;
            match (__index, __content) {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        },
        to_json: quote!(match self { #(#json_arms)* }),
        checks: TokenStream::new(),
        object: None,
    }
}

/// `untagged`: the content alone; the first variant that takes the value
/// as sent wins, else the first that parses (see `Untagged`).
fn untagged(variants: &[VariantCode], description: &TokenStream, deny: bool) -> Methods {
    let names = names(variants);
    let branches = variants
        .iter()
        .map(|v| v.content_schema(Some(&v.description())));
    let siblings = siblings(variants);
    let attempts = variants.iter().enumerate().map(|(index, v)| {
        let parse = v.content_parse(deny, &quote!(__siblings));
        quote! {
            if let ::core::option::Option::Some(__parsed) = __untagged.attempt(#index, |__errors| {
                let __content = __value;
                let __content_path = *__path;
                #parse
            }) {
                return ::core::option::Option::Some(__parsed);
            }
        }
    });
    let json_arms = variants.iter().map(|v| {
        let (pattern, json) = (v.pattern(), v.content_json());
        quote!(#pattern => #json,)
    });
    Methods {
        schema: quote!(::tool_core::__private::any_of(#description, ::std::vec![#(#branches),*])),
        parse: quote! {
            const __NAMES: &[&str] = &[#(#names),*];
            #siblings
            let mut __untagged = ::tool_core::__private::Untagged::new(__path, __errors);
            while __untagged.next_pass() {
                #(#attempts)*
            }
            __untagged.fail(__NAMES);
            ::core::option::Option::None
        },
        to_json: quote!(match self { #(#json_arms)* }),
        checks: TokenStream::new(),
        object: None,
    }
}

/// `let __siblings: &FieldNames`: every field of every variant, which an
/// object of one variant may hold as `null` where a provider merged the
/// variants into one object.
fn siblings(variants: &[VariantCode]) -> TokenStream {
    let names = field_names(variants, &[], false);
    quote!(let __siblings: &::tool_core::__private::FieldNames = &#names;)
}

/// A `FieldNames` of `extra` and every field of every variant (with the
/// fields a newtype variant's struct lends, when `lent`: internally
/// tagged).
pub(super) fn field_names(variants: &[VariantCode], extra: &[&str], lent: bool) -> TokenStream {
    let mut own: Vec<&str> = extra.to_vec();
    let mut aliases: Vec<&str> = Vec::new();
    let mut flattened = Vec::new();
    for v in variants {
        match v.variant.style {
            Style::Struct => {
                for (_, field) in v.fields.named() {
                    if !own.contains(&field.json_name.as_str()) {
                        own.push(&field.json_name);
                    }
                    aliases.extend(field.attrs.aliases.iter().map(|(_, alias)| alias.as_str()));
                }
                for field in v.fields.flattened() {
                    let ty = field.ty;
                    flattened.push(quote_spanned!(ty.span()=> &<#ty as ::tool_core::__private::ParamObject>::FIELDS));
                }
            }
            Style::Newtype if lent => {
                let ty = v.variant.fields[0].ty;
                flattened.push(quote_spanned!(ty.span()=> &<#ty as ::tool_core::__private::ParamObject>::FIELDS));
            }
            Style::Unit | Style::Newtype | Style::Tuple => {}
        }
    }
    quote! {
        ::tool_core::__private::FieldNames {
            own: &[#(#own),*],
            aliases: &[#(#aliases),*],
            flattened: &[#(#flattened),*],
        }
    }
}
