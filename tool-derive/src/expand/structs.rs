//! A struct with named fields: `ParamObject` (its fields), `ParamValue`
//! (an object of them) and `ToolParams`.

use super::constraints::Statics;
use super::fields::Fields;
use super::{optional_str, scoped};
use crate::internals::ast::{Container, Field};
use proc_macro2::TokenStream;
use quote::quote;

pub(super) fn expand(model: &Container, fields: &[Field]) -> TokenStream {
    let ident = &model.original.ident;
    let generics = super::bounds::generics(model);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let statics = Statics::default();
    let code = Fields::new(fields, &statics);
    let description = optional_str(model.description.as_deref());
    let deny = model.attrs.deny_unknown_fields;
    let names = code.names();
    let add_fields = code.schema();
    let (parse_statements, parse_finish) = code.parse(quote!(Self));
    let write_fields = code.json(&|_, field| {
        let member = &field.member;
        quote!(&self.#member)
    });
    // A flattened struct that repeats a name: a compile error, raised by a
    // `const` the impls name (after monomorphization for a generic struct)
    // and, for a struct without generics, by a free `const` at once.
    let checks = code.duplicate_checks(None);
    let (early_check, inline_check) = super::const_checks(model, &generics, checks);
    let deny_unknown = quote! {
        if ::tool_core::__private::denies_unknown(#deny, __errors)
            && ::tool_core::__private::deny_unknown_fields(
                __object,
                &<Self as ::tool_core::__private::ParamObject>::FIELDS,
                &[],
                &::tool_core::__private::FieldNames::EMPTY,
                __path,
                __errors,
            )
        {
            return ::core::option::Option::None;
        }
    };
    let statics = statics.into_tokens();
    scoped(quote! {
        #statics
        #early_check

        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ParamObject for #ident #ty_generics #where_clause {
            const FIELDS: ::tool_core::__private::FieldNames = #names;
            const DENY_UNKNOWN_FIELDS: bool = #deny;

            fn add_fields(__schema: &mut ::tool_core::__private::ObjectSchema) {
                #inline_check
                #add_fields
            }

            #[inline]
            fn parse_fields(
                __object: &::tool_core::__private::Map<::std::string::String, ::tool_core::__private::Value>,
                __path: &::tool_core::__private::ParamPath<'_>,
                __errors: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                #inline_check
                let __names: &::tool_core::__private::FieldNames =
                    &<Self as ::tool_core::__private::ParamObject>::FIELDS;
                #parse_statements
                #parse_finish
            }

            fn write_fields(&self, __json: &mut ::tool_core::__private::ObjectJson) {
                #write_fields
            }
        }

        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ParamValue for #ident #ty_generics #where_clause {
            fn schema() -> ::tool_core::__private::Value {
                ::tool_core::__private::recursion_safe_schema::<Self>(|| {
                    let mut __schema = ::tool_core::__private::ObjectSchema::new();
                    <Self as ::tool_core::__private::ParamObject>::add_fields(&mut __schema);
                    __schema.finish(#description)
                })
            }

            #[inline]
            fn parse_value(
                __value: &::tool_core::__private::Value,
                __path: &::tool_core::__private::ParamPath<'_>,
                __errors: &mut ::tool_core::__private::ParseContext,
            ) -> ::core::option::Option<Self> {
                let __object = ::tool_core::__private::expect_object(__value, __path, __errors)?;
                let __parsed = <Self as ::tool_core::__private::ParamObject>::parse_fields(__object, __path, __errors);
                #deny_unknown
                __parsed
            }

            fn to_json(&self) -> ::tool_core::__private::Value {
                let mut __json = ::tool_core::__private::ObjectJson::new();
                <Self as ::tool_core::__private::ParamObject>::write_fields(self, &mut __json);
                __json.finish()
            }
        }

        #[automatically_derived]
        impl #impl_generics ::tool_core::__private::ToolParams for #ident #ty_generics #where_clause {}
    })
}
