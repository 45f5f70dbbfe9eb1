//! Runs tool calls: lookup, parse, execute, and always exactly one paired
//! result per call, whatever the model sent or the tool did.

use crate::catch_unwind::{CatchUnwind, panic_message};
use crate::context::CallContext;
use crate::message::{ToolCall, ToolResultMessage, now_millis};
use crate::registry::ToolRegistry;
use crate::tool::ToolOutput;
use futures_util::StreamExt;
use futures_util::stream::FuturesOrdered;
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How a batch of calls runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExecutionMode {
    /// All calls at once, on the caller's task; results still in call order.
    #[default]
    Parallel,
    /// One call after another, in call order.
    Sequential,
}

/// Runs one call and answers it. Never fails and never panics: an unknown
/// tool, bad arguments, a tool error and a tool panic all become a paired
/// result with `is_error: true`.
///
/// ```
/// use tool_core::{execute_tool_call, CallContext, DynamicTool, ToolCall, ToolOutput, ToolRegistry};
/// use serde_json::json;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(DynamicTool::new("fail", "Always fails", |_args, _ctx| async {
///     Err("exploded".into())
/// })).unwrap();
///
/// let call = ToolCall::new("call-1", "fail", json!({}));
/// let result = execute_tool_call(&call, &tools, CallContext::default()).await;
/// assert_eq!(result.tool_call_id, "call-1");
/// assert!(result.is_error);
/// assert_eq!(result.content[0].as_text(), Some("Tool fail failed: exploded"));
///
/// let unknown = ToolCall::new("call-2", "missing", json!({}));
/// let result = execute_tool_call(&unknown, &tools, CallContext::default()).await;
/// assert_eq!(result.tool_name, "missing");
/// assert_eq!(result.details, Some(json!({"error": "unknown tool"})));
/// # });
/// ```
pub async fn execute_tool_call(
    call: &ToolCall,
    registry: &ToolRegistry,
    ctx: CallContext,
) -> ToolResultMessage {
    let Some(tool) = registry.get(&call.name) else {
        return ToolResultMessage::failure(call, "unknown tool");
    };
    let decoded;
    let arguments = match decode_string_arguments(&call.arguments) {
        None => &call.arguments,
        Some(Ok(value)) => {
            decoded = value;
            &decoded
        }
        Some(Err(problem)) => return ToolResultMessage::failure(call, &problem),
    };
    // A user-written `ParamValue` could panic while parsing; that is the
    // call's failure, not the executor's.
    let prepared = match catch_unwind(AssertUnwindSafe(|| tool.prepare(arguments))) {
        Ok(Ok(prepared)) => prepared,
        Ok(Err(problems)) => return ToolResultMessage::failure(call, &problems.to_string()),
        Err(payload) => return panicked(call, &*payload),
    };
    let running = Box::pin(prepared.run(ctx.for_call(&call.id)));
    match CatchUnwind::new(running).await {
        Ok(Ok(output)) => success(call, output),
        Ok(Err(error)) => ToolResultMessage::failure(call, &error_message(&*error)),
        Err(payload) => panicked(call, &*payload),
    }
}

/// Runs a batch of calls and answers each one, in call order.
///
/// In [`ExecutionMode::Parallel`] the calls run concurrently on the caller's
/// task (a tool doing blocking work should move it to a blocking thread).
pub async fn execute_tool_calls(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    ctx: CallContext,
    mode: ExecutionMode,
) -> Vec<ToolResultMessage> {
    let mut results = Vec::with_capacity(calls.len());
    match mode {
        ExecutionMode::Sequential => {
            for call in calls {
                results.push(execute_tool_call(call, registry, ctx.clone()).await);
            }
        }
        ExecutionMode::Parallel => {
            let mut running: FuturesOrdered<_> = calls
                .iter()
                .map(|call| execute_tool_call(call, registry, ctx.clone()))
                .collect();
            while let Some(result) = running.next().await {
                results.push(result);
            }
        }
    }
    results
}

/// Arguments written as a JSON string (OpenAI sends them so) are decoded
/// first; text that is not valid JSON is reported with the JSON error's
/// line and column.
fn decode_string_arguments(arguments: &Value) -> Option<Result<Value, String>> {
    let Value::String(text) = arguments else {
        return None;
    };
    Some(serde_json::from_str(text).map_err(|error| format!("arguments: invalid JSON: {error}")))
}

fn success(call: &ToolCall, output: ToolOutput<Value>) -> ToolResultMessage {
    ToolResultMessage {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        content: output.content,
        details: output.details,
        is_error: output.is_error,
        timestamp: now_millis(),
    }
}

fn panicked(call: &ToolCall, payload: &(dyn std::any::Any + Send)) -> ToolResultMessage {
    ToolResultMessage::failure(call, &format!("panicked: {}", panic_message(payload)))
}

/// An error's message followed by its causes, each once: `reading config:
/// No such file or directory`. A stack trace never gets in.
fn error_message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(source) = cause {
        let text = source.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = source.source();
    }
    message
}
