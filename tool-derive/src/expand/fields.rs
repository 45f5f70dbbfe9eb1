//! The code for a list of named fields, shared by structs and the struct
//! variants of enums: each field's schema into an object schema, each
//! field parsed from an object, each field written back to JSON, and the
//! compile-time checks of flattened names.

use super::constraints::{self, Kind, Statics};
use super::{param_value, respanned};
use crate::internals::ast::Field;
use crate::internals::attr::Literal;
use crate::internals::attr::{DefaultValue, Example};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// One field's constraint values, built once for its schema and its parse.
struct Plan {
    constraints: Option<TokenStream>,
    items: Option<TokenStream>,
}

pub(super) struct Fields<'f, 'a> {
    fields: &'f [Field<'a>],
    plans: Vec<Plan>,
}

impl<'f, 'a> Fields<'f, 'a> {
    pub(super) fn new(fields: &'f [Field<'a>], statics: &Statics) -> Self {
        let plans = fields
            .iter()
            .map(|field| {
                let ty = field.ty;
                let ty_at = |span| respanned(ty, span);
                Plan {
                    constraints: constraints::constraints(&field.attrs.value, &ty_at, statics),
                    items: constraints::items(&field.attrs.items, ty, statics),
                }
            })
            .collect();
        Fields { fields, plans }
    }

    /// The fields shown under their own name.
    pub(super) fn named(&self) -> impl Iterator<Item = (usize, &Field<'a>)> {
        self.fields
            .iter()
            .enumerate()
            .filter(|(_, field)| field.is_named_in_json())
    }

    pub(super) fn flattened(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .filter(|field| field.attrs.flatten.is_some())
    }

    /// The `FieldNames` of these fields.
    pub(super) fn names(&self) -> TokenStream {
        let own = self.named().map(|(_, field)| &field.json_name);
        let aliases = self
            .named()
            .flat_map(|(_, field)| field.attrs.aliases.iter().map(|(_, alias)| alias));
        let flattened = self.flattened().map(|field| {
            let ty = field.ty;
            quote_spanned!(ty.span()=> &<#ty as ::tool_core::__private::ParamObject>::FIELDS)
        });
        quote! {
            ::tool_core::__private::FieldNames {
                own: &[#(#own),*],
                aliases: &[#(#aliases),*],
                flattened: &[#(#flattened),*],
            }
        }
    }

    /// Statements adding each field to `__schema: &mut ObjectSchema`.
    pub(super) fn schema(&self) -> TokenStream {
        self.fields
            .iter()
            .zip(&self.plans)
            .map(|(field, plan)| {
                if field.attrs.skip.is_some() {
                    TokenStream::new()
                } else if field.attrs.flatten.is_some() {
                    let ty = field.ty;
                    quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamObject>::add_fields(__schema);)
                } else {
                    field_schema(field, plan)
                }
            })
            .collect()
    }

    /// Statements parsing every field from `__object` (with `__path`,
    /// `__errors` and `__names: &FieldNames` in scope) into locals, and
    /// the statements that end it: `Some(<constructor> { .. })`, or `None`
    /// when a field failed. Code that checks more (unknown keys) goes
    /// between the two.
    pub(super) fn parse(&self, constructor: TokenStream) -> (TokenStream, TokenStream) {
        let slots: Vec<_> = self
            .named()
            .map(|(i, _)| format_ident!("__slot_{}", i))
            .collect();
        let arms = self.named().zip(&slots).map(|((_, field), slot)| {
            let name = &field.json_name;
            if field.attrs.aliases.is_empty() {
                return quote!(#name => #slot = ::core::option::Option::Some(__item),);
            }
            // A field sent under two of its names is refused, as serde
            // refuses a duplicate field: which one was meant is a guess.
            let aliases = field.attrs.aliases.iter().map(|(_, alias)| alias);
            quote! {
                #name #(| #aliases)* => {
                    if #slot.is_some() {
                        __failed = true;
                        ::tool_core::__private::sent_twice(__key, #name, __path, __errors);
                    }
                    #slot = ::core::option::Option::Some(__item);
                }
            }
        });
        let collect_slots = (!slots.is_empty()).then(|| {
            quote! {
                #(let mut #slots: ::core::option::Option<&::tool_core::__private::Value> = ::core::option::Option::None;)*
                for (__key, __item) in __object {
                    match __key.as_str() {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        });
        let has_checks = self
            .plans
            .iter()
            .any(|plan| plan.constraints.is_some() || plan.items.is_some())
            || self
                .named()
                .any(|(_, field)| !field.attrs.aliases.is_empty());
        let failed = if has_checks {
            quote!(mut __failed)
        } else {
            quote!(__failed)
        };
        let values: Vec<_> = (0..self.fields.len())
            .map(|i| format_ident!("__field_{}", i))
            .collect();
        let parse_each = self
            .fields
            .iter()
            .zip(&self.plans)
            .enumerate()
            .map(|(i, (field, plan))| field_parse(field, plan, i, &values[i]));
        let members = self.fields.iter().map(|field| &field.member);
        let statements = quote! {
            // Set by the constraint checks; a field that did not parse is
            // `None`, which ends the literal below.
            let #failed = false;
            #collect_slots
            #(#parse_each)*
        };
        let finish = quote! {
            if __failed {
                return ::core::option::Option::None;
            }
            ::core::option::Option::Some(#constructor { #(#members: #values?,)* })
        };
        (statements, finish)
    }

    /// Statements writing each field into `__json: &mut ObjectJson`, where
    /// `access(index, field)` is an expression of type `&FieldType`.
    pub(super) fn json(&self, access: &dyn Fn(usize, &Field) -> TokenStream) -> TokenStream {
        self.fields
            .iter()
            .enumerate()
            .map(|(index, field)| {
                let value = access(index, field);
                let ty = field.ty;
                if field.attrs.skip.is_some() {
                    TokenStream::new()
                } else if field.attrs.flatten.is_some() {
                    quote_spanned!(ty.span()=> <#ty as ::tool_core::__private::ParamObject>::write_fields(#value, __json);)
                } else {
                    let value_trait = param_value(ty);
                    let name = &field.json_name;
                    quote!(__json.field(#name, #value_trait::OPTIONAL, #value_trait::to_json(#value));)
                }
            })
            .collect()
    }

    /// The schema of the field at `index` alone (a position of a tuple
    /// variant, a newtype's inner value), with its attributes applied: an
    /// expression of type `Value`.
    pub(super) fn value_schema(&self, index: usize) -> TokenStream {
        let field = &self.fields[index];
        let value_trait = param_value(field.ty);
        value_schema(field, &self.plans[index], quote!(#value_trait::schema()))
    }

    /// An expression of type `Option<T>` parsing the field at `index` alone
    /// from `item` (an expression of type `&Value`) at `path` (of type
    /// `ParamPath`), its constraints checked, reporting into `__errors`.
    pub(super) fn value_parse(
        &self,
        index: usize,
        item: TokenStream,
        path: TokenStream,
    ) -> TokenStream {
        let field = &self.fields[index];
        let value_trait = param_value(field.ty);
        let checks = value_checks(&self.plans[index]);
        if checks.is_empty() {
            return quote!(#value_trait::parse_value(#item, &#path, __errors));
        }
        quote! {{
            let __item: &::tool_core::__private::Value = #item;
            let __field_path = #path;
            let mut __failed = false;
            let __parsed = #value_trait::parse_value(__item, &__field_path, __errors);
            if __parsed.is_some() {
                #checks
            }
            if __failed { ::core::option::Option::None } else { __parsed }
        }}
    }

    /// Conditions that must not hold, with the message of each: a flattened
    /// struct that repeats a JSON name of its neighbours (or the enum's
    /// `tag`). Each is `if <cond> { panic!(<msg>) }`, for a `const` block.
    pub(super) fn duplicate_checks(&self, tag: Option<&str>) -> TokenStream {
        let mut checks = TokenStream::new();
        let flattened: Vec<&Field> = self.flattened().collect();
        for (index, outer) in flattened.iter().enumerate() {
            let ty = outer.ty;
            let span = ty.span();
            let fields =
                quote_spanned!(span=> <#ty as ::tool_core::__private::ParamObject>::FIELDS);
            let who = describe_flattened(outer);
            for (_, field) in self.named() {
                let aliases = field.attrs.aliases.iter().map(|(_, alias)| alias);
                for name in std::iter::once(&field.json_name).chain(aliases) {
                    let message = format!(
                        "{who} has a field with the JSON name \"{name}\", as does field `{}` beside it: rename one",
                        field.rust_name()
                    );
                    checks.extend(quote_spanned! {span=>
                        if #fields.contains(#name) { ::core::panic!(#message) }
                    });
                }
            }
            if let Some(tag) = tag {
                let message = format!(
                    "{who} has a field with the JSON name \"{tag}\", which is the enum's tag: rename the field or the tag"
                );
                checks.extend(quote_spanned! {span=>
                    if #fields.contains(#tag) { ::core::panic!(#message) }
                });
            }
            for other in &flattened[index + 1..] {
                let other_ty = other.ty;
                let message = format!(
                    "{who} and {} share a JSON name: rename the field in one of them",
                    describe_flattened(other)
                );
                checks.extend(quote_spanned! {span=>
                    if #fields.overlaps(&<#other_ty as ::tool_core::__private::ParamObject>::FIELDS) {
                        ::core::panic!(#message)
                    }
                });
            }
        }
        checks
    }
}

fn describe_flattened(field: &Field) -> String {
    let ty = field.ty;
    format!(
        "the flattened field `{}: {}`",
        field.rust_name(),
        quote!(#ty).to_string().replace(' ', "")
    )
}

fn default_expr(field: &Field, default: &DefaultValue) -> TokenStream {
    let ty = field.ty;
    match default {
        DefaultValue::Trait => {
            quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
        }
        // A string literal default: a `String` field's value as written
        // (`default = "en"`), any other type's as the model would send it
        // (`default = "celsius"` for a unit enum), chosen by the type.
        DefaultValue::Expr(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        })) => {
            let field_name = field.rust_name();
            quote_spanned!(text.span()=> {
                #[allow(unused_imports)]
                use ::tool_core::__private::{DefaultFromJson as _, DefaultFromStr as _};
                (&::tool_core::__private::DefaultLiteral::<#ty>::new()).literal(#field_name, #text)
            })
        }
        DefaultValue::Expr(expr) => {
            quote_spanned!(expr.span()=> { let __default: #ty = #expr; __default })
        }
        // `default = {"days": 3}`: read by the type's parse, as the model's
        // value would be.
        DefaultValue::Json(text, tokens) => {
            let field_name = field.rust_name();
            quote_spanned!(tokens.span()=> {
                static __DEFAULT: ::std::sync::OnceLock<::tool_core::__private::Value> =
                    ::std::sync::OnceLock::new();
                ::tool_core::__private::default_from_json::<#ty>(#field_name, #text, &__DEFAULT)
            })
        }
    }
}

/// An example's JSON, with the field type checked against a literal's kind
/// at the `example` key.
fn example_json(field: &Field, tokens: &TokenStream, example: &Example) -> TokenStream {
    let ty = field.ty;
    let at = respanned(ty, super::first_span(tokens));
    match example {
        Example::Literal(Literal::Str(text)) => {
            let assert = constraints::assert_kind(&at, Kind::String);
            quote! {{
                #assert
                ::tool_core::__private::Value::from(#text)
            }}
        }
        Example::Literal(Literal::Number(number)) => {
            let assert = match number {
                crate::internals::attr::Number::Int(_) => constraints::assert_numeric(&at),
                crate::internals::attr::Number::Float(_) => {
                    constraints::assert_kind(&at, Kind::Float)
                }
            };
            let number = constraints::bound(*number);
            quote! {{
                #assert
                ::tool_core::__private::Literal::Number(#number).to_json()
            }}
        }
        Example::Literal(Literal::Bool(flag)) => quote!(::tool_core::__private::Value::Bool(#flag)),
        Example::Expr(expr) => {
            let value_trait = param_value(ty);
            quote_spanned!(expr.span()=> #value_trait::to_json(&{ let __example: #ty = #expr; __example }))
        }
    }
}

fn field_schema(field: &Field, plan: &Plan) -> TokenStream {
    let value_trait = param_value(field.ty);
    let name = &field.json_name;
    let schema = value_schema(field, plan, quote!(#value_trait::field_schema()));
    let required = if field.attrs.default.is_some() {
        quote!(false)
    } else {
        quote!(!#value_trait::OPTIONAL)
    };
    quote!(__schema.field(#name, #schema, #required);)
}

/// `base` (an expression of type `Value`: the type's schema) with the
/// field's attributes applied, as an expression of type `Value`.
fn value_schema(field: &Field, plan: &Plan, base: TokenStream) -> TokenStream {
    let value_trait = param_value(field.ty);
    let rust_name = field.rust_name();
    let attrs = &field.attrs;
    let mut adjust = TokenStream::new();
    let none = quote!(::core::option::Option::None);
    let (mut constraints_ref, mut items_ref) = (none.clone(), none);
    if let Some(constraints) = &plan.constraints {
        adjust.extend(quote! {
            let __constraints = #constraints;
            __constraints.apply(&mut __field);
        });
        constraints_ref = quote!(::core::option::Option::Some(&__constraints));
        if attrs.value.format.is_some() && attrs.value.one_of.is_some() {
            adjust
                .extend(quote!(::tool_core::__private::assert_listed(#rust_name, &__constraints);));
        }
    }
    if let Some(items) = &plan.items {
        adjust.extend(quote! {
            let __items = #items;
            __items.apply(&mut __field);
        });
        items_ref = quote!(::core::option::Option::Some(&__items));
        if let Some((_, _, each)) = &attrs.items
            && each.format.is_some()
            && each.one_of.is_some()
        {
            adjust
                .extend(quote!(::tool_core::__private::assert_listed(#rust_name, &__items.each);));
        }
    }
    // What the schema shows must pass what parse checks: the derive checked
    // the literals, this checks the rest when the schema is built.
    let constrained = plan.constraints.is_some() || plan.items.is_some();
    let assert_shown = |what: &str, value: TokenStream| {
        constrained.then(|| {
            quote!(::tool_core::__private::assert_shown(#rust_name, #what, #value, #constraints_ref, #items_ref);)
        })
    };
    if let Some(default) = &attrs.default {
        let value = default_expr(field, default);
        let check = assert_shown("default", quote!(&__default));
        adjust.extend(quote! {
            let __default = #value_trait::to_json(&#value);
            #check
            ::tool_core::__private::set_default(&mut __field, __default);
        });
    }
    if !attrs.examples.is_empty() {
        let examples = attrs
            .examples
            .iter()
            .map(|(tokens, example)| example_json(field, tokens, example));
        let check = assert_shown("example", quote!(__example))
            .map(|check| quote!(for __example in &__examples { #check }));
        adjust.extend(quote! {
            let __examples = ::std::vec![#(#examples),*];
            #check
            ::tool_core::__private::set_examples(&mut __field, __examples);
        });
    }
    if attrs.deprecated {
        adjust.extend(quote!(::tool_core::__private::set_deprecated(&mut __field);));
    }
    if let Some(description) = &field.description {
        adjust.extend(quote!(::tool_core::__private::describe(&mut __field, #description);));
    }
    if adjust.is_empty() {
        return base;
    }
    quote! {{
        let mut __field = #base;
        #adjust
        __field
    }}
}

/// Statements checking the constraints of a parsed field, with `__item`
/// (what was sent), `__field_path` and `__failed` in scope.
fn value_checks(plan: &Plan) -> TokenStream {
    let mut checks = TokenStream::new();
    if let Some(constraints) = &plan.constraints {
        checks.extend(quote!(__failed |= #constraints.check(__item, &__field_path, __errors);));
    }
    if let Some(items) = &plan.items {
        checks.extend(quote!(__failed |= #items.check(__item, &__field_path, __errors);));
    }
    checks
}

fn field_parse(field: &Field, plan: &Plan, index: usize, value: &syn::Ident) -> TokenStream {
    let ty = field.ty;
    let attrs = &field.attrs;
    if attrs.skip.is_some() {
        let default = match &attrs.default {
            Some(default) => default_expr(field, default),
            None => default_expr(field, &DefaultValue::Trait),
        };
        return quote!(let #value: ::core::option::Option<#ty> = ::core::option::Option::Some(#default););
    }
    if attrs.flatten.is_some() {
        return quote_spanned! {ty.span()=>
            let #value: ::core::option::Option<#ty> =
                <#ty as ::tool_core::__private::ParamObject>::parse_fields(__object, __path, __errors);
        };
    }
    let slot = format_ident!("__slot_{}", index);
    let value_trait = param_value(ty);
    let name = &field.json_name;
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
                __names,
                __path,
                __errors,
            )
        },
    };
    let checks = value_checks(plan);
    // Constraints check what the model sent; a default was checked against
    // them when the schema was built (`value_schema`).
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
