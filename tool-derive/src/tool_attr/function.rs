//! `#[tool]` on an async function: the function as written, and beside it
//! the parameters struct and the unit struct `<Name>Tool` implementing
//! `Tool` by calling the function.

use super::emit::{Target, tool_items};
use super::signature::{Owner, ToolSig};
use super::without_param_attrs;
use crate::internals::ast::unraw;
use crate::internals::attr;
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use syn::ItemFn;

pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            // Not a function at all: say so, and leave the item as it was.
            let mut output = syn::Error::new(
                error.span(),
                "#[tool] applies to an `async fn`, or to an `async fn` method of an impl block with `#[tools]`",
            )
            .into_compile_error();
            output.extend(item);
            return output;
        }
    };
    let cx = Ctxt::new();
    let attrs = attr::tool(&cx, args);
    let model = ToolSig::from_syn(&cx, Owner::Function, &function.attrs, &function.sig, attrs);
    let items = model.map(|tool| expand_tool(&tool, &function.vis));
    without_param_attrs(&mut function.sig);
    let mut output = match cx.check() {
        // The function is still emitted, so the rest of the crate compiles
        // and one mistake gives one error.
        Err(errors) => errors.into_compile_error(),
        Ok(()) => items.expect("no errors, so the model was built"),
    };
    output.extend(function.into_token_stream());
    output
}

fn expand_tool(tool: &ToolSig<'_>, vis: &syn::Visibility) -> TokenStream {
    let fn_ident = &tool.sig.ident;
    let camel = RenameRule::Pascal.apply_to_field(&unraw(fn_ident));
    let target = Target {
        vis,
        params_ident: format_ident!("{}Params", camel, span = fn_ident.span()),
        tool_ident: format_ident!("{}Tool", camel, span = fn_ident.span()),
        callee: quote!(#fn_ident),
    };
    let tool_doc = format!(
        "The `{}` tool: runs `{fn_ident}`. Register it with `ToolRegistry::register`.",
        tool.name
    );
    let tool_ident = &target.tool_ident;
    let items = tool_items(tool, &target);
    quote! {
        #[doc = #tool_doc]
        #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug, ::core::default::Default)]
        #vis struct #tool_ident;

        #items
    }
}
