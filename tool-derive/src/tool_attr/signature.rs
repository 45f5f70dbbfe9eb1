//! The checked model of one tool, from an `async fn` or a method of a
//! `#[tools]` impl: its name, description, model parameters (with their
//! descriptions from doc comments and `# Arguments`), context parameter and
//! return type. Functions and methods share every rule but the receiver.

use crate::internals::arguments::{self, ArgumentDoc};
use crate::internals::ast::unraw;
use crate::internals::attr::ToolAttrs;
use crate::internals::ctxt::Ctxt;
use crate::internals::doc;
use proc_macro2::Span;
use syn::{Attribute, FnArg, Ident, Pat, PatType, ReturnType, Signature, Type, parse_quote};

/// Where the tool is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// `#[tool]` on a free function.
    Function,
    /// `#[tool]` on a method inside `#[tools]`.
    Method,
}

pub(super) struct ToolSig<'a> {
    pub sig: &'a Signature,
    pub attrs: ToolAttrs,
    pub name: String,
    pub name_span: Span,
    pub description: String,
    pub inputs: Vec<Input<'a>>,
    pub output: &'a Type,
}

pub(super) enum Input<'a> {
    /// A model parameter: a field of the parameters struct, with the
    /// attributes it takes there (`#[param]` and its description as docs).
    Param {
        typed: &'a PatType,
        ident: &'a Ident,
        field_attrs: Vec<Attribute>,
    },
    /// The context, by value or by reference, and its name (an
    /// `# Arguments` item may document it).
    Context { by_ref: bool, name: Option<String> },
}

impl<'a> ToolSig<'a> {
    pub(super) fn from_syn(
        cx: &Ctxt,
        owner: Owner,
        fn_attrs: &[Attribute],
        sig: &'a Signature,
        attrs: ToolAttrs,
    ) -> Option<Self> {
        check_signature(cx, owner, sig);
        let inputs = inputs(cx, owner, sig);
        let output = match &sig.output {
            ReturnType::Type(_, ty) => {
                check_error_type(cx, ty);
                Some(&**ty)
            }
            ReturnType::Default => {
                cx.error_spanned_by(
                    &sig.ident,
                    "a #[tool] function returns what the model reads: `String`, `ToolOutput<D>`, `Json<T>`, or a `Result` of one of them",
                );
                None
            }
        };
        let (description_lines, argument_docs) = arguments::split(doc::lines(fn_attrs));
        let inputs = with_argument_docs(cx, inputs, argument_docs);
        let description = attrs
            .description
            .clone()
            .or_else(|| doc::join(&description_lines));
        if description.is_none() {
            let message = if doc::has_computed(fn_attrs) {
                "a tool needs a description for the model, and this doc comment is computed (not a string literal): write `#[tool(description = \"...\")]`"
            } else {
                "a tool needs a description for the model: add a doc comment (`/// ...`) or `#[tool(description = \"...\")]`"
            };
            cx.error_spanned_by(&sig.ident, message);
        }
        let (name, name_span) = match &attrs.name {
            Some(name) => (name.value(), name.span()),
            None => (unraw(&sig.ident), sig.ident.span()),
        };
        Some(ToolSig {
            sig,
            attrs,
            name,
            name_span,
            description: description?,
            inputs,
            output: output?,
        })
    }

    /// The model parameters: (field name, type, field attributes).
    pub(super) fn params(&self) -> impl Iterator<Item = (&Ident, &Type, &[Attribute])> {
        self.inputs.iter().filter_map(|input| match input {
            Input::Param {
                typed,
                ident,
                field_attrs,
            } => Some((*ident, &*typed.ty, field_attrs.as_slice())),
            Input::Context { .. } => None,
        })
    }
}

