//! The question a person is shown before a served tool runs: which tool,
//! what it does, and each argument as `name: value`, cut to what a dialog
//! can show.
//!
//! The arguments come from the model, so nothing in them may pass for a
//! part of the question: every value is written as JSON (a string in
//! quotes, a line break as `\n`), a key that is not a plain name too, and
//! the characters that reorder or hide text on screen (bidirectional
//! controls, zero-width characters) as `\u{…}`. A value "ok\nAll checks
//! passed, approve" stays on its own line, visibly quoted.

use serde_json::Value;
use std::fmt::Write;

/// The most characters of one argument's value shown; the rest is named
/// by its length.
const VALUE_CHARS: usize = 200;
/// The most characters of the tool's description shown.
const DESCRIPTION_CHARS: usize = 300;
/// The most characters of the whole question (the argument lines stop
/// before it, saying how many are left out).
const QUESTION_CHARS: usize = 2_000;

/// What the question says about the tool, besides the call's arguments.
pub(crate) struct AboutTool<'a> {
    /// The name the model called.
    pub name: &'a str,
    /// Its title for people, when it has one.
    pub title: Option<&'a str>,
    /// What it does (its description); its first paragraph is shown.
    pub description: &'a str,
    /// It says it may destroy or overwrite what exists.
    pub destructive: bool,
}

/// The question for a call of `tool` with `arguments`.
///
/// ```text
/// Allow the tool "Write file" (write) to run with these arguments?
/// Write a file inside the root, replacing what is there.
/// It may destroy or overwrite what exists.
/// - path: "notes/todo.txt"
/// - content: "buy milk\nbuy eggs"
/// ```
pub(crate) fn question(tool: &AboutTool<'_>, arguments: &Value) -> String {
    let mut text = String::new();
    let name = shown_key(tool.name);
    match tool.title.map(str::trim).filter(|title| !title.is_empty()) {
        Some(title) => {
            let title = cut(&visible(title), VALUE_CHARS);
            let _ = write!(
                text,
                "Allow the tool \"{title}\" ({name}) to run with these arguments?"
            );
        }
        None => {
            let _ = write!(text, "Allow the tool {name} to run with these arguments?");
        }
    }
    let description = first_paragraph(tool.description);
    if !description.is_empty() {
        text.push('\n');
        text.push_str(&cut(&visible(&description), DESCRIPTION_CHARS));
    }
    if tool.destructive {
        text.push_str("\nIt may destroy or overwrite what exists.");
    }
    let lines: Vec<String> = match arguments {
        Value::Object(map) if map.is_empty() => vec!["(no arguments)".to_owned()],
        Value::Object(map) => map
            .iter()
            .map(|(key, value)| format!("- {}: {}", shown_key(key), shown_value(value)))
            .collect(),
        other => vec![format!("- (arguments): {}", shown_value(other))],
    };
    let total = lines.len();
    for (shown, line) in lines.into_iter().enumerate() {
        let left = total - shown;
        // Room is kept for the line that says how many are left out.
        let reserve = if left > 1 { 40 } else { 0 };
        if chars(&text) + 1 + chars(&line) + reserve > QUESTION_CHARS {
            let _ = write!(
                text,
                "\n… and {left} more argument{} not shown",
                if left == 1 { "" } else { "s" }
            );
            break;
        }
        text.push('\n');
        text.push_str(&line);
    }
    text
}

/// A key as written by the model: plain when it is a plain name, else as
/// a JSON string.
fn shown_key(key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if plain {
        key.to_owned()
    } else {
        cut(&visible(&json_text(&Value::from(key))), VALUE_CHARS)
    }
}

/// A value as JSON, visible, cut to [`VALUE_CHARS`].
fn shown_value(value: &Value) -> String {
    let text = visible(&json_text(value));
    let length = chars(&text);
    if length <= VALUE_CHARS {
        return text;
    }
    format!(
        "{} (cut: {length} characters in all)",
        cut(&text, VALUE_CHARS)
    )
}

fn json_text(value: &Value) -> String {
    // A Value always serializes (its keys are strings); the fallback is
    // never seen.
    serde_json::to_string(value).unwrap_or_else(|_| "(not shown)".to_owned())
}

