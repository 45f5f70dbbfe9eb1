//! Doc comments become descriptions by one fixed rule: strip one leading
//! space from each line, join the lines of a paragraph with spaces, keep
//! paragraph breaks, trim blank lines at both ends.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

pub fn description(attrs: &[Attribute]) -> Option<String> {
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
            let text = text.value();
            // `split`, not `lines`: a bare `///` is an empty string, and it is
            // exactly the line that separates paragraphs.
            lines.extend(
                text.split('\n')
                    .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned()),
            );
        }
    }
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in &lines {
        let line = line.trim();
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
