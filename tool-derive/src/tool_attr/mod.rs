//! The tool attributes: `#[tool]` on an async function, and `#[tools]` on
//! an impl block whose `#[tool]` methods become the type's toolbox. Both
//! build one [`signature::ToolSig`] per tool and expand it the same way.

mod emit;
pub(crate) mod function;
pub(crate) mod methods;
mod signature;

use syn::{FnArg, Signature};

/// Removes what only means something on the generated struct's fields
/// (`#[param(...)]` and parameter doc comments, which rustc refuses on a
/// parameter), so the function or method compiles as written.
fn without_param_attrs(sig: &mut Signature) {
    for input in &mut sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed
                .attrs
                .retain(|attr| !attr.path().is_ident("param") && !attr.path().is_ident("doc"));
        }
    }
}