/// `text` with every character that changes how the rest is shown
/// (control, bidirectional and invisible formatting characters) written
/// as `\u{…}`. JSON text has its control characters escaped already;
/// this covers the rest and text that is not JSON (a title).
fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hides_or_reorders(c) {
            let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

fn hides_or_reorders(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'                 // Arabic letter mark
                | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
                | '\u{2028}'..='\u{202E}' // line and paragraph separators, embeddings, overrides
                | '\u{2060}'..='\u{2069}' // word joiner, invisible operators, isolates
                | '\u{FEFF}'              // zero-width no-break space
        )
}

/// The description up to its first blank line, its lines joined.
fn first_paragraph(description: &str) -> String {
    description
        .trim()
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// At most `limit` characters of `text`, with `…` when cut.
fn cut(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write_tool() -> AboutTool<'static> {
        AboutTool {
            name: "write",
            title: Some("Write file"),
            description: "Write a file inside the root,\nreplacing what is there.\n\nMore details.",
            destructive: true,
        }
    }

    #[test]
    fn names_the_tool_what_it_does_and_each_argument() {
        let asked = question(
            &write_tool(),
            &json!({"path": "notes/todo.txt", "content": "buy milk\nbuy eggs", "append": false}),
        );
        assert_eq!(
            asked,
            "Allow the tool \"Write file\" (write) to run with these arguments?\n\
             Write a file inside the root, replacing what is there.\n\
             It may destroy or overwrite what exists.\n\
             - path: \"notes/todo.txt\"\n\
             - content: \"buy milk\\nbuy eggs\"\n\
             - append: false"
        );
    }

    #[test]
    fn without_a_title_or_arguments() {
        let tool = AboutTool {
            name: "purge",
            title: None,
            description: "",
            destructive: false,
        };
        assert_eq!(
            question(&tool, &json!({})),
            "Allow the tool purge to run with these arguments?\n(no arguments)"
        );
        assert_eq!(
            question(&tool, &json!([1, 2])),
            "Allow the tool purge to run with these arguments?\n- (arguments): [1,2]"
        );
    }

    #[test]
    fn a_long_value_is_cut_and_its_length_said() {
        let long = "x".repeat(5_000);
        let asked = question(&write_tool(), &json!({"content": long}));
        let line = asked.lines().last().unwrap();
        let expected = format!(
            "- content: \"{}… (cut: 5002 characters in all)",
            "x".repeat(VALUE_CHARS - 1)
        );
        assert_eq!(line, expected);
    }

    #[test]
    fn many_arguments_stop_at_the_question_length_and_say_how_many_are_left() {
        let arguments: serde_json::Map<String, Value> = (0..100)
            .map(|i| (format!("field{i}"), Value::from("y".repeat(150))))
            .collect();
        let asked = question(&write_tool(), &Value::Object(arguments));
        assert!(chars(&asked) <= QUESTION_CHARS, "{}", chars(&asked));
        let last = asked.lines().last().unwrap();
        let shown = asked.lines().filter(|line| line.starts_with("- ")).count();
        assert_eq!(
            last,
            format!("… and {} more arguments not shown", 100 - shown)
        );
        assert!(shown >= 5, "{shown}");
    }

    #[test]
    fn nothing_in_an_argument_passes_for_a_line_or_hides_text() {
        let asked = question(
            &write_tool(),
            &json!({
                "path": "a\u{202E}txt.exe",
                "content": "ok\n- confirm: \"approved by admin\"",
                "evil\nkey": 1,
                "zero\u{200B}width": 2,
            }),
        );
        let lines: Vec<&str> = asked.lines().collect();
        assert_eq!(lines.len(), 7, "{asked}");
        assert_eq!(lines[3], "- path: \"a\\u{202E}txt.exe\"");
        assert_eq!(
            lines[4],
            "- content: \"ok\\n- confirm: \\\"approved by admin\\\"\""
        );
        assert_eq!(lines[5], "- \"evil\\nkey\": 1");
        assert_eq!(lines[6], "- \"zero\\u{200B}width\": 2");
    }

    #[test]
    fn cuts_by_characters_not_bytes() {
        assert_eq!(cut("ééé", 2), "éé…");
        assert_eq!(cut("éé", 2), "éé");
    }
}
