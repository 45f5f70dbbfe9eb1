//! The proc macros of `tool-core`. Depend on `tool-core` and use them from
//! there (`tool_core::ToolParams`); this crate is an implementation detail.

#![forbid(unsafe_code)]
mod expand;
mod internals;
mod tool_attr;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `ToolParams` for a struct with named fields or an enum (in
/// serde's four representations): a parser and its JSON Schema from one
/// definition. A unit-only enum is a string enum; an enum some of whose
/// values are not objects is a `ParamValue` only. Its attributes and the
/// field types are in one reference, `tool_core::_derive`.
#[proc_macro_derive(ToolParams, attributes(param))]
pub fn derive_tool_params(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns a documented `async fn` into a tool: generates `<Name>Params`
/// (its parameters, as with `#[derive(ToolParams)]`) and the unit struct
/// `<Name>Tool` implementing `tool_core::Tool`. The function itself is left
/// as written. Its options are in the reference, `tool_core::_derive`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::function::expand(args.into(), item.into()).into()
}

/// Makes each `#[tool]` method of an impl block a tool of the type's
/// toolbox: generates `<Type><Method>Params`, a `<Type><Method>Tool` holding
/// the shared `Arc<Type>`, and the type's `tool_core::Toolbox` impl. The
/// impl block is left as written. What a tool method may be is in the
/// reference, `tool_core::_derive`.
#[proc_macro_attribute]
pub fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::methods::expand(args.into(), item.into()).into()
}
