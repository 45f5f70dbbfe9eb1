use serde_json::{Value, json};
use tool_core::{
    Content, RunOptions, ToolCall, ToolError, ToolOutput, ToolRegistry, execute_tool_call, tool,
};

#[derive(serde::Serialize)]
struct Details {
    length: usize,
}

#[derive(Debug)]
struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused")
    }
}

impl std::error::Error for Refused {}

/// Returns a String
#[tool]
async fn plain(value: String) -> String {
    value
}

/// Returns a Result of a String, with a String error
#[tool]
async fn fallible(value: String) -> Result<String, String> {
    if value.is_empty() {
        return Err("empty".to_owned());
    }
    Ok(value)
}

/// Returns a ToolOutput with details
#[tool]
async fn detailed(value: String) -> ToolOutput<Details> {
    ToolOutput::text(value.clone()).with_details(Details {
        length: value.len(),
    })
}

/// Returns a Result of a ToolOutput, with an error type of its own
#[tool]
async fn checked(value: String) -> Result<ToolOutput<Details>, Refused> {
    if value.is_empty() {
        return Err(Refused);
    }
    Ok(ToolOutput::text(value.clone()).with_details(Details {
        length: value.len(),
    }))
}

/// Returns a Result with ToolError itself
#[tool]
async fn boxed(value: String) -> Result<String, ToolError> {
    if value.is_empty() {
        return Err("boxed empty".into());
    }
    Ok(value)
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let mut tools = ToolRegistry::new();
    tools.register(PlainTool).unwrap();
    tools.register(FallibleTool).unwrap();
    tools.register(DetailedTool).unwrap();
    tools.register(CheckedTool).unwrap();
    tools.register(BoxedTool).unwrap();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let run = |name: &str, value: &str| {
        let call = ToolCall::new("call-1", name, json!({ "value": value }));
        runtime.block_on(execute_tool_call(&call, &tools, RunOptions::default()))
    };

    let result = run("plain", "Pi");
    assert_eq!(
        (result.content, result.details, result.is_error),
        (vec![Content::text("Pi")], None, false)
    );

    let result = run("fallible", "Pi");
    assert_eq!(
        (result.content, result.is_error),
        (vec![Content::text("Pi")], false)
    );
    let result = run("fallible", "");
    assert_eq!(
        (result.content, result.details, result.is_error),
        (
            vec![Content::text("Tool fallible failed: empty")],
            Some(json!({"error": "empty"})),
            true
        )
    );

    let result = run("detailed", "Pi");
    assert_eq!(
        (result.content, result.details, result.is_error),
        (vec![Content::text("Pi")], Some(json!({"length": 2})), false)
    );

    let result = run("checked", "abc");
    assert_eq!(result.details, Some(json!({"length": 3})));
    let result = run("checked", "");
    assert_eq!(
        (result.content, result.is_error),
        (vec![Content::text("Tool checked failed: refused")], true)
    );

    let result = run("boxed", "");
    assert_eq!(
        (result.content, result.is_error),
        (vec![Content::text("Tool boxed failed: boxed empty")], true)
    );

    let details: Value = serde_json::to_value(run("boxed", "x").details).unwrap();
    assert_eq!(details, Value::Null);
}
