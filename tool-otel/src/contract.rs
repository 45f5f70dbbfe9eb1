//! The names of the span tool-core's executor opens for every call, which
//! this crate reads. They are OpenTelemetry's GenAI names, written out as
//! text: the `opentelemetry-semantic-conventions` crate marks its `GEN_AI_*`
//! constants deprecated since the GenAI conventions moved to a repository of
//! their own, <https://github.com/open-telemetry/semantic-conventions-genai>.
//!
//! The span: <https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/gen-ai-spans.md#execute-tool-span>
//! (model: `model/gen-ai/spans.yaml`, `gen_ai.execute_tool.internal`).

/// The `tracing` name of the span of one tool call. Its OpenTelemetry name
/// is `execute_tool {tool name}`, given by its `otel.name` field.
pub(crate) const SPAN_NAME: &str = "execute_tool";

/// `gen_ai.operation.name`, required; `execute_tool` on every call's span.
pub(crate) const OPERATION_NAME: &str = "gen_ai.operation.name";

/// `gen_ai.tool.name`, required: the name the call asked for, which for an
/// unknown tool is whatever the model wrote.
pub(crate) const TOOL_NAME: &str = "gen_ai.tool.name";

/// `gen_ai.tool.type`, recommended: `function` for a tool the application
/// runs itself.
pub(crate) const TOOL_TYPE: &str = "gen_ai.tool.type";

/// `error.type`, conditionally required: recorded when, and only when, the
/// call failed; one of the low-cardinality kinds tool-core's executor lists.
pub(crate) const ERROR_TYPE: &str = "error.type";
