//! A variant's data (its "content"): the object of a struct variant, the
//! value of a newtype variant, the array of a tuple variant. Its schema,
//! its parse and its JSON are the same in the external, adjacent and
//! untagged representations; only where the content sits differs.

use super::constraints::Statics;
use super::fields::Fields;
use super::{optional_str, param_value};
use crate::internals::ast::{Style, Variant};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// A variant with its fields' code built once.
pub(super) struct VariantCode<'v, 'a> {
    pub variant: &'v Variant<'a>,
    pub fields: Fields<'v, 'a>,
}

impl<'v, 'a> VariantCode<'v, 'a> {
    pub(super) fn new(variant: &'v Variant<'a>, statics: &Statics) -> Self {
        VariantCode {
            variant,
            fields: Fields::new(&variant.fields, statics),
        }
    }

    pub(super) fn name(&self) -> &str {
        &self.variant.json_name
    }

    pub(super) fn description(&self) -> TokenStream {
        optional_str(self.variant.description.as_deref())
    }

    pub(super) fn is_unit(&self) -> bool {
        self.variant.style == Style::Unit
    }

    /// `Self::V`.
    pub(super) fn path(&self) -> TokenStream {
        let ident = self.variant.ident;
        quote!(Self::#ident)
    }

    fn bindings(&self) -> Vec<syn::Ident> {
        (0..self.variant.fields.len())
            .map(|i| format_ident!("__binding_{}", i))
            .collect()
    }

    /// A pattern matching this variant, binding each field to `__binding_i`.
    pub(super) fn pattern(&self) -> TokenStream {
        let path = self.path();
        let bindings = self.bindings();
        match self.variant.style {
            Style::Unit => path,
            Style::Newtype | Style::Tuple => quote!(#path(#(#bindings),*)),
            Style::Struct => {
                let members = self.variant.fields.iter().map(|f| &f.member);
                quote!(#path { #(#members: #bindings),* })
            }
        }
    }

    /// Statements writing the fields of a struct variant into `__json`,
    /// read from the pattern's bindings.
    pub(super) fn fields_json(&self) -> TokenStream {
        let bindings = self.bindings();
        self.fields.json(&|index, _| {
            let binding = &bindings[index];
            quote!(#binding)
        })
    }

    /// The content's schema, an expression of type `Value`; `description`
    /// goes on it (untagged), or `None` when the caller puts the variant's
    /// description elsewhere.
    pub(super) fn content_schema(&self, description: Option<&TokenStream>) -> TokenStream {
        let none = quote!(::core::option::Option::None);
        let schema = match self.variant.style {
            Style::Unit => quote!(::tool_core::__private::null_schema()),
            Style::Struct => {
                let fields = self.fields.schema();
                let description = description.unwrap_or(&none);
                return quote! {{
                    let mut __object_schema = ::tool_core::__private::ObjectSchema::new();
                    {
                        let __schema = &mut __object_schema;
                        #fields
                    }
                    __object_schema.finish(#description)
                }};
            }
            Style::Newtype => self.fields.value_schema(0),
            Style::Tuple => {
                let items = (0..self.variant.fields.len()).map(|i| self.fields.value_schema(i));
                quote!(::tool_core::__private::tuple_schema(
                    ::std::vec![#(#items),*]
                ))
            }
        };
        match description {
            Some(description) => quote! {{
                let mut __content = #schema;
                if let ::core::option::Option::Some(__description) = #description {
                    ::tool_core::__private::describe(&mut __content, __description);
                }
                __content
            }},
            None => schema,
        }
    }

    /// An expression of type `Option<Self>` parsing the content
    /// `__content: &Value` found at `__content_path`, reporting into
    /// `__errors`. `deny` refuses unknown keys of a struct variant's object,
    /// but for a `null` under a name of `null_if_absent` (an expression of
    /// type `&FieldNames`: the other variants' fields, where a provider
    /// may have merged them into one object).
    pub(super) fn content_parse(&self, deny: bool, null_if_absent: &TokenStream) -> TokenStream {
        let path = self.path();
        match self.variant.style {
            Style::Unit => quote! {
                if __content.is_null() {
                    ::core::option::Option::Some(#path)
                } else {
                    __errors.expected(&__content_path, "null", __content);
                    ::core::option::Option::None
                }
            },
            Style::Newtype => {
                let parse = self
                    .fields
                    .value_parse(0, quote!(__content), quote!(__content_path));
                quote!(#parse.map(#path))
            }
            Style::Tuple => {
                let length = self.variant.fields.len();
                let values: Vec<_> = (0..length).map(|i| format_ident!("__item_{}", i)).collect();
                let parse_each = (0..length).map(|i| {
                    let parse = self.fields.value_parse(
                        i,
                        quote!(&__items[#i]),
                        quote!(__content_path.index(#i)),
                    );
                    let value = &values[i];
                    quote!(let #value = #parse;)
                });
                quote! {{
                    let __items = ::tool_core::__private::expect_tuple(__content, #length, &__content_path, __errors)?;
                    #(#parse_each)*
                    ::core::option::Option::Some(#path(#(#values?),*))
                }}
            }
            Style::Struct => {
                let names = self.fields.names();
                let (statements, finish) = self.fields.parse(path);
                let deny = quote! {
                    if ::tool_core::__private::denies_unknown(#deny, __errors)
                        && ::tool_core::__private::deny_unknown_fields(__object, __names, &[], #null_if_absent, __path, __errors)
                    {
                        return ::core::option::Option::None;
                    }
                };
                quote! {{
                    let __path: &::tool_core::__private::ParamPath<'_> = &__content_path;
                    let __object = ::tool_core::__private::expect_object(__content, __path, __errors)?;
                    let __names: &::tool_core::__private::FieldNames = &#names;
                    #statements
                    #deny
                    #finish
                }}
            }
        }
    }

    /// The content as JSON, an expression reading the pattern's bindings.
    pub(super) fn content_json(&self) -> TokenStream {
        let bindings = self.bindings();
        match self.variant.style {
            Style::Unit => quote!(::tool_core::__private::Value::Null),
            Style::Newtype => {
                let value_trait = param_value(self.variant.fields[0].ty);
                let binding = &bindings[0];
                quote!(#value_trait::to_json(#binding))
            }
            Style::Tuple => {
                let items = self
                    .variant
                    .fields
                    .iter()
                    .zip(&bindings)
                    .map(|(field, binding)| {
                        let value_trait = param_value(field.ty);
                        quote!(#value_trait::to_json(#binding))
                    });
                quote!(::tool_core::__private::Value::Array(
                    ::std::vec![#(#items),*]
                ))
            }
            Style::Struct => {
                let fields = self.fields_json();
                quote! {{
                    let mut __object_json = ::tool_core::__private::ObjectJson::new();
                    {
                        let __json = &mut __object_json;
                        #fields
                    }
                    __object_json.finish()
                }}
            }
        }
    }
}
