//! `#[tool(...)]` on an async function or method: name, description,
//! timeout, retries, exclusivity, approval, examples of its arguments, and
//! the annotations (MCP's hints).

use super::Attr;
use super::values::{bool_flag, flag, required_value, skip_value, string_value};
use crate::internals::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Expr, ExprLit, Lit};

/// `#[tool(name = "...", description = "...")]`.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub name: Option<syn::LitStr>,
    pub description: Option<String>,
    pub timeout_ms: Option<u64>,
    pub retries: Option<u32>,
    pub exclusive: bool,
    pub needs_approval: bool,
    /// `callers(direct, code)`: (direct, code), `None` when not written.
    pub callers: Option<(bool, bool)>,
    /// `example = <expr>`, each evaluating to a `serde_json::Value`, in
    /// the order written; the registry parses them when it adds the tool.
    pub examples: Vec<Expr>,
    pub annotations: Annotations,
}

/// `title = "..."` and the four hints; `None` where not written.
#[derive(Default)]
pub(crate) struct Annotations {
    pub title: Option<String>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

impl Annotations {
    pub(crate) fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.read_only.is_none()
            && self.destructive.is_none()
            && self.idempotent.is_none()
            && self.open_world.is_none()
    }
}

const TOOL_KEYS: &str = "`name`, `description`, `timeout_ms`, `retries`, `exclusive`, `needs_approval`, `callers`, `example`, `title`, `read_only`, `destructive`, `idempotent`, `open_world`";

pub(crate) fn tool(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
    let mut name = Attr::none(cx, "tool", "name");
    let mut description = Attr::none(cx, "tool", "description");
    let mut timeout_ms = Attr::none(cx, "tool", "timeout_ms");
    let mut retries = Attr::none(cx, "tool", "retries");
    let mut exclusive = Attr::none(cx, "tool", "exclusive");
    let mut needs_approval = Attr::none(cx, "tool", "needs_approval");
    let mut callers = Attr::none(cx, "tool", "callers");
    let mut title = Attr::none(cx, "tool", "title");
    let mut read_only = Attr::none(cx, "tool", "read_only");
    let mut destructive = Attr::none(cx, "tool", "destructive");
    let mut idempotent = Attr::none(cx, "tool", "idempotent");
    let mut open_world = Attr::none(cx, "tool", "open_world");
    let mut examples = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "name" => {
                if let Some(text) = string_value(cx, &meta, "name")? {
                    let value = text.value();
                    if value.is_empty() {
                        cx.error_spanned_by(&text, "a tool's `name` cannot be empty");
                    } else if value.len() > 64
                        || !value
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    {
                        cx.error_spanned_by(
                            &text,
                            "a tool's `name` may hold only ASCII letters, digits, `_` and `-`, at most 64 of them, as LLM providers require",
                        );
                    } else {
                        name.set(&meta.path, text);
                    }
                }
            }
            "description" => {
                if let Some(text) = string_value(cx, &meta, "description")? {
                    if text.value().trim().is_empty() {
                        cx.error_spanned_by(&text, "a tool's `description` cannot be empty: the model reads it to decide when to call the tool");
                    } else {
                        description.set(&meta.path, text.value());
                    }
                }
            }
            "timeout_ms" => {
                if let Some(value) = required_value(cx, &meta, "timeout_ms", "5000")? {
                    let parsed = match &value {
                        Expr::Lit(ExprLit {
                            lit: Lit::Int(int), ..
                        }) => int.base10_parse::<u64>().ok().filter(|ms| *ms > 0),
                        _ => None,
                    };
                    match parsed {
                        Some(ms) => timeout_ms.set(&meta.path, ms),
                        None => cx.error_spanned_by(
                            &value,
                            "expected a positive integer literal for `timeout_ms` (milliseconds), as in `timeout_ms = 5000`",
                        ),
                    }
                }
            }
            "retries" => {
                if let Some(value) = required_value(cx, &meta, "retries", "3")? {
                    let parsed = match &value {
                        Expr::Lit(ExprLit {
                            lit: Lit::Int(int), ..
                        }) => int.base10_parse::<u32>().ok(),
                        _ => None,
                    };
                    match parsed {
                        Some(count) => retries.set(&meta.path, count),
                        None => cx.error_spanned_by(
                            &value,
                            "expected an integer literal from 0 to 4294967295 for `retries` (the consecutive failures the model may retry), as in `retries = 3`",
                        ),
                    }
                }
            }
            "exclusive" => {
                flag(cx, &meta, "exclusive")?;
                exclusive.set(&meta.path, ());
            }
            "needs_approval" => {
                flag(cx, &meta, "needs_approval")?;
                needs_approval.set(&meta.path, ());
            }
            "callers" => {
                if let Some(written) = callers_list(cx, &meta)? {
                    callers.set(&meta.path, written);
                }
            }
            "example" => {
                if let Some(value) = required_value(cx, &meta, "example", "json!({...})")? {
                    match not_an_object(&value) {
                        Some(what) => cx.error_spanned_by(
                            &value,
                            format!(
                                "a tool's `example` is one whole set of its arguments, a JSON object, not {what}: write `example = json!({{\"name\": value, ...}})`"
                            ),
                        ),
                        None => examples.push(value),
                    }
                }
            }
            "title" => {
                if let Some(text) = string_value(cx, &meta, "title")? {
                    if text.value().trim().is_empty() {
                        cx.error_spanned_by(&text, "a tool's `title` cannot be empty");
                    } else {
                        title.set(&meta.path, text.value());
                    }
                }
            }
            "read_only" | "destructive" | "idempotent" | "open_world" => {
                let hint = match key.as_str() {
                    "read_only" => &mut read_only,
                    "destructive" => &mut destructive,
                    "idempotent" => &mut idempotent,
                    _ => &mut open_world,
                };
                if let Some(value) = bool_flag(cx, &meta, &key)? {
                    hint.set(&meta.path, value);
                }
            }
            _ => {
                skip_value(&meta)?;
                let shown = meta.path.to_token_stream().to_string().replace(' ', "");
                cx.error_spanned_by(
                    &meta.path,
                    format!("unknown tool attribute `{shown}`; expected one of {TOOL_KEYS}"),
                );
            }
        }
        Ok(())
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(error);
    }
    ToolAttrs {
        name: name.get(),
        description: description.get(),
        timeout_ms: timeout_ms.get(),
        retries: retries.get(),
        exclusive: exclusive.get().is_some(),
        needs_approval: needs_approval.get().is_some(),
        callers: callers.get(),
        examples,
        annotations: Annotations {
            title: title.get(),
            read_only: read_only.get(),
            destructive: destructive.get(),
            idempotent: idempotent.get(),
            open_world: open_world.get(),
        },
    }
}

