//! Checks across attributes, fields and variants that no single attribute
//! can make: names that collide, representations a variant cannot take,
//! attributes that contradict each other.

use super::ast::{Container, Data, Field, Style, Variant};
use super::attr::Repr;
use super::ctxt::Ctxt;

pub(super) fn container(cx: &Ctxt, container: &Container) {
    match &container.data {
        Data::Struct(fields) => fields_of(cx, fields),
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

/// The fields of one object: unique JSON names, and attributes that go
/// together.
fn fields_of(cx: &Ctxt, fields: &[Field]) {
    for (index, field) in fields.iter().enumerate() {
        combinable(cx, field);
        super::check_values::field(cx, field);
        if !field.is_named_in_json() {
            continue;
        }
        if let Some(first) = fields[..index]
            .iter()
            .find(|earlier| earlier.is_named_in_json() && earlier.json_name == field.json_name)
        {
            cx.error_spanned_by(
                &field.member,
                format!(
                    "fields `{}` and `{}` both have the JSON name \"{}\"; give one a different `#[param(rename = \"...\")]`",
                    first.rust_name(),
                    field.rust_name(),
                    field.json_name
                ),
            );
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
    for (index, variant) in variants.iter().enumerate() {
        if let Some(first) = variants[..index]
            .iter()
            .find(|earlier| earlier.json_name == variant.json_name)
        {
            cx.error_spanned_by(
                variant.ident,
                format!(
                    "variants `{}` and `{}` both have the JSON name \"{}\"; give one a different `#[param(rename = \"...\")]`",
                    first.ident, variant.ident, variant.json_name
                ),
            );
        }
    }
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
fn untagged(cx: &Ctxt, variants: &[Variant]) {
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
