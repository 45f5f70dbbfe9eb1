//! Asking the client's person, on the revisions before 2026-07-28: an
//! `elicitation/create` request sent while the call waits, and why a call
//! cannot be asked about at all.

use rmcp::model::{
    CancelledNotificationParam, ClientCapabilities, ClientResult, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, RequestId,
    ServerRequest,
};
use rmcp::model::GetExtensions;
use rmcp::service::{OriginatingRequestId, PeerRequestOptions};
use rmcp::{Peer, RoleServer, ServiceError};
use std::collections::BTreeMap;
use std::time::Duration;
use tool_core::approval::{ApprovalRequest, Decision};

/// Whether the client can be asked: it declared the elicitation capability
/// with form mode (an empty `elicitation: {}` is form mode, for backwards
/// compatibility). `Err` says why not, as the end of the sentence
/// "this client cannot ask one (...)".
///
/// <https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#capabilities>:
/// clients that support elicitation MUST declare it; servers MUST NOT
/// send modes the client did not declare. The 2026-07-28 revision has the
/// same rule for `inputRequests`
/// (<https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>).
pub(crate) fn can_ask(capabilities: Option<&ClientCapabilities>) -> Result<(), &'static str> {
    let Some(elicitation) = capabilities.and_then(|caps| caps.elicitation.as_ref()) else {
        return Err("no elicitation capability");
    };
    if elicitation.form.is_none() && elicitation.url.is_some() {
        return Err("its elicitation capability has URL mode only, no form mode");
    }
    Ok(())
}

/// The answer to a call no one can be asked about: the model reads it,
/// and so does whoever looks at the client's log.
pub(crate) fn cannot_ask(tool: &str, why: &str) -> Decision {
    Decision::unanswered(format!(
        "this client cannot ask a person about {tool}: {why}"
    ))
}

/// The denial of a call on a revision before 2026-07-28 served without
/// sessions: `elicitation/create` is a request from the server, whose
/// answer comes in another HTTP request, which only a session ties back to
/// the call waiting for it.
pub(crate) fn cannot_ask_without_session(tool: &str, revision: &str) -> Decision {
    cannot_ask(
        tool,
        &format!(
            "this server serves without sessions, and on MCP {revision} a person is asked by \
             elicitation/create, whose answer only a session can bring back to the call (a \
             client on 2026-07-28 can be asked)"
        ),
    )
}

/// Asks by `elicitation/create`, for one call.
#[derive(Clone)]
pub(crate) struct Elicit {
    /// The client.
    pub peer: Peer<RoleServer>,
    /// The `tools/call` request: the question goes out on its response
    /// stream over streamable HTTP (SEP-2260's association, which rmcp
    /// keeps only within the handler's task), not on the session's
    /// standalone stream, which a client need not open.
    pub call: RequestId,
    /// How long the person has to answer.
    pub timeout: Duration,
}

/// Why a question sent got no answer.
pub(crate) enum Unanswered {
    /// Its time ran out.
    Timeout(Duration),
    /// Sending it or waiting for it failed.
    Failed(ServiceError),
}

impl Unanswered {
    /// In words, for the model: `asking the client about {what} failed:
    /// ..`, or that no one answered in time.
    pub(crate) fn describe(&self, what: &str) -> String {
        match self {
            Unanswered::Timeout(timeout) => format!(
                "no one answered the question within {}",
                duration_text(*timeout)
            ),
            Unanswered::Failed(error) => format!("asking the client about {what} failed: {error}"),
        }
    }
}

impl Elicit {
    /// Asks the person, and waits for their answer or the time to run
    /// out. The executor stops waiting when the call is cancelled (the
    /// client's cancellation, the server stopping): the question is then
    /// withdrawn.
    pub(crate) async fn ask(&self, request: ApprovalRequest) -> Decision {
        tracing::debug!(call = %request.tool_call_id, "asking for approval (elicitation/create)");
        match self.send(form(request.question.clone())).await {
            Ok(result) => decision_of(&request.tool_name, &result),
            Err(unanswered) => Decision::unanswered(unanswered.describe(&request.tool_name)),
        }
    }

    /// Sends the question `params` on the call's stream, and waits for the
    /// answer; dropped, the question is withdrawn
    /// (`notifications/cancelled`).
    pub(crate) async fn send(&self, params: ElicitRequestParams) -> Result<ElicitResult, Unanswered> {
        match self
            .request(ServerRequest::ElicitRequest(ElicitRequest::new(params)))
            .await?
        {
            ClientResult::ElicitResult(result) => Ok(result),
            _ => Err(Unanswered::Failed(ServiceError::UnexpectedResponse)),
        }
    }

