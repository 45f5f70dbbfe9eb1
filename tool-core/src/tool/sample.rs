//! A tool asking the client's model ([`ToolContext::sample`](crate::ToolContext::sample)):
//! MCP's sampling
//! (<https://modelcontextprotocol.io/specification/2025-11-25/client/sampling>),
//! messages in (text, images, sound), one message out. The client keeps
//! the model, its keys and a person's say over what is sent; the tool
//! only asks.

use crate::model::Content;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Who says a message of the conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplingRole {
    /// The user: what the model is asked.
    User,
    /// The model: an earlier answer.
    Assistant,
}

/// One message of the conversation the model is given.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: SamplingRole,
    /// What is said: [`Content::Text`], [`Content::Image`] or
    /// [`Content::Audio`].
    pub content: Content,
}

/// What a tool asks the client's model.
///
/// ```
/// use tool_core::SamplingRequest;
///
/// let request = SamplingRequest::user("Summarize in one line: ...", 100)
///     .with_system_prompt("You write terse summaries.");
/// assert_eq!(request.max_tokens, 100);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingRequest {
    /// The conversation, oldest first.
    pub messages: Vec<SamplingMessage>,
    /// The system prompt the tool asks for (the client may change it).
    pub system_prompt: Option<String>,
    /// The most tokens the answer may have.
    pub max_tokens: u32,
}

impl SamplingRequest {
    /// One message from the user, `text`, answered in at most
    /// `max_tokens` tokens.
    pub fn user(text: impl Into<String>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages: vec![SamplingMessage {
                role: SamplingRole::User,
                content: Content::text(text),
            }],
            system_prompt: None,
            max_tokens,
        }
    }

    /// The same, with a system prompt.
    pub fn with_system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// The same, with one more message.
    pub fn with_message(mut self, role: SamplingRole, content: Content) -> Self {
        self.messages.push(SamplingMessage { role, content });
        self
    }
}

/// The model's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// What it said: text, an image or a sound.
    pub content: Content,
    /// Which model answered, as the client names it.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`...), when the client says.
    pub stop_reason: Option<String>,
}

/// Why the model gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SampleError {
    /// No model can be asked here: the tool runs outside MCP, or the
    /// client did not declare sampling; says which.
    Unavailable(String),
    /// Asking failed: the client (or its person) refused, no answer in
    /// time, the call was cancelled.
    Failed(String),
}

impl fmt::Display for SampleError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Unavailable(why) => write!(out, "no model can be asked: {why}"),
            SampleError::Failed(why) => write!(out, "asking the model failed: {why}"),
        }
    }
}

impl std::error::Error for SampleError {}

/// The future a sampler answers with.
pub type SampleFuture = Pin<Box<dyn Future<Output = Result<Sampled, SampleError>> + Send>>;

/// Asks the client's model: what runs the tool gives it (tool-mcp over
/// MCP; [`RunOptions::with_sampling`](crate::RunOptions::with_sampling) for
/// an application's own model).
pub type SampleFn = Arc<dyn Fn(SamplingRequest) -> SampleFuture + Send + Sync>;