/// What an example's expression is when it can be seen, without
/// evaluating it, not to be an object: a literal (a number, possibly
/// negative, a string, a boolean, ...) or an array. Every tool's arguments
/// are an object, so such an example could never parse; anything else
/// (`json!(..)`, a call, a constant) is left to the registry, which parses
/// each example when it adds the tool.
fn not_an_object(value: &Expr) -> Option<&'static str> {
    let value = match value {
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => &**expr,
        other => other,
    };
    match value {
        Expr::Lit(ExprLit { lit, .. }) => Some(match lit {
            Lit::Int(_) | Lit::Float(_) => "a number",
            Lit::Str(_) => "a string (it is not read as JSON text)",
            Lit::Bool(_) => "a boolean",
            _ => "a literal",
        }),
        Expr::Array(_) | Expr::Repeat(_) => Some("an array"),
        _ => None,
    }
}

/// `callers(direct)`, `callers(code)` or `callers(direct, code)`: who may
/// call the tool. Each problem is an error at its token; `None` when the
/// list says nothing usable.
fn callers_list(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<Option<(bool, bool)>> {
    const EXPECTED: &str = "expected `callers(direct)`, `callers(code)` or `callers(direct, code)`: who may call the tool, the model (`direct`) or code it writes and the provider runs (`code`)";
    if !meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        cx.error_spanned_by(&meta.path, EXPECTED);
        return Ok(None);
    }
    let (mut direct, mut code) = (false, false);
    meta.parse_nested_meta(|caller| {
        let seen = match caller.path.get_ident().map(ToString::to_string).as_deref() {
            Some("direct") => &mut direct,
            Some("code") => &mut code,
            _ => {
                cx.error_spanned_by(&caller.path, EXPECTED);
                return Ok(());
            }
        };
        if std::mem::replace(seen, true) {
            cx.error_spanned_by(&caller.path, "this caller is already listed");
        }
        Ok(())
    })?;
    if !direct && !code {
        cx.error_spanned_by(&meta.path, EXPECTED);
        return Ok(None);
    }
    Ok(Some((direct, code)))
}
