//! Expands `#[tool]` on an async function: the function as written, a
//! parameters struct (through the same expansion as `#[derive(ToolParams)]`),
//! and a unit struct implementing `Tool` that calls the function.

use crate::expand;
use crate::internals::ast::unraw;
use crate::internals::attr::{self, ToolAttrs};
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use crate::internals::doc;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{FnArg, Ident, ItemFn, Pat, ReturnType, Type, parse_quote};

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            // Not a function at all: say so, and leave the item as it was.
            let mut output = syn::Error::new(
                error.span(),
                "#[tool] applies to an `async fn`; stateful tools implement `tool_core::Tool` on a struct",
            )
            .into_compile_error();
            output.extend(item);
            return output;
        }
    };
    let cx = Ctxt::new();
    let attrs = attr::tool(&cx, args);
    let model = ToolFn::from_syn(&cx, &function, attrs);
    let as_written = without_param_attrs(&function);
    match cx.check() {
        // The function is still emitted, so the rest of the crate compiles
        // and one mistake gives one error.
        Err(errors) => {
            let mut output = errors.into_compile_error();
            output.extend(as_written);
            output
        }
        Ok(()) => {
            let mut output = as_written;
            output.extend(model.expect("no errors, so the model was built").expand());
            output
        }
    }
}

/// The function as the user wrote it, minus the `#[param(...)]` attributes,
/// which only mean something on the generated struct's fields.
fn without_param_attrs(function: &ItemFn) -> TokenStream {
    let mut function = function.clone();
    for input in &mut function.sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| !attr.path().is_ident("param"));
        }
    }
    function.into_token_stream()
}

struct ToolFn<'a> {
    function: &'a ItemFn,
    timeout_ms: Option<u64>,
    exclusive: bool,
    name: String,
    name_span: Span,
    description: String,
    inputs: Vec<Input<'a>>,
    output: &'a Type,
}

enum Input<'a> {
    /// A model parameter: a field of the parameters struct.
    Param(&'a syn::PatType, &'a Ident),
    /// The context, by value or by reference.
    Context { by_ref: bool },
}

