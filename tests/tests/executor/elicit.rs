//! A tool's question (`ToolContext::elicit`) asked through the run's own
//! asker (`RunOptions::with_elicitation`): the form is the struct's, the
//! answer parsed into it; an answer that does not fit, and a struct no
//! flat form can ask, are errors naming what is wrong; a cancelled call
//! stops waiting. And a request to the run's model (`ToolContext::sample`).

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_core::{
    ElicitError, Elicited, RunOptions, ToolCall, ToolContext, ToolParams, ToolRegistry,
    execute_tool_call, tool,
};

/// Shipping details.
#[derive(ToolParams, Debug)]
struct Address {
    /// Street and number
    street: String,
}

/// An order.
#[derive(ToolParams, Debug)]
struct Order {
    /// How many
    count: u32,
}

/// An order with a nested struct, which no MCP form can ask.
#[derive(ToolParams, Debug)]
struct Shipment {
    /// Where to
    to: Address,
}

/// Ask for an order
#[tool]
async fn ask_order(ctx: &ToolContext) -> String {
    describe(ctx.elicit::<Order>("How many?").await)
}

/// Ask for a shipment
#[tool]
async fn ask_shipment(ctx: &ToolContext) -> String {
    describe(ctx.elicit::<Shipment>("Where to?").await)
}

fn describe<T: std::fmt::Debug>(asked: Result<Elicited<T>, ElicitError>) -> String {
    match asked {
        Ok(answer) => format!("{answer:?}"),
        Err(error) => format!("error: {error}"),
    }
}

async fn run(tool: &str, options: RunOptions) -> String {
    let mut tools = ToolRegistry::new();
    tools.register(AskOrderTool).unwrap();
    tools.register(AskShipmentTool).unwrap();
    let result = execute_tool_call(&ToolCall::new("c1", tool, json!({})), &tools, options).await;
    result.content[0].as_text().unwrap().to_owned()
}

fn answering(answer: Value, asked: Arc<Mutex<Vec<Value>>>) -> RunOptions {
    RunOptions::new().with_elicitation(move |question| {
        asked.lock().unwrap().push(question.schema.clone());
        let answer = answer.clone();
        async move { Ok(Elicited::Accept(answer)) }
    })
}

#[tokio::test]
async fn the_answer_is_parsed_into_the_struct_whose_form_was_asked() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let text = run(
        "ask_order",
        answering(json!({"count": 3}), Arc::clone(&asked)),
    )
    .await;
    assert_eq!(text, "Accept(Order { count: 3 })");
    assert_eq!(
        asked.lock().unwrap()[0]["properties"]["count"]["type"],
        "integer"
    );

    let text = run(
        "ask_order",
        answering(json!({"count": "many"}), Arc::default()),
    )
    .await;
    assert!(
        text.starts_with("error: the answer does not fit:"),
        "{text}"
    );
    assert!(text.contains("count"), "{text}");
}

#[tokio::test]
async fn a_nested_struct_is_refused_before_anything_is_asked() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let text = run("ask_shipment", answering(json!({}), Arc::clone(&asked))).await;
    assert!(
        text.starts_with("error: the question cannot be asked as a form: field `to`"),
        "{text}"
    );
    assert!(asked.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_cancelled_call_stops_waiting_for_the_answer() {
    let signal = tokio_util::sync::CancellationToken::new();
    let options = RunOptions::new()
        .with_signal(signal.clone())
        .with_cancel_grace(Duration::from_secs(5))
        .with_elicitation(|_question| std::future::pending());
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        signal.cancel();
    };
    let (text, ()) = tokio::join!(run("ask_order", options), cancel);
    assert_eq!(text, "error: asking failed: the call was cancelled");
}

/// Ask the model for a word
#[tool]
async fn ask_model(ctx: &ToolContext) -> String {
    match ctx
        .sample(tool_core::SamplingRequest::user("One word?", 5))
        .await
    {
        Ok(sampled) => format!("{}: {:?}", sampled.model, sampled.content),
        Err(error) => format!("error: {error}"),
    }
}

#[tokio::test]
async fn a_tools_request_reaches_the_runs_model() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let heard = Arc::clone(&seen);
    let options = RunOptions::new().with_sampling(move |request| {
        heard.lock().unwrap().push(request.clone());
        async {
            Ok(tool_core::Sampled {
                content: tool_core::Content::text("hello"),
                model: "local".to_owned(),
                stop_reason: None,
            })
        }
    });
    let mut tools = ToolRegistry::new();
    tools.register(AskModelTool).unwrap();
    let result = execute_tool_call(
        &ToolCall::new("c1", "ask_model", json!({})),
        &tools,
        options,
    )
    .await;
    assert_eq!(
        result.content[0].as_text().unwrap(),
        r#"local: Text { text: "hello" }"#
    );
    assert_eq!(seen.lock().unwrap()[0].max_tokens, 5);
}
