//! A tool's own question to the person using the client
//! (`ToolContext::elicit`): asked by `elicitation/create` with the form of
//! a `#[derive(ToolParams)]` struct (its docs, defaults and enum), the
//! answer read back into it; a decline is a decline; a client that cannot
//! answer is a clear error to the tool, never a hang. And a tool's request
//! to the client's model (`ToolContext::sample`, `sampling/createMessage`).
//! rmcp's client over a pipe.

use super::serve;
use crate::support::bounded;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tool_core::{Elicited, ToolParams, ToolRegistry, tool};
use tool_mcp::McpServer;

/// Where a table is booked.
#[derive(ToolParams, Debug)]
#[param(rename_all = "lowercase")]
enum Room {
    Garden,
    Hall,
}

/// A table booking.
#[derive(ToolParams, Debug)]
struct Booking {
    /// How many people
    guests: u32,
    /// Where to sit
    #[param(default = Room::Hall)]
    room: Room,
}

/// Book a table, asking the person for the details (also the server of
/// `client_questions`, where our client answers it).
#[tool]
pub(crate) async fn book(ctx: &tool_core::ToolContext) -> String {
    match ctx
        .elicit::<Booking>("Book a table: how many, and where?")
        .await
    {
        Ok(Elicited::Accept(booking)) => format!("booked {} in {:?}", booking.guests, booking.room),
        Ok(Elicited::Decline) => "declined".to_owned(),
        Ok(Elicited::Cancel) => "dismissed".to_owned(),
        Err(error) => format!("not asked: {error}"),
    }
}

/// A client whose person answers `answer`; it keeps what it was asked.
#[derive(Clone)]
struct Person {
    can_answer: bool,
    answer: ElicitResult,
    asked: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.can_answer {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("questions-test", "0.1.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(self.answer.clone())
    }
}

async fn booked(person: Person) -> String {
    let mut tools = ToolRegistry::new();
    tools.register(BookTool).unwrap();
    let client = person.serve(serve(McpServer::new(tools))).await.unwrap();
    let answer = client
        .call_tool(CallToolRequestParams::new("book"))
        .await
        .unwrap();
    client.cancel().await.unwrap();
    answer.content[0].as_text().unwrap().text.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_form_is_the_structs_and_the_answer_is_read_into_it() {
    bounded(async {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let person = Person {
            can_answer: true,
            answer: ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"guests": 4, "room": "garden"})),
            asked: Arc::clone(&asked),
        };
        assert_eq!(booked(person).await, "booked 4 in Garden");
        let asked = asked.lock().unwrap();
        let question = &asked[0];
        assert_eq!(question["message"], "Book a table: how many, and where?");
        let fields = &question["requestedSchema"]["properties"];
        assert_eq!(fields["guests"]["type"], "integer");
        assert_eq!(fields["guests"]["description"], "How many people");
        assert_eq!(fields["room"]["enum"], json!(["garden", "hall"]));
        assert_eq!(fields["room"]["default"], "hall");
        assert_eq!(question["requestedSchema"]["required"], json!(["guests"]));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_is_a_decline_and_a_client_that_cannot_answer_is_an_error() {
    bounded(async {
        let declining = Person {
            can_answer: true,
            answer: ElicitResult::new(ElicitationAction::Decline),
            asked: Arc::default(),
        };
        assert_eq!(booked(declining).await, "declined");
        let unable = Person {
            can_answer: false,
            answer: ElicitResult::new(ElicitationAction::Accept),
            asked: Arc::default(),
        };
        let answer = booked(unable.clone()).await;
        assert!(
            answer
                .starts_with("not asked: no one can be asked: the client cannot answer questions"),
            "{answer}"
        );
        assert!(unable.asked.lock().unwrap().is_empty());
    })
    .await;
}

/// Name a colour, asking the client's model
#[tool]
async fn colour(ctx: &tool_core::ToolContext) -> String {
    let request = tool_core::SamplingRequest::user("Name one colour.", 20)
        .with_system_prompt("Answer with one word.");
    match ctx.sample(request).await {
        Ok(sampled) => format!(
            "{} said {}",
            sampled.model,
            sampled.content.as_text().unwrap_or("(not text)")
        ),
        Err(error) => format!("not asked: {error}"),
    }
}

/// A client whose model answers "blue"; it keeps what it was sent.
#[derive(Clone)]
struct Model {
    declared: bool,
    sent: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Model {
    #[expect(
        deprecated,
        reason = "MCP's sampling: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
    )]
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.declared {
            ClientCapabilities::builder().enable_sampling().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("sampling-test", "0.1.0"))
    }

    #[expect(
        deprecated,
        reason = "MCP's sampling: deprecated by SEP-2577 in rmcp, in use on 2025-11-25"
    )]
    async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, ErrorData> {
        self.sent
            .lock()
            .unwrap()
            .push(serde_json::to_value(&params).unwrap());
        Ok(serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": "blue"},
            "model": "test-model",
            "stopReason": "endTurn",
        }))
        .unwrap())
    }
}

async fn coloured(model: Model) -> String {
    let mut tools = ToolRegistry::new();
    tools.register(ColourTool).unwrap();
    let client = model.serve(serve(McpServer::new(tools))).await.unwrap();
    let answer = client
        .call_tool(CallToolRequestParams::new("colour"))
        .await
        .unwrap();
    client.cancel().await.unwrap();
    answer.content[0].as_text().unwrap().text.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_asks_the_clients_model_when_the_client_declared_sampling() {
    bounded(async {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let model = Model {
            declared: true,
            sent: Arc::clone(&sent),
        };
        assert_eq!(coloured(model).await, "test-model said blue");
        let sent = sent.lock().unwrap().clone();
        assert_eq!(sent[0]["maxTokens"], 20);
        assert_eq!(sent[0]["systemPrompt"], "Answer with one word.");
        assert_eq!(
            sent[0]["messages"],
            json!([{"role": "user", "content": {"type": "text", "text": "Name one colour."}}])
        );

        let undeclared = Model {
            declared: false,
            sent: Arc::default(),
        };
        let answer = coloured(undeclared.clone()).await;
        assert_eq!(
            answer,
            "not asked: no model can be asked: the client did not declare sampling"
        );
        assert!(undeclared.sent.lock().unwrap().is_empty());
    })
    .await;
}
