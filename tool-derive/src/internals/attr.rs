//! `#[param(...)]` on containers, fields and variants. Every key is checked
//! for place, duplicates and literal type; each problem is recorded in the
//! `Ctxt` and parsing goes on, so one build shows every mistake.

use super::case::{RULE_NAMES, RenameRule};
use super::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, Token, UnOp};

/// Where an attribute sits; decides which keys it may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Struct,
    Enum,
    Field,
    Variant,
}

const STRUCT_KEYS: &[&str] = &["rename_all", "deny_unknown_fields", "description"];
const ENUM_KEYS: &[&str] = &["rename_all", "description"];
const FIELD_KEYS: &[&str] = &[
    "description",
    "rename",
    "default",
    "min",
    "max",
    "min_length",
    "max_length",
];
const VARIANT_KEYS: &[&str] = &["rename"];

impl Place {
    fn keys(self) -> &'static [&'static str] {
        match self {
            Place::Struct => STRUCT_KEYS,
            Place::Enum => ENUM_KEYS,
            Place::Field => FIELD_KEYS,
            Place::Variant => VARIANT_KEYS,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Place::Struct => "a struct",
            Place::Enum => "an enum",
            Place::Field => "a field",
            Place::Variant => "a variant",
        }
    }
}

/// One attribute value, set at most once.
pub struct Attr<'c, T> {
    cx: &'c Ctxt,
    attribute: &'static str,
    name: &'static str,
    value: Option<(TokenStream, T)>,
}

impl<'c, T> Attr<'c, T> {
    pub fn none(cx: &'c Ctxt, attribute: &'static str, name: &'static str) -> Self {
        Attr {
            cx,
            attribute,
            name,
            value: None,
        }
    }

    /// Sets the value; a second setting is reported at its own tokens.
    pub fn set<A: ToTokens>(&mut self, tokens: A, value: T) {
        let tokens = tokens.into_token_stream();
        if self.value.is_some() {
            self.cx.error_spanned_by(
                tokens,
                format!("duplicate {} attribute `{}`", self.attribute, self.name),
            );
        } else {
            self.value = Some((tokens, value));
        }
    }

    pub fn get(self) -> Option<T> {
        self.value.map(|(_, value)| value)
    }

    pub fn get_with_tokens(self) -> Option<(TokenStream, T)> {
        self.value
    }
}

/// A number written in `min`/`max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(int) => int as f64,
            Number::Float(float) => float,
        }
    }
}

pub enum DefaultValue {
    /// `default`: `Default::default()`.
    Trait,
    /// `default = expr`.
    Expr(Expr),
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub rename_all: Option<RenameRule>,
    pub deny_unknown_fields: bool,
    pub description: Option<String>,
}

#[derive(Default)]
pub struct FieldAttrs {
    pub description: Option<String>,
    pub rename: Option<String>,
    pub default: Option<DefaultValue>,
    /// Each bound with the tokens of its key, where type errors point.
    pub min: Option<(TokenStream, Number)>,
    pub max: Option<(TokenStream, Number)>,
    pub min_length: Option<(TokenStream, usize)>,
    pub max_length: Option<(TokenStream, usize)>,
}

#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<String>,
}

pub fn container(cx: &Ctxt, attrs: &[Attribute], place: Place) -> ContainerAttrs {
    let mut rename_all = Attr::none(cx, "param", "rename_all");
    let mut deny_unknown_fields = Attr::none(cx, "param", "deny_unknown_fields");
    let mut description = Attr::none(cx, "param", "description");
    for_each_param(cx, attrs, place, |key, meta| {
        match key {
            "rename_all" => {
                if let Some(rule) = string_value(cx, meta, key)? {
                    match RenameRule::from_name(&rule.value()) {
                        Some(parsed) => rename_all.set(&meta.path, parsed),
                        None => cx.error_spanned_by(
                            &rule,
                            format!(
                                "unknown case `{}` for `rename_all`; expected one of {RULE_NAMES}",
                                rule.value()
                            ),
                        ),
                    }
                }
            }
            "deny_unknown_fields" => {
                flag(cx, meta, key)?;
                deny_unknown_fields.set(&meta.path, ());
            }
            "description" => {
                if let Some(text) = string_value(cx, meta, key)? {
                    description.set(&meta.path, text.value());
                }
            }
            _ => unreachable!("keys are checked by for_each_param"),
        }
        Ok(())
    });
    ContainerAttrs {
        rename_all: rename_all.get(),
        deny_unknown_fields: deny_unknown_fields.get().is_some(),
        description: description.get(),
    }
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut description = Attr::none(cx, "param", "description");
    let mut rename = Attr::none(cx, "param", "rename");
    let mut default = Attr::none(cx, "param", "default");
    let mut min = Attr::none(cx, "param", "min");
    let mut max = Attr::none(cx, "param", "max");
    let mut min_length = Attr::none(cx, "param", "min_length");
    let mut max_length = Attr::none(cx, "param", "max_length");
    for_each_param(cx, attrs, Place::Field, |key, meta| {
        match key {
            "description" => {
                if let Some(text) = string_value(cx, meta, key)? {
                    description.set(&meta.path, text.value());
                }
            }
            "rename" => {
                if let Some(name) = string_value(cx, meta, key)? {
                    if name.value().is_empty() {
                        cx.error_spanned_by(&name, "`rename` needs a non-empty name");
                    } else {
                        rename.set(&meta.path, name.value());
                    }
                }
            }
            "default" => {
                if meta.input.peek(Token![=]) {
                    let expr: Expr = meta.value()?.parse()?;
                    default.set(&meta.path, DefaultValue::Expr(expr));
                } else {
                    default.set(&meta.path, DefaultValue::Trait);
                }
            }
            "min" | "max" => {
                if let Some(number) = number_value(cx, meta, key)? {
                    let target = if key == "min" { &mut min } else { &mut max };
                    target.set(&meta.path, number);
                }
            }
            "min_length" | "max_length" => {
                if let Some(length) = length_value(cx, meta, key)? {
                    let target = if key == "min_length" {
                        &mut min_length
                    } else {
                        &mut max_length
                    };
                    target.set(&meta.path, length);
                }
            }
            _ => unreachable!("keys are checked by for_each_param"),
        }
        Ok(())
    });
    FieldAttrs {
        description: description.get(),
        rename: rename.get(),
        default: default.get(),
        min: min.get_with_tokens(),
        max: max.get_with_tokens(),
        min_length: min_length.get_with_tokens(),
        max_length: max_length.get_with_tokens(),
    }
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut rename = Attr::none(cx, "param", "rename");
    for_each_param(cx, attrs, Place::Variant, |key, meta| {
        if let Some(name) = string_value(cx, meta, key)? {
            if name.value().is_empty() {
                cx.error_spanned_by(&name, "`rename` needs a non-empty name");
            } else {
                rename.set(&meta.path, name.value());
            }
        }
        Ok(())
    });
    VariantAttrs {
        rename: rename.get(),
    }
}

