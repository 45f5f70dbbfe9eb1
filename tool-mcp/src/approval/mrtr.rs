//! Asking on the 2026-07-28 revision, where the server sends no requests
//! of its own: the call is answered with an `InputRequiredResult` holding
//! the question (an `elicitation/create` in `inputRequests`) and a sealed
//! `requestState`; the client asks its person and sends the same call again
//! with the answer in `inputResponses` and the state echoed
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>).
//!
//! The retry is read when the executor asks, so the state is checked
//! against the arguments exactly as they will run (parsed, repaired), the
//! ones the person was shown.

use super::ask::{decision_of, form};
use super::state::{ApprovalStates, Refused, Use};
use super::{Handed, HeldLease, hand_over};
use rmcp::ErrorData;
use rmcp::model::{
    ElicitRequest, ElicitResult, InputRequest, InputRequests, InputRequiredResult, InputResponses,
};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::oneshot;
use tool_core::approval::{ApprovalRequest, Decision};

/// The key of the question in `inputRequests`, and of its answer in
/// `inputResponses` ("server-assigned identifiers", unique in the request).
pub(crate) const APPROVAL_KEY: &str = "approval";

/// One 2026-07-28 call's asker.
pub(crate) struct Mrtr {
    /// Where the call's question (or refusal) goes.
    pub handed: Mutex<Option<oneshot::Sender<Handed>>>,
    /// The state and answers of a retry; `None` on the first round.
    pub retry: Option<Retry>,
    /// Whether the client can be asked, and why not.
    pub can_ask: Result<(), &'static str>,
    /// The tool, for the denial when it cannot be.
    pub tool: String,
    /// Who asks (the state is bound to it).
    pub caller: String,
    pub states: Arc<ApprovalStates>,
    /// Where an accepted retry puts the lease it holds while the call runs.
    pub lease: HeldLease,
}

/// What a retry carries.
pub(crate) struct Retry {
    pub state: String,
    pub responses: Option<InputResponses>,
}

impl Mrtr {
    /// The decision on `request`: run it (an accepted retry, its state
    /// used once), deny it (declined), or hand it over (to ask, to refuse
    /// a state, or to answer it `interrupted`).
    pub(crate) async fn ask(&self, request: ApprovalRequest) -> Decision {
        let Some(retry) = &self.retry else {
            return self.ask_the_client(request).await;
        };
        let verified = match self.states.verify(
            &retry.state,
            &request.tool_name,
            &request.arguments_sha256,
            &self.caller,
        ) {
            Ok(verified) => verified,
            Err(refused) => return self.refuse(&refused).await,
        };
        let answer = match answer_of(retry.responses.as_ref()) {
            Ok(Some(answer)) => answer,
            // The spec: "respond with a new InputRequiredResult requesting
            // the missing information again, rather than returning an
            // error".
            Ok(None) => return self.ask_the_client(request).await,
            Err(malformed) => return hand_over(&self.handed, Handed::Refused(malformed)).await,
        };
        let decision = decision_of(&request.tool_name, &answer);
        if !decision.runs() {
            return decision;
        }
        match self.states.use_once(verified, &request.tool_call_id).await {
            Ok(Use::Run(lease)) => {
                *self.lease.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(lease));
                decision
            }
            Ok(Use::Interrupted(lease)) => {
                if let Err(problem) = lease.finish().await {
                    tracing::warn!(%problem, "the approval ledger could not record an interrupted call answered");
                }
                hand_over(&self.handed, Handed::Interrupted).await
            }
            Err(refused) => self.refuse(&refused).await,
        }
    }

    /// Hands the question over, when the client can be asked.
    async fn ask_the_client(&self, request: ApprovalRequest) -> Decision {
        match self.can_ask {
            Ok(()) => hand_over(&self.handed, Handed::Ask(request)).await,
            Err(why) => super::ask::cannot_ask(&self.tool, why),
        }
    }

    /// Hands over the refusal of a retry's state: JSON-RPC's invalid params
    /// naming why (the spec's "MUST reject state that fails verification"),
    /// or an internal error when the ledger cannot tell.
    async fn refuse(&self, refused: &Refused) -> Decision {
        let error = match refused {
            Refused::Ledger(_) | Refused::NoKey => {
                ErrorData::internal_error(refused.to_string(), None)
            }
            _ => ErrorData::invalid_params(refused.to_string(), None),
        };
        hand_over(&self.handed, Handed::Refused(error)).await
    }
}

