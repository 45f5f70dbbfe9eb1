//! The main job: the seed chapter's walkthrough, printed for a person. The
//! registry's definitions, the echo call and its paired result, then the
//! three failures, each paired with its call all the same.

use serde::Serialize;
use serde_json::json;
use std::io::Write;
use tool_core::{CallContext, ToolCall, ToolError, ToolRegistry, execute_tool_call, tool};

/// Echo one value
#[tool(name = "echo")]
async fn exploding_echo(value: String) -> Result<String, ToolError> {
    let _ = value;
    Err("exploded".into())
}

/// Prints the walkthrough to `out`, running the calls on `tools` (the example
/// registry).
pub async fn run(tools: &ToolRegistry, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "== The tools, as a provider sees them (ToolRegistry::definitions) =="
    )?;
    print_json(out, &tools.definitions())?;

    let echo_call = call(json!({
        "type": "toolCall", "id": "call-1", "name": "echo",
        "arguments": {"value": "Pi", "ignored": "drop me"},
    }));
    show(
        out,
        "1. The seed's echo call: lookup, parse (\"ignored\" is dropped), execute",
        &echo_call,
        tools,
    )
    .await?;

    let wrong_type = call(json!({
        "type": "toolCall", "id": "call-1", "name": "echo", "arguments": {"value": 1},
    }));
    show(
        out,
        "2. A wrong argument type: parse stops the call before echo runs",
        &wrong_type,
        tools,
    )
    .await?;

    let unknown = call(json!({
        "type": "toolCall", "id": "call-1", "name": "missing", "arguments": {},
    }));
    show(
        out,
        "3. An unknown tool: nothing runs, and the result keeps the name asked for",
        &unknown,
        tools,
    )
    .await?;

    // As in the seed: an echo that throws, in a registry of its own.
    let mut exploding = ToolRegistry::new();
    exploding
        .register(ExplodingEchoTool)
        .map_err(std::io::Error::other)?;
    show(
        out,
        "4. A tool that fails: its error is paired with the call like any result",
        &echo_call,
        &exploding,
    )
    .await?;
    writeln!(
        out,
        "\nEvery call got exactly one result with its own toolCallId. Try: tool-examples call --help"
    )
}

fn call(value: serde_json::Value) -> ToolCall {
    serde_json::from_value(value).expect("the walkthrough's calls are valid")
}

async fn show(
    out: &mut impl Write,
    header: &str,
    call: &ToolCall,
    tools: &ToolRegistry,
) -> std::io::Result<()> {
    let result = execute_tool_call(call, tools, CallContext::default()).await;
    writeln!(out, "\n== {header} ==")?;
    writeln!(out, "call:")?;
    print_json(out, call)?;
    writeln!(out, "result:")?;
    print_json(out, &result)
}

fn print_json(out: &mut impl Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}