/// Calls `handle` for each key of each `#[param(...)]` that is allowed at
/// `place`; reports the others, naming what is allowed.
fn for_each_param(
    cx: &Ctxt,
    attrs: &[Attribute],
    place: Place,
    mut handle: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        if !attr.path().is_ident("param") {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if place.keys().contains(&key.as_str()) {
                return handle(&key, &meta);
            }
            skip_value(&meta)?;
            cx.error_spanned_by(&meta.path, unknown_key_message(&meta.path, &key, place));
            Ok(())
        });
        if let Err(error) = parsed {
            cx.syn_error(error);
        }
    }
}

fn unknown_key_message(path: &syn::Path, key: &str, place: Place) -> String {
    let shown = if key.is_empty() {
        path.to_token_stream().to_string().replace(' ', "")
    } else {
        key.to_owned()
    };
    let elsewhere = [Place::Struct, Place::Enum, Place::Field, Place::Variant]
        .into_iter()
        .find(|other| *other != place && other.keys().contains(&key));
    let allowed = place
        .keys()
        .iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match elsewhere {
        Some(other) => format!(
            "`{shown}` belongs on {}, not on {}; here the param attributes are {allowed}",
            other.noun(),
            place.noun()
        ),
        None => format!("unknown param attribute `{shown}`; expected one of {allowed}"),
    }
}

/// Consumes `= value` or `(...)` after an unknown key so parsing can go on.
pub fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// A key that takes no value.
pub fn flag(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let value: Expr = meta.value()?.parse()?;
        cx.error_spanned_by(value, format!("`{key}` takes no value: write just `{key}`"));
    }
    Ok(())
}

/// `key = "text"`; any other literal is reported and gives `None`.
pub fn string_value(
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

/// `key = 1`, `key = -0.5`; anything else is reported and gives `None`.
fn number_value(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Number>> {
    let Some(value) = required_value(cx, meta, key, "1")? else {
        return Ok(None);
    };
    let (negative, literal) = match &value {
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    let parsed = match literal {
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
    };
    if parsed.is_none() {
        cx.error_spanned_by(
            &value,
            format!("expected a number literal for `{key}`, as in `{key} = 1` or `{key} = 0.5`"),
        );
    }
    Ok(parsed)
}

/// `key = 3`, a non-negative integer.
fn length_value(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<usize>> {
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
fn required_value(
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
fn ungroup(expr: Expr) -> Expr {
    match expr {
        Expr::Group(group) => ungroup(*group.expr),
        other => other,
    }
}

/// `#[tool(name = "...", description = "...")]`.
#[derive(Default)]
pub struct ToolAttrs {
    pub name: Option<syn::LitStr>,
    pub description: Option<String>,
    pub timeout_ms: Option<u64>,
    pub exclusive: bool,
}

const TOOL_KEYS: &str = "`name`, `description`, `timeout_ms`, `exclusive`";

pub fn tool(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
    let mut name = Attr::none(cx, "tool", "name");
    let mut description = Attr::none(cx, "tool", "description");
    let mut timeout_ms = Attr::none(cx, "tool", "timeout_ms");
    let mut exclusive = Attr::none(cx, "tool", "exclusive");
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
            "exclusive" => {
                flag(cx, &meta, "exclusive")?;
                exclusive.set(&meta.path, ());
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
        exclusive: exclusive.get().is_some(),
    }
}