/// A `Result<_, Box<dyn Error>>` return, written out: the one error type
/// Rust users reach for that cannot cross to the executor (it is neither
/// `Send` nor `Sync`, so it converts into no `ToolError`), and whose trait
/// errors (three E0277s about `Send`, `Sync` and `Sized`, through the
/// runtime's private traits) say nothing of the fix. Seen in the tokens,
/// it gets one error that does; anything else is left to the trait bounds.
fn check_error_type(cx: &Ctxt, output: &Type) {
    let Some(error) = result_error_type(output) else {
        return;
    };
    let Type::Path(path) = error else { return };
    let Some(last) = path.path.segments.last() else {
        return;
    };
    if last.ident != "Box" {
        return;
    }
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return;
    };
    let Some(syn::GenericArgument::Type(Type::TraitObject(object))) = arguments.args.first() else {
        return;
    };
    let bound_named = |name: &str| {
        object.bounds.iter().any(|bound| match bound {
            syn::TypeParamBound::Trait(bound) => bound
                .path
                .segments
                .last()
                .is_some_and(|segment| segment.ident == name),
            _ => false,
        })
    };
    if bound_named("Error") && !(bound_named("Send") && bound_named("Sync")) {
        cx.error_spanned_by(
            error,
            "a #[tool] function's error must be `Send + Sync`: the executor may answer the call on another thread. Return `Result<_, Box<dyn std::error::Error + Send + Sync>>` (what `?` converts any `std::error::Error + Send + Sync` into), `anyhow::Error`, or `tool_core::ToolError`",
        );
    }
}

/// `E` of a return type written `Result<T, E>` (any path ending in
/// `Result` with two arguments).
fn result_error_type(output: &Type) -> Option<&Type> {
    let Type::Path(path) = output else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    let mut types = arguments.args.iter().filter_map(|argument| match argument {
        syn::GenericArgument::Type(ty) => Some(ty),
        _ => None,
    });
    let _ok = types.next()?;
    types.next()
}

/// The parts of a signature no tool may have, and the receiver rules.
fn check_signature(cx: &Ctxt, owner: Owner, sig: &Signature) {
    let what = match owner {
        Owner::Function => "#[tool] functions",
        Owner::Method => "#[tool] methods",
    };
    if sig.asyncness.is_none() {
        cx.error_spanned_by(
            sig.fn_token,
            format!("the `async` keyword is missing: {what} are `async fn`"),
        );
    }
    if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            format!("{what} cannot be generic: each parameter needs one concrete type for its JSON Schema"),
        );
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        cx.error_spanned_by(
            where_clause,
            format!("{what} cannot have a where clause: each parameter needs one concrete type for its JSON Schema"),
        );
    }
    if let syn::Safety::Unsafe(unsafe_token) = &sig.safety {
        cx.error_spanned_by(
            unsafe_token,
            format!("{what} cannot be `unsafe`: a model's call could not uphold its contract"),
        );
    }
    if let Some(constness) = &sig.constness {
        cx.error_spanned_by(constness, format!("{what} cannot be `const`"));
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, format!("{what} cannot have an `extern` ABI"));
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, format!("{what} cannot be variadic"));
    }
    match (owner, sig.receiver()) {
        (Owner::Function, Some(receiver)) => cx.error_spanned_by(
            receiver,
            "a #[tool] method needs `#[tools]` on its impl block: write `#[tools] impl YourType { ... }`, which makes each `#[tool]` method a tool of that type's toolbox",
        ),
        (Owner::Method, None) => cx.error_spanned_by(
            &sig.ident,
            "a #[tool] method takes `&self` first: the tool calls it on the toolbox's shared state",
        ),
        (Owner::Method, Some(receiver)) => match &receiver.kind {
            syn::ReceiverKind::Reference(_, _, None) => {}
            syn::ReceiverKind::Reference(_, _, Some(mutability)) => cx.error_spanned_by(
                mutability,
                "a #[tool] method takes `&self`, not `&mut self`: calls of a toolbox's tools may run at the same time, so keep mutable state behind a lock (`Mutex`, atomics)",
            ),
            syn::ReceiverKind::Value => cx.error_spanned_by(
                receiver,
                "a #[tool] method takes `&self`, not `self`: the toolbox is shared by every call through one `Arc`, never moved or cloned per call",
            ),
            _ => cx.error_spanned_by(
                receiver,
                "a #[tool] method takes plain `&self`: the toolbox is shared through one `Arc` that the tools hold",
            ),
        },
        (Owner::Function, None) => {}
    }
}

