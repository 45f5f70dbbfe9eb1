//! Doc comments become descriptions by one fixed rule: strip one leading
//! space from each line, join the lines of a paragraph with spaces, keep
//! paragraph breaks, trim blank lines at both ends.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// One line of a doc comment, with the span of the attribute it came from
/// (a `///` line is one attribute, so errors point at that line).
pub(crate) struct DocLine {
    pub text: String,
    pub span: Span,
}

/// The lines of the doc comments among `attrs`, one leading space stripped.
pub(crate) fn lines(attrs: &[Attribute]) -> Vec<DocLine> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(pair) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &pair.value
        {
            // `split`, not `lines`: a bare `///` is an empty string, and it is
            // exactly the line that separates paragraphs.
            lines.extend(text.value().split('\n').map(|line| DocLine {
                text: line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned(),
                span: attr.span(),
            }));
        }
    }
    lines
}

pub(crate) fn description(attrs: &[Attribute]) -> Option<String> {
    join(&lines(attrs))
}

/// Doc lines as a description: paragraphs joined with a blank line.
pub(crate) fn join(lines: &[DocLine]) -> Option<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        let line = line.text.trim();
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// True when a doc attribute is computed (`#[doc = include_str!(..)]`), so
/// its text cannot be read here.
pub(crate) fn has_computed(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("doc")
            && !matches!(&attr.meta, Meta::NameValue(pair) if matches!(&pair.value, Expr::Lit(_)))
    })
}
