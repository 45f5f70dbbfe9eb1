//! One of the server's tools as a local [`Tool`]: its definition as the
//! server listed it at registration, its calls sent to the server.

use super::PREFIX_SEPARATOR;
use super::connection::Connection;
use rmcp::model::{CallToolResult, ContentBlock, ServerResult};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use tool_core::ParamError;
use tool_core::{Content, Tool, ToolAnnotations, ToolContext, ToolError, ToolFailure, ToolOutput};

#[derive(Clone)]
pub(crate) struct RemoteTool {
    connection: Arc<Connection>,
    /// The name in the registry (prefixed).
    name: String,
    /// The name on the server.
    remote_name: String,
    description: String,
    parameters: Value,
    output_schema: Option<Value>,
    annotations: ToolAnnotations,
    /// Whether the operator vouched for the server's annotations.
    hints_trusted: bool,
    timeout: Option<Duration>,
}

impl RemoteTool {
    pub(super) fn new(
        connection: Arc<Connection>,
        tool: &rmcp::model::Tool,
        prefix: Option<&str>,
    ) -> Self {
        let remote_name = tool.name.to_string();
        let name = match prefix {
            Some(prefix) => format!("{prefix}{PREFIX_SEPARATOR}{remote_name}"),
            None => remote_name.clone(),
        };
        // rmcp's annotations have MCP's wire shape, which is tool-core's.
        let mut annotations: ToolAnnotations = tool
            .annotations
            .as_ref()
            .and_then(|hints| serde_json::to_value(hints).ok())
            .and_then(|hints| serde_json::from_value(hints).ok())
            .unwrap_or_default();
        if annotations.title.is_none() {
            annotations.title = tool.title.clone();
        }
        RemoteTool {
            timeout: connection.upstream().timeout,
            hints_trusted: connection.upstream().trusted_hints,
            connection,
            name,
            remote_name,
            description: tool.description.as_deref().unwrap_or_default().to_owned(),
            parameters: Value::Object(tool.input_schema.as_ref().clone()),
            output_schema: tool
                .output_schema
                .as_ref()
                .map(|schema| Value::Object(schema.as_ref().clone())),
            annotations,
        }
    }
}

impl Tool for RemoteTool {
    type Params = Map<String, Value>;
    type Details = Value;

    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        self.parameters.clone()
    }

    fn output_schema(&self) -> Option<Value> {
        self.output_schema.clone()
    }

    fn annotations(&self) -> ToolAnnotations {
        self.annotations.clone()
    }

    /// The server's word, unless the operator vouched for it
    /// ([`Upstream::with_trusted_hints`](super::Upstream::with_trusted_hints)).
    fn hints_trusted(&self) -> bool {
        self.hints_trusted
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Against the schema the server lists now (compiled when the list
    /// arrived). A tool the server no longer offers, or whose schema does
    /// not compile, passes here and fails in `execute`, as a fatal failure
    /// the model cannot fix.
    fn check_arguments(&self, arguments: &Value) -> Result<(), ParamError> {
        match self.connection.state().spec(&self.remote_name) {
            Some(spec) => match &spec.check {
                Ok(check) => check.check(arguments),
                Err(_) => Ok(()),
            },
            None => Ok(()),
        }
    }

    async fn execute(
        &self,
        params: Map<String, Value>,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        // The arguments were checked against the server's schema before
        // this ran (`check_arguments`); what is left is the server's list
        // having changed since.
        let Some(spec) = self.connection.state().spec(&self.remote_name) else {
            return Err(ToolFailure::fatal("no longer offered by the server").into());
        };
        if let Err(error) = &spec.check {
            return Err(ToolFailure::fatal(format!("the server's input schema is {error}")).into());
        }
        match self
            .connection
            .call(&self.remote_name, params, &ctx)
            .await?
        {
            ServerResult::CallToolResult(result) => Ok(output(result)),
            _ => Err(ToolFailure::retry(
                "the MCP server answered with something other than a tool result",
            )
            .into()),
        }
    }
}

/// An MCP tool result as tool-core's output.
fn output(result: CallToolResult) -> ToolOutput<Value> {
    let mut output = ToolOutput::new(result.content.iter().map(content).collect());
    output.details = result.structured_content;
    output.is_error = result.is_error == Some(true);
    output
}

/// One MCP content block: text, image, audio and `resource_link` have
/// tool-core's wire shapes; an embedded resource becomes its text, or a
/// link to it; anything else, its JSON as text.
fn content(block: &ContentBlock) -> Content {
    let Ok(value) = serde_json::to_value(block) else {
        return Content::text("(content that could not be read)");
    };
    if let Ok(content) = serde_json::from_value::<Content>(value.clone()) {
        return content;
    }
    if value["type"] == "resource" {
        let resource = &value["resource"];
        if let Some(body) = resource["text"].as_str() {
            return Content::text(body);
        }
        if let Some(uri) = resource["uri"].as_str() {
            let link = Content::resource_link(uri, uri);
            return match resource["mimeType"].as_str() {
                Some(mime) => link.with_mime_type(mime),
                None => link,
            };
        }
    }
    Content::text(value.to_string())
}
