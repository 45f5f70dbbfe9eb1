//! Checks across attributes, fields and variants that no single attribute
//! can make: names that collide, representations a variant cannot take,
//! attributes that contradict each other.

use super::ast::{Container, Data, Field, Style, Variant};
use super::attr::Repr;
use super::ctxt::Ctxt;

pub(super) fn container(cx: &Ctxt, container: &Container) {
    match &container.data {
        Data::Struct(fields) => {
            fields_of(cx, fields);
            transparent(cx, container, fields);
        }
        Data::Enum(variants) => {
            for variant in variants {
                fields_of(cx, &variant.fields);
            }
            unique_variant_names(cx, variants);
            match &container.attrs.repr {
                Repr::Internal { tag, .. } => internally_tagged(cx, tag, variants),
                Repr::Untagged => untagged(cx, variants),
                Repr::External | Repr::Adjacent { .. } => {}
            }
        }
    }
}

/// The fields of one object: unique JSON names (aliases included), and
/// attributes that go together.
fn fields_of(cx: &Ctxt, fields: &[Field]) {
    for field in fields {
        combinable(cx, field);
        super::check_values::field(cx, field);
    }
    let named: Vec<Named> = fields
        .iter()
        .filter(|field| field.is_named_in_json())
        .map(|field| Named {
            what: "field",
            rust: field.rust_name(),
            json_name: &field.json_name,
            aliases: &field.attrs.aliases,
            tokens: quote::ToTokens::to_token_stream(&field.member),
        })
        .collect();
    unique_names(cx, &named);
}

/// A field or a variant, as its JSON names see it.
struct Named<'a> {
    /// `field` or `variant`, for messages.
    what: &'static str,
    rust: String,
    json_name: &'a str,
    aliases: &'a [(proc_macro2::TokenStream, String)],
    tokens: proc_macro2::TokenStream,
}

/// Each JSON name (a main name or an alias) used once among `named`.
fn unique_names(cx: &Ctxt, named: &[Named]) {
    let mut seen: Vec<(&str, &Named, bool)> = Vec::new();
    for item in named {
        let names = std::iter::once((None, item.json_name)).chain(
            item.aliases
                .iter()
                .map(|(tokens, alias)| (Some(tokens), alias.as_str())),
        );
        for (alias_tokens, name) in names {
            let Some((_, first, first_is_alias)) =
                seen.iter().find(|(seen_name, ..)| *seen_name == name)
            else {
                seen.push((name, item, alias_tokens.is_some()));
                continue;
            };
            let what = item.what;
            let message = if std::ptr::eq(*first, item) {
                format!(
                    "{what} `{}` already has the JSON name \"{name}\": remove this alias",
                    item.rust
                )
            } else if !first_is_alias && alias_tokens.is_none() {
                format!(
                    "{what}s `{}` and `{}` both have the JSON name \"{name}\"; give one a different `#[param(rename = \"...\")]`",
                    first.rust, item.rust
                )
            } else {
                format!(
                    "{what}s `{}` and `{}` both have the JSON name \"{name}\" (as a name or an alias); give one a different `#[param(rename = \"...\")]` or alias",
                    first.rust, item.rust
                )
            };
            match alias_tokens {
                Some(tokens) => cx.error_spanned_by(tokens, message),
                None => cx.error_spanned_by(&item.tokens, message),
            }
        }
    }
}

/// `flatten` and `skip` take a field out of the object's own list, so the
/// attributes that describe a listed field do not go with them.
fn combinable(cx: &Ctxt, field: &Field) {
    let attrs = &field.attrs;
    if attrs.flatten.is_some() {
        for (key, tokens) in &attrs.keys {
            if key != "flatten" {
                cx.error_spanned_by(
                    tokens,
                    format!("`{key}` does not go with `flatten`: the flattened struct's fields keep their own names and attributes"),
                );
            }
        }
    } else if attrs.skip.is_some() {
        for (key, tokens) in &attrs.keys {
            if key != "skip" && key != "default" {
                cx.error_spanned_by(
                    tokens,
                    format!("`{key}` does not go with `skip`: a skipped field is not shown to the model and not read from the arguments (only `default` applies)"),
                );
            }
        }
    }
}

fn unique_variant_names(cx: &Ctxt, variants: &[Variant]) {
    let named: Vec<Named> = variants
        .iter()
        .map(|variant| Named {
            what: "variant",
            rust: variant.ident.to_string(),
            json_name: &variant.json_name,
            aliases: &variant.aliases,
            tokens: quote::ToTokens::to_token_stream(variant.ident),
        })
        .collect();
    unique_names(cx, &named);
}

/// `{"tag": "variant", ...fields}`: the fields sit beside the tag, so a
/// variant must be an object of named fields (its own, or a struct's), and
/// none may be called like the tag.
fn internally_tagged(cx: &Ctxt, tag: &str, variants: &[Variant]) {
    for variant in variants {
        match variant.style {
            Style::Tuple => cx.error_spanned_by(
                variant.ident,
                format!(
                    "variant `{}` has several unnamed fields, which cannot sit beside the tag \"{tag}\" in one object: name them (`{} {{ a: A, b: B }}`), or use `#[param(tag = \"{tag}\", content = \"...\")]`",
                    variant.ident, variant.ident
                ),
            ),
            Style::Struct => {
                for field in variant.fields.iter().filter(|f| f.is_named_in_json()) {
                    if field.json_name == tag {
                        cx.error_spanned_by(
                            &field.member,
                            format!(
                                "field `{}` of variant `{}` has the JSON name \"{tag}\", which is the enum's tag; rename the field or the tag",
                                field.rust_name(),
                                variant.ident
                            ),
                        );
                    }
                }
            }
            Style::Unit | Style::Newtype => {}
        }
    }
}

