//! A paired result as MCP's `CallToolResult`, right for the protocol
//! revision the client speaks and for the output schema the tool declared.

use jsonschema::Validator;
use rmcp::model::{CallToolResult, ContentBlock, Tool};
use std::collections::HashMap;
use tool_core::providers::mcp;
use tool_core::{Content, ToolResultMessage};

/// The compiled `outputSchema` of every listed tool that has one, by name:
/// what a result's `structuredContent` must match.
#[derive(Default)]
pub(super) struct OutputSchemas(HashMap<String, Validator>);

impl OutputSchemas {
    /// Compiles the output schemas of `tools`. One that is not valid JSON
    /// Schema is left out (its results are sent as the tool made them) and
    /// logged: the server should still serve the others.
    pub(super) fn of(tools: &[Tool]) -> Self {
        let mut schemas = HashMap::new();
        for tool in tools {
            let Some(schema) = &tool.output_schema else {
                continue;
            };
            let schema = serde_json::Value::Object(schema.as_ref().clone());
            match jsonschema::validator_for(&schema) {
                Ok(validator) => {
                    schemas.insert(tool.name.to_string(), validator);
                }
                Err(error) => tracing::warn!(
                    tool = %tool.name,
                    "the tool's outputSchema is not valid JSON Schema, its results are not checked: {error}"
                ),
            }
        }
        OutputSchemas(schemas)
    }

    fn get(&self, tool: &str) -> Option<&Validator> {
        self.0.get(tool)
    }
}

/// `result` as MCP's `CallToolResult`.
///
/// - `resultType` is `"complete"`: the 2026-07-28 revision requires it on
///   every result, and rmcp takes it off again for a client that negotiated
///   an older revision, where it did not exist
///   (<https://modelcontextprotocol.io/specification/2026-07-28/basic#result-type>;
///   rmcp's `ServerResult::strip_result_type_for_legacy_peer`).
/// - For a tool with an `outputSchema`, `structuredContent` "MUST conform
///   to this schema" (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema>),
///   and clients check it (the TypeScript SDK refuses the whole result
///   otherwise). A failure's `{"error": ..}` details do not: an error result
///   is sent without them (its text is in `content`). A success whose
///   structured content is missing or does not conform is the tool's bug:
///   it is sent as an error result that says so, rather than as a result
///   the client must refuse.
pub(super) fn call_tool_result(
    result: ToolResultMessage,
    schemas: &OutputSchemas,
) -> Result<CallToolResult, serde_json::Error> {
    let content = result
        .content
        .into_iter()
        .map(content_block)
        .collect::<Result<_, _>>()?;
    // rmcp's constructors say `resultType: "complete"`.
    let mut shaped = if result.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    shaped.structured_content = result.details.map(mcp::structured_content);
    if let Some(schema) = schemas.get(&result.tool_name) {
        conform(&mut shaped, schema, &result.tool_name);
    }
    Ok(shaped)
}

/// One content item as rmcp's: the common kinds built directly (a call's
/// answer is on every request's path), the others read from tool-core's
/// wire shape, which is MCP's.
fn content_block(content: Content) -> Result<ContentBlock, serde_json::Error> {
    Ok(match content {
        Content::Text { text } => ContentBlock::text(text),
        Content::Image { data, mime_type } => ContentBlock::image(data, mime_type),
        Content::Audio { data, mime_type } => ContentBlock::audio(data, mime_type),
        other => serde_json::from_value(serde_json::to_value(other)?)?,
    })
}

/// Makes `result` keep the tool's output schema (see [`call_tool_result`]).
fn conform(result: &mut CallToolResult, schema: &Validator, tool: &str) {
    let problem = match &result.structured_content {
        Some(structured) => match schema.validate(structured) {
            Ok(()) => return,
            Err(error) => format!("at '{}': {error}", error.instance_path()),
        },
        None => "there is none".to_owned(),
    };
    result.structured_content = None;
    if result.is_error == Some(true) {
        return;
    }
    tracing::warn!(
        tool,
        "the tool's structured result does not match its outputSchema ({problem}); sent as an error"
    );
    result.is_error = Some(true);
    result.content.push(ContentBlock::text(format!(
        "The tool's structured result does not match its output schema ({problem}); \
         this is a fault of the tool, not of the call."
    )));
}
