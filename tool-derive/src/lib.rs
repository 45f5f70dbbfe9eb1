//! The proc macros of `tool-core`. Depend on `tool-core` and use them from
//! there (`tool_core::ToolParams`); this crate is an implementation detail.

mod internals;
mod params;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `ToolParams` (a struct with named fields: the arguments object)
/// or `ParamValue` (a unit-only enum: a string enum): a parser and its JSON
/// Schema from one definition. See `tool_core::ToolParams` for the rules and
/// the attributes.
#[proc_macro_derive(ToolParams, attributes(param))]
pub fn derive_tool_params(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    params::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
