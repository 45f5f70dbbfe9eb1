//! `#[param(...)]` on a struct or an enum, and on an enum's variants.

use super::values::{flag, name_value, string_value};
use super::{Attr, Place, for_each_param};
use crate::internals::case::{RULE_NAMES, RenameRule};
use crate::internals::ctxt::Ctxt;
use proc_macro2::TokenStream;
use syn::Attribute;
use syn::meta::ParseNestedMeta;

/// How an enum is written in JSON, in serde's words.
#[derive(Clone, Default)]
pub(crate) enum Repr {
    /// No attribute: `"unit"` or `{"variant": data}`.
    #[default]
    External,
    /// `tag = "t"`: `{"t": "variant", ...fields}`.
    Internal { tag: String },
    /// `tag = "t", content = "c"`: `{"t": "variant", "c": data}`.
    Adjacent { tag: String, content: String },
    /// `untagged`: the data alone, the first variant that fits.
    Untagged,
}

#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub deny_unknown_fields: bool,
    pub description: Option<String>,
    pub repr: Repr,
    /// `transparent`: the struct is its one field's value (its tokens).
    pub transparent: Option<TokenStream>,
    /// The tokens of every key written, for "does not go with" errors.
    pub keys: Vec<(String, TokenStream)>,
}

pub(crate) fn container(cx: &Ctxt, attrs: &[Attribute], place: Place) -> ContainerAttrs {
    let mut rename_all = Attr::none(cx, "param", "rename_all");
    let mut rename_all_fields = Attr::none(cx, "param", "rename_all_fields");
    let mut deny_unknown_fields = Attr::none(cx, "param", "deny_unknown_fields");
    let mut description = Attr::none(cx, "param", "description");
    let mut tag = Attr::none(cx, "param", "tag");
    let mut content = Attr::none(cx, "param", "content");
    let mut untagged = Attr::none(cx, "param", "untagged");
    let mut transparent = Attr::none(cx, "param", "transparent");
    let mut keys = Vec::new();
    for_each_param(cx, attrs, place, |key, meta| {
        keys.push((key.to_owned(), quote::ToTokens::to_token_stream(&meta.path)));
        match key {
            "rename_all" | "rename_all_fields" => {
                if let Some(rule) = rule_value(cx, meta, key)? {
                    let target = if key == "rename_all" {
                        &mut rename_all
                    } else {
                        &mut rename_all_fields
                    };
                    target.set(&meta.path, rule);
                }
            }
            "deny_unknown_fields" | "untagged" | "transparent" => {
                flag(cx, meta, key)?;
                let target = match key {
                    "untagged" => &mut untagged,
                    "transparent" => &mut transparent,
                    _ => &mut deny_unknown_fields,
                };
                target.set(&meta.path, ());
            }
            "description" => {
                if let Some(text) = string_value(cx, meta, key)? {
                    description.set(&meta.path, text.value());
                }
            }
            "tag" | "content" => {
                if let Some(name) = name_value(cx, meta, key)? {
                    let target = if key == "tag" { &mut tag } else { &mut content };
                    target.set(&meta.path, name.value());
                }
            }
            _ => unreachable!("keys are checked by for_each_param"),
        }
        Ok(())
    });
    let repr = repr(
        cx,
        tag.get_with_tokens(),
        content.get_with_tokens(),
        untagged.get_with_tokens(),
    );
    ContainerAttrs {
        rename_all: rename_all.get(),
        rename_all_fields: rename_all_fields.get(),
        deny_unknown_fields: deny_unknown_fields.get().is_some(),
        description: description.get(),
        repr,
        transparent: transparent.get_with_tokens().map(|(tokens, ())| tokens),
        keys,
    }
}

/// The representation the three keys name, or errors for combinations
/// serde refuses too.
fn repr(
    cx: &Ctxt,
    tag: Option<(TokenStream, String)>,
    content: Option<(TokenStream, String)>,
    untagged: Option<(TokenStream, ())>,
) -> Repr {
    match (tag, content, untagged) {
        (None, None, None) => Repr::External,
        (Some((_, tag)), None, None) => Repr::Internal { tag },
        (Some((_, tag)), Some((content_tokens, content)), None) => {
            if tag == content {
                cx.error_spanned_by(
                    content_tokens,
                    format!("`content` and `tag` are both \"{tag}\": one key cannot hold both the variant's name and its data"),
                );
            }
            Repr::Adjacent { tag, content }
        }
        (None, Some((content_tokens, _)), None) => {
            cx.error_spanned_by(
                content_tokens,
                "`content` needs `tag`: write `#[param(tag = \"...\", content = \"...\")]` for an adjacently tagged enum",
            );
            Repr::External
        }
        (tag, content, Some((untagged_tokens, ()))) => {
            if tag.is_some() || content.is_some() {
                cx.error_spanned_by(
                    untagged_tokens,
                    "`untagged` cannot go with `tag` or `content`: an untagged enum names no variant",
                );
            }
            Repr::Untagged
        }
    }
}

fn rule_value(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<RenameRule>> {
    let Some(rule) = string_value(cx, meta, key)? else {
        return Ok(None);
    };
    let parsed = RenameRule::from_name(&rule.value());
    if parsed.is_none() {
        cx.error_spanned_by(
            &rule,
            format!(
                "unknown case `{}` for `{key}`; expected one of {RULE_NAMES}",
                rule.value()
            ),
        );
    }
    Ok(parsed)
}

#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub rename: Option<String>,
    /// `alias = "..."`, repeatable: other names parse reads the variant
    /// under.
    pub aliases: Vec<(TokenStream, String)>,
    /// Renames the fields of this variant (serde's variant-level `rename_all`).
    pub rename_all: Option<RenameRule>,
    pub description: Option<String>,
}

pub(crate) fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut rename = Attr::none(cx, "param", "rename");
    let mut rename_all = Attr::none(cx, "param", "rename_all");
    let mut description = Attr::none(cx, "param", "description");
    let mut aliases = Vec::new();
    for_each_param(cx, attrs, Place::Variant, |key, meta| {
        match key {
            "rename" => {
                if let Some(name) = name_value(cx, meta, key)? {
                    rename.set(&meta.path, name.value());
                }
            }
            "alias" => {
                if let Some(name) = name_value(cx, meta, key)? {
                    aliases.push((quote::ToTokens::to_token_stream(&name), name.value()));
                }
            }
            "rename_all" => {
                if let Some(rule) = rule_value(cx, meta, key)? {
                    rename_all.set(&meta.path, rule);
                }
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
    VariantAttrs {
        rename: rename.get(),
        aliases,
        rename_all: rename_all.get(),
        description: description.get(),
    }
}
