//! The smallest tool, end to end: a documented `async fn` made a tool by
//! `#[tool]`, registered, a call read from the JSON a model writes,
//! executed, and its paired result printed as the JSON that goes back.
//! Then a call with bad arguments: it is answered too, paired the same way,
//! with every problem in words the model can correct itself from.
//!
//! Run: `cargo run -p tool-core --example smallest_tool`

use serde_json::json;
use tool_core::{RunOptions, ToolCall, ToolRegistry, execute_tool_call, tool};

/// Repeat a text
#[tool]
async fn repeat(
    /// The text to repeat
    text: String,
    /// How many times
    times: u8,
) -> String {
    text.repeat(times.into())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new();
    tools.register(RepeatTool)?;

    // What the model is shown: the schema derived from the signature.
    let definitions = serde_json::to_value(tools.definitions())?;
    println!("definitions: {definitions}");
    assert_eq!(definitions[0]["name"], "repeat");
    assert_eq!(
        definitions[0]["parameters"]["required"],
        json!(["text", "times"])
    );

    // A call as the model wrote it.
    let call: ToolCall = serde_json::from_str(
        r#"{"id":"call-1","name":"repeat","arguments":{"text":"ha","times":3}}"#,
    )?;
    let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
    println!("result: {}", serde_json::to_string(&result)?);
    assert_eq!(result.tool_call_id, "call-1");
    assert!(!result.is_error);
    assert_eq!(result.content[0].as_text(), Some("hahaha"));

    // A call the model got wrong: a number where text belongs, a key
    // misspelled. Both problems are reported at once, path first.
    let call: ToolCall =
        serde_json::from_str(r#"{"id":"call-2","name":"repeat","arguments":{"text":7,"tims":3}}"#)?;
    let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
    println!("result: {}", serde_json::to_string(&result)?);
    assert_eq!(result.tool_call_id, "call-2");
    assert!(result.is_error);
    assert_eq!(
        result.content[0].as_text(),
        Some(
            "Tool repeat failed: text: expected string, got number 7\n\
             times: missing required field (got \"tims\": did you mean \"times\"?)"
        )
    );
    Ok(())
}
