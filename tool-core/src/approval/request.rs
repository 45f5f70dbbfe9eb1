//! What a person is asked, and what they answer.

use super::digest::arguments_sha256;
use crate::model::ToolAnnotations;
use crate::model::json_head;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write;

/// How many bytes of the arguments' JSON a question shows: each argument
/// in full while they fit, then the one that does not fit cut (saying its
/// whole size), and the rest named with their sizes. A question that
/// leaves anything out ends with the arguments' whole size and their
/// SHA-256 ([`ApprovalRequest::arguments_sha256`]), which the approval is
/// bound to: what runs is exactly what was approved.
pub const QUESTION_ARGUMENT_BYTES: usize = 4096;

/// The most arguments named in a question once [`QUESTION_ARGUMENT_BYTES`]
/// are shown.
const ARGUMENTS_NAMED: usize = 50;

/// A call waiting for a person's decision: what an approval screen shows.
/// On the wire (a UI's JSON, the CLI's lines) its fields are camelCase:
/// `{"approvalId", "toolCallId", "toolName", "arguments",
/// "argumentsSha256", "annotations", "question", "expiresAt"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// This approval's id: unique to the waiting call, and the same in
    /// every state of its batch until it is decided.
    pub approval_id: String,
    /// The call's id (decisions are given by it).
    pub tool_call_id: String,
    /// The tool the model wants to run.
    pub tool_name: String,
    /// The arguments as parsed (defaults filled in, repairs applied): what
    /// runs if the person approves, in full.
    pub arguments: Value,
    /// The SHA-256 of [`arguments`](Self::arguments) in canonical JSON
    /// ([`arguments_sha256`](super::arguments_sha256)).
    pub arguments_sha256: String,
    /// The tool's hints (read-only, destructive, ...). Hints from an
    /// untrusted server are only what it claims.
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// The question in words a person can judge: the tool, what it does,
    /// and each argument (see [`QUESTION_ARGUMENT_BYTES`]).
    pub question: String,
    /// When the approval stops being accepted, in milliseconds since the
    /// Unix epoch (a suspended batch's expiry; none when asked inline).
    #[serde(rename = "expiresAt", default, skip_serializing_if = "Option::is_none")]
    pub expires_at_ms: Option<u64>,
}

impl ApprovalRequest {
    pub(crate) fn new(
        approval_id: String,
        call_id: &str,
        tool_name: &str,
        description: &str,
        annotations: &ToolAnnotations,
        arguments: Value,
    ) -> Self {
        let arguments_sha256 = arguments_sha256(&arguments);
        let question = question(
            tool_name,
            description,
            annotations,
            &arguments,
            &arguments_sha256,
        );
        ApprovalRequest {
            approval_id,
            tool_call_id: call_id.to_owned(),
            tool_name: tool_name.to_owned(),
            arguments,
            arguments_sha256,
            annotations: annotations.clone(),
            question,
            expires_at_ms: None,
        }
    }
}

/// `Allow delete_file (Delete a file; may destroy data) to run with:
/// path: "notes.txt"?`
fn question(
    tool: &str,
    description: &str,
    hints: &ToolAnnotations,
    arguments: &Value,
    digest: &str,
) -> String {
    let mut text = format!("Allow {tool}");
    let what = hints.title.as_deref().unwrap_or(description).trim();
    let first_line = what.lines().next().unwrap_or_default();
    let mut about = Vec::new();
    // Its closing period would stand before "; may destroy data".
    let first_line = first_line.strip_suffix('.').unwrap_or(first_line);
    if !first_line.is_empty() {
        about.push(visible(first_line));
    }
    // Said only when the tool says it; MCP's defaults would call every
    // unannotated tool destructive, and a warning on everything is ignored.
    if hints.destructive == Some(true) {
        about.push("may destroy data".to_owned());
    }
    if !about.is_empty() {
        let _ = write!(text, " ({})", about.join("; "));
    }
    let mut budget = QUESTION_ARGUMENT_BYTES;
    let cut = match arguments {
        Value::Object(fields) if fields.is_empty() => {
            text.push_str(" to run (no arguments)?");
            false
        }
        Value::Object(fields) => {
            text.push_str(" to run with:");
            let mut cut = false;
            let mut named = 0;
            for (index, (name, value)) in fields.iter().enumerate() {
                if budget == 0 && named == ARGUMENTS_NAMED {
                    let _ = write!(text, "\n  ... and {} more arguments", fields.len() - index);
                    cut = true;
                    break;
                }
                let _ = write!(text, "\n  {}: ", shown_name(name));
                if budget == 0 {
                    named += 1;
                }
                cut |= show(&mut text, value, &mut budget);
            }
            text.push_str("\n?");
            cut
        }
        other => {
            text.push_str(" to run with ");
            let cut = show(&mut text, other, &mut budget);
            text.push('?');
            cut
        }
    };
    if cut {
        let (_, total) = json_head(arguments, 0);
        let _ = write!(
            text,
            "\nNot everything is shown: the arguments are {total} bytes of JSON. \
             SHA-256 of the exact arguments that will run: {digest}"
        );
    }
    text
}

