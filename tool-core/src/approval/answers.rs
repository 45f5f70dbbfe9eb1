//! The results a call gets when a person's decision (or the lack of one)
//! answers it instead of the tool: what the model reads in each case.

use crate::model::{Content, FailureKind};
use crate::model::{ToolCall, ToolResultMessage};
use serde_json::{Map, Value};

/// A person's "no": `A person denied this call: <reason>` (or just the
/// first sentence without one), a `denied` failure.
pub(crate) fn denied_by_person(call: &ToolCall, reason: Option<&str>) -> ToolResultMessage {
    let text = match reason.map(str::trim).filter(|reason| !reason.is_empty()) {
        Some(reason) => format!("A person denied this call: {reason}"),
        None => "A person denied this call.".to_owned(),
    };
    crate::trace::info!(call_id = %call.id, tool = %call.name, reason = reason.unwrap_or_default(), "a person denied the call");
    answer(call, text, FailureKind::Denied)
}

/// No person approved the call (none could be asked, none answered).
pub(crate) fn unanswered(call: &ToolCall, reason: &str) -> ToolResultMessage {
    crate::trace::info!(call_id = %call.id, tool = %call.name, %reason, "no person approved the call");
    answer(
        call,
        format!("This call did not run: it needs a person's approval, and got none ({reason})."),
        FailureKind::Denied,
    )
}

/// A call whose approved run started and never answered: it may or may
/// not have happened.
#[cfg(feature = "approval-state")]
pub(crate) fn interrupted(call: &ToolCall) -> ToolResultMessage {
    crate::trace::warn!(call_id = %call.id, tool = %call.name, "an approved call was interrupted: it may or may not have run");
    ToolResultMessage::interrupted(call)
}

/// A call whose suspension was closed without a decision for it.
#[cfg(feature = "approval-state")]
pub(crate) fn closed(call: &ToolCall, reason: &str) -> ToolResultMessage {
    let text = match reason.trim() {
        "" => "This call did not run: its approval was closed without a decision.".to_owned(),
        reason => {
            format!("This call did not run: its approval was closed without a decision ({reason}).")
        }
    };
    answer(call, text, FailureKind::Denied)
}

/// A call answered with `result` from outside (already checked against
/// the tool's output schema, if it has one).
pub(crate) fn responded(call: &ToolCall, result: Value, structured: bool) -> ToolResultMessage {
    let (text, details) = match result {
        Value::String(text) if !structured => (text, None),
        value => (value.to_string(), Some(value)),
    };
    let mut answered = ToolResultMessage::failure(call, "");
    answered.content = vec![Content::text(text)];
    answered.details = details;
    answered.is_error = false;
    answered.failure_kind = None;
    answered
}

/// A failure of `kind` whose whole text is `text` (not `Tool x failed:`),
/// with `{"error": text}` as its details, as every failure has.
fn answer(call: &ToolCall, text: String, kind: FailureKind) -> ToolResultMessage {
    let mut answered = ToolResultMessage::failed(call, "", kind);
    let mut details = Map::new();
    details.insert("error".into(), Value::from(text.clone()));
    answered.details = Some(Value::Object(details));
    answered.content = vec![Content::text(text)];
    answered
}

/// Whether `result`, given from outside for a call of `tool`, fits the
/// tool's output schema: `Ok(true)` when it has one and `result` validates,
/// `Ok(false)` when it has none (any JSON), else what is wrong. A build
/// without the validator (tool-core's feature `schema-check`) cannot
/// check, and refuses rather than pass an unchecked result as structured.
pub(crate) fn check_result(
    tool: &crate::registry::RegisteredTool,
    result: &Value,
) -> Result<bool, String> {
    let Some(schema) = &tool.definition().output_schema else {
        return Ok(false);
    };
    #[cfg(feature = "schema-check")]
    {
        let check = crate::params::SchemaCheck::new(schema).map_err(|error| error.to_string())?;
        check.check(result).map_err(|error| error.to_string())?;
        Ok(true)
    }
    #[cfg(not(feature = "schema-check"))]
    {
        let _ = (schema, result);
        Err(crate::params::SchemaError::unchecked().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call() -> ToolCall {
        ToolCall::new("c1", "write", json!({}))
    }

    #[test]
    fn a_denial_names_a_person_with_or_without_a_reason() {
        let with = denied_by_person(&call(), Some("not that file"));
        assert_eq!(
            with.content[0].as_text(),
            Some("A person denied this call: not that file")
        );
        assert_eq!(with.failure_kind, Some(FailureKind::Denied));
        for none in [None, Some(""), Some("  ")] {
            let without = denied_by_person(&call(), none);
            assert_eq!(
                without.content[0].as_text(),
                Some("A person denied this call.")
            );
        }
    }

    #[test]
    #[cfg(feature = "approval-state")]
    fn an_interrupted_call_says_it_may_have_run() {
        let result = interrupted(&call());
        assert_eq!(result.failure_kind, Some(FailureKind::Interrupted));
        assert!(result.is_error);
        let text = result.content[0].as_text().unwrap();
        assert!(
            text.starts_with("This call may or may not have run"),
            "{text}"
        );
    }

    #[test]
    fn a_response_is_a_success_with_its_value() {
        let text = responded(&call(), json!("done by hand"), false);
        assert_eq!(text.content[0].as_text(), Some("done by hand"));
        assert_eq!(text.details, None);
        assert!(!text.is_error);
        let structured = responded(&call(), json!({"bytes": 3}), true);
        assert_eq!(structured.content[0].as_text(), Some(r#"{"bytes":3}"#));
        assert_eq!(structured.details, Some(json!({"bytes": 3})));
        assert_eq!(structured.failure_kind, None);
    }
}
