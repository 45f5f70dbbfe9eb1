//! `#[tools]` on an impl block: the block as written (minus the tool
//! attributes), and for each `#[tool]` method a parameters struct and a
//! `<Type><Method>Tool` struct holding the shared `Arc<Type>`, plus the
//! type's `Toolbox` impl listing them.

use super::emit::{Target, tool_items};
use super::signature::{Owner, ToolSig};
use super::without_param_attrs;
use crate::internals::ast::unraw;
use crate::internals::attr::{self, ToolAttrs};
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::{Attribute, ImplItem, ImplItemFn, ItemImpl, Type};

pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(error) => {
            let mut output = syn::Error::new(
                error.span(),
                "#[tools] applies to an impl block (`#[tools] impl YourType { ... }`) whose `#[tool]` methods become tools",
            )
            .into_compile_error();
            output.extend(item);
            return output;
        }
    };
    let cx = Ctxt::new();
    if !args.is_empty() {
        cx.error_spanned_by(
            &args,
            "#[tools] takes no arguments; options go on each method's #[tool(...)]",
        );
    }
    let type_name = check_block(&cx, &block);
    let tool_attrs = take_tool_attrs(&cx, &mut block);
    let mut output = TokenStream::new();
    let mut registered = Vec::new();
    let mut names: Vec<(String, Span)> = Vec::new();
    for (index, attrs) in tool_attrs {
        let ImplItem::Fn(method) = &block.items[index] else {
            unreachable!("take_tool_attrs returns methods only")
        };
        let Some(tool) = ToolSig::from_syn(&cx, Owner::Method, &method.attrs, &method.sig, attrs)
        else {
            continue;
        };
        if let Some((_, first)) = names.iter().find(|(name, _)| *name == tool.name) {
            let mut error = syn::Error::new(
                tool.name_span,
                format!(
                    "two tools of this #[tools] impl are named `{}`: give one another name with #[tool(name = \"...\")]",
                    tool.name
                ),
            );
            error.combine(syn::Error::new(*first, "the first one is here"));
            cx.syn_error(error);
        }
        names.push((tool.name.clone(), tool.name_span));
        if let Some(type_name) = &type_name {
            let (items, tool_ident) = expand_tool(&tool, method, type_name, &block.self_ty);
            output.extend(items);
            registered.push(tool_ident);
        }
    }
    for item in &mut block.items {
        if let ImplItem::Fn(method) = item {
            without_param_attrs(&mut method.sig);
        }
    }
    let mut result = match cx.check() {
        // The impl block is still emitted, so the rest of the crate
        // compiles and one mistake gives one error.
        Err(errors) => errors.into_compile_error(),
        Ok(()) => {
            output.extend(toolbox_impl(&block.self_ty, &registered));
            output
        }
    };
    result.extend(block.into_token_stream());
    result
}

/// The type's name, for the generated structs' names; `None` (with an
/// error) when the block cannot be a toolbox.
fn check_block(cx: &Ctxt, block: &ItemImpl) -> Option<String> {
    if let Some((path, _)) = &block.trait_ {
        cx.error_spanned_by(
            path,
            "#[tools] goes on an inherent impl (`impl YourType`), not on a trait impl",
        );
    }
    if !block.generics.params.is_empty() || block.generics.where_clause.is_some() {
        cx.error_spanned_by(
            &block.generics,
            "#[tools] impl blocks cannot be generic: each tool needs one concrete type for its JSON Schema",
        );
    }
    if let Some(unsafety) = &block.unsafety {
        cx.error_spanned_by(unsafety, "#[tools] impl blocks cannot be `unsafe`");
    }
    match &*block.self_ty {
        Type::Path(path) if path.qself.is_none() => match path.path.segments.last() {
            Some(last) if last.arguments.is_none() => Some(unraw(&last.ident)),
            Some(last) => {
                cx.error_spanned_by(
                    &last.arguments,
                    "#[tools] goes on the impl of a type without generic arguments",
                );
                None
            }
            None => None,
        },
        other => {
            cx.error_spanned_by(other, "#[tools] goes on the impl of a named struct or enum");
            None
        }
    }
}

/// Removes each method's `#[tool(...)]` attribute and parses it; gives the
/// tool methods' indices with their attributes, in order.
fn take_tool_attrs(cx: &Ctxt, block: &mut ItemImpl) -> Vec<(usize, ToolAttrs)> {
    let mut tools = Vec::new();
    for (index, item) in block.items.iter_mut().enumerate() {
        let ImplItem::Fn(method) = item else { continue };
        let mut found: Option<Attribute> = None;
        let mut kept = Vec::new();
        for attribute in std::mem::take(&mut method.attrs) {
            if !is_tool_attr(&attribute) {
                kept.push(attribute);
            } else if found.is_some() {
                cx.error_spanned_by(&attribute, "#[tool] is written once per method");
            } else {
                found = Some(attribute);
            }
        }
        method.attrs = kept;
        if let Some(attribute) = found {
            let args = match &attribute.meta {
                syn::Meta::Path(_) => TokenStream::new(),
                syn::Meta::List(list) => list.tokens.clone(),
                syn::Meta::NameValue(pair) => {
                    cx.error_spanned_by(pair, "write `#[tool]` or `#[tool(...)]`");
                    TokenStream::new()
                }
            };
            tools.push((index, attr::tool(cx, args)));
        }
    }
    tools
}

/// `#[tool]`, `#[tool(...)]`, or the same under a path (`#[tool_core::tool]`).
fn is_tool_attr(attribute: &Attribute) -> bool {
    attribute
        .path()
        .segments
        .last()
        .is_some_and(|last| last.ident == "tool")
}

/// One method's items and the name of its tool struct.
fn expand_tool(
    tool: &ToolSig<'_>,
    method: &ImplItemFn,
    type_name: &str,
    self_ty: &Type,
) -> (TokenStream, syn::Ident) {
    let method_ident = &method.sig.ident;
    let camel = format!(
        "{type_name}{}",
        RenameRule::Pascal.apply_to_field(&unraw(method_ident))
    );
    let vis = &method.vis;
    let target = Target {
        vis,
        params_ident: format_ident!("{}Params", camel, span = method_ident.span()),
        tool_ident: format_ident!("{}Tool", camel, span = method_ident.span()),
        callee: quote!(self.0.#method_ident),
    };
    let tool_doc = format!(
        "The `{}` tool: runs `{type_name}::{method_ident}` on the toolbox's shared state. `ToolRegistry::register_all` registers it with the others of its impl.",
        tool.name
    );
    let tool_ident = target.tool_ident.clone();
    let items = tool_items(tool, &target);
    let output = quote! {
        #[doc = #tool_doc]
        #vis struct #tool_ident(::tool_core::__private::Arc<#self_ty>);

        #items
    };
    (output, tool_ident)
}

fn toolbox_impl(self_ty: &Type, tools: &[syn::Ident]) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl ::tool_core::Toolbox for #self_ty {
            fn tools(
                self: ::tool_core::__private::Arc<Self>,
            ) -> ::std::vec::Vec<::tool_core::registry::RegisteredTool> {
                ::std::vec![
                    #( ::tool_core::registry::RegisteredTool::new(#tools(::tool_core::__private::Arc::clone(&self))), )*
                ]
            }
        }
    }
}
