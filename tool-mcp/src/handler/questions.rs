//! A tool's own questions to the person using the client
//! ([`ToolContext::elicit`](tool_core::ToolContext::elicit)), asked by
//! `elicitation/create` on the call's stream, as approvals are asked on
//! the revisions before 2026-07-28 (`crate::approval::ask`).
//!
//! Who cannot be asked gets the reason, never a hang: a client that did
//! not declare elicitation (form mode), a server without sessions (the
//! answer would come in a request no session ties to the call), and the
//! 2026-07-28 revision (a server asks there only by answering the call
//! with an `InputRequiredResult`, which a tool that is still running
//! cannot do).

use super::McpServer;
use crate::approval::ask::{self, Elicit};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::Value;
use tool_core::{ElicitError, ElicitFuture, Elicited, ElicitationRequest, RunOptions};

impl McpServer {
    /// `options` with the asker of a call in the request `context`.
    pub(super) fn with_questions(
        &self,
        options: RunOptions,
        context: &RequestContext<RoleServer>,
    ) -> RunOptions {
        let asker = self.asker(context);
        options.with_elicitation(move |question| ask(asker.clone(), question))
    }

    /// The client, when it can be asked; else why not.
    fn asker(&self, context: &RequestContext<RoleServer>) -> Result<Elicit, String> {
        if context
            .protocol_version()
            .is_some_and(|revision| revision >= ProtocolVersion::V_2026_07_28)
        {
            return Err("on MCP 2026-07-28 a server asks only by answering the call with an \
                        InputRequiredResult, which a running tool cannot do"
                .to_owned());
        }
        if self.without_sessions {
            return Err("this server serves without sessions, and the answer to \
                        elicitation/create only a session brings back to the call"
                .to_owned());
        }
        ask::can_ask(context.client_capabilities().as_ref())
            .map_err(|why| format!("the client cannot answer questions ({why})"))?;
        Ok(Elicit {
            peer: context.peer.clone(),
            call: context.id.clone(),
            timeout: self.approvals.ttl(),
        })
    }
}

/// Asks `question` through `asker`, as the client's form.
fn ask(asker: Result<Elicit, String>, question: ElicitationRequest) -> ElicitFuture {
    Box::pin(async move {
        let asker = asker.map_err(ElicitError::Unavailable)?;
        let requested_schema: ElicitationSchema = serde_json::from_value(question.schema)
            .map_err(|error| ElicitError::Schema(format!("not an MCP form: {error}")))?;
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question.message,
            requested_schema,
        };
        let answer = asker
            .send(params)
            .await
            .map_err(|unanswered| ElicitError::Failed(unanswered.describe("a question")))?;
        Ok(match answer.action {
            ElicitationAction::Accept => Elicited::Accept(
                answer
                    .content
                    .unwrap_or_else(|| Value::Object(serde_json::Map::new())),
            ),
            ElicitationAction::Decline => Elicited::Decline,
            ElicitationAction::Cancel => Elicited::Cancel,
            other => {
                return Err(ElicitError::Failed(format!(
                    "the client answered with {other:?}, which this server does not know"
                )));
            }
        })
    })
}