/// Writes `value` into `text`: in full if it fits in `budget` (which it
/// then spends), else its first bytes and its whole size. Whether it was
/// cut.
fn show(text: &mut String, value: &Value, budget: &mut usize) -> bool {
    let (head, total) = json_head(value, *budget);
    if total <= *budget as u64 {
        *budget -= head.len();
        text.push_str(&visible(&head));
        return false;
    }
    if head.is_empty() {
        let _ = write!(text, "(not shown: {total} bytes)");
    } else {
        let _ = write!(text, "{}... (cut: {total} bytes in all)", visible(&head));
    }
    *budget = 0;
    true
}

/// A value as JSON, cut to 200 bytes with its full size, every invisible
/// character escaped: what the model reads of a person's edit. The cut
/// stops serializing, so a megabyte argument is not written out to show
/// its first line.
pub(crate) fn shown(value: &Value) -> String {
    const NOTE_BYTES: usize = 200;
    let (head, total) = json_head(value, NOTE_BYTES);
    if total <= NOTE_BYTES as u64 {
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
/// line, a form post), camelCase: `{"decision":"approve"}`,
/// `{"decision":"approveWith","arguments":{...}}`,
/// `{"decision":"deny","reason":"..."}` (the reason optional),
/// `{"decision":"alwaysApprove"}`, `{"decision":"alwaysDeny"}`,
/// `{"decision":"respond","result":...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
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
    /// Do not run it: the model reads "A person denied this call" and the
    /// reason, as a `denied` failure (not a retry, not counted against any
    /// retry budget).
    Deny {
        /// Why, in words for the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Run it, and every later call of the same tool in this run without
    /// asking ([`StandingDecisions`](super::StandingDecisions)).
    AlwaysApprove,
    /// Deny it, and every later call of the same tool in this run without
    /// asking.
    AlwaysDeny {
        /// Why, in words for the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Do not run it: answer it with `result`, supplied from outside (a
    /// person's own answer, an external system that did the work), as
    /// pydantic-ai's deferred results and the AI SDK's tools without
    /// `execute` do. A tool with an output schema needs a result that
    /// validates against it (refused before anything runs otherwise); it
    /// becomes the result's details, and the model reads its JSON. Any
    /// other tool takes any JSON: a string is the text the model reads.
    Respond {
        /// The call's result.
        result: Value,
    },
    /// No person answered (no one could be asked, the time to answer ran
    /// out, the question was dismissed): the call does not run, and the
    /// model reads that it got no approval, with the reason. An asker's
    /// answer only; never read from the wire.
    #[serde(skip)]
    Unanswered {
        /// What happened, in words for the model ("no one answered within
        /// 10 min").
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
            reason: Some(reason.into()),
        }
    }

    /// Answer with a result from outside.
    pub fn respond(result: impl Into<Value>) -> Self {
        Decision::Respond {
            result: result.into(),
        }
    }

    /// No person answered, because of `reason`.
    pub fn unanswered(reason: impl Into<String>) -> Self {
        Decision::Unanswered {
            reason: reason.into(),
        }
    }

    /// Whether the call runs.
    pub fn runs(&self) -> bool {
        matches!(
            self,
            Decision::Approve | Decision::ApproveWith { .. } | Decision::AlwaysApprove
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(arguments: Value) -> ApprovalRequest {
        let hints = ToolAnnotations::new().destructive(true);
        ApprovalRequest::new(
            "b.0".into(),
            "c1",
            "write",
            "Write a file.\nMore details.",
            &hints,
            arguments,
        )
    }

    #[test]
    fn the_question_shows_arguments_in_full_within_its_size() {
        let content = "x".repeat(500);
        let request = request(json!({"path": "a.txt", "content": content}));
        let lines: Vec<&str> = request.question.lines().collect();
        assert_eq!(
            lines[0],
            "Allow write (Write a file; may destroy data) to run with:"
        );
        assert_eq!(lines[1], "  path: \"a.txt\"");
        assert_eq!(lines[2], format!("  content: \"{content}\""));
        assert_eq!(lines[3], "?");
        assert_eq!(lines.len(), 4, "nothing cut, no digest line");
    }

    #[test]
    fn beyond_its_size_the_question_says_what_was_cut_and_gives_the_digest() {
        let content = format!("harmless first line\n{}", "rm -rf / ".repeat(100_000));
        let request = request(json!({"content": content, "path": "a.txt", "mode": "0644"}));
        let lines: Vec<&str> = request.question.lines().collect();
        assert!(
            lines[1].starts_with("  content: \"harmless first line\\nrm -rf"),
            "{}",
            lines[1]
        );
        assert!(
            lines[1].ends_with("... (cut: 900023 bytes in all)"),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], "  path: (not shown: 7 bytes)");
        assert_eq!(lines[3], "  mode: (not shown: 6 bytes)");
        assert_eq!(lines[4], "?");
        assert_eq!(
            lines[5],
            format!(
                "Not everything is shown: the arguments are 900064 bytes of JSON. SHA-256 of the exact arguments that will run: {}",
                request.arguments_sha256
            )
        );
        assert!(request.question.len() < QUESTION_ARGUMENT_BYTES + 600);
        assert_eq!(
            request.arguments_sha256,
            arguments_sha256(&request.arguments)
        );
    }

    #[test]
    fn many_arguments_are_named_up_to_a_limit() {
        let mut fields = serde_json::Map::new();
        fields.insert("big".into(), Value::from("y".repeat(10_000)));
        for index in 0..100 {
            fields.insert(format!("f{index:03}"), Value::from(index));
        }
        let request = request(Value::Object(fields));
        assert!(request.question.contains("\n  f049: (not shown: 2 bytes)"));
        assert!(!request.question.contains("f050"));
        assert!(
            request
                .question
                .contains("\n  ... and 50 more arguments\n?")
        );
    }

    #[test]
    fn hidden_characters_and_odd_names_cannot_fake_a_line() {
        let request = ApprovalRequest::new(
            "b.0".into(),
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
    fn the_request_is_camel_case_on_the_wire() {
        let wire = serde_json::to_value(request(json!({"path": "a"}))).unwrap();
        let keys: Vec<&str> = wire
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "approvalId",
                "toolCallId",
                "toolName",
                "arguments",
                "argumentsSha256",
                "annotations",
                "question"
            ]
        );
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
            read(r#"{"decision":"deny"}"#).unwrap(),
            Decision::Deny { reason: None }
        );
        assert_eq!(
            read(r#"{"decision":"approveWith","arguments":{"n":1}}"#).unwrap(),
            Decision::approve_with(json!({"n": 1}))
        );
        assert_eq!(
            read(r#"{"decision":"alwaysApprove"}"#).unwrap(),
            Decision::AlwaysApprove
        );
        assert_eq!(
            read(r#"{"decision":"alwaysDeny","reason":"never"}"#).unwrap(),
            Decision::AlwaysDeny {
                reason: Some("never".into())
            }
        );
        assert_eq!(
            read(r#"{"decision":"respond","result":{"ok":true}}"#).unwrap(),
            Decision::respond(json!({"ok": true}))
        );
        for refused in [
            r#"{"decision":"maybe"}"#,
            r#"{"decision":"approve_with","arguments":{}}"#,
            r#"{"decision":"unanswered","reason":"x"}"#,
        ] {
            let error = read(refused).unwrap_err().to_string();
            assert!(error.contains("unknown variant"), "{refused}: {error}");
        }
    }
}