fn inputs<'a>(cx: &Ctxt, owner: Owner, sig: &'a Signature) -> Vec<Input<'a>> {
    let what = match owner {
        Owner::Function => "a #[tool] function",
        Owner::Method => "a #[tool] method",
    };
    let mut inputs = Vec::new();
    let mut context_seen = false;
    for input in &sig.inputs {
        let FnArg::Typed(typed) = input else {
            continue; // the receiver, checked above
        };
        if let Some(by_ref) = context_type(&typed.ty) {
            if context_seen {
                cx.error_spanned_by(typed, format!("{what} takes the context at most once"));
            }
            context_seen = true;
            for attr in &typed.attrs {
                if attr.path().is_ident("param") || attr.path().is_ident("doc") {
                    cx.error_spanned_by(
                        attr,
                        "the context is not a model parameter, so it takes no #[param] or description",
                    );
                }
            }
            let name = match &*typed.pat {
                Pat::Ident(pat) => Some(unraw(&pat.ident)),
                _ => None,
            };
            inputs.push(Input::Context { by_ref, name });
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
                inputs.push(Input::Param {
                    typed,
                    ident: &pat.ident,
                    // A parameter's doc comment, which rustc refuses on a
                    // parameter, becomes the field's: its description.
                    field_attrs: typed
                        .attrs
                        .iter()
                        .filter(|attr| attr.path().is_ident("param") || attr.path().is_ident("doc"))
                        .cloned()
                        .collect(),
                });
            }
            other => cx.error_spanned_by(
                other,
                "use a plain parameter name here: it becomes the argument's JSON name",
            ),
        }
    }
    inputs
}

/// Gives each parameter without a doc comment of its own the text of its
/// `# Arguments` item (`#[param(description)]` still wins, in the derive).
/// An item naming no parameter is an error at its line; one naming the
/// context is documentation of the function only.
fn with_argument_docs<'a>(
    cx: &Ctxt,
    mut inputs: Vec<Input<'a>>,
    docs: Vec<ArgumentDoc>,
) -> Vec<Input<'a>> {
    let context_names: Vec<String> = inputs
        .iter()
        .filter_map(|input| match input {
            Input::Context { name, .. } => name.clone(),
            Input::Param { .. } => None,
        })
        .collect();
    for item in docs {
        let param = inputs.iter_mut().find_map(|input| match input {
            Input::Param {
                ident, field_attrs, ..
            } if unraw(ident) == item.name => Some(field_attrs),
            _ => None,
        });
        match param {
            Some(field_attrs) => {
                if !field_attrs.iter().any(|attr| attr.path().is_ident("doc"))
                    && !item.text.is_empty()
                {
                    let text = format!(" {}", item.text);
                    field_attrs.push(parse_quote!(#[doc = #text]));
                }
            }
            None if item.name == "self" || context_names.contains(&item.name) => {}
            None => {
                let names: Vec<String> = inputs
                    .iter()
                    .filter_map(|input| match input {
                        Input::Param { ident, .. } => Some(format!("`{}`", unraw(ident))),
                        Input::Context { .. } => None,
                    })
                    .collect();
                let expected = if names.is_empty() {
                    "the tool has no parameters".to_owned()
                } else {
                    format!("its parameters are {}", names.join(", "))
                };
                cx.error_spanned_by(
                    proc_macro2::Ident::new("doc", item.span),
                    format!(
                        "the `# Arguments` item `{}` names no parameter of this tool ({expected})",
                        item.name
                    ),
                );
            }
        }
    }
    inputs
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
