//! The main job: the walkthrough of one echo call, printed for a person. The
//! registry's definitions, the echo call and its paired result, then the
//! three failures, each paired with its call all the same; then the tools
//! with state (the `Files` toolbox) with a structured result and an image.

use crate::files::Files;
use serde::Serialize;
use serde_json::json;
use std::io::Write;
use tool_core::{RunOptions, ToolCall, ToolError, ToolRegistry, execute_tool_call, tool};

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
        "1. An echo call: lookup, parse (\"ignored\" is dropped), execute",
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

    // An echo that throws, in a registry of its own.
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
    stateful_tools(out).await?;
    writeln!(
        out,
        "\nEvery call got exactly one result with its own toolCallId. Try: tool-examples call --help"
    )
}

/// The `Files` toolbox over a scratch directory of its own (so what it
/// shows is the same wherever the walkthrough runs): `list`'s structured
/// result, and `read` answering with an image.
async fn stateful_tools(out: &mut impl Write) -> std::io::Result<()> {
    let scratch = Scratch::new()?;
    std::fs::write(scratch.0.join("notes.txt"), "one\ntwo\n")?;
    // The 8-byte PNG signature and the start of its IHDR chunk: enough for
    // `read` to recognize an image by its first bytes.
    std::fs::write(
        scratch.0.join("pixel.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )?;
    let mut files = ToolRegistry::new();
    files
        .register_all(Files::new(&scratch.0)?)
        .map_err(std::io::Error::other)?;
    let list = files.get("list").expect("registered above").definition();
    writeln!(
        out,
        "\n== 5. Tools with state: `read` and `list` are methods of one Files toolbox (register_all) =="
    )?;
    writeln!(
        out,
        "list's definition (a read-only tool with an output schema):"
    )?;
    print_json(out, list)?;
    let list_call = call(json!({
        "type": "toolCall", "id": "call-5", "name": "list", "arguments": {},
    }));
    show(
        out,
        "6. A structured result (Json<Listing>): details for the program, the same JSON as text for the model",
        &list_call,
        &files,
    )
    .await?;
    let image_call = call(json!({
        "type": "toolCall", "id": "call-6", "name": "read", "arguments": {"path": "pixel.png"},
    }));
    show(
        out,
        "7. An image: read recognizes it by its first bytes and answers with image content",
        &image_call,
        &files,
    )
    .await
}

/// A directory under the system's temporary directory, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Self> {
        let path =
            std::env::temp_dir().join(format!("tool-examples-walkthrough-{}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(Scratch(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
    let result = execute_tool_call(call, tools, RunOptions::default()).await;
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
