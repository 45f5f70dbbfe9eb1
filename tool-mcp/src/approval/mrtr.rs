//! Asking on the 2026-07-28 revision, where the server sends no requests
//! of its own: the call is answered with an `InputRequiredResult` holding
//! the question (an `elicitation/create` in `inputRequests`) and a signed
//! `requestState`; the client asks its person and sends the same call again
//! with the answer in `inputResponses` and the state echoed
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>).

use super::ask::{decision_of, form};
use super::state::ApprovalStates;
use rmcp::ErrorData;
use rmcp::model::{
    ElicitRequest, ElicitResult, InputRequest, InputRequests, InputRequiredResult, InputResponses,
};
use serde_json::Value;
use tool_core::approval::{ApprovalRequest, Decision};

/// The key of the question in `inputRequests`, and of its answer in
/// `inputResponses` ("server-assigned identifiers", unique in the request).
pub(crate) const APPROVAL_KEY: &str = "approval";

/// The answer to a call that needs approval and has not been asked about:
/// the question and the state that lets the answer through.
pub(crate) fn input_required(
    states: &ApprovalStates,
    request: &ApprovalRequest,
    arguments: &Value,
) -> Result<InputRequiredResult, ErrorData> {
    // Bound to the arguments as the client sent them, which its retry
    // sends again; `request.arguments` are parsed (defaults filled in,
    // repairs applied).
    let state = states
        .seal(&request.tool_name, arguments)
        .map_err(|refused| ErrorData::internal_error(refused.to_string(), None))?;
    let mut requests = InputRequests::new();
    requests.insert(
        APPROVAL_KEY.to_owned(),
        InputRequest::Elicitation(ElicitRequest::new(form(request.question.clone()))),
    );
    Ok(InputRequiredResult::new(Some(requests), Some(state)))
}

/// What a retry that carries a `requestState` says.
#[derive(Debug, PartialEq)]
pub(crate) enum Retry {
    /// The person answered: run the call, or deny it with the reason.
    Answered(Decision),
    /// The state is right but the answer is missing: ask again, as the
    /// spec advises ("respond with a new InputRequiredResult requesting
    /// the missing information again, rather than returning an error").
    AskAgain,
}

/// Reads a retry of `tool` with `arguments`: its state must verify (else
/// JSON-RPC's invalid params, naming why: the spec's "MUST reject state
/// that fails verification"), and an accepted state is used up here, so a
/// second retry with it does not run the call again.
pub(crate) fn read_retry(
    states: &ApprovalStates,
    state: &str,
    tool: &str,
    arguments: &Value,
    responses: Option<&InputResponses>,
) -> Result<Retry, ErrorData> {
    let refused =
        |refused: super::state::Refused| ErrorData::invalid_params(refused.to_string(), None);
    let verified = states.verify(state, tool, arguments).map_err(refused)?;
    let Some(answer) = responses.and_then(|responses| responses.get(APPROVAL_KEY)) else {
        return Ok(Retry::AskAgain);
    };
    let answer: ElicitResult = serde_json::from_value(answer.clone()).map_err(|error| {
        ErrorData::invalid_params(
            format!(
                "inputResponses.{APPROVAL_KEY} is not an elicitation result \
                 ({{\"action\": \"accept\" | \"decline\" | \"cancel\"}}): {error}"
            ),
            None,
        )
    })?;
    let decision = decision_of(tool, &answer);
    if decision == Decision::Approve {
        states.use_once(verified).map_err(refused)?;
    }
    Ok(Retry::Answered(decision))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ElicitationAction, ErrorCode};
    use serde_json::json;
    use std::time::Duration;

    fn states() -> ApprovalStates {
        ApprovalStates::with_key([3; 32], Duration::from_secs(60))
    }

    /// A request as the executor makes it (its fields are tool-core's to
    /// fill; its wire shape is public).
    fn request(arguments: Value) -> ApprovalRequest {
        serde_json::from_value(json!({
            "call_id": "1",
            "tool_name": "write",
            "arguments": arguments,
            "question": "Allow write (Write file) to run with:\n  path: \"a.txt\"\n?",
        }))
        .unwrap()
    }

    fn responses(action: ElicitationAction) -> InputResponses {
        [(
            APPROVAL_KEY.to_owned(),
            serde_json::to_value(ElicitResult::new(action)).unwrap(),
        )]
        .into()
    }

    #[test]
    fn the_question_and_a_state_go_out_together() {
        let states = states();
        let arguments = json!({"path": "a.txt"});
        let asked = input_required(&states, &request(arguments.clone()), &arguments).unwrap();
        let wire = serde_json::to_value(&asked).unwrap();
        assert_eq!(wire["resultType"], "input_required");
        assert_eq!(
            wire["inputRequests"][APPROVAL_KEY],
            json!({
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": "Allow write (Write file) to run with:\n  path: \"a.txt\"\n?",
                    "requestedSchema": {"type": "object", "properties": {}},
                },
            })
        );
        let state = asked.request_state.unwrap();
        assert!(states.verify(&state, "write", &arguments).is_ok());
    }

    #[test]
    fn an_accepted_retry_runs_once() {
        let states = states();
        let arguments = json!({"path": "a.txt"});
        let state = states.seal("write", &arguments).unwrap();
        let accepted = responses(ElicitationAction::Accept);
        assert_eq!(
            read_retry(&states, &state, "write", &arguments, Some(&accepted)).unwrap(),
            Retry::Answered(Decision::Approve)
        );
        let again = read_retry(&states, &state, "write", &arguments, Some(&accepted)).unwrap_err();
        assert_eq!(again.code, ErrorCode::INVALID_PARAMS);
        assert!(
            again.message.starts_with("requestState was already used"),
            "{}",
            again.message
        );
    }

    #[test]
    fn decline_and_cancel_deny_and_leave_the_state_unused() {
        let states = states();
        let arguments = json!({});
        let state = states.seal("write", &arguments).unwrap();
        for action in [ElicitationAction::Decline, ElicitationAction::Cancel] {
            let retry = read_retry(
                &states,
                &state,
                "write",
                &arguments,
                Some(&responses(action)),
            )
            .unwrap();
            assert!(
                matches!(retry, Retry::Answered(Decision::Deny { .. })),
                "{retry:?}"
            );
        }
    }

    #[test]
    fn a_missing_answer_asks_again_a_malformed_one_is_invalid_params() {
        let states = states();
        let arguments = json!({});
        let state = states.seal("write", &arguments).unwrap();
        assert_eq!(
            read_retry(&states, &state, "write", &arguments, None).unwrap(),
            Retry::AskAgain
        );
        let other: InputResponses = [("other".to_owned(), json!({"action": "accept"}))].into();
        assert_eq!(
            read_retry(&states, &state, "write", &arguments, Some(&other)).unwrap(),
            Retry::AskAgain
        );
        let malformed: InputResponses =
            [(APPROVAL_KEY.to_owned(), json!({"action": "yes"}))].into();
        let error = read_retry(&states, &state, "write", &arguments, Some(&malformed)).unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error
                .message
                .starts_with("inputResponses.approval is not an elicitation result")
        );
    }

    #[test]
    fn a_state_for_other_arguments_is_invalid_params_even_when_accepted() {
        let states = states();
        let state = states.seal("write", &json!({"path": "a.txt"})).unwrap();
        let error = read_retry(
            &states,
            &state,
            "write",
            &json!({"path": "/etc/passwd"}),
            Some(&responses(ElicitationAction::Accept)),
        )
        .unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error.message.starts_with("requestState does not verify"),
            "{}",
            error.message
        );
    }
}