    /// Sends `request` to the client on the call's stream over streamable
    /// HTTP (SEP-2260's association), and waits for the answer within the
    /// timeout; dropped, the request is withdrawn
    /// (`notifications/cancelled`), so a dialog it opened goes away.
    pub(crate) async fn request(&self, mut request: ServerRequest) -> Result<ClientResult, Unanswered> {
        request
            .extensions_mut()
            .insert(OriginatingRequestId(self.call.clone()));
        let handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::with_timeout(self.timeout))
            .await
            .map_err(Unanswered::Failed)?;
        let mut open = Withdraw {
            peer: self.peer.clone(),
            question: Some(handle.id.clone()),
        };
        // rmcp withdraws a question itself when its time runs out.
        let answer = handle.await_response().await;
        open.question = None;
        match answer {
            Ok(result) => Ok(result),
            Err(ServiceError::Timeout { timeout }) => Err(Unanswered::Timeout(timeout)),
            Err(error) => Err(Unanswered::Failed(error)),
        }
    }
}

/// A question still open when the wait for it is dropped (the call was
/// cancelled): the client is told, with `notifications/cancelled`, so its
/// dialog goes away.
struct Withdraw {
    peer: Peer<RoleServer>,
    question: Option<RequestId>,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        let Some(question) = self.question.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let withdrawn = CancelledNotificationParam::new(
                Some(question),
                Some("the call was cancelled".to_owned()),
            );
            // A client already gone cannot be told.
            let _ = peer.notify_cancelled(withdrawn).await;
        });
    }
}

/// The form an approval is asked with: the question, and no fields. The
/// answer is the action itself: accept runs the call, decline and cancel
/// do not.
pub(crate) fn form(message: String) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: ElicitationSchema::new(BTreeMap::new()),
    }
}

/// What the person's answer means for the call
/// (<https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#response-actions>):
/// accept ("explicitly approved") runs it; decline ("explicitly declined")
/// is a person's denial; cancel ("dismissed without making an explicit
/// choice") is no answer. Neither runs it.
pub(crate) fn decision_of(tool: &str, answer: &ElicitResult) -> Decision {
    match &answer.action {
        ElicitationAction::Accept => Decision::Approve,
        ElicitationAction::Decline => Decision::deny(format!(
            "they declined this call of {tool} in the client; do not call it again unless \
             they ask for it"
        )),
        ElicitationAction::Cancel => Decision::unanswered(format!(
            "a person dismissed the question about {tool} without deciding"
        )),
        // An action of a later revision: only accept runs a call.
        other => Decision::unanswered(format!(
            "the question about {tool} was answered with {other:?}, which is not an approval"
        )),
    }
}

/// `300 ms`, `10 s`, `10 min`: as a person reads a time.
fn duration_text(duration: Duration) -> String {
    let millis = duration.as_millis();
    match millis {
        0..1_000 => format!("{millis} ms"),
        _ if millis.is_multiple_of(60_000) => format!("{} min", millis / 60_000),
        _ => format!("{} s", duration.as_secs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ElicitationCapability, FormElicitationCapability, UrlElicitationCapability};

    fn with(elicitation: ElicitationCapability) -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        capabilities
    }

    #[test]
    fn form_mode_or_the_bare_capability_can_be_asked() {
        assert_eq!(can_ask(Some(&with(ElicitationCapability::new()))), Ok(()));
        let form = ElicitationCapability::new().with_form(FormElicitationCapability::default());
        assert_eq!(can_ask(Some(&with(form))), Ok(()));
        let both = ElicitationCapability::new()
            .with_form(FormElicitationCapability::default())
            .with_url(UrlElicitationCapability::default());
        assert_eq!(can_ask(Some(&with(both))), Ok(()));
    }

    #[test]
    fn no_capability_or_url_mode_only_cannot() {
        assert_eq!(can_ask(None), Err("no elicitation capability"));
        assert_eq!(
            can_ask(Some(&ClientCapabilities::default())),
            Err("no elicitation capability")
        );
        let url = ElicitationCapability::new().with_url(UrlElicitationCapability::default());
        assert_eq!(
            can_ask(Some(&with(url))),
            Err("its elicitation capability has URL mode only, no form mode")
        );
    }

    #[test]
    fn accept_approves_decline_denies_cancel_is_no_answer() {
        assert_eq!(
            decision_of("write", &ElicitResult::new(ElicitationAction::Accept)),
            Decision::Approve
        );
        let Decision::Deny {
            reason: Some(reason),
        } = decision_of("write", &ElicitResult::new(ElicitationAction::Decline))
        else {
            panic!("a denial");
        };
        assert!(reason.contains("declined this call of write"), "{reason}");
        let Decision::Unanswered { reason } =
            decision_of("write", &ElicitResult::new(ElicitationAction::Cancel))
        else {
            panic!("no answer");
        };
        assert!(
            reason.contains("dismissed the question about write"),
            "{reason}"
        );
    }

    #[test]
    fn times_read_as_a_person_reads_them() {
        assert_eq!(duration_text(Duration::from_millis(300)), "300 ms");
        assert_eq!(duration_text(Duration::from_secs(45)), "45 s");
        assert_eq!(duration_text(Duration::from_secs(600)), "10 min");
    }

    #[test]
    fn the_form_has_no_fields() {
        let params = serde_json::to_value(form("Allow?".to_owned())).unwrap();
        assert_eq!(
            params,
            serde_json::json!({
                "mode": "form",
                "message": "Allow?",
                "requestedSchema": {"type": "object", "properties": {}},
            })
        );
    }
}
