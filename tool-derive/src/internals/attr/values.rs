//! Reading the value after a key: `= "text"`, `= 1`, `= -0.5`, a flag, a
//! list of literals. A wrong kind of value is reported at the value.

use crate::internals::ctxt::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, ExprUnary, Lit, Token, UnOp};

/// A number written in an attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Number::Int(int) => int as f64,
            Number::Float(float) => float,
        }
    }
}

/// A literal of a value list or an example.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Literal {
    Number(Number),
    Str(String),
    Bool(bool),
}

/// Consumes `= value` or `(...)` after an unknown key so parsing can go on.
pub(super) fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// A key that takes no value.
pub(super) fn flag(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let value: Expr = meta.value()?.parse()?;
        cx.error_spanned_by(value, format!("`{key}` takes no value: write just `{key}`"));
    }
    Ok(())
}

/// A hint that is true when named alone, or says so: `key`, `key = false`.
pub(super) fn bool_flag(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<bool>> {
    if !meta.input.peek(Token![=]) {
        return Ok(Some(true));
    }
    let value: Expr = meta.value()?.parse()?;
    match &value {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(flag),
            ..
        }) => Ok(Some(flag.value)),
        other => {
            cx.error_spanned_by(
                other,
                format!("expected `{key}`, `{key} = true` or `{key} = false`"),
            );
            Ok(None)
        }
    }
}

/// `key = "text"`; any other literal is reported and gives `None`.
pub(super) fn string_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<syn::LitStr>> {
    let value = required_value(cx, meta, key, "\"...\"")?;
    Ok(match value {
        Some(Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        })) => Some(text),
        Some(other) => {
            cx.error_spanned_by(
                other,
                format!("expected a string literal for `{key}`, as in `{key} = \"...\"`"),
            );
            None
        }
        None => None,
    })
}

/// `key = "name"` where the name may not be empty.
pub(super) fn name_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<syn::LitStr>> {
    let Some(name) = string_value(cx, meta, key)? else {
        return Ok(None);
    };
    if name.value().is_empty() {
        cx.error_spanned_by(&name, format!("`{key}` needs a non-empty name"));
        return Ok(None);
    }
    Ok(Some(name))
}

/// A number literal, possibly negative: `1`, `-0.5`.
pub(super) fn number_literal(value: &Expr) -> Option<Number> {
    let (negative, literal) = match value {
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    match literal {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int
            .base10_parse::<i128>()
            .ok()
            .map(|int| Number::Int(if negative { -int } else { int })),
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => float
            .base10_parse::<f64>()
            .ok()
            .filter(|float| float.is_finite())
            .map(|float| Number::Float(if negative { -float } else { float })),
        _ => None,
    }
}

/// A literal of a value list: a number, a string or a boolean.
pub(crate) fn literal(value: &Expr) -> Option<Literal> {
    if let Some(number) = number_literal(value) {
        return Some(Literal::Number(number));
    }
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Some(Literal::Str(text.value())),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(flag),
            ..
        }) => Some(Literal::Bool(flag.value)),
        _ => None,
    }
}

/// `key = 1`, `key = -0.5`; anything else is reported and gives `None`.
pub(super) fn number_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<Number>> {
    let Some(value) = required_value(cx, meta, key, "1")? else {
        return Ok(None);
    };
    let parsed = number_literal(&value);
    if parsed.is_none() {
        cx.error_spanned_by(
            &value,
            format!("expected a number literal for `{key}`, as in `{key} = 1` or `{key} = 0.5`"),
        );
    }
    Ok(parsed)
}

/// `key = 3`, a non-negative integer.
pub(super) fn length_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<usize>> {
    let Some(value) = required_value(cx, meta, key, "1")? else {
        return Ok(None);
    };
    let parsed = match &value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int.base10_parse::<usize>().ok(),
        _ => None,
    };
    if parsed.is_none() {
        cx.error_spanned_by(
            &value,
            format!("expected a non-negative integer literal for `{key}`, as in `{key} = 1`"),
        );
    }
    Ok(parsed)
}

/// The expression after `key =`; a bare `key` is reported.
pub(super) fn required_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Option<Expr>> {
    if !meta.input.peek(Token![=]) {
        skip_value(meta)?;
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` needs a value, as in `{key} = {example}`"),
        );
        return Ok(None);
    }
    Ok(Some(ungroup(meta.value()?.parse()?)))
}

/// A value passed through `macro_rules!` (`rename = $name`) arrives wrapped
/// in an invisible group; the literal inside is what counts.
pub(crate) fn ungroup(expr: Expr) -> Expr {
    match expr {
        Expr::Group(group) => ungroup(*group.expr),
        other => other,
    }
}
