//! The items one tool expands to, for a function or a method alike: the
//! parameters struct (through the same expansion as `#[derive(ToolParams)]`)
//! and the `Tool` impl of a struct the caller defines.

use super::signature::{Input, ToolSig};
use crate::expand;
use crate::internals::attr::ToolAttrs;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::{Ident, Visibility, parse_quote};

/// What differs between a function's tool and a method's.
pub(super) struct Target<'a> {
    pub vis: &'a Visibility,
    pub params_ident: Ident,
    pub tool_ident: Ident,
    /// The callee: `echo` for a function, `self.0.read` for a method.
    pub callee: TokenStream,
}

/// The parameters struct with its `ToolParams` impls, and the `Tool` impl
/// for `target.tool_ident`.
pub(super) fn tool_items(tool: &ToolSig<'_>, target: &Target<'_>) -> TokenStream {
    let Target {
        vis,
        params_ident,
        tool_ident,
        callee,
    } = target;
    let (field_idents, (field_types, field_attrs)): (Vec<_>, (Vec<_>, Vec<_>)) = tool
        .params()
        .map(|(ident, ty, attrs)| (ident, (ty, attrs)))
        .unzip();
    let derive_input: syn::DeriveInput = parse_quote! {
        #vis struct #params_ident {
            #( #(#field_attrs)* #vis #field_idents: #field_types, )*
        }
    };
    let params_impls = expand::expand(&derive_input).unwrap_or_else(syn::Error::into_compile_error);
    let params_doc = format!(
        "The arguments of the `{}` tool, as `{}` takes them.",
        tool.name, tool.sig.ident
    );

    // Fields are moved out of the parameters one by one, so no local
    // binding of the user's names can shadow the context.
    let call_args = tool.inputs.iter().map(|input| match input {
        Input::Param { ident, .. } => quote!(__params.#ident),
        Input::Context { by_ref: true, .. } => quote!(&__ctx),
        Input::Context { by_ref: false, .. } => quote!(__ctx),
    });
    let tool_impl = tool_impl(
        tool,
        tool_ident,
        params_ident,
        quote!(#callee(#(#call_args),*)),
    );
    quote! {
        #[doc = #params_doc]
        #vis struct #params_ident {
            #( #[allow(missing_docs)] #vis #field_idents: #field_types, )*
        }

        #params_impls

        #tool_impl
    }
}

/// The `Tool` impl, spanned at the return type: every obligation it raises
/// about that type is reported there.
fn tool_impl(
    tool: &ToolSig<'_>,
    tool_ident: &Ident,
    params_ident: &Ident,
    call: TokenStream,
) -> TokenStream {
    let name = syn::LitStr::new(&tool.name, tool.name_span);
    let description = &tool.description;
    let optional_items = optional_items(&tool.attrs);
    // One span for every token of the return type too: rustc then reports
    // the identical obligations this impl raises about it once.
    let span = expand::first_span(&tool.output.to_token_stream());
    let output = expand::respanned(tool.output, span);
    let into_result = quote_spanned! {span=>
        <#output as ::tool_core::__private::IntoToolResult>
    };
    quote_spanned! {span=>
            #[automatically_derived]
            impl ::tool_core::Tool for #tool_ident {
                type Params = #params_ident;
                type Details = #into_result::Details;

                fn name(&self) -> &str {
                    #name
                }

                fn description(&self) -> &str {
                    #description
                }

                async fn execute(
                    &self,
                    __params: #params_ident,
                    __ctx: ::tool_core::ToolContext,
                ) -> ::core::result::Result<::tool_core::ToolOutput<Self::Details>, ::tool_core::ToolError> {
                    #into_result::into_tool_result(#call.await)
                }

                fn output_schema(&self) -> ::core::option::Option<::tool_core::__private::Value> {
                    #into_result::output_schema()
                }

                #optional_items
            }
    }
}

/// The `Tool` methods `#[tool(...)]` overrides: timeout, retries,
/// exclusivity, approval, examples, annotations.
fn optional_items(attrs: &ToolAttrs) -> TokenStream {
    let mut items = TokenStream::new();
    if let Some(ms) = attrs.timeout_ms {
        items.extend(quote! {
            fn timeout(&self) -> ::core::option::Option<::core::time::Duration> {
                ::core::option::Option::Some(::core::time::Duration::from_millis(#ms))
            }
        });
    }
    if let Some(count) = attrs.retries {
        items.extend(quote! {
            fn retries(&self) -> ::core::option::Option<u32> {
                ::core::option::Option::Some(#count)
            }
        });
    }
    if attrs.exclusive {
        items.extend(quote! {
            fn exclusive(&self) -> bool {
                true
            }
        });
    }
    if attrs.needs_approval {
        items.extend(quote! {
            fn needs_approval(&self) -> bool {
                true
            }
        });
    }
    if let Some((direct, code)) = attrs.callers {
        items.extend(quote! {
            fn callers(&self) -> ::tool_core::Callers {
                ::tool_core::Callers { direct: #direct, code: #code }
            }
        });
    }
    if !attrs.examples.is_empty() {
        items.extend(examples(&attrs.examples));
    }
    let hints = &attrs.annotations;
    if !hints.is_empty() {
        let option = |value: &Option<bool>| match value {
            Some(flag) => quote!(::core::option::Option::Some(#flag)),
            None => quote!(::core::option::Option::None),
        };
        let title = match &hints.title {
            Some(title) => {
                quote!(::core::option::Option::Some(::std::string::String::from(#title)))
            }
            None => quote!(::core::option::Option::None),
        };
        let read_only = option(&hints.read_only);
        let destructive = option(&hints.destructive);
        let idempotent = option(&hints.idempotent);
        let open_world = option(&hints.open_world);
        items.extend(quote! {
            fn annotations(&self) -> ::tool_core::ToolAnnotations {
                ::tool_core::__private::annotations(#title, #read_only, #destructive, #idempotent, #open_world)
            }
        });
    }
    items
}

/// `Tool::examples`: each `example = <expr>` in the order written. The
/// expressions are the user's tokens, so `json!` resolves as the user
/// imported it, and an expression of another type is a type error at its
/// own span: the array's element type is written out, so rustc checks each
/// element against `Value` rather than inferring it from the first.
fn examples(examples: &[syn::Expr]) -> TokenStream {
    let count = examples.len();
    quote! {
        fn examples(&self) -> ::std::vec::Vec<::tool_core::__private::Value> {
            let __examples: [::tool_core::__private::Value; #count] = [#(#examples),*];
            ::std::vec::Vec::from(__examples)
        }
    }
}
