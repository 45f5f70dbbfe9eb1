//! The seed's walkthrough: one echo call becomes a paired result.

use serde_json::{Value, json};
use tool_core::{
    CallContext, Tool, ToolCall, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry,
    execute_tool_call, text,
};

#[derive(ToolParams)]
struct EchoParams {
    value: String,
}

struct Echo;

impl Tool for Echo {
    type Params = EchoParams;
    type Details = Value;

    fn name(&self) -> &str {
        "echo"
    }

    fn description(&self) -> &str {
        "Echo one value"
    }

    async fn execute(
        &self,
        params: EchoParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        Ok(ToolOutput::new(vec![text(params.value)]).with_details(json!({"source": "echo"})))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new();
    tools.register(Echo)?;
    println!("{}", serde_json::to_string_pretty(&tools.definitions())?);
    let call: ToolCall = serde_json::from_str(
        r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}"#,
    )?;
    let result = execute_tool_call(&call, &tools, CallContext::default()).await;
    println!("{}", serde_json::to_string_pretty(&result)?);
    Ok(())
}
