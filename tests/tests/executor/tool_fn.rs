//! `#[tool]` on async functions: each return type, the context parameter,
//! attribute overrides, and that the function stays callable as written.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tool_core::{
    Content, RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput, ToolParams,
    ToolRegistry, execute_tool_call, tool,
};

#[derive(serde::Serialize)]
struct EchoDetails {
    source: &'static str,
}

/// Echo one value
#[tool]
async fn echo(value: String) -> Result<ToolOutput<EchoDetails>, ToolError> {
    Ok(ToolOutput::new(vec![Content::text(value)]).with_details(EchoDetails { source: "echo" }))
}

/// Upper-case a text.
///
/// Every letter, not only the first.
#[tool]
async fn shout(text: String) -> String {
    text.to_uppercase()
}

/// Counts characters; fails on empty text.
#[tool(name = "count_chars")]
async fn count(text: String) -> Result<String, std::io::Error> {
    if text.is_empty() {
        return Err(std::io::Error::other("nothing to count"));
    }
    Ok(text.chars().count().to_string())
}

#[tool(description = "Greets someone, politely")]
async fn greet(
    #[param(description = "Who to greet", min_length = 1)] name: String,
    #[param(default = 1, min = 1, max = 3)] times: u8,
) -> ToolOutput<Value> {
    ToolOutput::text(format!("hello {name}").repeat(usize::from(times)))
        .with_details(json!({"times": times}))
}

/// Fails with a plain string error.
#[tool]
async fn refuse(reason: Option<String>) -> Result<String, String> {
    Err(reason.unwrap_or_else(|| "no".into()))
}

/// Reports progress, and tells which call it answers.
#[tool]
async fn inspect(ctx: &ToolContext, value: String) -> String {
    ctx.report_progress(vec![Content::text(format!("progress:{value}"))]);
    format!("{}:{value}", ctx.call_id)
}

/// Takes the context by value and nothing else.
#[tool]
async fn whoami(ctx: tool_core::ToolContext) -> String {
    ctx.call_id
}

/// A raw identifier becomes a plain name.
#[tool]
async fn r#match(r#type: String) -> String {
    r#type
}

async fn run(tools: &ToolRegistry, name: &str, arguments: Value) -> tool_core::ToolResultMessage {
    let call = ToolCall::new("call-1", name, arguments);
    execute_tool_call(&call, tools, RunOptions::default()).await
}

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    tools.register(ShoutTool).unwrap();
    tools.register(CountTool).unwrap();
    tools.register(GreetTool).unwrap();
    tools.register(RefuseTool).unwrap();
    tools.register(InspectTool).unwrap();
    tools.register(WhoamiTool).unwrap();
    tools.register(MatchTool).unwrap();
    tools
}

#[test]
fn names_descriptions_and_schemas_come_from_the_function() {
    let definitions = serde_json::to_value(registry().definitions()).unwrap();
    let definition = |name: &str| -> Value {
        let all = definitions.as_array().unwrap();
        let found = all.iter().find(|definition| definition["name"] == name);
        found
            .unwrap_or_else(|| panic!("no {name} in {definitions}"))
            .clone()
    };
    assert_eq!(
        definition("echo"),
        json!({
            "name": "echo",
            "description": "Echo one value",
            "parameters": {
                "type": "object",
                "properties": {"value": {"type": "string"}},
                "required": ["value"],
                "additionalProperties": false,
            },
        })
    );
    assert_eq!(
        definition("shout")["description"],
        "Upper-case a text.\n\nEvery letter, not only the first."
    );
    assert_eq!(definition("count_chars")["name"], "count_chars");
    assert_eq!(
        definition("greet"),
        json!({
            "name": "greet",
            "description": "Greets someone, politely",
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"description": "Who to greet", "type": "string", "minLength": 1},
                    "times": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1},
                },
                "required": ["name"],
                "additionalProperties": false,
            },
        })
    );
    // The context is not shown to the model.
    assert_eq!(
        definition("inspect")["parameters"]["properties"],
        json!({"value": {"type": "string"}})
    );
    assert_eq!(
        definition("whoami")["parameters"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(definition("match")["name"], "match");
    assert_eq!(
        definition("match")["parameters"]["required"],
        json!(["type"])
    );
}

#[tokio::test]
async fn each_return_type_becomes_a_result() {
    let tools = registry();
    let echoed = run(&tools, "echo", json!({"value": "Pi"})).await;
    assert_eq!(echoed.content, vec![Content::text("Pi")]);
    assert_eq!(echoed.details, Some(json!({"source": "echo"})));

    let shouted = run(&tools, "shout", json!({"text": "pi"})).await;
    assert_eq!(shouted.content, vec![Content::text("PI")]);
    assert_eq!(shouted.details, None);
    assert!(!shouted.is_error);

    let counted = run(&tools, "count_chars", json!({"text": "héllo"})).await;
    assert_eq!(counted.content, vec![Content::text("5")]);
    let failed = run(&tools, "count_chars", json!({"text": ""})).await;
    assert!(failed.is_error);
    assert_eq!(
        failed.content,
        vec![Content::text("Tool count_chars failed: nothing to count")]
    );

    let greeted = run(&tools, "greet", json!({"name": "Ada"})).await;
    assert_eq!(greeted.content, vec![Content::text("hello Ada")]);
    assert_eq!(greeted.details, Some(json!({"times": 1})));
    let bad = run(&tools, "greet", json!({"name": "", "times": 9})).await;
    assert_eq!(
        bad.content,
        vec![Content::text(
            "Tool greet failed: name: expected string of at least 1 character, got 0\n\
             times: expected integer <= 3, got 9"
        )]
    );

    let refused = run(&tools, "refuse", json!({"reason": "not today"})).await;
    assert_eq!(
        refused.content,
        vec![Content::text("Tool refuse failed: not today")]
    );
}

#[tokio::test]
async fn the_context_parameter_gets_the_calls_context() {
    let tools = registry();
    let progress: Arc<Mutex<Vec<Vec<Content>>>> = Arc::default();
    let sink = progress.clone();
    let ctx =
        RunOptions::new().with_progress(move |event| sink.lock().unwrap().push(event.content));
    let call = ToolCall::new("ctx-7", "inspect", json!({"value": "Pi"}));
    let result = execute_tool_call(&call, &tools, ctx).await;
    assert_eq!(result.content, vec![Content::text("ctx-7:Pi")]);
    assert_eq!(
        *progress.lock().unwrap(),
        vec![vec![Content::text("progress:Pi")]]
    );

    let who = run(&tools, "whoami", json!({})).await;
    assert_eq!(who.content, vec![Content::text("call-1")]);
}

#[tokio::test]
async fn the_function_stays_callable_as_written() {
    assert_eq!(shout("abc".into()).await, "ABC");
    let output = echo("Pi".into()).await.unwrap();
    assert_eq!(output.content, vec![Content::text("Pi")]);
    assert_eq!(
        inspect(&ToolContext::new("direct"), "x".into()).await,
        "direct:x"
    );
    assert_eq!(r#match("t".into()).await, "t");
}

#[test]
fn generated_types_are_usable_directly() {
    let params = GreetParams::parse(&json!({"name": "Ada", "times": 2})).unwrap();
    assert_eq!((params.name.as_str(), params.times), ("Ada", 2));
    assert_eq!(GreetTool.name(), "greet");
    assert_eq!(EchoTool.description(), "Echo one value");
    assert_eq!(MatchParams::json_schema()["required"], json!(["type"]));
}
