//! Asking the client's person, on the revisions before 2026-07-28: an
//! `elicitation/create` request sent while the call waits, and why a call
//! cannot be asked about at all.

use super::question::{AboutTool, question};
use super::standin::{ApprovalRequest, Decision};
use rmcp::model::{
    CancelledNotificationParam, ClientCapabilities, ElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationSchema, RequestId, ServerRequest,
};
use rmcp::service::{OriginatingRequestId, PeerRequestOptions};
use rmcp::{Peer, RoleServer, ServiceError};
use std::collections::BTreeMap;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

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

/// The denial of a call no one can be asked about: the model reads it,
/// and so does whoever looks at the client's log.
pub(crate) fn cannot_ask(tool: &str, why: &str) -> Decision {
    Decision::Deny(format!(
        "This call of {tool} needs a person's approval, and this client cannot ask one \
         ({why}); it did not run."
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
             elicitation/create, whose answer only a session can bring back to the call; a \
             client on 2026-07-28 can be asked"
        ),
    )
}

/// Asks by `elicitation/create`, for one call.
pub(crate) struct Elicit {
    /// The client.
    pub peer: Peer<RoleServer>,
    /// The `tools/call` request: the question goes out on its response
    /// stream over streamable HTTP (SEP-2260's association), not on the
    /// session's standalone stream, which a client need not open.
    pub call: RequestId,
    /// Cancelled when the call is (the client's cancellation, the server
    /// stopping): the question is withdrawn.
    pub signal: CancellationToken,
    /// How long the person has to answer.
    pub timeout: Duration,
    /// The tool's description, for the question.
    pub description: String,
}

impl Elicit {
    /// Asks the person, and waits for their answer, the time running out,
    /// or the call being cancelled, whichever comes first.
    pub(crate) async fn ask(&self, request: ApprovalRequest) -> Decision {
        tracing::debug!(call = %request.call_id, "asking for approval (elicitation/create)");
        let about = AboutTool {
            name: &request.tool_name,
            title: request.annotations.title.as_deref(),
            description: &self.description,
            destructive: request.annotations.destructive == Some(true),
        };
        let mut elicit = ElicitRequest::new(form(question(&about, &request.arguments)));
        elicit
            .extensions
            .insert(OriginatingRequestId(self.call.clone()));
        let sent = self
            .peer
            .send_request_with_option(
                ServerRequest::ElicitRequest(elicit),
                PeerRequestOptions::with_timeout(self.timeout),
            )
            .await;
        let handle = match sent {
            Ok(handle) => handle,
            Err(error) => return could_not_ask(&request.tool_name, &error),
        };
        let asked = handle.id.clone();
        let answer = tokio::select! {
            answer = handle.await_response() => answer,
            () = self.signal.cancelled() => {
                let withdrawn = CancelledNotificationParam::new(
                    Some(asked),
                    Some("the call was cancelled".to_owned()),
                );
                // A client already gone cannot be told.
                let _ = self.peer.notify_cancelled(withdrawn).await;
                return Decision::Deny(format!(
                    "The call of {} was cancelled while it waited for a person's approval; \
                     it did not run.",
                    request.tool_name
                ));
            }
        };
        match answer {
            Ok(rmcp::model::ClientResult::ElicitResult(result)) => {
                decision_of(&request.tool_name, &result)
            }
            Ok(_) => could_not_ask(&request.tool_name, &ServiceError::UnexpectedResponse),
            Err(ServiceError::Timeout { timeout }) => Decision::Deny(format!(
                "No one answered the approval request for this call of {} within {}; it did \
                 not run.",
                request.tool_name,
                duration_text(timeout)
            )),
            Err(error) => could_not_ask(&request.tool_name, &error),
        }
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
/// and cancel ("dismissed without making an explicit choice") do not.
pub(crate) fn decision_of(tool: &str, answer: &ElicitResult) -> Decision {
    match &answer.action {
        ElicitationAction::Accept => Decision::Approve,
        ElicitationAction::Decline => Decision::Deny(format!(
            "A person declined this call of {tool}; it did not run. Do not call it again \
             unless they ask for it."
        )),
        ElicitationAction::Cancel => Decision::Deny(format!(
            "A person dismissed the approval request for this call of {tool} without \
             deciding; it did not run."
        )),
        // An action of a later revision: only accept runs a call.
        other => Decision::Deny(format!(
            "The approval request for this call of {tool} was answered with {other:?}, \
             which is not an approval; it did not run."
        )),
    }
}

/// `300 ms`, `10 s`, `10 min`: as a person reads a time.
fn duration_text(duration: Duration) -> String {
    let millis = duration.as_millis();
    match millis {
        0..1_000 => format!("{millis} ms"),
        _ if millis % 60_000 == 0 => format!("{} min", millis / 60_000),
        _ => format!("{} s", duration.as_secs()),
    }
}

fn could_not_ask(tool: &str, error: &ServiceError) -> Decision {
    Decision::Deny(format!(
        "This call of {tool} needs a person's approval, and asking the client failed \
         ({error}); it did not run."
    ))
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
    fn accept_approves_decline_and_cancel_deny() {
        assert_eq!(
            decision_of("write", &ElicitResult::new(ElicitationAction::Accept)),
            Decision::Approve
        );
        for action in [ElicitationAction::Decline, ElicitationAction::Cancel] {
            let Decision::Deny(reason) = decision_of("write", &ElicitResult::new(action)) else {
                panic!("a denial");
            };
            assert!(reason.contains("write"), "{reason}");
            assert!(reason.contains("it did not run"), "{reason}");
        }
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
