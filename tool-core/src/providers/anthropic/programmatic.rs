//! Anthropic's programmatic tool calling: tools Claude calls from code it
//! runs in the code execution tool's container
//! (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling>,
//! checked 2026-12-07 through its mirror gpambrozio/ClaudeDocs `b159d19f`;
//! types from anthropics/anthropic-sdk-python 0.121.0). Generally
//! available, no beta header.
//!
//! A tool the code may call lists the code execution tool's version in
//! `allowed_callers`; the request carries that tool
//! (`{"type":"code_execution_20260120","name":"code_execution"}`, the
//! first version with programmatic calling). Each call the code makes comes
//! back as a `tool_use` block whose `caller` names the version and the
//! `server_tool_use` running the code; its result goes back as a
//! `tool_result` whose content is text only ("a string or `text` blocks.
//! Image, document, and other content block types are rejected").

use crate::model::{CallOrigin, Callers};
use serde_json::{Value, json};

/// The code execution tool version programmatic calling needs.
pub(crate) const CODE_EXECUTION: &str = "code_execution_20260120";

/// `allowed_callers` for `callers`, `None` for the model alone (the
/// default, left out).
pub(crate) fn allowed_callers(callers: Callers) -> Option<Value> {
    crate::providers::common::allowed_callers(callers, CODE_EXECUTION)
}

/// The code execution tool, which a request needs when code may call one
/// of its tools.
pub(crate) fn code_execution_tool() -> Value {
    json!({"type": CODE_EXECUTION, "name": "code_execution"})
}

/// Whether code may call any of these.
pub(crate) fn any_from_code(callers: impl IntoIterator<Item = Callers>) -> bool {
    callers.into_iter().any(|callers| callers.code)
}

/// Who made a `tool_use` block's call: a program when its `caller` names a
/// code execution version (`{"type":"code_execution_20260120","tool_id":"srvtoolu_.."}`);
/// the model when it says `direct` or says nothing.
pub(crate) fn origin(block: &Value) -> Option<CallOrigin> {
    let caller = block.get("caller")?;
    let kind = caller.get("type")?.as_str()?;
    if !kind.starts_with("code_execution") {
        return None;
    }
    let program = caller.get("tool_id")?.as_str()?;
    Some(CallOrigin::Code {
        program: program.to_owned(),
    })
}
