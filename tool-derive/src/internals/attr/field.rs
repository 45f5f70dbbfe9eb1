//! `#[param(...)]` on a field: its name, description and default, the
//! constraints on its value and on each of its items, and how it sits in
//! the object (`flatten`, `skip`).

use super::values::{
    Literal, Number, flag, length_value, literal, name_value, number_value, required_value,
    skip_value, string_value,
};
use super::{Attr, Place, VALUE_KEYS, for_each_param, key_of};
use crate::internals::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, Token};

pub(crate) enum DefaultValue {
    /// `default`: `Default::default()`.
    Trait,
    /// `default = expr`.
    Expr(Expr),
    /// `default = {"days": 3}`: the value as the model would send it, its
    /// JSON text (checked for shape here; its fit to the type, when the
    /// schema is built), and the tokens, for spans.
    Json(String, TokenStream),
}

/// `one_of = [..]`: numbers or strings, never both.
pub(crate) enum OneOf {
    Numbers(Vec<Number>),
    Strings(Vec<String>),
}

impl OneOf {
    pub(crate) fn has_float(&self) -> bool {
        matches!(self, OneOf::Numbers(numbers) if numbers.iter().any(|n| matches!(n, Number::Float(_))))
    }
}

/// `example = ..`: a literal, or an expression of the field's type.
pub(crate) enum Example {
    Literal(Literal),
    Expr(Expr),
}

/// Constraints on one value: the field itself, or each of its items. Each
/// keeps the tokens of its key, where a type error about it points.
#[derive(Default)]
pub(crate) struct ValueAttrs {
    pub min: Option<(TokenStream, Number)>,
    pub max: Option<(TokenStream, Number)>,
    pub min_length: Option<(TokenStream, usize)>,
    pub max_length: Option<(TokenStream, usize)>,
    pub one_of: Option<(TokenStream, OneOf)>,
    pub pattern: Option<(TokenStream, syn::LitStr)>,
    /// The name of the `tool_core::params::Format` variant.
    pub format: Option<(TokenStream, &'static str)>,
}

impl ValueAttrs {
    pub(crate) fn is_empty(&self) -> bool {
        self.min.is_none()
            && self.max.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
            && self.one_of.is_none()
            && self.pattern.is_none()
            && self.format.is_none()
    }
}

#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub description: Option<String>,
    pub rename: Option<String>,
    pub default: Option<DefaultValue>,
    pub value: ValueAttrs,
    /// `items(...)`: the tokens of `items`, the items' description and
    /// constraints.
    pub items: Option<(TokenStream, Option<String>, ValueAttrs)>,
    pub flatten: Option<TokenStream>,
    pub skip: Option<TokenStream>,
    pub examples: Vec<(TokenStream, Example)>,
    /// `alias = "..."`, repeatable: other names parse reads the field
    /// under; the schema shows the main name only.
    pub aliases: Vec<(TokenStream, String)>,
    pub deprecated: bool,
    /// The tokens of every key written, for "does not go with" errors.
    pub keys: Vec<(String, TokenStream)>,
}

/// Reads constraint keys into one `ValueAttrs`, reporting duplicates.
struct ValueParser<'c> {
    min: Attr<'c, Number>,
    max: Attr<'c, Number>,
    min_length: Attr<'c, usize>,
    max_length: Attr<'c, usize>,
    one_of: Attr<'c, OneOf>,
    pattern: Attr<'c, syn::LitStr>,
    format: Attr<'c, &'static str>,
}

impl<'c> ValueParser<'c> {
    fn new(cx: &'c Ctxt) -> Self {
        ValueParser {
            min: Attr::none(cx, "param", "min"),
            max: Attr::none(cx, "param", "max"),
            min_length: Attr::none(cx, "param", "min_length"),
            max_length: Attr::none(cx, "param", "max_length"),
            one_of: Attr::none(cx, "param", "one_of"),
            pattern: Attr::none(cx, "param", "pattern"),
            format: Attr::none(cx, "param", "format"),
        }
    }

