//! STAND-IN for tool-core's `Approvals` API (issue 22, item 1), which is
//! not in this branch yet. Everything here is replaced, at the merge, by
//! `tool_core::{ApprovalRequest, Decision}` and by running the call with
//! `options.with_approvals(Approvals::ask(asker))`: the rest of
//! `approval/` and the handler only use the two types and
//! [`execute_asking`], so the merge touches this file and the imports.
//!
//! Until then a call needs approval when its tool says it is destructive
//! (`#[tool(destructive)]`, `destructiveHint: true`), and it is asked
//! before its arguments are parsed.

use serde_json::Value;
use std::future::Future;
use tool_core::{
    FailureKind, RunOptions, ToolAnnotations, ToolCall, ToolRegistry, ToolResultMessage,
    execute_tool_call,
};

/// What the asker is asked: one call that needs a person's approval.
#[derive(Clone, Debug)]
pub(crate) struct ApprovalRequest {
    /// The call's id (the JSON-RPC request id over MCP).
    pub call_id: String,
    /// The tool the call names.
    pub tool_name: String,
    /// The call's arguments.
    pub arguments: Value,
    /// The tool's hints (its title, whether it may destroy).
    pub annotations: ToolAnnotations,
}

/// The asker's answer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Decision {
    /// Run the call as it is.
    Approve,
    /// Run it with other arguments. The MCP side never edits arguments (an
    /// approval form has no fields); kept so the stand-in has the core's
    /// shape.
    #[allow(dead_code)]
    ApproveWith(Value),
    /// Do not run it; the model reads the reason.
    Deny(String),
}

/// [`execute_tool_call`] with an asker: a call that needs approval runs
/// only once `ask` approves it; a denial is the call's paired result.
pub(crate) async fn execute_asking<A, F>(
    call: &ToolCall,
    registry: &ToolRegistry,
    options: RunOptions,
    ask: A,
) -> ToolResultMessage
where
    A: FnOnce(ApprovalRequest) -> F,
    F: Future<Output = Decision>,
{
    let annotations = registry
        .definitions()
        .into_iter()
        .find(|definition| definition.name == call.name)
        .map(|definition| definition.annotations)
        .unwrap_or_default();
    if annotations.destructive != Some(true) || !options.is_enabled(&call.name) {
        return execute_tool_call(call, registry, options).await;
    }
    let request = ApprovalRequest {
        call_id: call.id.clone(),
        tool_name: call.name.clone(),
        arguments: call.arguments.clone(),
        annotations,
    };
    match ask(request).await {
        Decision::Approve => execute_tool_call(call, registry, options).await,
        Decision::ApproveWith(arguments) => {
            let edited = ToolCall::new(call.id.clone(), call.name.clone(), arguments);
            execute_tool_call(&edited, registry, options).await
        }
        Decision::Deny(reason) => ToolResultMessage::failed(call, &reason, FailureKind::Fatal),
    }
}
