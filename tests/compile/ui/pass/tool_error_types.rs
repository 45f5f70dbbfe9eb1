//! The error types a `#[tool]` function may return, as Rust users write
//! them: `?` on a std error into `Box<dyn Error + Send + Sync>`, `anyhow`,
//! a `String`, and `ToolError` itself. Each is the call's paired error.

use tool_core::{RunOptions, ToolCall, ToolError, ToolRegistry, execute_tool_call, tool};

/// Parse a number
#[tool]
async fn boxed(text: String) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let number: i64 = text.parse()?;
    Ok(number.to_string())
}

/// Parse a number, anyhow
#[tool]
async fn with_anyhow(text: String) -> anyhow::Result<String> {
    let number: i64 = text.parse()?;
    anyhow::ensure!(number >= 0, "{number} is negative");
    Ok(number.to_string())
}

/// Refuse with a message
#[tool]
async fn with_string(text: String) -> Result<String, String> {
    Err(format!("no: {text}"))
}

/// Refuse with a tool error
#[tool]
async fn with_tool_error(text: String) -> Result<String, ToolError> {
    Err(format!("never: {text}").into())
}

pub fn main() {
    let mut tools = ToolRegistry::new();
    tools.register(BoxedTool).unwrap();
    tools.register(WithAnyhowTool).unwrap();
    tools.register(WithStringTool).unwrap();
    tools.register(WithToolErrorTool).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let answer = |name: &str, text: &str| {
        let call = ToolCall::new("c1", name, serde_json::json!({"text": text}));
        let result = runtime.block_on(execute_tool_call(&call, &tools, RunOptions::new()));
        (
            result.is_error,
            result.content[0].as_text().unwrap().to_owned(),
        )
    };
    assert_eq!(answer("boxed", "42"), (false, "42".to_owned()));
    let (failed, text) = answer("boxed", "x");
    assert!(failed && text.contains("invalid digit"), "{text}");
    let (failed, text) = answer("with_anyhow", "-3");
    assert!(failed && text.contains("-3 is negative"), "{text}");
    let (failed, text) = answer("with_string", "a");
    assert!(failed && text.contains("no: a"), "{text}");
    let (failed, text) = answer("with_tool_error", "b");
    assert!(failed && text.contains("never: b"), "{text}");
}