    fn parse(&mut self, cx: &Ctxt, key: &str, meta: &ParseNestedMeta) -> syn::Result<()> {
        match key {
            "min" | "max" => {
                if let Some(number) = number_value(cx, meta, key)? {
                    let target = if key == "min" {
                        &mut self.min
                    } else {
                        &mut self.max
                    };
                    target.set(&meta.path, number);
                }
            }
            "min_length" | "max_length" => {
                if let Some(length) = length_value(cx, meta, key)? {
                    let target = if key == "min_length" {
                        &mut self.min_length
                    } else {
                        &mut self.max_length
                    };
                    target.set(&meta.path, length);
                }
            }
            "one_of" => {
                if let Some(list) = one_of_value(cx, meta)? {
                    self.one_of.set(&meta.path, list);
                }
            }
            "pattern" => {
                if let Some(pattern) = string_value(cx, meta, key)? {
                    match check_pattern(&pattern.value()) {
                        Ok(()) => self.pattern.set(&meta.path, pattern),
                        Err(reason) => cx.error_spanned_by(&pattern, reason),
                    }
                }
            }
            "format" => {
                if let Some(name) = string_value(cx, meta, key)? {
                    match FORMATS.iter().find(|(known, _)| *known == name.value()) {
                        Some((_, variant)) => self.format.set(&meta.path, *variant),
                        None => cx.error_spanned_by(
                            &name,
                            format!(
                                "unknown format \"{}\"; the formats parse can check are {}",
                                name.value(),
                                FORMATS
                                    .iter()
                                    .map(|(known, _)| format!("\"{known}\""))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ),
                    }
                }
            }
            _ => unreachable!("only value keys are passed"),
        }
        Ok(())
    }

    fn finish(self, cx: &Ctxt) -> ValueAttrs {
        let value = ValueAttrs {
            min: self.min.get_with_tokens(),
            max: self.max.get_with_tokens(),
            min_length: self.min_length.get_with_tokens(),
            max_length: self.max_length.get_with_tokens(),
            one_of: self.one_of.get_with_tokens(),
            pattern: self.pattern.get_with_tokens(),
            format: self.format.get_with_tokens(),
        };
        check_bounds(cx, &value);
        value
    }
}

/// JSON Schema's format names, and the `tool_core::params::Format` variant each is.
pub(super) const FORMATS: &[(&str, &str)] = &[
    ("date-time", "DateTime"),
    ("date", "Date"),
    ("time", "Time"),
    ("duration", "Duration"),
    ("email", "Email"),
    ("hostname", "Hostname"),
    ("ipv4", "Ipv4"),
    ("ipv6", "Ipv6"),
    ("uuid", "Uuid"),
    ("uri", "Uri"),
];

pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut description = Attr::none(cx, "param", "description");
    let mut rename = Attr::none(cx, "param", "rename");
    let mut default = Attr::none(cx, "param", "default");
    let mut flatten = Attr::none(cx, "param", "flatten");
    let mut skip = Attr::none(cx, "param", "skip");
    let mut deprecated = Attr::none(cx, "param", "deprecated");
    let mut items = Attr::none(cx, "param", "items");
    let mut examples = Vec::new();
    let mut aliases = Vec::new();
    let mut keys = Vec::new();
    let mut value = ValueParser::new(cx);
    for_each_param(cx, attrs, Place::Field, |key, meta| {
        keys.push((key.to_owned(), meta.path.to_token_stream()));
        match key {
            "description" => {
                if let Some(text) = string_value(cx, meta, key)? {
                    description.set(&meta.path, text.value());
                }
            }
            "rename" => {
                if let Some(name) = name_value(cx, meta, key)? {
                    rename.set(&meta.path, name.value());
                }
            }
            "alias" => {
                if let Some(name) = name_value(cx, meta, key)? {
                    aliases.push((name.to_token_stream(), name.value()));
                }
            }
            "default" => {
                if meta.input.peek(Token![=]) {
                    let value = meta.value()?;
                    if super::json_tokens::looks_like_json(&value.fork()) {
                        let object: proc_macro2::TokenTree = value.parse()?;
                        match super::json_tokens::json_text(&object) {
                            Ok(text) => default.set(
                                &meta.path,
                                DefaultValue::Json(text, object.into_token_stream()),
                            ),
                            Err((span, why)) => cx.syn_error(syn::Error::new(
                                span,
                                format!(
                                    "`default = {{..}}` is the value as the model would send it, in JSON, and {why}: write it as JSON (`default = {{\"days\": 3, \"unit\": \"celsius\"}}`), or as a Rust expression of the field's type (`default = Window {{ days: 3 }}`)"
                                ),
                            )),
                        }
                    } else {
                        let expr: Expr = value.parse()?;
                        default.set(&meta.path, DefaultValue::Expr(expr));
                    }
                } else {
                    default.set(&meta.path, DefaultValue::Trait);
                }
            }
            "flatten" | "skip" | "deprecated" => {
                flag(cx, meta, key)?;
                let target = match key {
                    "flatten" => &mut flatten,
                    "skip" => &mut skip,
                    _ => &mut deprecated,
                };
                target.set(&meta.path, ());
            }
            "example" => {
                if let Some(expr) = required_value(cx, meta, key, "\"...\"")? {
                    let example = match literal(&expr) {
                        Some(literal) => Example::Literal(literal),
                        None => Example::Expr(expr),
                    };
                    examples.push((meta.path.to_token_stream(), example));
                }
            }
            "items" => {
                if let Some(parsed) = items_value(cx, meta)? {
                    items.set(&meta.path, parsed);
                }
            }
            key if VALUE_KEYS.contains(&key) => value.parse(cx, key, meta)?,
            _ => unreachable!("keys are checked by for_each_param"),
        }
        Ok(())
    });
    FieldAttrs {
        description: description.get(),
        rename: rename.get(),
        default: default.get(),
        value: value.finish(cx),
        items: items
            .get_with_tokens()
            .map(|(tokens, (description, value))| (tokens, description, value)),
        flatten: flatten.get_with_tokens().map(|(tokens, ())| tokens),
        skip: skip.get_with_tokens().map(|(tokens, ())| tokens),
        examples,
        aliases,
        deprecated: deprecated.get().is_some(),
        keys,
    }
}

