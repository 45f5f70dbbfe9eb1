//! rustdoc's `# Arguments` section of a tool function's doc comment: its
//! items become parameter descriptions, and the section is left out of the
//! tool's own description (the model reads each parameter's description
//! beside the parameter instead).
//!
//! ```text
//! /// Read a file.
//! ///
//! /// # Arguments
//! ///
//! /// * `path` - The file to read, relative to the root
//! ///   (continued on an indented line)
//! /// * `limit` - The most lines to read
//! ```

use super::doc::DocLine;
use proc_macro2::Span;

/// One item: a parameter's name, its text, and the doc line it starts on.
pub(crate) struct ArgumentDoc {
    pub name: String,
    pub text: String,
    pub span: Span,
}

/// Splits the doc lines into the description's lines (everything but the
/// section) and the section's items. A line of the section that is not an
/// item or its continuation is kept out of the description too.
pub(crate) fn split(lines: Vec<DocLine>) -> (Vec<DocLine>, Vec<ArgumentDoc>) {
    let mut kept = Vec::new();
    let mut items: Vec<ArgumentDoc> = Vec::new();
    let mut in_section = false;
    let mut in_code = false;
    for line in lines {
        let trimmed = line.text.trim();
        if trimmed.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && let Some(title) = heading(trimmed) {
            in_section = title.eq_ignore_ascii_case("arguments");
            if in_section {
                continue;
            }
        }
        if !in_section {
            kept.push(line);
            continue;
        }
        if let Some((name, text)) = item(trimmed) {
            items.push(ArgumentDoc {
                name: name.to_owned(),
                text: text.to_owned(),
                span: line.span,
            });
        } else if let Some(last) = items.last_mut()
            && !trimmed.is_empty()
        {
            if !last.text.is_empty() {
                last.text.push(' ');
            }
            last.text.push_str(trimmed);
        }
    }
    (kept, items)
}

/// The title of a Markdown heading line (`# Arguments` -> `Arguments`).
fn heading(line: &str) -> Option<&str> {
    let title = line.trim_start_matches('#');
    let level = line.len() - title.len();
    ((1..=6).contains(&level) && title.starts_with(' ')).then(|| title.trim())
}

/// A list item naming a parameter: `` * `path` - text ``, also with `-` or
/// `+` as the bullet, the name without backticks, and `:` or a dash as the
/// separator.
fn item(line: &str) -> Option<(&str, &str)> {
    let rest = line
        .strip_prefix(['*', '-', '+'])
        .filter(|rest| rest.starts_with(' '))?
        .trim_start();
    let (name, rest) = match rest.strip_prefix('`') {
        Some(quoted) => {
            let end = quoted.find('`')?;
            (&quoted[..end], &quoted[end + 1..])
        }
        None => {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    let name = name.trim().trim_start_matches("r#");
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let text = rest
        .trim_start()
        .trim_start_matches(['-', ':', '\u{2013}', '\u{2014}'])
        .trim();
    Some((name, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<DocLine> {
        text.lines()
            .map(|line| DocLine {
                text: line.to_owned(),
                span: Span::call_site(),
            })
            .collect()
    }

    #[test]
    fn items_are_taken_and_the_section_is_left_out() {
        let (kept, items) = split(lines(
            "Read a file.\n\n# Arguments\n\n* `path` - The file\n  to read\n- limit: The most lines\n\n# Errors\n\nWhen missing.",
        ));
        let kept: Vec<_> = kept.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(kept, ["Read a file.", "", "# Errors", "", "When missing."]);
        let items: Vec<_> = items
            .iter()
            .map(|item| (item.name.as_str(), item.text.as_str()))
            .collect();
        assert_eq!(
            items,
            [("path", "The file to read"), ("limit", "The most lines")]
        );
    }

    #[test]
    fn a_heading_inside_a_code_block_is_text() {
        let (kept, items) = split(lines("```\n# Arguments\n* `x` - y\n```"));
        assert_eq!(kept.len(), 4);
        assert!(items.is_empty());
    }
}