/// The answer to a call that needs approval and has not been asked about:
/// the question and the state that lets the answer through, bound to the
/// arguments the person is shown and to `caller`.
pub(crate) fn input_required(
    states: &ApprovalStates,
    request: &ApprovalRequest,
    caller: &str,
) -> Result<InputRequiredResult, ErrorData> {
    let state = states
        .seal(&request.tool_name, &request.arguments_sha256, caller)
        .map_err(|refused| ErrorData::internal_error(refused.to_string(), None))?;
    let mut requests = InputRequests::new();
    requests.insert(
        APPROVAL_KEY.to_owned(),
        InputRequest::Elicitation(ElicitRequest::new(form(request.question.clone()))),
    );
    Ok(InputRequiredResult::new(Some(requests), Some(state)))
}

/// The person's answer in a retry's `inputResponses`: `None` when it is
/// missing, an invalid-params error when it is not an elicitation result.
fn answer_of(responses: Option<&InputResponses>) -> Result<Option<ElicitResult>, ErrorData> {
    let Some(answer) = responses.and_then(|responses| responses.get(APPROVAL_KEY)) else {
        return Ok(None);
    };
    serde_json::from_value(answer.clone())
        .map(Some)
        .map_err(|error| {
            ErrorData::invalid_params(
                format!(
                    "inputResponses.{APPROVAL_KEY} is not an elicitation result \
                 ({{\"action\": \"accept\" | \"decline\" | \"cancel\"}}): {error}"
                ),
                None,
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ElicitationAction, ErrorCode};
    use serde_json::{Value, json};
    use std::time::Duration;
    use tool_core::approval::{MemoryLedger, arguments_sha256};

    fn states() -> Arc<ApprovalStates> {
        Arc::new(ApprovalStates::with_key(
            [3; 32],
            Duration::from_secs(60),
            Arc::new(MemoryLedger::default()),
        ))
    }

    /// A request as the executor makes it (its fields are tool-core's to
    /// fill; its wire shape is public).
    fn request(arguments: Value) -> ApprovalRequest {
        serde_json::from_value(json!({
            "approvalId": "x",
            "toolCallId": "1",
            "toolName": "write",
            "argumentsSha256": arguments_sha256(&arguments),
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

    /// A retry's asker, and where it hands over.
    fn retry(
        states: &Arc<ApprovalStates>,
        state: String,
        answers: Option<InputResponses>,
    ) -> (Mrtr, oneshot::Receiver<Handed>) {
        let (sender, receiver) = oneshot::channel();
        let asker = Mrtr {
            handed: Mutex::new(Some(sender)),
            retry: Some(Retry {
                state,
                responses: answers,
            }),
            can_ask: Ok(()),
            tool: "write".into(),
            caller: String::new(),
            states: Arc::clone(states),
            lease: HeldLease::default(),
        };
        (asker, receiver)
    }

    /// What the asker handed over, when it did not decide.
    async fn handed(
        asker: &Mrtr,
        request: ApprovalRequest,
        receiver: oneshot::Receiver<Handed>,
    ) -> Handed {
        tokio::select! {
            decision = asker.ask(request) => panic!("decided {decision:?}"),
            handed = receiver => handed.unwrap(),
        }
    }

    #[test]
    fn the_question_and_a_state_go_out_together() {
        let states = states();
        let request = request(json!({"path": "a.txt"}));
        let asked = input_required(&states, &request, "").unwrap();
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
        assert!(
            states
                .verify(&state, "write", &request.arguments_sha256, "")
                .is_ok()
        );
    }

    #[tokio::test]
    async fn an_accepted_retry_runs_once_then_is_refused() {
        let states = states();
        let request = request(json!({"path": "a.txt"}));
        let state = states.seal("write", &request.arguments_sha256, "").unwrap();
        let (asker, _) = retry(
            &states,
            state.clone(),
            Some(responses(ElicitationAction::Accept)),
        );
        assert_eq!(asker.ask(request.clone()).await, Decision::Approve);
        let lease = asker.lease.lock().unwrap().take().unwrap();
        Arc::try_unwrap(lease).unwrap().finish().await.unwrap();
        let (again, receiver) = retry(&states, state, Some(responses(ElicitationAction::Accept)));
        let Handed::Refused(error) = handed(&again, request, receiver).await else {
            panic!("refused");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error.message.starts_with("requestState was already used"),
            "{}",
            error.message
        );
    }

    #[tokio::test]
    async fn a_retry_whose_run_was_lost_is_answered_interrupted() {
        let states = states();
        let request = request(json!({"path": "a.txt"}));
        let state = states.seal("write", &request.arguments_sha256, "").unwrap();
        let (asker, _) = retry(
            &states,
            state.clone(),
            Some(responses(ElicitationAction::Accept)),
        );
        assert_eq!(asker.ask(request.clone()).await, Decision::Approve);
        drop(asker); // the handler went away mid-call: the lease is released
        let (again, receiver) = retry(&states, state, Some(responses(ElicitationAction::Accept)));
        assert!(matches!(
            handed(&again, request, receiver).await,
            Handed::Interrupted
        ));
    }

    #[tokio::test]
    async fn decline_denies_and_leaves_the_state_unused() {
        let states = states();
        let request = request(json!({}));
        let state = states.seal("write", &request.arguments_sha256, "").unwrap();
        for action in [ElicitationAction::Decline, ElicitationAction::Cancel] {
            let (asker, _) = retry(&states, state.clone(), Some(responses(action)));
            let decision = asker.ask(request.clone()).await;
            assert!(!decision.runs(), "{decision:?}");
        }
        let (asker, _) = retry(&states, state, Some(responses(ElicitationAction::Accept)));
        assert_eq!(asker.ask(request).await, Decision::Approve);
    }

    #[tokio::test]
    async fn a_missing_answer_asks_again_a_malformed_one_is_invalid_params() {
        let states = states();
        let request = request(json!({}));
        let state = states.seal("write", &request.arguments_sha256, "").unwrap();
        let (asker, receiver) = retry(&states, state.clone(), None);
        assert!(matches!(
            handed(&asker, request.clone(), receiver).await,
            Handed::Ask(_)
        ));
        let other: InputResponses = [("other".to_owned(), json!({"action": "accept"}))].into();
        let (asker, receiver) = retry(&states, state.clone(), Some(other));
        assert!(matches!(
            handed(&asker, request.clone(), receiver).await,
            Handed::Ask(_)
        ));
        let malformed: InputResponses =
            [(APPROVAL_KEY.to_owned(), json!({"action": "yes"}))].into();
        let (asker, receiver) = retry(&states, state, Some(malformed));
        let Handed::Refused(error) = handed(&asker, request, receiver).await else {
            panic!("refused");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error
                .message
                .starts_with("inputResponses.approval is not an elicitation result")
        );
    }

    #[tokio::test]
    async fn a_state_for_other_arguments_is_invalid_params_even_when_accepted() {
        let states = states();
        let state = states
            .seal("write", &arguments_sha256(&json!({"path": "a.txt"})), "")
            .unwrap();
        let (asker, receiver) = retry(&states, state, Some(responses(ElicitationAction::Accept)));
        let Handed::Refused(error) =
            handed(&asker, request(json!({"path": "/etc/passwd"})), receiver).await
        else {
            panic!("refused");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error.message.starts_with("requestState does not verify"),
            "{}",
            error.message
        );
    }
}
