use serde_json::json;
use tool_core::{
    Content, RunOptions, Tool, ToolCall, ToolContext, ToolRegistry, execute_tool_call, tool,
};

/// Takes the context by reference, between two model parameters
#[tool]
async fn by_ref(before: String, ctx: &ToolContext, after: u8) -> String {
    format!("{before}:{}:{after}", ctx.call_id)
}

/// Takes the context by value, through its full path
#[tool]
async fn by_value(ctx: tool_core::ToolContext) -> String {
    ctx.call_id
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // The context is not a model parameter.
    assert_eq!(
        ByRefTool.parameters(),
        json!({
            "type": "object",
            "properties": {
                "before": {"type": "string"},
                "after": {"type": "integer", "minimum": 0, "maximum": 255},
            },
            "required": ["before", "after"],
            "additionalProperties": false,
        })
    );
    assert_eq!(
        ByValueTool.parameters(),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );

    let mut tools = ToolRegistry::new();
    tools.register(ByRefTool).unwrap();
    tools.register(ByValueTool).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();

    let call = ToolCall::new("call-7", "by_ref", json!({"before": "a", "after": 3}));
    let result = runtime.block_on(execute_tool_call(&call, &tools, RunOptions::default()));
    assert_eq!(result.content, vec![Content::text("a:call-7:3")]);

    let call = ToolCall::new("call-8", "by_value", json!({}));
    let result = runtime.block_on(execute_tool_call(&call, &tools, RunOptions::default()));
    assert_eq!(result.content, vec![Content::text("call-8")]);

    // Still callable as written.
    let direct = runtime.block_on(by_ref("x".into(), &ToolContext::new("direct"), 1));
    assert_eq!(direct, "x:direct:1");
}
