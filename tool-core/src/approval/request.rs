//! What a person is asked, and what they answer.

use crate::repair::json_head;
use crate::tool::ToolAnnotations;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write;

/// The most bytes of one argument's JSON shown in a question (and of the
/// arguments a person edited, in the model's note); the full arguments
/// stay in [`ApprovalRequest::arguments`].
const VALUE_BYTES: usize = 200;
/// The most arguments listed in a question.
const ARGUMENTS_SHOWN: usize = 20;

/// A call waiting for a person's decision: what an approval screen shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The call's id (decisions are given by it).
    pub call_id: String,
    /// The tool the model wants to run.
    pub tool_name: String,
    /// The arguments as parsed (defaults filled in, repairs applied): what
    /// runs if the person approves.
    pub arguments: Value,
    /// The tool's hints (read-only, destructive, ...).
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// The question in words a person can judge: the tool, what it does,
    /// and each argument (long values cut).
    pub question: String,
}

impl ApprovalRequest {
    pub(crate) fn new(
        call_id: &str,
        tool_name: &str,
        description: &str,
        annotations: &ToolAnnotations,
        arguments: Value,
    ) -> Self {
        let question = question(tool_name, description, annotations, &arguments);
        ApprovalRequest {
            call_id: call_id.to_owned(),
            tool_name: tool_name.to_owned(),
            arguments,
            annotations: annotations.clone(),
            question,
        }
    }
}

/// `Allow delete_file (Delete a file; may destroy data) to run with:
/// path: "notes.txt"?`
fn question(tool: &str, description: &str, hints: &ToolAnnotations, arguments: &Value) -> String {
    let mut text = format!("Allow {tool}");
    let what = hints.title.as_deref().unwrap_or(description).trim();
    let first_line = what.lines().next().unwrap_or_default();
    let mut about = Vec::new();
    if !first_line.is_empty() {
        about.push(first_line.to_owned());
    }
    // Said only when the tool says it; MCP's defaults would call every
    // unannotated tool destructive, and a warning on everything is ignored.
    if hints.destructive == Some(true) {
        about.push("may destroy data".to_owned());
    }
    if !about.is_empty() {
        let _ = write!(text, " ({})", about.join("; "));
    }
    match arguments {
        Value::Object(fields) if fields.is_empty() => text.push_str(" to run (no arguments)?"),
        Value::Object(fields) => {
            text.push_str(" to run with:");
            for (name, value) in fields.iter().take(ARGUMENTS_SHOWN) {
                let _ = write!(text, "\n  {}: {}", shown_name(name), shown(value));
            }
            if fields.len() > ARGUMENTS_SHOWN {
                let _ = write!(
                    text,
                    "\n  ... and {} more arguments",
                    fields.len() - ARGUMENTS_SHOWN
                );
            }
            text.push_str("\n?");
        }
        other => {
            let _ = write!(text, " to run with {}?", shown(other));
        }
    }
    text
}

/// A value as JSON, cut to [`VALUE_BYTES`] bytes with its full size,
/// every invisible character escaped; the cut stops serializing, so a
/// megabyte argument is not written out to show its first line.
pub(crate) fn shown(value: &Value) -> String {
    let (head, total) = json_head(value, VALUE_BYTES);
    if total <= VALUE_BYTES as u64 {
        return visible(&head);
    }
    format!("{}... ({total} bytes in all)", visible(&head))
}

/// An argument's name as written when it is plain (letters, digits, `_`,
/// `-`, `.`), else quoted as JSON: a name holding `: ` or a line break
/// cannot pass for another argument.
fn shown_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if plain {
        visible(name)
    } else {
        visible(&Value::from(name).to_string())
    }
}

/// `text` with every character a person cannot see escaped as `\u{..}`:
/// controls, line and paragraph separators, and format characters (such
/// as U+202E, which reverses the text after it), so the question a person
/// judges shows what the arguments really hold. JSON's escaping leaves
/// all but the controls as they are.
fn visible(text: &str) -> String {
    use unicode_general_category::{GeneralCategory, get_general_category};
    let hidden = |c: char| {
        matches!(
            get_general_category(c),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
    };
    if !text.chars().any(hidden) {
        return text.to_owned();
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            let _ = write!(shown, "\\u{{{:04x}}}", u32::from(c));
        } else {
            shown.push(c);
        }
    }
    shown
}

/// A person's answer to an [`ApprovalRequest`]. On the wire (a decision
/// line, a form post): `{"decision":"approve"}`,
/// `{"decision":"approve_with","arguments":{...}}`,
/// `{"decision":"deny","reason":"..."}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case", deny_unknown_fields)]
pub enum Decision {
    /// Run the call as the model asked.
    Approve,
    /// Run it with these arguments instead (a person edited them). They are
    /// parsed strictly (no repair); arguments that do not parse are refused
    /// before anything runs.
    ApproveWith {
        /// The arguments to run with.
        arguments: Value,
    },
    /// Do not run it: the model reads the reason, as a `denied` failure
    /// (not a retry, not counted against any retry budget).
    Deny {
        /// Why, in words for the model.
        reason: String,
    },
}

impl Decision {
    /// Approve with edited arguments.
    pub fn approve_with(arguments: Value) -> Self {
        Decision::ApproveWith { arguments }
    }

    /// Deny, telling the model why.
    pub fn deny(reason: impl Into<String>) -> Self {
        Decision::Deny {
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_question_names_the_tool_what_it_does_and_each_argument() {
        let hints = ToolAnnotations::new().destructive(true);
        let request = ApprovalRequest::new(
            "c1",
            "write",
            "Write a file\nMore details.",
            &hints,
            json!({"path": "a.txt", "content": "x".repeat(500)}),
        );
        let lines: Vec<&str> = request.question.lines().collect();
        assert_eq!(
            lines[0],
            "Allow write (Write a file; may destroy data) to run with:"
        );
        assert_eq!(lines[1], "  path: \"a.txt\"");
        assert!(lines[2].starts_with("  content: \"xxx"), "{}", lines[2]);
        assert!(lines[2].ends_with("... (502 bytes in all)"), "{}", lines[2]);
        assert_eq!(lines[3], "?");
    }

    #[test]
    fn hidden_characters_and_odd_names_cannot_fake_a_line() {
        let request = ApprovalRequest::new(
            "c1",
            "pay",
            "Pay",
            &ToolAnnotations::default(),
            json!({"to\n  amount: 1": "bob", "note": "\u{202e}001 x"}),
        );
        let lines: Vec<&str> = request.question.lines().collect();
        assert_eq!(lines[1], r#"  "to\n  amount: 1": "bob""#);
        assert_eq!(lines[2], r#"  note: "\u{202e}001 x""#);
        assert_eq!(lines.len(), 4, "{}", request.question);
    }

    #[test]
    fn decisions_read_from_their_wire_shape() {
        let read = |text: &str| serde_json::from_str::<Decision>(text);
        assert_eq!(
            read(r#"{"decision":"approve"}"#).unwrap(),
            Decision::Approve
        );
        assert_eq!(
            read(r#"{"decision":"deny","reason":"no"}"#).unwrap(),
            Decision::deny("no")
        );
        assert_eq!(
            read(r#"{"decision":"approve_with","arguments":{"n":1}}"#).unwrap(),
            Decision::approve_with(json!({"n": 1}))
        );
        let unknown = read(r#"{"decision":"maybe"}"#).unwrap_err().to_string();
        assert!(unknown.contains("unknown variant `maybe`"), "{unknown}");
    }
}