/// An untagged unit variant is `null`: a second one could never be chosen.
/// An untagged variant is never named, so an alias would do nothing. A
/// variant an earlier one always wins over is refused (see
/// [`shadowed_by`]).
fn untagged(cx: &Ctxt, variants: &[Variant]) {
    for (index, variant) in variants.iter().enumerate() {
        if variant.style == Style::Unit {
            continue;
        }
        if let Some(earlier) = variants[..index]
            .iter()
            .find(|earlier| shadowed_by(variant, earlier))
        {
            cx.error_spanned_by(
                variant.ident,
                format!(
                    "in an untagged enum, every value `{}` takes is taken by `{}` before it, so `{}` could never be chosen: put it first, or tell them apart",
                    variant.ident, earlier.ident, variant.ident
                ),
            );
        }
    }
    for variant in variants {
        for (tokens, _) in &variant.aliases {
            cx.error_spanned_by(
                tokens,
                format!(
                    "variant `{}` of an untagged enum is never named in JSON, so an alias does nothing: remove it",
                    variant.ident
                ),
            );
        }
    }
    let mut units = variants.iter().filter(|v| v.style == Style::Unit);
    if let Some(first) = units.next() {
        for unreachable in units {
            cx.error_spanned_by(
                unreachable.ident,
                format!(
                    "in an untagged enum a unit variant is `null`, so `{}` could never be chosen over `{}`: remove one, or give it data",
                    unreachable.ident, first.ident
                ),
            );
        }
    }
}

/// A transparent struct is its one field's value: exactly one field read
/// (the others skipped), and nothing that names keys of an object, which it
/// no longer is.
fn transparent(cx: &Ctxt, container: &Container, fields: &[Field]) {
    let newtype = matches!(&container.original.data, syn::Data::Struct(data) if matches!(data.fields, syn::Fields::Unnamed(_)));
    let tokens = match &container.attrs.transparent {
        Some(tokens) => tokens.clone(),
        None if newtype => quote::ToTokens::to_token_stream(&container.original.ident),
        None => return,
    };
    let kept: Vec<&Field> = fields.iter().filter(|f| f.attrs.skip.is_none()).collect();
    if kept.len() != 1 {
        cx.error_spanned_by(
            &tokens,
            format!(
                "`transparent` needs exactly one field that is not skipped (the value the struct is), found {}",
                kept.len()
            ),
        );
        return;
    }
    for (key, key_tokens) in &container.attrs.keys {
        if matches!(key.as_str(), "rename_all" | "deny_unknown_fields") {
            cx.error_spanned_by(
                key_tokens,
                format!("`{key}` does not apply to a newtype or `transparent` struct: it is its field's value, not an object of fields"),
            );
        }
    }
    if !newtype {
        super::ast::keyless(
            cx,
            &kept[0].attrs,
            "the field of a `transparent` struct (the struct is its value)",
        );
    }
}

/// Whether `earlier` takes every value `later` takes, as far as the types
/// written tell: a newtype of `serde_json::Value` takes anything; the same
/// newtype or tuple types; or struct fields all found in `earlier` with the
/// same type and attributes, where `earlier`'s other fields are optional.
/// Then parse, which tries the variants in order (first taking the value as
/// sent, then with undeclared keys dropped), never reaches `later`.
fn shadowed_by(later: &Variant, earlier: &Variant) -> bool {
    let text = |ty: &syn::Type| quote::quote!(#ty).to_string().replace(' ', "");
    if earlier.style == Style::Newtype
        && matches!(
            text(earlier.fields[0].ty).as_str(),
            "Value" | "serde_json::Value"
        )
    {
        return true;
    }
    let attrs = |field: &Field| {
        let mut keys: Vec<String> = field
            .attrs
            .keys
            .iter()
            .map(|(key, tokens)| format!("{key}{tokens}"))
            .collect();
        keys.sort();
        keys
    };
    match (earlier.style, later.style) {
        (Style::Newtype, Style::Newtype) | (Style::Tuple, Style::Tuple) => {
            earlier.fields.len() == later.fields.len()
                && earlier.fields.iter().zip(&later.fields).all(|(a, b)| {
                    text(a.ty) == text(b.ty) && a.attrs.keys.is_empty() && b.attrs.keys.is_empty()
                })
        }
        (Style::Struct, Style::Struct) => {
            let plain = |fields: &[Field]| {
                fields
                    .iter()
                    .all(|f| f.attrs.flatten.is_none() && f.attrs.aliases.is_empty())
            };
            if !plain(&earlier.fields) || !plain(&later.fields) {
                return false;
            }
            let named = |fields: &'_ [Field<'_>]| -> Vec<(String, String, Vec<String>)> {
                fields
                    .iter()
                    .filter(|f| f.is_named_in_json())
                    .map(|f| (f.json_name.clone(), text(f.ty), attrs(f)))
                    .collect()
            };
            let (earlier_fields, later_fields) = (named(&earlier.fields), named(&later.fields));
            let all_found = later_fields
                .iter()
                .all(|field| earlier_fields.contains(field));
            let rest_optional = earlier
                .fields
                .iter()
                .filter(|f| f.is_named_in_json())
                .filter(|f| !later_fields.iter().any(|(name, ..)| *name == f.json_name))
                .all(|f| f.attrs.default.is_some() || text(f.ty).starts_with("Option<"));
            all_found && rest_optional
        }
        _ => false,
    }
}