/// `items(description = "...", min = 1, ...)`.
fn items_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
) -> syn::Result<Option<(Option<String>, ValueAttrs)>> {
    if !meta.input.peek(syn::token::Paren) {
        skip_value(meta)?;
        cx.error_spanned_by(
            &meta.path,
            "`items` takes the attributes of each item in parentheses, as in `items(min_length = 1)`",
        );
        return Ok(None);
    }
    let mut description = Attr::none(cx, "param", "description");
    let mut value = ValueParser::new(cx);
    meta.parse_nested_meta(|inner| {
        let key = key_of(&inner);
        match key.as_str() {
            "description" => {
                if let Some(text) = string_value(cx, &inner, "description")? {
                    description.set(&inner.path, text.value());
                }
            }
            key if VALUE_KEYS.contains(&key) => value.parse(cx, key, &inner)?,
            _ => {
                skip_value(&inner)?;
                let shown = inner.path.to_token_stream().to_string().replace(' ', "");
                cx.error_spanned_by(
                    &inner.path,
                    format!(
                        "`{shown}` does not apply to each item; `items(...)` takes `description`, {}",
                        VALUE_KEYS
                            .iter()
                            .map(|key| format!("`{key}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        Ok(())
    })?;
    Ok(Some((description.get(), value.finish(cx))))
}

/// `one_of = [1, 3, 5]` or `one_of = ["low", "high"]`.
fn one_of_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<OneOf>> {
    let Some(value) = required_value(cx, meta, "one_of", "[1, 2]")? else {
        return Ok(None);
    };
    let Expr::Array(array) = &value else {
        cx.error_spanned_by(
            &value,
            "expected a list of literals for `one_of`, as in `one_of = [1, 3, 5]` or `one_of = [\"low\", \"high\"]`",
        );
        return Ok(None);
    };
    if array.elems.is_empty() {
        cx.error_spanned_by(
            &value,
            "`one_of` needs at least one value: no value could be given",
        );
        return Ok(None);
    }
    let mut numbers = Vec::new();
    let mut strings = Vec::new();
    let mut ok = true;
    for element in &array.elems {
        let element = super::values::ungroup(element.clone());
        match literal(&element) {
            Some(Literal::Number(number)) if strings.is_empty() => {
                if numbers.contains(&number) {
                    cx.error_spanned_by(&element, "this value is already in the list: remove it");
                }
                numbers.push(number);
            }
            Some(Literal::Str(text)) if numbers.is_empty() => {
                if strings.contains(&text) {
                    cx.error_spanned_by(&element, "this value is already in the list: remove it");
                }
                strings.push(text);
            }
            Some(Literal::Number(_) | Literal::Str(_)) => {
                ok = false;
                cx.error_spanned_by(
                    &element,
                    "`one_of` lists values of one kind: all numbers or all strings",
                );
            }
            _ => {
                ok = false;
                cx.error_spanned_by(&element, "expected a number or string literal in `one_of`");
            }
        }
    }
    if !ok {
        return Ok(None);
    }
    Ok(Some(if strings.is_empty() {
        OneOf::Numbers(numbers)
    } else {
        OneOf::Strings(strings)
    }))
}

/// A pattern parse could not run is refused here, at the attribute, naming
/// the construct and its byte.
fn check_pattern(pattern: &str) -> Result<(), String> {
    crate::internals::pattern::translate(pattern).map(|_| ())
}

fn check_bounds(cx: &Ctxt, value: &ValueAttrs) {
    if let (Some((_, min)), Some((max_tokens, max))) = (&value.min, &value.max)
        && min.as_f64() > max.as_f64()
    {
        cx.error_spanned_by(
            max_tokens,
            "`max` is below `min`: no value could satisfy both",
        );
    }
    if let (Some((_, min)), Some((max_tokens, max))) = (&value.min_length, &value.max_length)
        && min > max
    {
        cx.error_spanned_by(
            max_tokens,
            "`max_length` is below `min_length`: no value could satisfy both",
        );
    }
}
