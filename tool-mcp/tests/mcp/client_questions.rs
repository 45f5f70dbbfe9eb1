//! The other end of a tool's question (`ToolContext::elicit`): a server's
//! `elicitation/create` answered by `tool_mcp::client`'s asker
//! (`Upstream::with_elicitation`), over streamable HTTP against our own
//! server. The form arrives with its defaults (SEP-1034), an accepted
//! answer is checked against the form before it travels, a decline is a
//! decline, and a client without an asker declares no elicitation, so
//! the server's tool hears that no one can be asked.

use crate::server::questions::BookTool;
use crate::support::{bounded, start_with};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tool_core::{
    ElicitationRequest, Elicited, RunOptions, ToolCall, ToolRegistry, execute_tool_call,
};
use tool_mcp::client::{McpClient, Upstream};

/// Calls `book` on our server through a client built by `upstream`, and
/// returns what the tool said.
async fn book_through(upstream: impl FnOnce(Upstream) -> Upstream) -> String {
    let mut served = ToolRegistry::new();
    served.register(BookTool).unwrap();
    let server = start_with(served, |server| server).await;
    let url = format!("http://{}/mcp", server.address);
    let client = McpClient::connect(upstream(Upstream::http(url)))
        .await
        .expect("connects");
    let mut tools = ToolRegistry::new();
    client.register_into(&mut tools, None).unwrap();
    let call = ToolCall::new("c1", "book", json!({}));
    let result = bounded(execute_tool_call(&call, &tools, RunOptions::new())).await;
    client.close().await;
    server.stop().await;
    assert!(!result.is_error, "{result:?}");
    result.content[0].as_text().expect("text").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_asker_gets_the_form_with_its_defaults_and_its_answer_reaches_the_tool() {
    let asked: Arc<Mutex<Vec<ElicitationRequest>>> = Arc::default();
    let seen = Arc::clone(&asked);
    let said = book_through(|upstream| {
        upstream.with_elicitation(move |question: ElicitationRequest| {
            seen.lock().unwrap().push(question.clone());
            // The person keeps the default room and says how many.
            let mut answer = question.defaults();
            answer.insert("guests".to_owned(), json!(4));
            async move { Ok(Elicited::Accept(Value::Object(answer))) }
        })
    })
    .await;
    assert_eq!(said, "booked 4 in Hall");
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].message, "Book a table: how many, and where?");
    assert_eq!(
        Value::Object(asked[0].defaults()),
        json!({"room": "hall"}),
        "{}",
        asked[0].schema
    );
    assert_eq!(asked[0].schema["properties"]["guests"]["type"], "integer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_and_a_dismissal_reach_the_tool_as_such() {
    let said = book_through(|upstream| {
        upstream.with_elicitation(|_question| async { Ok(Elicited::Decline) })
    })
    .await;
    assert_eq!(said, "declined");
    let said = book_through(|upstream| {
        upstream.with_elicitation(|_question| async { Ok(Elicited::Cancel) })
    })
    .await;
    assert_eq!(said, "dismissed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_does_not_fit_the_form_never_travels() {
    let said = book_through(|upstream| {
        upstream.with_elicitation(|_question| async {
            Ok(Elicited::Accept(json!({"guests": "many", "room": "hall"})))
        })
    })
    .await;
    assert!(said.starts_with("not asked: "), "{said}");
    assert!(said.contains("does not fit the form"), "{said}");
    assert!(said.contains("guests"), "names the field: {said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_asker_the_client_declares_no_elicitation() {
    let said = book_through(|upstream| upstream).await;
    assert!(said.starts_with("not asked: no one can be asked"), "{said}");
}