impl<'a> ToolFn<'a> {
    fn from_syn(cx: &Ctxt, function: &'a ItemFn, attrs: ToolAttrs) -> Option<Self> {
        let sig = &function.sig;
        if sig.asyncness.is_none() {
            cx.error_spanned_by(
                sig.fn_token,
                "the `async` keyword is missing: #[tool] functions are `async fn`",
            );
        }
        if !sig.generics.params.is_empty() {
            cx.error_spanned_by(
                &sig.generics,
                "#[tool] functions cannot be generic: each parameter needs one concrete type for its JSON Schema",
            );
        }
        if let Some(where_clause) = &sig.generics.where_clause {
            cx.error_spanned_by(
                where_clause,
                "#[tool] functions cannot have a where clause: each parameter needs one concrete type for its JSON Schema",
            );
        }
        if let syn::Safety::Unsafe(unsafe_token) = &sig.safety {
            cx.error_spanned_by(
                unsafe_token,
                "#[tool] functions cannot be `unsafe`: a model's call could not uphold its contract",
            );
        }
        if let Some(constness) = &sig.constness {
            cx.error_spanned_by(constness, "#[tool] functions cannot be `const`");
        }
        if let Some(abi) = &sig.abi {
            cx.error_spanned_by(abi, "#[tool] functions cannot have an `extern` ABI");
        }
        if let Some(variadic) = &sig.variadic {
            cx.error_spanned_by(variadic, "#[tool] functions cannot be variadic");
        }
        let mut inputs = Vec::new();
        let mut context_seen = false;
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(receiver) => cx.error_spanned_by(
                    receiver,
                    "#[tool] functions cannot take `self`: write a free function, or implement `tool_core::Tool` on a struct for a tool with state",
                ),
                FnArg::Typed(typed) => {
                    if let Some(by_ref) = context_type(&typed.ty) {
                        if context_seen {
                            cx.error_spanned_by(typed, "a #[tool] function takes the context at most once");
                        }
                        context_seen = true;
                        if let Some(attr) = typed.attrs.iter().find(|a| a.path().is_ident("param")) {
                            cx.error_spanned_by(
                                attr,
                                "the context is not a model parameter, so #[param] does not apply to it",
                            );
                        }
                        inputs.push(Input::Context { by_ref });
                        continue;
                    }
                    match &*typed.ty {
                        Type::Reference(reference) => cx.error_spanned_by(
                            reference,
                            "a tool parameter is parsed into an owned value: use an owned type (`String`, not `&str`)",
                        ),
                        Type::ImplTrait(impl_trait) => cx.error_spanned_by(
                            impl_trait,
                            "a tool parameter needs a concrete type for its JSON Schema, not `impl Trait`",
                        ),
                        _ => {}
                    }
                    match &*typed.pat {
                        Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                            inputs.push(Input::Param(typed, &pat.ident));
                        }
                        other => cx.error_spanned_by(
                            other,
                            "use a plain parameter name here: it becomes the argument's JSON name",
                        ),
                    }
                }
            }
        }
        let output = match &sig.output {
            ReturnType::Type(_, ty) => Some(&**ty),
            ReturnType::Default => {
                cx.error_spanned_by(
                    &sig.ident,
                    "a #[tool] function returns what the model reads: `String`, `ToolOutput<D>`, or a `Result` of either",
                );
                None
            }
        };
        let description = attrs
            .description
            .or_else(|| doc::description(&function.attrs));
        if description.is_none() {
            let computed_doc = function.attrs.iter().any(|attr| {
                attr.path().is_ident("doc")
                    && !matches!(&attr.meta, syn::Meta::NameValue(pair)
                        if matches!(&pair.value, syn::Expr::Lit(_)))
            });
            let message = if computed_doc {
                "a tool needs a description for the model, and this doc comment is computed (not a string literal): write `#[tool(description = \"...\")]`"
            } else {
                "a tool needs a description for the model: add a doc comment (`/// ...`) or `#[tool(description = \"...\")]`"
            };
            cx.error_spanned_by(&sig.ident, message);
        }
        let (name, name_span) = match attrs.name {
            Some(name) => (name.value(), name.span()),
            None => (unraw(&sig.ident), sig.ident.span()),
        };
        Some(ToolFn {
            function,
            timeout_ms: attrs.timeout_ms,
            exclusive: attrs.exclusive,
            name,
            name_span,
            description: description?,
            inputs,
            output: output?,
        })
    }

    fn expand(&self) -> TokenStream {
        let sig = &self.function.sig;
        let vis = &self.function.vis;
        let fn_ident = &sig.ident;
        let camel = RenameRule::Pascal.apply_to_field(&unraw(fn_ident));
        let params_ident = format_ident!("{}Params", camel, span = fn_ident.span());
        let tool_ident = format_ident!("{}Tool", camel, span = fn_ident.span());
        let fn_name = fn_ident.to_string();

        let params: Vec<_> = self
            .inputs
            .iter()
            .filter_map(|input| match input {
                Input::Param(typed, ident) => Some((*typed, *ident)),
                Input::Context { .. } => None,
            })
            .collect();
        let field_idents: Vec<_> = params.iter().map(|(_, ident)| *ident).collect();
        let field_types: Vec<_> = params.iter().map(|(typed, _)| &*typed.ty).collect();
        let field_attrs: Vec<Vec<_>> = params
            .iter()
            .map(|(typed, _)| {
                typed
                    .attrs
                    .iter()
                    .filter(|attr| attr.path().is_ident("param"))
                    .collect()
            })
            .collect();
        let derive_input: syn::DeriveInput = parse_quote! {
            #vis struct #params_ident {
                #( #(#field_attrs)* #vis #field_idents: #field_types, )*
            }
        };
        let params_impls =
            expand::expand(&derive_input).unwrap_or_else(syn::Error::into_compile_error);

        // Fields are moved out of the parameters one by one, so no local
        // binding of the user's names can shadow the context.
        let call_args = self.inputs.iter().map(|input| match input {
            Input::Param(_, ident) => quote!(__params.#ident),
            Input::Context { by_ref: true } => quote!(&__ctx),
            Input::Context { by_ref: false } => quote!(__ctx),
        });
        let name = syn::LitStr::new(&self.name, self.name_span);
        let mut extra_items = TokenStream::new();
        if let Some(ms) = self.timeout_ms {
            extra_items.extend(quote! {
                fn timeout(&self) -> ::core::option::Option<::core::time::Duration> {
                    ::core::option::Option::Some(::core::time::Duration::from_millis(#ms))
                }
            });
        }
        if self.exclusive {
            extra_items.extend(quote! {
                fn exclusive(&self) -> bool {
                    true
                }
            });
        }
        let tool_impl = tool_impl(
            self.output,
            &tool_ident,
            &params_ident,
            &name,
            &self.description,
            quote!(#fn_ident(#(#call_args),*)),
            extra_items,
        );

        let params_doc = format!(
            "The arguments of the `{}` tool, as `{fn_name}` takes them.",
            self.name
        );
        let tool_doc = format!(
            "The `{}` tool: runs `{fn_name}`. Register it with `ToolRegistry::register`.",
            self.name
        );
        quote! {
            #[doc = #params_doc]
            #vis struct #params_ident {
                #( #[allow(missing_docs)] #vis #field_idents: #field_types, )*
            }

            #params_impls

            #[doc = #tool_doc]
            #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug, ::core::default::Default)]
            #vis struct #tool_ident;

            #tool_impl
        }
    }
}

/// The `Tool` impl, spanned at the return type: every obligation it raises
/// about that type is reported there.
fn tool_impl(
    output: &Type,
    tool_ident: &Ident,
    params_ident: &Ident,
    name: &syn::LitStr,
    description: &str,
    call: TokenStream,
    extra_items: TokenStream,
) -> TokenStream {
    // One span for every token of the return type too: rustc then reports
    // the identical obligations this impl raises about it once.
    let span = expand::first_span(&output.to_token_stream());
    let output = expand::respanned(output, span);
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

                #extra_items
            }
    }
}

/// `Some(by_ref)` when `ty` is `ToolContext` or `&ToolContext` (under any
/// path, such as `tool_core::ToolContext`).
fn context_type(ty: &Type) -> Option<bool> {
    let (ty, by_ref) = match ty {
        Type::Reference(reference) => (&*reference.elem, true),
        other => (other, false),
    };
    match ty {
        Type::Path(path)
            if path.qself.is_none()
                && path.path.segments.last().is_some_and(|last| {
                    last.ident == "ToolContext" && last.arguments.is_none()
                }) =>
        {
            Some(by_ref)
        }
        _ => None,
    }
}
