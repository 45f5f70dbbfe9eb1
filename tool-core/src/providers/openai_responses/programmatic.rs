//! OpenAI's programmatic tool calling on the Responses API: functions the
//! model calls from a JavaScript program it writes, which OpenAI runs
//! (<https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling>;
//! `ProgrammaticToolCallingParam`, `FunctionTool.allowed_callers` and
//! `ResponseFunctionToolCall.caller` in openai/openai-python 3.3.1,
//! `e43b4224`; checked 2026-12-07).
//!
//! A function the program may call lists `"programmatic"` in
//! `allowed_callers`, and the request carries
//! `{"type":"programmatic_tool_calling"}`. Each call the program makes
//! comes back as a `function_call` item whose `caller` is
//! `{"type":"program","caller_id":<the program's call_id>}`; its
//! `function_call_output` copies that `caller` "without changing it. The
//! service uses that value to resume the correct program."

use crate::model::{CallOrigin, Callers};
use serde_json::{Value, json};

/// `allowed_callers` for `callers`, `None` for the model alone (the
/// default, left out).
pub(crate) fn allowed_callers(callers: Callers) -> Option<Value> {
    crate::providers::common::allowed_callers(callers, "programmatic")
}

/// The tool that lets the model write programs.
pub(crate) fn programmatic_tool() -> Value {
    json!({"type": "programmatic_tool_calling"})
}

/// Who made a `function_call` item's call: a program when its `caller` is
/// `{"type":"program","caller_id":..}`, else the model.
pub(crate) fn origin(item: &Value) -> Option<CallOrigin> {
    let caller = item.get("caller")?;
    if caller.get("type")?.as_str()? != "program" {
        return None;
    }
    Some(CallOrigin::Code {
        program: caller.get("caller_id")?.as_str()?.to_owned(),
    })
}

/// The `caller` a `function_call_output` copies from its call.
pub(crate) fn caller(origin: &CallOrigin) -> Value {
    match origin {
        CallOrigin::Code { program } => json!({"type": "program", "caller_id": program}),
    }
}
