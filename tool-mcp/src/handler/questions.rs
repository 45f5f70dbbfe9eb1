//! A tool's own questions to the person using the client
//! ([`ToolContext::elicit`](tool_core::ToolContext::elicit)), asked by
//! `elicitation/create`, and its requests to the client's model
//! ([`ToolContext::sample`](tool_core::ToolContext::sample)), by
//! `sampling/createMessage`: each on the call's stream, as approvals are
//! asked on the revisions before 2026-07-28 (`crate::approval::ask`).
//!
//! Who cannot be asked gets the reason, never a hang: a client that did
//! not declare elicitation (form mode), a server without sessions (the
//! answer would come in a request no session ties to the call), and the
//! 2026-07-28 revision (a server asks there only by answering the call
//! with an `InputRequiredResult`, which a tool that is still running
//! cannot do).

use super::McpServer;
use crate::approval::ask::{self, Elicit};
#[expect(
    deprecated,
    reason = "MCP's sampling: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
)]
use rmcp::model::CreateMessageRequestParams;
use rmcp::model::{
    ClientResult, ElicitRequestParams, ElicitationAction, ElicitationSchema, ProtocolVersion,
    Request, ServerRequest,
};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{Value, json};
use tool_core::{
    Content, ElicitError, ElicitFuture, Elicited, ElicitationRequest, RunOptions, SampleError,
    SampleFuture, Sampled, SamplingRequest, SamplingRole,
};

impl McpServer {
    /// `options` with the asker of a call in the request `context`.
    pub(super) fn with_questions(
        &self,
        options: RunOptions,
        context: &RequestContext<RoleServer>,
    ) -> RunOptions {
        let asker = self.asker(context);
        let sampler = self.sampler(context);
        options
            .with_elicitation(move |question| ask(asker.clone(), question))
            .with_sampling(move |request| sample(sampler.clone(), request))
    }

    /// The client, when it can be asked; else why not.
    fn asker(&self, context: &RequestContext<RoleServer>) -> Result<Elicit, String> {
        let client = self.reachable(context)?;
        ask::can_ask(context.client_capabilities().as_ref())
            .map_err(|why| format!("the client cannot answer questions ({why})"))?;
        Ok(client)
    }

    /// The client's model, when the client declared sampling; else why not.
    fn sampler(&self, context: &RequestContext<RoleServer>) -> Result<Elicit, String> {
        let client = self.reachable(context)?;
        let capabilities = context.client_capabilities();
        if capabilities.as_ref().and_then(|caps| caps.sampling.as_ref()).is_none() {
            return Err("the client did not declare sampling".to_owned());
        }
        Ok(client)
    }

    /// The client, when a request to it can be answered while the call
    /// runs; else why not.
    fn reachable(&self, context: &RequestContext<RoleServer>) -> Result<Elicit, String> {
        if context
            .protocol_version()
            .is_some_and(|revision| revision >= ProtocolVersion::V_2026_07_28)
        {
            return Err("on MCP 2026-07-28 a server asks the client only by answering the \
                        call with an InputRequiredResult, which a running tool cannot do"
                .to_owned());
        }
        if self.without_sessions {
            return Err("this server serves without sessions, and the answer to a request \
                        to the client only a session brings back to the call"
                .to_owned());
        }
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

/// Asks the client's model `request` through `client`.
#[expect(
    deprecated,
    reason = "MCP's sampling: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
)]
fn sample(client: Result<Elicit, String>, request: SamplingRequest) -> SampleFuture {
    Box::pin(async move {
        let client = client.map_err(SampleError::Unavailable)?;
        let params: CreateMessageRequestParams = serde_json::from_value(sampling_params(&request)?)
            .map_err(|error| SampleError::Failed(format!("not a sampling request: {error}")))?;
        let answer = client
            .request(ServerRequest::CreateMessageRequest(Request::new(params)))
            .await
            .map_err(|unanswered| SampleError::Failed(unanswered.describe("the model")))?;
        let ClientResult::CreateMessageResult(result) = answer else {
            return Err(SampleError::Failed(
                "the client answered with something else than a message".to_owned(),
            ));
        };
        sampled(&serde_json::to_value(result).unwrap_or_default())
    })
}

/// `sampling/createMessage`'s params, as the specification writes them:
/// each message's content in MCP's content shape (tool-core's `Content`
/// is that shape), text, image or audio only.
fn sampling_params(request: &SamplingRequest) -> Result<Value, SampleError> {
    let mut messages = Vec::with_capacity(request.messages.len());
    for message in &request.messages {
        if !matches!(
            message.content,
            Content::Text { .. } | Content::Image { .. } | Content::Audio { .. }
        ) {
            return Err(SampleError::Failed(
                "a sampling message is text, an image or a sound".to_owned(),
            ));
        }
        let role = match message.role {
            SamplingRole::User => "user",
            SamplingRole::Assistant => "assistant",
        };
        messages.push(json!({"role": role, "content": message.content}));
    }
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(prompt) = &request.system_prompt {
        params["systemPrompt"] = json!(prompt);
    }
    Ok(params)
}

/// The model's answer, from the client's `CreateMessageResult`: its
/// content (the first, when it sent several), model and stop reason.
fn sampled(result: &Value) -> Result<Sampled, SampleError> {
    let content = match &result["content"] {
        Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
        one => one.clone(),
    };
    let content: Content = serde_json::from_value(content).map_err(|error| {
        SampleError::Failed(format!("the model's answer is not text, an image or a sound: {error}"))
    })?;
    Ok(Sampled {
        content,
        model: result["model"].as_str().unwrap_or_default().to_owned(),
        stop_reason: result["stopReason"].as_str().map(str::to_owned),
    })
}
